// Three pears in a shallow white bowl on a blue cloth, watercolour with pencil accents.
// Heavy: eight textured fills with bleed.

function pear(x, y, s, col) {
  // A pear as one soft polygon: small top lobe, wide belly.
  const pts = [];
  for (let i = 0; i < 24; i++) {
    const a = (i / 24) * TWO_PI;
    const belly = sin(a) > 0 ? 1 : 0.62 + 0.38 * (1 + sin(a));
    const rx = s * (0.55 + 0.45 * max(0, sin(a))) * belly;
    const ry = s * (sin(a) > 0 ? 0.75 : 1.25);
    pts.push([x + cos(a) * rx, y + sin(a) * ry]);
  }
  brush.fill(col, 190);
  brush.fillBleed(0.12, 'out');
  brush.fillTexture(0.55, 0.55);
  brush.polygon(pts);
  return [x, y - s * 1.25];
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f5efe2');
  brush.scaleBrushes(3);
  brush.noStroke();

  // Wall and cloth as flat washes first.
  brush.wash('#e7dcc6', 200);
  brush.rect(0, 0, 600, 330);
  brush.wash('#7d9ec0', 190);
  brush.polygon([[0, 330], [600, 330], [600, 600], [0, 600]]);
  brush.noWash();

  // Folds in the cloth.
  brush.fill('#4f739c', 120);
  brush.fillBleed(0.25, 'out');
  brush.fillTexture(0.5, 0.4);
  brush.polygon([[40, 600], [120, 400], [170, 420], [150, 600]]);
  brush.polygon([[430, 600], [480, 420], [540, 380], [560, 600]]);

  // Bowl shadow, then the bowl.
  brush.fill('#5d6f85', 140);
  brush.fillBleed(0.2, 'out', 0);
  brush.fillTexture(0.4, 0.3);
  brush.polygon([[150, 495], [480, 485], [520, 530], [170, 535]]);
  brush.fill('#efeae0', 230);
  brush.fillBleed(0.05);
  brush.fillTexture(0.3, 0.6);
  brush.beginShape(0.7);
  brush.vertex(110, 420);
  brush.vertex(490, 420);
  brush.vertex(430, 500);
  brush.vertex(170, 500);
  brush.endShape(true);

  // Pears.
  const stems = [
    pear(225, 350, 80, '#c9b43a'),
    pear(370, 340, 86, '#a9b83e'),
    pear(298, 395, 70, '#d99a3a'),
  ];
  // A blush on the front pear.
  brush.fill('#c0502a', 120);
  brush.fillBleed(0.2, 'out');
  brush.fillTexture(0.6, 0.2);
  brush.circle(280, 420, 30, 0.8);
  brush.noFill();

  // Stems, bowl rim and a few contour accents in pencil.
  brush.set('2B', '#4a3422', 1.1);
  for (const [sx, sy] of stems) {
    brush.spline([[sx, sy + 8], [sx + 3, sy - 6], [sx + 10, sy - 18]], 0.6);
  }
  brush.set('HB', '#5a5a64', 0.8);
  brush.spline([[110, 420], [300, 432], [490, 420]], 0.5);
  brush.spline([[110, 420], [170, 500]], 0.2);
  brush.spline([[490, 420], [430, 500]], 0.2);
}
