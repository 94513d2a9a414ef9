// A country lane between hedgerows in pen and ink, low viewpoint: hedges built from hatched leafy clumps, a hedgerow oak, a farmhouse where the lane meets the horizon.

const INK = '#1e1a16';

// A rounded clump of foliage with a noisy edge.
function clump(cx, cy, rx, ry, seed) {
  const pts = [];
  for (let k = 0; k < 14; k++) {
    const a = (k / 14) * TWO_PI;
    const r = 0.72 + noise(seed + cos(a) * 1.3, seed + sin(a) * 1.3) * 0.56;
    pts.push([cx + cos(a) * rx * r, cy + sin(a) * ry * r]);
  }
  return pts;
}

function layer(poly, b, w, d, a) {
  brush.hatchStyle(b, INK, w);
  brush.hatch(d, a, { rand: 0.14 });
  brush.polygon(poly);
  brush.noHatch();
}

// A leafy clump: one layer overall, a second on its shaded underside, a dark pocket below.
function leafy(cx, cy, r, angle, dark) {
  const s = random(100);
  layer(clump(cx, cy, r * 1.15, r, s), 'pen', 0.45, 5, angle);
  layer(clump(cx + r * 0.1, cy + r * 0.35, r * 0.9, r * 0.6, s + 3), 'pen', 0.45, 5, angle - 1.5);
  if (dark) layer(clump(cx + r * 0.15, cy + r * 0.6, r * 0.6, r * 0.3, s + 6), 'rotring', 0.35, 3.2, angle + 0.7);
}

// A hedge seen in perspective: its top and base run to the vanishing point; a flat base
// layer over the body, then leafy clumps that shrink with distance and break the top edge.
function hedge(x0, x1, top, base, angle, tone) {
  const body = [];
  const foot = [];
  for (let i = 0; i <= 12; i++) {
    const xx = lerp(x0, x1, i / 12);
    body.push([xx, top(xx)]);
    foot.push([xx, lerp(top(xx), base(xx), 0.72)]);
  }
  for (let i = 12; i >= 0; i--) {
    const xx = lerp(x0, x1, i / 12);
    body.push([xx, base(xx)]);
    foot.push([xx, base(xx)]);
  }
  brush.noStroke();
  layer(body, 'pen', 0.45, 5, angle);
  if (tone > 1) layer(body, 'pen', 0.45, 5.2, angle + 1.6);
  const crest = [];
  let x = x0;
  const far = x0 < x1 ? (v) => v > x1 - 4 : (v) => v < x1 + 4;
  while (!far(x)) {
    const h = max(6, base(x) - top(x));
    const r = min(70, h * 0.3);
    const cy = top(x) + r * 0.45 + random(-0.15, 0.15) * r;
    leafy(x, cy, r, angle + random(-0.3, 0.3), random() < 0.7);
    crest.push([x - r * 0.5, cy - r * 0.55], [x, cy - r * 0.9]);
    if (h > 60) leafy(x + r * 0.5, lerp(top(x), base(x), random(0.45, 0.7)), r * 0.8, angle + random(-0.3, 0.3), false);
    x += (x0 < x1 ? 1 : -1) * max(3, r * 1.05);
  }
  // Deep shadow along the foot of the hedge.
  layer(foot, 'rotring', 0.35, 3.6, 0.15);
  if (tone > 1) layer(body, 'rotring', 0.3, 5, angle - 0.6);
  brush.set('pen', INK, 0.8);
  brush.spline(crest, 0.6);
  brush.noStroke();
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fbfaf5');
  brush.scaleBrushes(3);
  const vp = [332, 336];

  // Sky: three long cloud streaks, lightly hatched level.
  brush.noStroke();
  brush.hatchStyle('pen', INK, 0.4);
  brush.hatch(4.5, 0.02, { rand: 0.2 });
  for (const [cx, cy, rx, ry] of [[440, 110, 150, 16], [330, 190, 110, 10], [520, 236, 80, 8]]) {
    brush.beginShape(0.8);
    brush.vertex(cx - rx, cy + ry * 0.4);
    brush.vertex(cx - rx * 0.4, cy - ry);
    brush.vertex(cx + rx * 0.5, cy - ry * 0.7);
    brush.vertex(cx + rx, cy + ry * 0.3);
    brush.vertex(cx, cy + ry * 0.6);
    brush.endShape(true);
  }
  brush.noHatch();

  // Fields beyond the low right-hand hedge: a gentle rise with furrows.
  const rise = [[336, 336], [380, 326], [440, 316], [520, 320], [610, 330]];
  layer([...rise, [610, 400], [336, 338]], 'pen', 0.45, 3.4, 0.04);
  for (let x = 520; x < 610; x += 8) leafy(x, 322, 4, 0.4, false);

  // Farmhouse and barn on the rise, two trees beside them.
  brush.set('pen', INK, 0.9);
  brush.rect(382, 310, 30, 18);
  brush.polygon([[382, 310], [397, 294], [412, 310]]);
  brush.polygon([[397, 294], [432, 294], [446, 310], [412, 310]]);
  brush.noStroke();
  layer([[412, 310], [446, 310], [446, 328], [412, 328]], 'pen', 0.45, 2.2, 0.25);
  layer([[397, 294], [432, 294], [446, 310], [412, 310]], 'pen', 0.45, 2, 1.25);
  brush.set('pen', INK, 0.9);
  brush.rect(412, 310, 34, 18);
  brush.rect(424, 288, 4, 8);
  brush.rect(387, 315, 5, 5);
  brush.rect(401, 315, 5, 5);
  brush.rect(394, 319, 5, 9);
  layer([[452, 328], [452, 306], [468, 296], [484, 306], [484, 328]], 'pen', 0.45, 1.8, 1.45);
  brush.noStroke();
  leafy(366, 300, 12, 0.9, true);
  leafy(498, 304, 10, 0.9, true);
  brush.set('pen', INK, 0.9);
  brush.line(364, 312, 364, 326);
  brush.line(498, 312, 498, 322);

  // Far hedges along the horizon on the left.
  brush.noStroke();
  for (let x = 200; x < 326; x += 9) leafy(x, 333, 5, 0.4, false);

  // The lane: pale, with converging wheel ruts and a grass strip between them.
  brush.set('pen', INK, 0.55);
  for (const f of [0.3, 0.43, 0.57, 0.7]) {
    const x0 = lerp(168, 488, f);
    brush.spline([[x0, 600], [lerp(x0, vp[0], 0.55) + 4, lerp(600, vp[1], 0.55)], [vp[0] + (f - 0.5) * 3, vp[1] + 3]], 0.5);
  }
  for (let i = 0; i < 80; i++) {
    const t = pow(random(), 1.6);
    const y = lerp(600, vp[1] + 4, t);
    const x = lerp(328, vp[0], t) + random(-16, 16) * (1 - t);
    brush.line(x, y, x + random(-2, 2), y - (7 * (1 - t) + 1));
  }
  // Shadow of the right hedge thrown across the lane by a low sun on the right.
  brush.noStroke();
  const shade = [[488, 600], [vp[0] + 3, vp[1] + 2], [vp[0] + 1, vp[1] + 5], [436, 600]];
  layer(shade, 'pen', 0.45, 3.4, 0.12);
  layer(shade, 'pen', 0.45, 4.2, -0.95);

  // Hedgerow oak standing out of the left hedge, its trunk half hidden.
  brush.set('pen', INK, 1.1);
  brush.polygon([[112, 300], [104, 190], [122, 186], [130, 300]]);
  brush.noStroke();
  layer([[116, 300], [112, 190], [122, 186], [130, 300]], 'rotring', 0.35, 2.2, 1.5);
  const crown = [[100, 70, 34], [150, 84, 32], [56, 104, 30], [104, 120, 40], [170, 132, 32], [40, 160, 32],
    [92, 170, 34], [146, 178, 30], [196, 176, 22], [124, 40, 26], [66, 60, 24]];
  for (const [cx, cy, r] of crown) leafy(cx, cy, r, 0.9 + random(-0.2, 0.2), true);

  // Left hedgerow: tall and close on the near side, lit where it faces the lane.
  hedge(-4, vp[0] - 4, (x) => lerp(252, vp[1] - 3, (x + 4) / vp[0]), (x) => min(604, lerp(600, vp[1] + 2, (x - 60) / (vp[0] - 64))), 0.95, 1);

  // Right hedgerow: low and trimmed, its lane side in shadow, so two base layers.
  hedge(604, vp[0] + 4, (x) => lerp(392, vp[1] - 2, (604 - x) / (600 - vp[0])), (x) => min(604, lerp(600, vp[1] + 2, (568 - x) / (564 - vp[0]))), -0.9, 2);

  // Telegraph poles receding along the right verge, pale against the hedge, one sagging wire.
  const tops = [];
  const poles = [];
  for (const t of [0.2, 0.5, 0.68, 0.79, 0.86, 0.905]) {
    const bx = lerp(510, vp[0] + 8, t);
    const by = lerp(600, vp[1] + 1, t);
    poles.push([bx, by, 330 * (1 - t), max(1.5, 11 * (1 - t))]);
  }
  brush.wash('#fbfaf5', 255);
  for (const [bx, by, h, w] of poles) brush.polygon([[bx - w / 2, by], [bx - w / 2, by - h], [bx + w / 2, by - h], [bx + w / 2, by]]);
  brush.noWash();
  for (const [bx, by, h, w] of poles) {
    brush.set('pen', INK, 0.8);
    brush.line(bx - w / 2, by, bx - w / 2, by - h);
    brush.line(bx + w / 2, by, bx + w / 2, by - h);
    brush.set('pen', INK, 1);
    brush.line(bx - h * 0.12, by - h * 0.92, bx + h * 0.12, by - h * 0.92);
    brush.line(bx - h * 0.09, by - h * 0.92, bx - h * 0.09, by - h * 0.95);
    brush.line(bx + h * 0.09, by - h * 0.92, bx + h * 0.09, by - h * 0.95);
    tops.push([bx, by - h * 0.92]);
  }
  brush.set('pen', INK, 0.8);
  for (let i = 0; i < tops.length - 1; i++) {
    const [ax, ay] = tops[i];
    const [bx2, by2] = tops[i + 1];
    brush.spline([[ax, ay], [(ax + bx2) / 2, (ay + by2) / 2 + (bx2 - ax) * -0.06], [bx2, by2]], 0.8);
  }

  // Verges: tufts of grass along both edges of the lane.
  const roadL = [[168, 600], [vp[0] - 3, vp[1] + 2]];
  const roadR = [[488, 600], [vp[0] + 3, vp[1] + 2]];
  brush.set('pen', INK, 0.65);
  for (let i = 0; i < 70; i++) {
    const t = pow(random(), 1.4);
    const side = i % 2 ? roadL : roadR;
    const x = lerp(side[0][0], side[1][0], t) + random(-6, 6) * (1 - t);
    const y = lerp(side[0][1], side[1][1], t);
    const h = 14 * (1 - t) + 2;
    brush.line(x, y, x + random(-4, 4), y - h);
  }
  brush.set('pen', INK, 0.8);
  brush.line(roadL[0][0], roadL[0][1], roadL[1][0], roadL[1][1]);
  brush.line(roadR[0][0], roadR[0][1], roadR[1][0], roadR[1][1]);
}
