// A lone sailboat on a calm turquoise sea under a wide summer sky: wet-in-wet blue with paper
// left for the clouds, a low horizon, the sail masked out in paper-coloured wash.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f8f3e6');
  brush.scaleBrushes(3);

  // Pencil underdrawing first: the horizon, broken where the boat will sit. (Drawing a stroke
  // before any wash also keeps p5.brush from dropping the last wash before the first stroke.)
  brush.set('HB', '#4a6670', 0.6);
  brush.line(0, 421, 352, 421);
  brush.line(448, 421, 600, 421);
  brush.noStroke();

  // Sky: cerulean laid from the top down to the cauliflower tops of a cloud bank, which stay
  // paper; then a thinner glaze high up so the blue deepens toward the zenith.
  const sky = [[-20, -20], [620, -20], [620, 190]];
  let x = 620;
  while (x > -20) {
    // Overlapping round bumps of mixed sizes, higher in the middle of the bank.
    const r = random(14, 52);
    const base = 215 + 45 * noise(x * 0.006, 4) - 30 * sin(x * 0.006 + 0.5) + random(-6, 6);
    for (let k = 1; k < 8; k++) {
      const a = (k / 8) * PI;
      sky.push([x - r + cos(a) * r, base - sin(a) * r * 0.75]);
    }
    x -= r * random(1.1, 1.6);
  }
  sky.push([-20, 200]);
  brush.fill('#5f9fd4', 200);
  brush.fillBleed(0.12, 'out');
  brush.fillTexture(0.55, 0.35);
  brush.polygon(sky);
  brush.fill('#4a86c4', 120);
  brush.fillBleed(0.35, 'out');
  brush.fillTexture(0.6, 0.2);
  brush.polygon([[-20, -20], [620, -20], [620, 60], [430, 95], [200, 70], [-20, 90]]);
  // A smaller patch of blue between the cloud banks lower down.
  brush.fill('#8ab8df', 150);
  brush.fillBleed(0.3, 'out');
  brush.fillTexture(0.5, 0.3);
  brush.polygon([[330, 282], [430, 270], [560, 276], [620, 296], [620, 330], [470, 322], [360, 314]]);
  // Lavender-grey undersides of the clouds.
  brush.fill('#b4b0c8', 130);
  brush.fillBleed(0.3, 'out');
  brush.fillTexture(0.6, 0.3);
  brush.polygon([[-20, 262], [120, 252], [250, 262], [310, 282], [200, 300], [-20, 296]]);
  brush.polygon([[300, 252], [450, 244], [620, 236], [620, 262], [520, 276], [360, 272]]);
  brush.polygon([[80, 350], [200, 340], [300, 352], [170, 364]]);
  // A warm glow low in the sky.
  brush.fill('#f2d6a8', 120);
  brush.fillBleed(0.3, 'out');
  brush.fillTexture(0.4, 0.2);
  brush.rect(-20, 370, 640, 50);

  // A far headland on the left.
  brush.fill('#7d9a94', 170);
  brush.fillBleed(0.08, 'out');
  brush.fillTexture(0.5, 0.4);
  brush.polygon([[-20, 422], [-20, 398], [40, 392], [110, 400], [180, 414], [230, 422]]);

  // The sea: pale turquoise at the horizon, deepening toward the viewer.
  brush.fill('#53bdb8', 190);
  brush.fillBleed(0.03, 'out');
  brush.fillTexture(0.55, 0.35);
  brush.polygon([[-20, 421], [140, 421], [300, 421], [460, 421], [620, 421], [620, 620], [300, 620], [-20, 620]]);
  brush.fill('#1f8193', 160);
  brush.fillBleed(0.15, 'out');
  brush.fillTexture(0.6, 0.4);
  brush.polygon([[-20, 520], [200, 512], [420, 522], [620, 506], [620, 620], [300, 620], [-20, 620]]);
  brush.noFill();

  // The boat: sails masked in paper-coloured wash (washes sit above fills), a grey shadow
  // on the jib, a dark hull.
  const bx = 395;
  const by = 452;
  brush.wash('#fbf7ec', 250);
  brush.polygon([[bx + 2, by - 8], [bx + 2, by - 96], [bx + 40, by - 8]]);
  brush.polygon([[bx - 4, by - 8], [bx - 4, by - 80], [bx - 30, by - 8]]);
  brush.wash('#c9c6d0', 160);
  brush.polygon([[bx - 4, by - 8], [bx - 4, by - 80], [bx - 14, by - 8]]);
  brush.wash('#2d3548', 230);
  brush.polygon([[bx - 38, by - 9], [bx + 48, by - 9], [bx + 36, by + 7], [bx - 28, by + 7]]);
  brush.noWash();
  brush.set('HB', '#2a2a30', 0.8);
  brush.line(bx, by - 6, bx, by - 100);
  // Its reflection, broken into short strokes.
  for (let k = 0; k < 6; k++) {
    brush.set('marker', k < 2 ? '#3a5060' : '#d9efe9', 0.9);
    const y = by + 8 + k * 7;
    const w = 30 - k * 3;
    brush.line(bx - w + random(-4, 4), y, bx + w * 0.6 + random(-4, 4), y + random(-1, 1));
  }

  // Ripples: loose horizontal strokes, finer and paler toward the horizon.
  for (let i = 0; i < 45; i++) {
    const y = 428 + pow(random(), 1.6) * 170;
    const t = (y - 428) / 170;
    const x = random(-20, 600);
    brush.set('marker', random() < 0.7 ? '#1d7086' : '#d9f0ea', 0.5 + t * 1.3);
    brush.line(x, y, x + 15 + t * 60 * random(0.5, 1), y + random(-1.5, 1.5));
  }
}
