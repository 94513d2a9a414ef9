// A bouquet of pink peonies in a glass vase: every petal is its own watercolour fill, laid in
// two or three glazes. Heavy on purpose (well over a hundred small-to-medium textured fills).

function petal(cx, cy, r, angle) {
  const pts = [];
  for (let k = 0; k <= 8; k++) {
    const a = angle - 0.6 + (1.2 * k) / 8;
    const rr = r * (0.75 + 0.35 * sin((k / 8) * PI)) + random(-3, 3);
    pts.push([cx + cos(a) * rr, cy + sin(a) * rr]);
  }
  pts.push([cx + cos(angle) * r * 0.15, cy + sin(angle) * r * 0.15]);
  return pts;
}

function bloom(cx, cy, r, base, deep) {
  for (let ring = 0; ring < 3; ring++) {
    const n = 7 - ring;
    for (let i = 0; i < n; i++) {
      const a = (TWO_PI * i) / n + ring * 0.4 + random(-0.2, 0.2);
      const shape = petal(cx, cy, r * (1 - ring * 0.28), a);
      for (let glaze = 0; glaze < 2; glaze++) {
        brush.fill(ring === 2 ? deep : base, 110 + ring * 30 + glaze * 20);
        brush.fillBleed(0.15, 'out');
        brush.fillTexture(0.5, 0.6);
        brush.polygon(shape);
      }
    }
  }
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6efe2');
  brush.scaleBrushes(3);
  brush.noStroke();

  // Background glazes: a warm wall and a cool table edge.
  for (let g = 0; g < 6; g++) {
    brush.fill('#e8d6c0', 60);
    brush.fillBleed(0.3, 'out');
    brush.fillTexture(0.6, 0.3);
    brush.rect(-20, -20, 640, 430);
    brush.fill('#c9c2b4', 110);
    brush.fillBleed(0.2);
    brush.fillTexture(0.5, 0.4);
    brush.rect(-20, 430, 640, 200);
  }

  // Leaves behind the flowers.
  for (let i = 0; i < 10; i++) {
    const a = random(-PI, 0);
    const cx = 300 + cos(a) * random(90, 170);
    const cy = 250 + sin(a) * random(40, 120);
    brush.fill(i % 2 ? '#5d7f4a' : '#7a9a58', 150);
    brush.fillBleed(0.1);
    brush.fillTexture(0.5, 0.5);
    brush.polygon(petal(cx, cy, random(40, 60), a));
  }

  // Seven peonies.
  const blooms = [
    [230, 220, 70], [360, 200, 78], [300, 300, 66], [180, 320, 52], [420, 310, 56],
    [290, 150, 48], [130, 240, 44],
  ];
  for (const [x, y, r] of blooms) bloom(x, y, r, '#f2a7b8', '#d9677f');

  // The glass vase: two pale glazes and a pencil outline.
  for (let g = 0; g < 2; g++) {
    brush.fill('#cfe0e4', 90);
    brush.fillBleed(0.05);
    brush.fillTexture(0.3, 0.6);
    brush.polygon([[250, 360], [350, 360], [370, 470], [340, 520], [260, 520], [230, 470]]);
  }
  brush.noFill();
  brush.set('2B', '#4b5a5e', 1);
  brush.spline([[250, 360], [230, 470], [260, 520], [340, 520], [370, 470], [350, 360]], 0.5);
}
