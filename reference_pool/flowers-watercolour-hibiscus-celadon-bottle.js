// Peach hibiscus in a celadon bottle, close and off-centre: petals laid wet so neighbouring
// blooms bleed together, crimson eyes, a loose violet-grey ground behind them.

function petal(cx, cy, ang, len, wid) {
  // A broad fan-shaped petal with a ruffled rim.
  const pts = [[cx + cos(ang) * len * 0.08, cy + sin(ang) * len * 0.08]];
  for (let i = 0; i <= 10; i++) {
    const t = i / 10;
    const a = ang + (t - 0.5) * wid;
    const r = len * (0.86 + 0.1 * sin(t * PI) + 0.06 * sin(t * PI * 5) + random(-0.03, 0.03));
    pts.push([cx + cos(a) * r, cy + sin(a) * r]);
  }
  return pts;
}

function bloom(cx, cy, size, turn, tones) {
  // Five overlapping petals, each its own bleeding fill; a soft coral glaze so the colour
  // deepens toward the heart; then the crimson eye.
  const angles = [];
  for (let k = 0; k < 5; k++) angles.push(turn + (k * TWO_PI) / 5 + random(-0.1, 0.1));
  for (let k = 0; k < 5; k++) {
    brush.fill(tones[k % tones.length], 200);
    brush.fillBleed(0.22, 'out');
    brush.fillTexture(0.5, 0.45);
    brush.polygon(petal(cx, cy, angles[k], size, 1.5));
  }
  brush.fill('#e2674f', 150);
  brush.fillBleed(0.3, 'out');
  brush.fillTexture(0.5, 0.2);
  brush.circle(cx, cy, size * 0.42, 0.8);
  brush.fill('#9c1a3a', 210);
  brush.fillBleed(0.25, 'out');
  brush.fillTexture(0.5, 0.3);
  brush.circle(cx, cy, size * 0.2, 0.8);
}

function leaf(x, y, a, l, w) {
  const tx = x + cos(a) * l;
  const ty = y + sin(a) * l;
  const nx = -sin(a) * w;
  const ny = cos(a) * w;
  return [[x, y], [x + (tx - x) * 0.35 + nx, y + (ty - y) * 0.35 + ny], [x + (tx - x) * 0.7 + nx * 0.7, y + (ty - y) * 0.7 + ny * 0.7],
          [tx, ty], [x + (tx - x) * 0.7 - nx * 0.7, y + (ty - y) * 0.7 - ny * 0.7], [x + (tx - x) * 0.35 - nx, y + (ty - y) * 0.35 - ny]];
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f7f0e0');
  brush.scaleBrushes(3);

  // Light pencil underdrawing of the table edge (a stroke before any wash, see below).
  brush.set('HB', '#8a7d6a', 0.6);
  brush.line(0, 520, 140, 518);
  brush.line(320, 516, 600, 512);
  brush.noStroke();

  // A loose violet-grey ground behind the blooms, laid wet and left ragged.
  brush.fill('#9d98b6', 200);
  brush.fillBleed(0.3, 'out');
  brush.fillTexture(0.6, 0.3);
  brush.polygon([[250, 40], [420, 20], [560, 80], [600, 200], [560, 330], [420, 380], [300, 330], [230, 200]]);
  brush.fill('#93b3b0', 170);
  brush.fillBleed(0.35, 'out');
  brush.fillTexture(0.6, 0.3);
  brush.circle(110, 150, 95, 0.6);

  // Leaves under the flowers.
  const leaves = [[300, 250, -2.6, 110, 26], [350, 300, 0.5, 120, 28], [260, 310, 2.3, 90, 22], [430, 130, -0.9, 95, 22], [150, 230, -2.2, 80, 20]];
  for (const [x, y, a, l, w] of leaves) {
    brush.fill(random() < 0.5 ? '#4f7d3c' : '#6b9446', 200);
    brush.fillBleed(0.1, 'out');
    brush.fillTexture(0.5, 0.5);
    brush.beginShape(0.6);
    for (const [vx, vy] of leaf(x, y, a, l, w)) brush.vertex(vx, vy);
    brush.endShape(true);
  }

  // The celadon bottle: body and neck, glazed twice, deeper on the right.
  const bottle = [];
  for (let i = 0; i <= 16; i++) {
    const a = -HALF_PI + (i / 16) * TWO_PI;
    bottle.push([230 + cos(a) * 88, 455 + sin(a) * 80]);
  }
  const neck = [[205, 320], [255, 320], [262, 400], [198, 400]];
  for (let g = 0; g < 2; g++) {
    brush.fill('#7fa99c', 190);
    brush.fillBleed(0.06, 'out');
    brush.fillTexture(0.5, 0.55);
    brush.polygon(bottle);
    brush.polygon(neck);
  }
  brush.fill('#3f6f6a', 200);
  brush.fillBleed(0.08, 'out');
  brush.fillTexture(0.5, 0.4);
  brush.polygon([[270, 395], [312, 430], [318, 470], [300, 515], [250, 535], [288, 480]]);
  // Its shadow along the table.
  brush.fill('#9c97ad', 130);
  brush.fillBleed(0.25, 'out');
  brush.fillTexture(0.5, 0.3);
  brush.polygon([[290, 512], [470, 506], [520, 530], [300, 540]]);

  // Three blooms and a bud, the largest cropped by the right edge.
  bloom(440, 190, 125, 0.4, ['#f29a70', '#f5ad84', '#ec8a66']);
  bloom(215, 215, 92, 1.3, ['#f4a47c', '#ef946e', '#f7b88e']);
  bloom(330, 350, 70, -0.3, ['#ee8f6c', '#f3a67f']);
  brush.fill('#ee8f6e', 210);
  brush.fillBleed(0.15, 'out');
  brush.fillTexture(0.5, 0.5);
  brush.polygon([[520, 400], [545, 350], [565, 338], [572, 372], [548, 410]]);
  brush.noFill();

  // A paper-coloured highlight down the bottle, masked in wash above the fills.
  brush.wash('#f5f0e3', 200);
  brush.polygon([[176, 402], [186, 396], [170, 440], [172, 485], [163, 470], [162, 432]]);
  brush.noWash();

  // Stems, veins and the long stamen columns in pencil and brush-pen.
  brush.set('marker', '#4c6e33', 1);
  brush.spline([[228, 322], [222, 280], [215, 230]], 0.5);
  brush.spline([[234, 322], [280, 300], [330, 352]], 0.5);
  brush.spline([[240, 322], [330, 250], [440, 190]], 0.5);
  brush.spline([[250, 325], [420, 330], [530, 400]], 0.5);
  for (const [cx, cy, s, a] of [[440, 190, 125, -2.1], [215, 215, 92, -1.2], [330, 350, 70, -0.6]]) {
    const ex = cx + cos(a) * s * 0.75;
    const ey = cy + sin(a) * s * 0.75;
    brush.set('HB', '#8a2434', 1.3);
    brush.spline([[cx, cy], [(cx + ex) / 2 + 6, (cy + ey) / 2 - 4], [ex, ey]], 0.5);
    brush.set('marker', '#e2a92e', 1);
    for (let k = 0; k < 8; k++) brush.line(ex + random(-7, 7), ey + random(-7, 7), ex + random(-7, 7), ey + random(-7, 7));
  }
}
