// Three tulips in a clear glass bottle, sepia ink: cross-hatched wall and cast shadow, petals modelled by layered hatching.

const INK = '#2b1d14';
const PAPER = '#f7f2e6';

// Points along a quadratic curve.
function bez(p0, p1, p2, n) {
  const pts = [];
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    const a = (1 - t) * (1 - t);
    const b = 2 * (1 - t) * t;
    const c = t * t;
    pts.push([a * p0[0] + b * p1[0] + c * p2[0], a * p0[1] + b * p1[1] + c * p2[1]]);
  }
  return pts;
}

// A closed strip around a centre line; width follows a sine bulge (leaf) or stays even (stem).
function ribbon(pts, w, leaf) {
  const left = [];
  const right = [];
  for (let i = 0; i < pts.length; i++) {
    const p = pts[i];
    const q = pts[min(i + 1, pts.length - 1)];
    const o = pts[max(i - 1, 0)];
    const dx = q[0] - o[0];
    const dy = q[1] - o[1];
    const len = sqrt(dx * dx + dy * dy) || 1;
    const t = i / (pts.length - 1);
    const ww = leaf ? w * pow(sin(PI * min(1, t * 1.15)), 0.8) + 1 : w;
    left.push([p[0] - (dy / len) * ww / 2, p[1] + (dx / len) * ww / 2]);
    right.unshift([p[0] + (dy / len) * ww / 2, p[1] - (dx / len) * ww / 2]);
  }
  return [...left, ...right];
}

// Tulip head in local coordinates: u runs from the stem to the tip, v across.
function headShape(b, ang, s) {
  const local = [[0, 0], [0.05, -0.2], [0.2, -0.37], [0.45, -0.46], [0.75, -0.42], [1.06, -0.37], [0.9, -0.16],
    [1.16, -0.02], [0.9, 0.14], [1.06, 0.35], [0.75, 0.42], [0.45, 0.46], [0.2, 0.37], [0.05, 0.2]];
  return local.map(([u, v]) => toWorld(b, ang, u * s, v * s));
}

function toWorld(b, ang, u, v) {
  return [b[0] + u * cos(ang) - v * sin(ang), b[1] + u * sin(ang) + v * cos(ang)];
}

function drawHead(b, ang, s) {
  const shape = headShape(b, ang, s);
  // Light tone along the petals, a crossing layer on the shadow half, a dark cup at the base.
  brush.noStroke();
  brush.hatchStyle('pen', INK, 0.45);
  brush.hatch(4.2, ang + 0.1, { rand: 0.08 });
  brush.polygon(shape);
  const shade = [[0.05, 0.05], [0.4, 0.12], [0.85, 0.18], [1.1, 0.3], [0.8, 0.44], [0.42, 0.48], [0.12, 0.33]]
    .map(([u, v]) => toWorld(b, ang, u * s, v * s));
  brush.hatch(3.2, ang - 0.7, { rand: 0.08 });
  brush.polygon(shade);
  // Core shadow: a crescent low on the shaded side.
  const core = [[0.08, 0.12], [0.3, 0.3], [0.55, 0.38], [0.45, 0.46], [0.2, 0.37], [0.05, 0.2]]
    .map(([u, v]) => toWorld(b, ang, u * s, v * s));
  brush.hatchStyle('rotring', INK, 0.35);
  brush.hatch(2.6, ang + 1.2, { rand: 0.08 });
  brush.polygon(core);
  brush.noHatch();
  brush.set('pen', INK, 1);
  brush.beginShape(0.35);
  for (const p of shape) brush.vertex(p[0], p[1]);
  brush.endShape(true);
  // Edges of the front petal, curving from the base out to the two notches.
  brush.set('pen', INK, 0.8);
  for (const side of [-1, 1]) {
    brush.spline([[0.06, side * 0.04], [0.5, side * 0.24], [0.98, side * 0.14]]
      .map(([u, v]) => toWorld(b, ang, u * s, v * s)), 0.6);
  }
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background(PAPER);
  brush.scaleBrushes(3);
  const tableY = 512;

  // Plant geometry: three stems from the neck, two long leaves.
  const heads = [
    { b: [352, 150], ang: -HALF_PI + 0.1, s: 76, stem: [[330, 332], [336, 240], [352, 152]] },
    { b: [196, 214], ang: -HALF_PI - 0.66, s: 70, stem: [[325, 332], [262, 262], [198, 216]] },
    { b: [478, 250], ang: 1.0, s: 64, stem: [[335, 332], [436, 186], [478, 250]] },
  ];
  const leaves = [
    ribbon(bez([322, 338], [206, 212], [138, 372], 16), 36, true),
    ribbon(bez([338, 338], [420, 250], [446, 352], 14), 28, true),
  ];
  const stems = heads.map((h) => ribbon(bez(h.stem[0], h.stem[1], h.stem[2], 12), 7, false));
  // Bottle outline: flat base, round shoulders, a long neck and a lip.
  const bottle = [[282, 568], [276, 462], [286, 424], [314, 396], [314, 330], [309, 322], [351, 322], [346, 330],
    [346, 396], [374, 424], [384, 462], [378, 568]];

  // Wall: one light diagonal layer everywhere, a second in the upper left so the light
  // falls off there, and the bouquet's own shadow thrown to the right, crossed again.
  brush.noStroke();
  brush.hatchStyle('pen', INK, 0.5);
  brush.hatch(6.8, 1.0, { rand: 0.12 });
  brush.rect(0, 0, 600, tableY);
  const corner = [[-10, -10]];
  for (let a = 0; a <= HALF_PI + 0.01; a += PI / 16) {
    const r = 250 + (noise(a * 2.5, 3) - 0.5) * 150;
    corner.push([cos(a) * r * 1.15, sin(a) * r]);
  }
  brush.hatch(5.5, -0.6, { rand: 0.12 });
  brush.polygon(corner);
  const off = (poly) => poly.map(([x, y]) => [x + 62, y + 14]);
  brush.hatchStyle('pen', INK, 0.5);
  brush.hatch(3.6, -0.45, { rand: 0.1 });
  brush.polygon(off(bottle).map(([x, y]) => [x, min(y, tableY)]));
  for (const l of leaves) brush.polygon(off(l));
  for (const h of heads) brush.polygon(off(headShape(h.b, h.ang, h.s)));
  for (const st of stems) brush.polygon(off(st));

  // Table top: sparse level lines; back edge ruled.
  brush.hatchStyle('pen', INK, 0.4);
  brush.hatch(7, 0.02, { rand: 0.2 });
  brush.rect(0, tableY, 600, 88);
  brush.noHatch();

  // Cast shadow of the bottle, to the right, crossed twice.
  const shadow = [[370, 572], [340, 566], [380, 540], [412, 526], [446, 526], [448, 512], [600, 512], [600, 530], [470, 572]];
  brush.hatchStyle('pen', INK, 0.5);
  brush.hatch(3, 0.05, { rand: 0.1 });
  brush.polygon(shadow);
  brush.hatch(3.5, -0.9, { rand: 0.1 });
  brush.polygon(shadow);
  brush.noHatch();

  // Scrape everything in front of the wall back to paper.
  brush.wash(PAPER, 255);
  brush.polygon(bottle);
  for (const l of leaves) brush.polygon(l);
  for (const st of stems) brush.polygon(st);
  for (const h of heads) brush.polygon(headShape(h.b, h.ang, h.s));
  brush.noWash();

  // Glass: a dark band down each side, a shaded right third, water below the line,
  // the thick base cross-hatched. A bare stripe on the left is the highlight.
  brush.noStroke();
  brush.hatchStyle('pen', INK, 0.45);
  brush.hatch(2.6, HALF_PI, { rand: 0.05 });
  brush.polygon([[276, 462], [286, 424], [296, 416], [287, 462], [289, 560], [282, 568]]);
  brush.polygon([[384, 462], [374, 424], [360, 412], [368, 464], [368, 560], [378, 568]]);
  brush.polygon([[314, 330], [320, 330], [320, 398], [314, 398]]);
  brush.polygon([[338, 330], [346, 330], [346, 398], [338, 398]]);
  brush.hatch(4, HALF_PI + 0.1, { rand: 0.08 });
  brush.polygon([[348, 470], [368, 470], [368, 552], [348, 552]]);
  brush.hatch(4.5, 0.03, { rand: 0.1 });
  brush.polygon([[287, 482], [368, 482], [368, 552], [287, 552]]);
  brush.hatchStyle('rotring', INK, 0.35);
  brush.hatch(2.5, 0.7, { rand: 0.08 });
  brush.polygon([[281, 552], [379, 552], [378, 568], [282, 568]]);
  brush.hatch(2.5, -0.7, { rand: 0.08 });
  brush.polygon([[281, 556], [379, 556], [378, 568], [282, 568]]);
  brush.noHatch();
  brush.set('pen', INK, 1.1);
  brush.beginShape(0.35);
  for (const p of bottle) brush.vertex(p[0], p[1]);
  brush.endShape(true);
  brush.set('pen', INK, 0.7);
  brush.spline([[279, 474], [330, 484], [381, 474]], 0.5);
  brush.spline([[279, 474], [330, 466], [381, 474]], 0.5);
  brush.line(313, 331, 347, 331);
  // Stems seen through the glass, bent where they enter the water.
  for (const [x0, x1, x2] of [[325, 318, 306], [330, 332, 336], [335, 344, 356]]) {
    brush.line(x0, 334, x1, 474);
    brush.line(x1 + 5, 478, x2, 552);
  }

  // Leaves: hatched along their length, with a darker underside where they turn.
  for (let i = 0; i < leaves.length; i++) {
    const l = leaves[i];
    brush.set('pen', INK, 0.9);
    brush.hatchStyle('pen', INK, 0.45);
    brush.hatch(3.8, i === 0 ? -0.55 : 0.9, { rand: 0.1 });
    brush.beginShape(0.4);
    for (const p of l) brush.vertex(p[0], p[1]);
    brush.endShape(true);
    brush.noStroke();
    brush.hatch(3, i === 0 ? 0.9 : -0.5, { rand: 0.1 });
    brush.polygon(l.slice(0, l.length / 2 + 2));
    brush.noHatch();
  }
  brush.set('pen', INK, 0.6);
  brush.spline(bez([322, 338], [204, 220], [142, 368], 8), 0.5);
  brush.spline(bez([338, 338], [418, 256], [444, 348], 8), 0.5);

  // Stems, then the three blooms.
  for (const st of stems) {
    brush.set('pen', INK, 0.8);
    brush.hatchStyle('pen', INK, 0.4);
    brush.hatch(2.4, 0.3, { rand: 0.05 });
    brush.polygon(st);
    brush.noHatch();
  }
  for (const h of heads) drawHead(h.b, h.ang, h.s);

  // A fallen petal on the table.
  brush.set('pen', INK, 0.9);
  brush.hatchStyle('pen', INK, 0.45);
  brush.hatch(3, 0.4, { rand: 0.1 });
  brush.beginShape(0.6);
  brush.vertex(168, 566);
  brush.vertex(184, 548);
  brush.vertex(212, 542);
  brush.vertex(234, 550);
  brush.vertex(214, 566);
  brush.vertex(188, 572);
  brush.endShape(true);
  brush.noHatch();

  // Table edge.
  brush.set('rotring', INK, 0.8);
  brush.line(0, tableY, 600, tableY);
}
