// Peach hibiscus in a blue-grey jug, loose watercolour on cream paper.
// Heavy on purpose: a dozen textured, bleeding fills.

function petalShape(cx, cy, ang, len, wid) {
  // A fan-shaped petal: narrow at the heart, broad and ruffled at the rim.
  const pts = [];
  for (let i = 0; i <= 12; i++) {
    const t = i / 12;
    const a = ang + (t - 0.5) * wid;
    const r = len * (0.9 + 0.12 * sin(t * PI * 3) + random(-0.04, 0.04));
    pts.push([cx + cos(a) * r, cy + sin(a) * r]);
  }
  pts.push([cx + cos(ang + wid * 0.2) * len * 0.12, cy + sin(ang + wid * 0.2) * len * 0.12]);
  pts.push([cx + cos(ang - wid * 0.2) * len * 0.12, cy + sin(ang - wid * 0.2) * len * 0.12]);
  return pts;
}

function bloom(cx, cy, size, hue) {
  const turn = random(TWO_PI);
  brush.noStroke();
  brush.fill(hue, 200);
  brush.fillBleed(0.16, 'out');
  brush.fillTexture(0.5, 0.45);
  for (let k = 0; k < 5; k++) {
    brush.polygon(petalShape(cx, cy, turn + (k * TWO_PI) / 5, size, 1.25));
  }
  // Deep throat of the flower, a smaller, darker wash laid wet-on-dry.
  brush.fill('#a8243a', 210);
  brush.fillBleed(0.12, 'out');
  brush.fillTexture(0.4, 0.6);
  brush.circle(cx, cy, size * 0.28, 0.6);
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6efdf');
  brush.scaleBrushes(3);

  // Tabletop: a single warm flat wash, laid before any textured fill.
  brush.noStroke();
  brush.wash('#e9d6b8', 200);
  brush.rect(0, 470, 600, 130);
  brush.noWash();

  // Jug.
  brush.fill('#5f7f9c', 190);
  brush.fillBleed(0.12, 'out');
  brush.fillTexture(0.6, 0.5);
  brush.beginShape(0.6);
  brush.vertex(240, 330);
  brush.vertex(225, 390);
  brush.vertex(215, 470);
  brush.vertex(240, 530);
  brush.vertex(360, 530);
  brush.vertex(385, 470);
  brush.vertex(375, 390);
  brush.vertex(360, 330);
  brush.endShape(true);
  // Its shadow on the table.
  brush.fill('#8c7a6a', 110);
  brush.fillBleed(0.3, 'out', 0);
  brush.fillTexture(0.4, 0.3);
  brush.polygon([[360, 520], [480, 505], [500, 530], [370, 540]]);

  // Leaves.
  brush.fill('#5b8c4e', 150);
  brush.fillBleed(0.18, 'out');
  brush.fillTexture(0.5, 0.5);
  const leaves = [[205, 300, -2.5], [395, 285, -0.5], [170, 190, -2.9]];
  for (const [x, y, a] of leaves) {
    const l = 85;
    const tx = x + cos(a) * l;
    const ty = y + sin(a) * l;
    const nx = -sin(a) * 22;
    const ny = cos(a) * 22;
    brush.polygon([[x, y], [(x + tx) / 2 + nx, (y + ty) / 2 + ny], [tx, ty], [(x + tx) / 2 - nx, (y + ty) / 2 - ny]]);
  }

  // Blooms.
  bloom(230, 210, 95, '#f2a47c');
  bloom(385, 185, 80, '#f6b48e');
  bloom(305, 300, 62, '#ee9470');
  brush.noFill();

  // Stems and veins: pencil over the dry paint.
  brush.set('HB', '#3f5f32', 1.2);
  brush.spline([[300, 335], [280, 300], [235, 215]], 0.5);
  brush.spline([[305, 335], [340, 280], [385, 190]], 0.5);
  brush.set('HB', '#7a2a2a', 1);
  for (const [cx, cy, s] of [[230, 210, 95], [385, 185, 80]]) {
    brush.spline([[cx, cy], [cx + s * 0.3, cy - s * 0.25], [cx + s * 0.45, cy - s * 0.55]], 0.6);
    for (let i = 0; i < 5; i++) {
      brush.circle(cx + s * 0.45 + random(-6, 6), cy - s * 0.55 + random(-6, 6), 2);
    }
  }
  // The jug's rim and a loose outline.
  brush.set('2B', '#2f4254', 0.8);
  brush.spline([[238, 332], [300, 342], [362, 332]], 0.4);
}
