// A storm at sea in charcoal: a swirling sky, heavy swells following the "waves" field.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e8e5df');
  brush.scaleBrushes(3);

  // Sky: dark massing with a lighter break near the horizon.
  brush.noStroke();
  brush.mass('charcoal', '#2c2a28', { precision: 0.3, strength: 0.8, gradient: 0.5 });
  brush.polygon([[0, 0], [600, 0], [600, 170], [380, 200], [0, 150]]);
  brush.noMass();

  // Swells: long flow lines bent by the built-in waves field.
  brush.field('waves');
  for (let i = 0; i < 40; i++) {
    const y = 260 + i * 8.5;
    brush.set('charcoal', i % 3 === 0 ? '#151413' : '#4a4744', map(i, 0, 40, 0.5, 1.4));
    brush.flowLine(random(-60, 0), y + random(-6, 6), random(500, 680), 0);
  }
  brush.noField();
  // Horizon.
  brush.set('charcoal', '#1a1918', 1.2);
  brush.line(0, 250, 600, 245);
  // Spray: short light strokes over the crests.
  for (let i = 0; i < 50; i++) {
    const x = random(0, 600);
    const y = random(270, 560);
    brush.set('pastel', '#f2f0ec', 0.4);
    brush.line(x, y, x + random(-14, 14), y - random(4, 12));
  }
}
