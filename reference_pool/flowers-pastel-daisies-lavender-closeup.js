// Close-up of yellow daisies among lavender bushes in a meadow running back to a far hedge, soft pastel on warm ochre paper.

// Strokes are queued and drawn grouped by colour (p5.brush composites on every colour change).
let queue = new Map();
function dab(name, c, w, x1, y1, x2, y2) {
  if (!queue.has(c)) queue.set(c, []);
  queue.get(c).push([name, w, x1, y1, x2, y2]);
}
function flushDabs() {
  for (const [c, list] of queue) {
    for (const [name, w, x1, y1, x2, y2] of list) {
      brush.set(name, c, w);
      brush.line(x1, y1, x2, y2);
    }
  }
  queue = new Map();
  brush.noStroke();
}

function daisy(x, y, r) {
  // Petals: paired radial strokes in three yellows, paler on the lit upper side; seen a little from above.
  const n = 13;
  const tilt = random(0.6, 0.8);
  const a0 = random(TWO_PI);
  dab('cpencil', '#4d6a34', r / 22, x, y + r * 0.3, x + random(-10, 10), y + r * 3);
  for (let k = 0; k < n; k++) {
    const a = a0 + (k * TWO_PI) / n + random(-0.08, 0.08);
    const len = r * random(0.85, 1.05);
    const c = sin(a) < -0.2 ? random(['#fbe27a', '#fff0b0']) : random(['#f2c12e', '#e9a81f', '#f5cf3f']);
    const px = -sin(a) * r * 0.05;
    const py = cos(a) * r * 0.05 * tilt;
    const ca = cos(a);
    const sa = sin(a) * tilt;
    dab('cpencil', c, r / 24, x + ca * r * 0.16 - px, y + sa * r * 0.16 - py, x + ca * len - px, y + sa * len - py);
    dab('cpencil', c, r / 24, x + ca * r * 0.16 + px, y + sa * r * 0.16 + py, x + ca * len * 0.9 + px, y + sa * len * 0.9 + py);
  }
  flushDabs();
  // Centre: a small dark knot with a warm fleck of light.
  for (let k = 0; k < 4; k++) {
    const a = random(PI);
    dab('cpencil', '#5a3218', r / 20, x + cos(a) * r * 0.14, y + sin(a) * r * 0.1, x - cos(a) * r * 0.14, y - sin(a) * r * 0.1);
  }
  dab('cpencil', '#f0a848', r / 30, x - r * 0.09, y - r * 0.06, x + r * 0.03, y - r * 0.08);
  flushDabs();
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#c8985a');
  brush.scaleBrushes(3);

  brush.noStroke();
  // Sky: pale blue and cream hatching that lets the ochre paper breathe through.
  brush.hatchStyle('pastel', '#b9cde0', 3);
  brush.hatch(12, -0.35, { rand: 0.25 });
  brush.rect(-10, -10, 620, 120);
  brush.noHatch();
  brush.hatchStyle('pastel', '#f1e2bd', 2);
  brush.hatch(12, 0.3, { rand: 0.3 });
  brush.rect(-10, 40, 620, 80);
  brush.noHatch();

  // Far hills and hedge: a violet-grey band, then a darker green line of trees.
  brush.hatchStyle('crayon', '#8a7ea6', 1.4);
  brush.hatch(5, 0.15, { rand: 0.2 });
  brush.polygon([[-10, 118], [140, 104], [300, 112], [460, 98], [610, 110], [610, 132], [-10, 132]]);
  brush.noHatch();
  brush.hatchStyle('crayon', '#4f6340', 1.3);
  brush.hatch(4, -0.4, { rand: 0.3 });
  brush.polygon([[-10, 128], [80, 120], [200, 126], [330, 118], [480, 124], [610, 119], [610, 142], [-10, 142]]);
  brush.noHatch();

  // Ground between the bushes: open olive strokes, the ochre paper still showing.
  for (let i = 0; i < 70; i++) {
    const gy = 150 + pow(random(), 0.8) * 460;
    const gx = random(-20, 620);
    const d = (gy - 140) / 460;
    dab('crayon', i % 2 ? '#6f7f42' : '#56693a', 0.6 + d, gx, gy, gx + (40 + d * 120) * random(0.6, 1.2), gy + random(-4, 4));
  }
  flushDabs();

  // Distant lavender: soft pastel strokes laid side by side, bluer and paler toward the hedge,
  // thinning out where the nearer bushes take over.
  for (let y = 142; y < 300; y += 5 + (y - 142) * 0.05) {
    const t = (y - 142) / 158;
    const n = floor(4 - t * 2);
    for (let i = 0; i < n; i++) {
      const x = random(-80, 600);
      const c = random(t < 0.4 ? ['#9c90c4', '#b2a8d4', '#8a7cb8'] : ['#7e64b0', '#8c6fbd', '#6a5298']);
      dab('pastel', c, 2.2 + t * 0.8, x, y + random(-2, 2), x + random(120, 260), y + random(-3, 3));
    }
  }
  flushDabs();

  // Nearer lavender: bushes of upright strokes fanning from a base, growing toward the viewer.
  // Noise groups them into drifts of deep and pale violet; drawn in three depth bands.
  const violets = ['#5e4590', '#7556a6', '#8c6fbd', '#a890d0', '#c2b0e0'];
  const tufts = [];
  for (let i = 0; i < 200; i++) {
    const d = pow(random(), 1.3);
    tufts.push([random(-20, 620), 215 + d * 395, d]);
  }
  tufts.sort((a, b) => a[1] - b[1]);
  let band = 0;
  for (const [tx, ty, d] of tufts) {
    if (floor(d * 3) > band) {
      flushDabs();
      band = floor(d * 3);
    }
    const s = 9 + d * 56;
    const n = d < 0.3 ? 3 : 5;
    const squash = 0.6 + d * 0.4;
    const nv = noise(tx * 0.005, ty * 0.01);
    for (let k = 0; k < n; k++) {
      const a = -HALF_PI + ((k + 0.5) / n - 0.5) * 1.1 + random(-0.12, 0.12);
      const len = s * random(0.7, 1.05);
      const c = violets[constrain(floor(nv * 5 + random(-1, 1.2)), 0, 4)];
      dab(d > 0.45 ? 'cpencil' : 'crayon', c, 0.7 + d * 2.6, tx + cos(a) * s * 0.1, ty, tx + cos(a) * len * 1.4, ty + sin(a) * len * squash);
    }
    if (d > 0.25) {
      // Grey-green leaves at the foot of the bush.
      const g = random(['#5a7a3c', '#7d9460', '#46603a']);
      dab('cpencil', g, 0.6 + d * 1.6, tx - s * 0.3, ty + 2, tx + s * 0.05, ty - s * 0.3);
      dab('cpencil', g, 0.6 + d * 1.6, tx + s * 0.3, ty + 2, tx - s * 0.02, ty - s * 0.28);
    }
  }
  flushDabs();

  // Distant daisies: yellow and cream flecks scattered through the lavender.
  for (let i = 0; i < 110; i++) {
    const fy = 145 + pow(random(), 1.3) * 250;
    const fx = i % 2 ? random(0, 600) : 300 + 280 * sin(fy * 0.03) + random(-60, 60);
    const s = 1 + (fy - 150) / 50;
    const c = i % 3 ? '#f2c12e' : '#fbe7a0';
    dab('cpencil', c, 0.6 + s * 0.3, fx, fy, fx + s * 2, fy - s * 0.5);
    dab('cpencil', c, 0.6 + s * 0.3, fx + s * 0.6, fy - s * 1.1, fx + s * 1.4, fy + s * 0.5);
  }
  // Middle-distance daisies: small seven-petalled stars with a dark eye.
  const eyes = [];
  for (let i = 0; i < 26; i++) {
    const my = 250 + pow(random(), 1.4) * 200;
    const mx = random(10, 590);
    const r = 3 + (my - 250) * 0.05;
    for (let k = 0; k < 7; k++) {
      const a = (k * TWO_PI) / 7;
      dab('cpencil', k % 2 ? '#f2c12e' : '#fbe07a', 0.5 + r * 0.12, mx, my, mx + cos(a) * r, my + sin(a) * r * 0.7);
    }
    eyes.push([mx, my, r]);
  }
  for (const [mx, my, r] of eyes) dab('cpencil', '#6b3d1c', 0.4 + r * 0.1, mx - r * 0.15, my, mx + r * 0.15, my);
  flushDabs();

  // A cluster of big daisies in the lower left, with smaller ones trailing back toward the right.
  const flowers = [[120, 470, 58], [215, 540, 52], [60, 572, 46], [250, 430, 34], [160, 392, 26], [335, 492, 30], [300, 386, 18], [385, 412, 15], [40, 412, 30], [95, 352, 16], [470, 440, 20], [430, 365, 12], [520, 520, 26]];
  flowers.sort((a, b) => a[1] - b[1]);
  for (const [fx, fy, r] of flowers) daisy(fx, fy, r);
}
