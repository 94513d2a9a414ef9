// Sailing boats in a small harbour at midday, watercolour: sky, sea, hulls and sails.
// Heavy: large textured sea and sky fills plus a fill per sail.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6f2e7');
  brush.scaleBrushes(3);
  brush.noStroke();

  // Distant headland as a flat wash (washes first).
  brush.wash('#9fb1a0', 200);
  brush.polygon([[0, 300], [90, 270], [220, 285], [300, 300], [0, 305]]);
  brush.noWash();

  // Sky, then the sea, both with a strong directional bleed.
  brush.fill('#9cc3e0', 150);
  brush.fillBleed(0.3, 'out', PI / 2);
  brush.fillTexture(0.5, 0.25);
  brush.rect(-20, -20, 640, 230);
  brush.fill('#2f7fa6', 180);
  brush.fillBleed(0.15, 'out', 0);
  brush.fillTexture(0.6, 0.5);
  brush.rect(-20, 305, 640, 320);

  // Three boats: hull, then one or two sails each.
  const boats = [[140, 420, 1.0, '#b8452f'], [330, 380, 0.8, '#2f3e5c'], [470, 450, 1.2, '#e9e2cf']];
  for (const [x, y, s, hull] of boats) {
    brush.fill(hull, 220);
    brush.fillBleed(0.05);
    brush.fillTexture(0.3, 0.5);
    brush.polygon([[x - 55 * s, y], [x + 55 * s, y], [x + 40 * s, y + 18 * s], [x - 40 * s, y + 18 * s]]);
    // Sails in warm cream with a strong edge, so they read against the pale sky.
    brush.fill('#ead7ad', 240);
    brush.fillBleed(0.04);
    brush.fillTexture(0.3, 0.9);
    brush.polygon([[x + 2 * s, y - 8 * s], [x + 2 * s, y - 130 * s], [x + 50 * s, y - 8 * s]]);
    brush.polygon([[x - 4 * s, y - 8 * s], [x - 4 * s, y - 110 * s], [x - 42 * s, y - 8 * s]]);
  }
  brush.noFill();

  // Masts, rigging and reflections in pencil and pen.
  for (const [x, y, s] of boats) {
    brush.set('HB', '#3a2a20', 0.9);
    brush.line(x - 1 * s, y, x - 1 * s, y - 140 * s);
    brush.set('pen', '#6a5a48', 0.5);
    brush.line(x + 2 * s, y - 130 * s, x + 50 * s, y - 8 * s);
    brush.line(x - 4 * s, y - 110 * s, x - 42 * s, y - 8 * s);
    brush.set('2B', '#1f4f6e', 0.9);
    for (let k = 0; k < 4; k++) {
      const yy = y + 24 * s + k * 9;
      brush.line(x - random(20, 40) * s, yy, x + random(20, 40) * s, yy + random(-2, 2));
    }
  }
  // Light glinting on the water.
  brush.set('pen', '#f6f2e7', 0.8);
  for (let i = 0; i < 30; i++) {
    const x = random(0, 600);
    const y = random(320, 590);
    brush.line(x, y, x + random(8, 22), y);
  }
}
