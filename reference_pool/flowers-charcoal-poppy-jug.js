// Wild poppies in a stoneware jug, charcoal and white chalk on grey paper: smudged dark petals, drooping buds.

function petalPts(cx, cy, r, a, tilt, s) {
  // Outline of one broad rounded petal fanning out from the centre along angle a.
  const pts = [];
  for (let i = 0; i <= 10; i++) {
    const t = i / 10;
    const b = a + (t - 0.5) * 1.8;
    const rr = s * r * (0.25 + 0.75 * sqrt(sin(t * PI))) * (1 + 0.05 * sin(t * 23 + a));
    pts.push([cx + cos(b) * rr, cy + sin(b) * rr * tilt]);
  }
  return pts;
}

function poppy(cx, cy, r, rot, tilt) {
  // Four smudged petals, each darker at its base, a crisp rim, chalk on the lit edges.
  const tones = ['#2c2926', '#3a3632', '#46423d', '#332f2b'];
  const rims = [];
  for (let k = 0; k < 4; k++) {
    const a = rot + k * HALF_PI + random(-0.2, 0.2);
    const rr = r * random(0.9, 1.1);
    const pts = petalPts(cx, cy, rr, a, tilt, 1);
    rims.push(pts);
    brush.noStroke();
    brush.hatchStyle('spray', tones[k], 2.6);
    brush.hatch(6, a + HALF_PI, { rand: 0.3 });
    brush.polygon([[cx, cy], ...pts]);
    brush.noHatch();
    brush.hatchStyle('charcoal', tones[k], 1.1);
    brush.hatch(4, a + 0.3, { rand: 0.6 });
    brush.polygon([[cx, cy], ...petalPts(cx, cy, rr, a, tilt, 0.92)]);
    brush.noHatch();
    // Radial creases smudged into the petal.
    for (const f of [-0.45, 0, 0.4]) {
      brush.set('charcoal', '#24221f', 0.5);
      brush.line(cx + cos(a + f) * rr * 0.3, cy + sin(a + f) * rr * 0.3 * tilt, cx + cos(a + f * 1.2) * rr * 0.85, cy + sin(a + f * 1.2) * rr * 0.85 * tilt);
    }
    brush.mass('charcoal', '#1b1a18', { precision: 0.5, strength: 0.5 });
    brush.polygon([[cx, cy], ...petalPts(cx, cy, rr, a, tilt, 0.4)]);
    brush.noMass();
    brush.set('charcoal', '#1a1816', 1.1);
    brush.spline(pts, 0.5);
  }
  for (const k of [1, 2]) {
    brush.set('charcoal', '#f2efe9', 0.8);
    brush.spline(rims[k].slice(2, 9), 0.5);
  }
  // Seed pod: a chalky knob ringed with dark stamens.
  brush.set('charcoal', '#e9e6e0', 1.4);
  brush.circle(cx, cy, max(3, r * 0.09));
  brush.set('charcoal', '#121110', 0.7);
  brush.circle(cx, cy, max(5, r * 0.16));
}

function bud(x, y, s, lean) {
  // A hairy drooping bud hanging from a hooked stem: dense charcoal strokes, lit on the left.
  const pts = [[x, y - s], [x + s * 0.6, y - s * 0.1], [x + lean, y + s * 1.1], [x - s * 0.6, y - s * 0.1]];
  brush.noStroke();
  brush.hatchStyle('charcoal', '#2d2a27', 0.8);
  brush.hatch(2.5, 1.2, { rand: 0.3 });
  brush.beginShape(0.8);
  for (const [px, py] of pts) brush.vertex(px, py);
  brush.endShape(true);
  brush.noHatch();
  brush.set('charcoal', '#1a1816', 1);
  brush.beginShape(0.8);
  for (const [px, py] of pts) brush.vertex(px, py);
  brush.endShape(true);
  brush.set('charcoal', '#efece6', 0.6);
  brush.spline([[x - s * 0.35, y - s * 0.5], [x - s * 0.5, y], [x - s * 0.1, y + s * 0.8]], 0.6);
  for (let i = 0; i < 6; i++) {
    const b = random(TWO_PI);
    brush.set('charcoal', '#2a2724', 0.4);
    brush.line(x + cos(b) * s * 0.55, y + sin(b) * s * 0.7, x + cos(b) * s * 0.8, y + sin(b) * s * 0.95);
  }
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#bcb8b0');
  brush.scaleBrushes(3);

  // Back wall: a soft smudge that deepens to the right, away from the light.
  brush.noStroke();
  brush.wash('#aaa59c', 150);
  brush.rect(0, 0, 600, 455);
  brush.noWash();
  brush.hatchStyle('spray', '#5f5a54', 3);
  brush.hatch(9, PI / 3, { rand: 0.4 });
  brush.polygon([[360, 0], [600, 0], [600, 455], [420, 455], [470, 260]]);
  brush.noHatch();

  // Table top, lighter, with the back edge drawn firmly.
  brush.wash('#cdc9c1', 160);
  brush.rect(0, 455, 600, 145);
  brush.noWash();
  brush.set('charcoal', '#3a3733', 1.1);
  brush.line(0, 456, 600, 452);

  // Cast shadow of the jug, smudged out to the right.
  brush.noStroke();
  brush.hatchStyle('spray', '#3d3a36', 2.5);
  brush.hatch(5, 0.1, { rand: 0.3 });
  brush.polygon([[250, 548], [330, 530], [470, 532], [520, 552], [400, 566], [270, 566]]);
  brush.noHatch();

  // Stems from the jug's mouth, before the heads so the heads sit on top.
  const heads = [[128, 196, 62, 0.3, 0.8], [262, 102, 68, 0.9, 0.85], [408, 142, 58, 0.2, 0.7], [476, 282, 46, 0.6, 0.55], [196, 286, 40, 1.2, 0.5], [340, 226, 36, 0.5, 0.75]];
  const bends = [-60, -30, 40, 50, -40, 10];
  for (let i = 0; i < heads.length; i++) {
    const [hx, hy] = heads[i];
    const sx = 222 + i * 6;
    brush.set('charcoal', '#2b2926', 0.75);
    brush.spline([[sx, 338], [sx + (hx - sx) * 0.3 + bends[i], 338 + (hy - 338) * 0.45], [hx + bends[i] * 0.25, hy + 40], [hx, hy]], 0.6);
  }
  // Buds drooping on hooked stems.
  for (const [sx, sy, ex, ey] of [[252, 338, 560, 150], [218, 338, 72, 340], [240, 338, 336, 70]]) {
    brush.set('charcoal', '#2b2926', 0.65);
    brush.spline([[sx, sy], [(sx + ex) / 2, max(24, min(sy, ey) - 40)], [ex, ey - 28], [ex + 4, ey - 16]], 0.7);
  }
  bud(564, 156, 18, 6);
  bud(76, 346, 16, -4);
  bud(340, 76, 14, 3);
  // Feathery leaves at the mouth.
  for (let i = 0; i < 6; i++) {
    const x0 = 210 + i * 12;
    const dir = i < 3 ? -1 : 1;
    brush.set('charcoal', '#2f2c29', 0.6);
    brush.spline([[x0, 335], [x0 + dir * 30, 312 - i * 3], [x0 + dir * 62, 300 + random(-15, 10)]], 0.5);
  }

  for (const [hx, hy, r, a, t] of heads) poppy(hx, hy, r, a, t);

  // The jug: stoneware body, lit from the left.
  const jug = [[205, 335], [268, 335], [272, 352], [300, 392], [318, 450], [305, 515], [280, 540], [190, 540], [165, 515], [152, 450], [170, 392], [198, 352]];
  brush.noStroke();
  brush.wash('#8c877f', 150);
  brush.polygon(jug);
  brush.noWash();
  brush.hatchStyle('spray', '#34312d', 2.5);
  brush.hatch(6, PI / 2.2, { rand: 0.3 });
  brush.polygon([[240, 340], [268, 335], [300, 392], [318, 450], [305, 515], [280, 540], [240, 540], [262, 450]]);
  brush.noHatch();
  brush.hatchStyle('spray', '#2a2724', 2.5);
  brush.hatch(5, PI / 2.4, { rand: 0.3 });
  brush.polygon([[272, 360], [300, 392], [318, 450], [305, 515], [280, 540], [268, 540], [290, 450]]);
  brush.noHatch();
  // Handle.
  brush.set('charcoal', '#1f1d1b', 1.6);
  brush.spline([[292, 372], [345, 380], [350, 430], [312, 470]], 0.7);
  brush.set('charcoal', '#1f1d1b', 0.8);
  brush.spline([[296, 385], [333, 392], [335, 428], [314, 455]], 0.7);
  // Contour and the glaze line around the belly.
  brush.set('charcoal', '#1b1918', 1.1);
  brush.spline([[198, 338], [198, 352], [170, 392], [152, 450], [165, 515], [190, 540], [280, 540], [305, 515], [318, 450], [300, 392], [272, 352], [268, 338]], 0.55);
  brush.set('charcoal', '#1b1918', 0.9);
  brush.spline([[196, 336], [236, 328], [272, 336]], 0.5);
  brush.set('charcoal', '#3a3733', 0.6);
  brush.spline([[160, 470], [235, 484], [312, 470]], 0.6);
  // Chalk highlights: the lip and the rounded shoulder catching the light.
  brush.set('charcoal', '#f3f0ea', 1);
  brush.spline([[202, 340], [236, 334], [262, 338]], 0.5);
  brush.set('charcoal', '#f3f0ea', 1.6);
  brush.spline([[186, 392], [172, 430], [174, 470]], 0.6);
  brush.set('charcoal', '#f3f0ea', 1);
  brush.spline([[196, 500], [210, 522], [232, 530]], 0.6);
  // A fallen petal on the table, curled, with its own small shadow.
  const fp = [[392, 506], [420, 488], [452, 492], [462, 508], [440, 520], [404, 520]];
  brush.noStroke();
  brush.hatchStyle('charcoal', '#3a3632', 1.1);
  brush.hatch(3.5, 0.4, { rand: 0.6 });
  brush.polygon(fp);
  brush.noHatch();
  brush.set('charcoal', '#1a1816', 1);
  brush.spline([...fp, fp[0]], 0.5);
  brush.set('charcoal', '#f0ede7', 0.7);
  brush.spline([[400, 505], [422, 492], [448, 494]], 0.5);
  brush.set('charcoal', '#5a5650', 1.2);
  brush.spline([[404, 524], [436, 526], [462, 514]], 0.5);
}
