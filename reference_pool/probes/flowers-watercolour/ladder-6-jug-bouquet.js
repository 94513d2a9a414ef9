// Reference quality: rose and coral blooms spilling right from a terracotta jug set left of
// centre, light from the left; a loose blue-grey blot behind, the jug glazed three times with a
// paper highlight, hearts glazed deep, one bloom cropped by the edge, a fallen petal and the
// jug's shadow on a table given only by a pencil edge and a wash.

function petal(cx, cy, ang, len, wid) {
  const pts = [[cx + cos(ang) * len * 0.08, cy + sin(ang) * len * 0.08]];
  for (let i = 0; i <= 10; i++) {
    const t = i / 10;
    const a = ang + (t - 0.5) * wid;
    const r = len * (0.86 + 0.1 * sin(t * PI) + 0.06 * sin(t * PI * 5) + random(-0.03, 0.03));
    pts.push([cx + cos(a) * r, cy + sin(a) * r]);
  }
  return pts;
}

function bloom(cx, cy, size, turn, tones, mid, eye) {
  for (let k = 0; k < 5; k++) {
    brush.fill(tones[k % tones.length], 195);
    brush.fillBleed(0.22, 'out');
    brush.fillTexture(0.55, 0.45);
    brush.polygon(petal(cx, cy, turn + (k * TWO_PI) / 5 + random(-0.1, 0.1), size, 1.5));
  }
  // The shadow side of the bloom (away from the light) takes a second glaze.
  brush.fill(mid, 120);
  brush.fillBleed(0.25, 'out');
  brush.fillTexture(0.5, 0.3);
  brush.polygon(petal(cx, cy, 0.2, size * 0.85, 2.2));
  brush.fill(mid, 150);
  brush.fillBleed(0.3, 'out');
  brush.fillTexture(0.5, 0.2);
  brush.circle(cx, cy, size * 0.42, 0.8);
  // The eye glazed twice, the second smaller, so the heart is the deepest note of the bloom.
  brush.fill(eye, 215);
  brush.fillBleed(0.25, 'out');
  brush.fillTexture(0.5, 0.3);
  brush.circle(cx, cy, size * 0.18, 0.8);
  brush.fill(eye, 235);
  brush.fillBleed(0.15, 'out');
  brush.fillTexture(0.4, 0.3);
  brush.circle(cx, cy, size * 0.1, 0.8);
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

  // Pencil: the back edge of the table, broken where the jug and its shadow will sit.
  brush.set('HB', '#8a7d6a', 0.6);
  brush.line(0, 500, 120, 498);
  brush.line(340, 495, 600, 490);
  brush.noStroke();

  // A loose blue-grey blot behind the flowers, laid wet and left ragged; a paler second one.
  brush.fill('#98a0b8', 205);
  brush.fillBleed(0.32, 'out');
  brush.fillTexture(0.6, 0.3);
  brush.polygon([[230, 60], [400, 30], [560, 90], [610, 220], [560, 360], [420, 400], [300, 340], [220, 210]]);
  brush.fill('#c9c3d6', 150);
  brush.fillBleed(0.35, 'out');
  brush.fillTexture(0.6, 0.3);
  brush.circle(120, 170, 85, 0.6);

  // Leaves under the blooms, two greens, darker ones in shade on the right.
  const leaves = [[250, 300, -2.5, 105, 25], [330, 320, 0.45, 125, 28], [270, 250, -1.5, 90, 22], [440, 140, -0.8, 95, 22],
    [170, 250, -2.3, 80, 20], [480, 330, 0.9, 90, 22]];
  for (const [x, y, a, l, w] of leaves) {
    brush.fill(x > 320 ? '#476f35' : '#6f9a49', 195);
    brush.fillBleed(0.12, 'out');
    brush.fillTexture(0.5, 0.5);
    brush.polygon(leaf(x, y, a, l, w));
  }

  // The jug: a round body and a flared neck, glazed twice, the shadow side a third time.
  const body = [];
  for (let i = 0; i <= 18; i++) {
    const a = -HALF_PI + (i / 18) * TWO_PI;
    body.push([215 + cos(a) * 92, 445 + sin(a) * 78]);
  }
  const neck = [[175, 325], [255, 325], [245, 372], [185, 372]];
  for (let g = 0; g < 2; g++) {
    brush.fill('#c9784f', 185);
    brush.fillBleed(0.07, 'out');
    brush.fillTexture(0.5, 0.55);
    brush.polygon(body);
    brush.polygon(neck);
  }
  brush.fill('#8a4630', 195);
  brush.fillBleed(0.1, 'out');
  brush.fillTexture(0.5, 0.4);
  brush.polygon([[250, 372], [292, 410], [305, 455], [285, 505], [235, 522], [272, 462]]);
  // Its cast shadow, thrown right across the table.
  brush.fill('#9d96ad', 130);
  brush.fillBleed(0.25, 'out');
  brush.fillTexture(0.5, 0.3);
  brush.polygon([[280, 505], [470, 500], [520, 522], [290, 530]]);

  // Stems under the blooms, fanning from the jug's mouth.
  brush.set('marker', '#4c6e33', 1);
  brush.spline([[205, 328], [200, 280], [210, 215]], 0.5);
  brush.spline([[212, 328], [300, 270], [400, 190]], 0.5);
  brush.spline([[222, 328], [270, 330], [320, 345]], 0.5);
  brush.spline([[230, 330], [420, 300], [575, 330]], 0.5);
  brush.spline([[200, 328], [150, 200], [128, 118]], 0.5);
  brush.noStroke();

  // Blooms: the largest right of the jug, one cropped by the right edge, two rose among coral.
  bloom(400, 190, 120, 0.4, ['#f29a70', '#f5ad84', '#ec8a66'], '#d8604c', '#8e1634');
  bloom(210, 215, 88, 1.3, ['#f09aae', '#f4aec0', '#e98aa0'], '#c95478', '#7e1238');
  bloom(320, 345, 66, -0.3, ['#ee8f6c', '#f3a67f'], '#d8604c', '#8e1634');
  bloom(575, 330, 70, 0.9, ['#f09aae', '#e98aa0'], '#c95478', '#7e1238');
  // A bud, and a fallen petal on the table.
  brush.fill('#e98aa0', 205);
  brush.fillBleed(0.15, 'out');
  brush.fillTexture(0.5, 0.5);
  brush.polygon([[120, 120], [105, 85], [118, 60], [138, 82], [132, 118]]);
  brush.fill('#f29a70', 190);
  brush.fillBleed(0.2, 'out');
  brush.fillTexture(0.5, 0.4);
  brush.polygon([[400, 545], [430, 530], [462, 540], [440, 556]]);
  brush.noFill();

  // Paper-white highlight down the lit side of the jug.
  brush.wash('#f6efe0', 210);
  brush.polygon([[150, 405], [162, 398], [146, 440], [150, 488], [140, 472], [138, 434]]);
  brush.noWash();

  // Veins and stamens in brush-pen.
  brush.set('marker', '#3d5c2a', 0.7);
  for (const [x, y, a, l] of leaves) brush.line(x, y, x + cos(a) * l * 0.85, y + sin(a) * l * 0.85);
  for (const [cx, cy, s, a] of [[400, 190, 120, -2.1], [210, 215, 88, -1.2], [320, 345, 66, -0.6]]) {
    const ex = cx + cos(a) * s * 0.72;
    const ey = cy + sin(a) * s * 0.72;
    brush.set('HB', '#8a2434', 1.3);
    brush.spline([[cx, cy], [(cx + ex) / 2 + 6, (cy + ey) / 2 - 4], [ex, ey]], 0.5);
    brush.set('marker', '#e2a92e', 1);
    for (let k = 0; k < 8; k++) brush.line(ex + random(-7, 7), ey + random(-7, 7), ex + random(-7, 7), ey + random(-7, 7));
  }
}
