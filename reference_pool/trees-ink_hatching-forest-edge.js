// The edge of a pine forest at evening in green-black ink: three rows of conifers darkening toward the viewer, mist between the rows, a lone pine in the meadow.

const INK = '#19221c';
const PAPER = '#fbfaf4';

function layer(poly, b, w, d, a) {
  brush.hatchStyle(b, INK, w);
  brush.hatch(d, a, { rand: 0.12 });
  brush.polygon(poly);
  brush.noHatch();
}

// A conifer silhouette: tiers of drooping branch tips and notches down each side.
// Returns the whole outline and its left (shaded) half.
function conifer(x, base, h, w) {
  const tiers = max(4, floor(h / 15));
  const left = [];
  const right = [];
  for (let i = 1; i <= tiers; i++) {
    const t = i / tiers;
    const y = base - h + t * h * 0.9;
    for (const side of [-1, 1]) {
      const hw = w * 0.5 * pow(t, 0.85) * random(0.75, 1.2) * (random() < 0.18 ? 0.55 : 1);
      const tip = [x + side * hw, y + h * 0.025 + random(0, 3)];
      const notch = [x + side * hw * random(0.3, 0.5), y - random(0, 3)];
      (side < 0 ? left : right).push(notch, tip);
    }
  }
  const apex = [x + random(-1, 1), base - h];
  const foot = [[x - 2, base - h * 0.1], [x - 2, base], [x + 2, base], [x + 2, base - h * 0.1]];
  const outline = [apex, ...left, foot[0], foot[1], foot[2], foot[3], ...right.reverse()];
  const shade = [apex, ...left, foot[0], foot[1], [x + w * 0.06, base], [x + w * 0.05, base - h * 0.5]];
  return { outline, shade };
}

// Hatch one conifer; depth 1 is the middle row, 2 the nearest and darkest.
function shadeTree(c, depth) {
  const a = random(-0.15, 0.15);
  if (depth === 1) {
    layer(c.outline, 'pen', 0.45, 4.2, 0.35 + a);
    layer(c.shade, 'pen', 0.45, 4.4, -0.5 + a);
  } else {
    // Mostly near-level strokes: they follow the branch tiers, and a level line crosses
    // the jagged outline only twice, so it is one stroke instead of many short ones.
    layer(c.outline, 'rotring', 0.45, 3.4, 0.28 + a);
    layer(c.outline, 'rotring', 0.45, 3.8, -0.42 + a);
    layer(c.shade, 'rotring', 0.45, 3.4, 1.3 + a);
    layer(c.shade, 'pen', 0.5, 4, 0.05 + a);
    brush.set('pen', INK, 0.8);
    brush.spline(c.outline.slice(0, c.outline.length / 2), 0.2);
    brush.noStroke();
  }
}

// A row of trees: all silhouettes are scraped back to paper in one pass (each switch
// between wash and ink costs a compositing pass), then hatched.
function row(trees, depth) {
  const cs = trees.map(([x, base, h, w]) => conifer(x, base, h, w));
  brush.noStroke();
  brush.wash(PAPER, 255);
  for (const c of cs) brush.polygon(c.outline);
  brush.noWash();
  for (const c of cs) shadeTree(c, depth);
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background(PAPER);
  brush.scaleBrushes(3);

  // Evening sky: broken level strokes, closer together toward the horizon; a low sun left bare.
  brush.set('pen', INK, 0.5);
  let y = 328;
  let gap = 3;
  while (y > 140) {
    let x = random(-40, 40);
    while (x < 600) {
      const len = random(80, 240) * map(y, 330, 140, 1, 0.6);
      if (abs(y - 236) > 30 || x + len < 420 || x > 484) brush.line(x, y, x + len, y + random(-0.8, 0.8));
      x += len + random(6, 40) * map(y, 330, 140, 1, 2.5);
    }
    y -= gap;
    gap *= 1.11;
  }
  brush.set('pen', INK, 0.7);
  brush.circle(452, 236, 26);
  brush.noStroke();

  // Far row: small, light, one layer; mist laid over their feet.
  // The far row is one serrated silhouette: a spire every few steps, lower in the sun's gap.
  const ridge = [[-10, 330]];
  for (let x = -10; x < 620; x += random(12, 20)) {
    const h = x > 400 && x < 500 ? random(10, 30) : random(45, 80);
    ridge.push([x - 7, 318 - h * 0.35], [x, 318 - h], [x + 7, 318 - h * 0.35]);
  }
  ridge.push([620, 330]);
  brush.wash(PAPER, 255);
  brush.polygon(ridge);
  brush.noWash();
  layer(ridge, 'pen', 0.4, 4.6, 1.25);
  layer(ridge, 'pen', 0.4, 5.5, -1.0);
  brush.wash(PAPER, 190);
  brush.polygon([[0, 296], [600, 296], [600, 330], [0, 330]]);
  brush.noWash();

  // Middle row, medium tone, with a gap on the right where the sun shows through.
  const mid = [];
  for (let x = -20; x < 620; x += random(26, 38)) {
    if (x > 380 && x < 520) continue;
    mid.push([x, 352 + random(-5, 5), random(100, 165), random(40, 56)]);
  }
  row(mid, 1);
  brush.wash(PAPER, 140);
  brush.polygon([[0, 338], [600, 338], [600, 360], [0, 360]]);
  brush.noWash();

  // Meadow: bare paper with a dark band of shadow along the forest foot, broken
  // ground strokes, and a worn path running in from the bottom.
  layer([[0, 380], [330, 396], [420, 374], [600, 364], [600, 352], [0, 352]], 'pen', 0.45, 3.2, -0.06);
  layer([[0, 376], [330, 390], [420, 368], [420, 352], [0, 352]], 'rotring', 0.35, 4, 0.5);
  brush.set('pen', INK, 0.5);
  for (let i = 0; i < 40; i++) {
    const yy = lerp(400, 600, pow(random(), 0.8));
    const xx = random(-20, 600);
    brush.line(xx, yy, xx + random(30, 110), yy + random(-1, 1));
  }
  brush.set('pen', INK, 0.6);
  brush.spline([[250, 600], [290, 520], [350, 450], [400, 380]], 0.6);
  brush.spline([[330, 600], [340, 520], [380, 450], [410, 380]], 0.6);

  // Front row, darkest, crowded on the left and opening to the right.
  const front = [[-10, 250, 110], [40, 300, 120], [96, 230, 100], [150, 325, 124], [206, 260, 104], [260, 205, 88], [316, 170, 72], [356, 130, 58]];
  // A lone pine stands out in the meadow, right of the path.
  row([...front.map(([x, h, w]) => [x, 392 + h * 0.02, h, w]), [520, 520, 360, 130]], 2);

  // Its long shadow runs toward the viewer, away from the low sun.
  layer([[512, 520], [528, 520], [470, 600], [420, 600]], 'pen', 0.45, 3, 0.1);
  layer([[514, 522], [526, 522], [468, 600], [440, 600]], 'pen', 0.45, 3.4, -0.9);

  // Tall dark grass in the near left corner frames the view.
  brush.set('pen', INK, 0.9);
  for (let i = 0; i < 46; i++) {
    const x = random(-10, 170) * pow(random(), 0.4);
    const h = random(40, 130) * (1 - x / 220);
    const lean = random(-0.5, 0.35);
    brush.spline([[x, 604], [x + lean * h * 0.3, 604 - h * 0.55], [x + lean * h * 0.75, 604 - h]], 0.6);
  }

  // Grass tufts, larger toward the bottom.
  brush.set('pen', INK, 0.6);
  for (let i = 0; i < 60; i++) {
    const y = lerp(400, 600, pow(random(), 0.7));
    const x = random(0, 600);
    if (abs(x - lerp(300, 405, (600 - y) / 220)) < 30) continue;
    const h = map(y, 400, 600, 3, 14);
    brush.line(x, y, x + random(-3, 3), y - h);
    brush.line(x + 2, y, x + random(1, 6), y - h * 0.8);
  }
}
