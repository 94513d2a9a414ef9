// Competent, without vase or table: three coral-pink blooms and two buds on long curving stems
// rising from the lower left corner, leaves in two greens; each petal its own bleeding wash, a
// second deeper glaze toward every heart, crimson eyes and stamens, the paper left bare around.

function petal(cx, cy, ang, len, wid) {
  const pts = [[cx + cos(ang) * len * 0.08, cy + sin(ang) * len * 0.08]];
  for (let i = 0; i <= 10; i++) {
    const t = i / 10;
    const a = ang + (t - 0.5) * wid;
    const r = len * (0.86 + 0.1 * sin(t * PI) + 0.05 * sin(t * PI * 5) + random(-0.03, 0.03));
    pts.push([cx + cos(a) * r, cy + sin(a) * r]);
  }
  return pts;
}

function bloom(cx, cy, size, turn, tones) {
  for (let k = 0; k < 5; k++) {
    brush.fill(tones[k % tones.length], 190);
    brush.fillBleed(0.2, 'out');
    brush.fillTexture(0.5, 0.45);
    brush.polygon(petal(cx, cy, turn + (k * TWO_PI) / 5 + random(-0.1, 0.1), size, 1.45));
  }
  // Second glaze: the colour deepens toward the heart.
  brush.fill('#e06a62', 140);
  brush.fillBleed(0.25, 'out');
  brush.fillTexture(0.5, 0.3);
  brush.circle(cx, cy, size * 0.45, 0.8);
  brush.fill('#9c1a3a', 210);
  brush.fillBleed(0.2, 'out');
  brush.fillTexture(0.5, 0.3);
  brush.circle(cx, cy, size * 0.17, 0.8);
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

  // Stems first in pencil-green, curving up and to the right out of the corner.
  brush.set('marker', '#4c6e33', 1);
  brush.spline([[90, 610], [170, 420], [270, 300]], 0.5);
  brush.spline([[120, 610], [260, 430], [390, 215]], 0.5);
  brush.spline([[150, 610], [330, 520], [440, 380]], 0.5);
  brush.spline([[120, 610], [300, 300], [515, 140]], 0.5);
  brush.spline([[90, 610], [130, 380], [185, 190]], 0.5);
  brush.noStroke();

  // Leaves along the stems.
  const leaves = [[165, 440, -2.4, 95, 22], [215, 470, -0.3, 105, 24], [290, 360, 0.4, 90, 20], [145, 330, -2.0, 80, 18], [360, 470, -0.9, 85, 20]];
  for (const [x, y, a, l, w] of leaves) {
    brush.fill(random() < 0.5 ? '#4f7d3c' : '#7aa04f', 190);
    brush.fillBleed(0.12, 'out');
    brush.fillTexture(0.5, 0.5);
    brush.polygon(leaf(x, y, a, l, w));
  }

  // Three blooms, the largest highest and off-centre.
  bloom(390, 215, 100, 0.3, ['#f29a7a', '#f5ad8e', '#ec8a70']);
  bloom(270, 300, 72, 1.1, ['#f4a48a', '#ef9478', '#f7b898']);
  bloom(440, 380, 58, -0.4, ['#ee8f78', '#f3a68a']);
  // Two closed buds.
  for (const [x, y, a] of [[515, 140, -0.7], [185, 190, -1.8]]) {
    brush.fill('#ec8a70', 200);
    brush.fillBleed(0.15, 'out');
    brush.fillTexture(0.5, 0.5);
    brush.polygon([[x - cos(a) * 8, y - sin(a) * 8], [x + cos(a + 0.6) * 26, y + sin(a + 0.6) * 26], [x + cos(a) * 40, y + sin(a) * 40], [x + cos(a - 0.6) * 26, y + sin(a - 0.6) * 26]]);
  }

  // Veins on the leaves and stamens from each heart.
  brush.noFill();
  brush.set('marker', '#3d5c2a', 0.7);
  for (const [x, y, a, l] of leaves) brush.line(x, y, x + cos(a) * l * 0.85, y + sin(a) * l * 0.85);
  for (const [cx, cy, s, a] of [[390, 215, 100, -2.0], [270, 300, 72, -1.3], [440, 380, 58, -0.5]]) {
    const ex = cx + cos(a) * s * 0.7;
    const ey = cy + sin(a) * s * 0.7;
    brush.set('HB', '#8a2434', 1.2);
    brush.spline([[cx, cy], [(cx + ex) / 2 + 5, (cy + ey) / 2 - 3], [ex, ey]], 0.5);
    brush.set('marker', '#e2a92e', 1);
    for (let k = 0; k < 6; k++) brush.line(ex + random(-6, 6), ey + random(-6, 6), ex + random(-6, 6), ey + random(-6, 6));
  }
}
