// A clean pen line drawing of flowers, no fills: a daisy, a tulip and a five-petal bloom on
// curving stems with leaves, outlined in dark ink on cream paper.

function closed(pts, c) {
  brush.beginShape(c);
  for (const [x, y] of pts) brush.vertex(x, y);
  brush.endShape(true);
}

function petalPts(cx, cy, a, r0, r1, w) {
  const nx = -sin(a);
  const ny = cos(a);
  const m = (r0 + r1) / 2;
  return [[cx + cos(a) * r0, cy + sin(a) * r0], [cx + cos(a) * m + nx * w, cy + sin(a) * m + ny * w],
    [cx + cos(a) * r1, cy + sin(a) * r1], [cx + cos(a) * m - nx * w, cy + sin(a) * m - ny * w]];
}

function leafPts(x, y, a, l, w) {
  const tx = x + cos(a) * l;
  const ty = y + sin(a) * l;
  const nx = -sin(a) * w;
  const ny = cos(a) * w;
  return [[x, y], [(x + tx) / 2 + nx, (y + ty) / 2 + ny], [tx, ty], [(x + tx) / 2 - nx, (y + ty) / 2 - ny]];
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6efdf');
  brush.scaleBrushes(3);

  brush.set('pen', '#2b2620', 1.1);
  // Stems, gathered low in the middle.
  brush.spline([[300, 560], [250, 420], [195, 250]], 0.6);
  brush.spline([[300, 560], [335, 400], [338, 225]], 0.6);
  brush.spline([[300, 560], [380, 430], [430, 290]], 0.6);
  // Leaves, with a midrib each.
  for (const [x, y, a, l, w] of [[250, 420, -2.5, 90, 20], [335, 400, -0.5, 85, 18], [380, 430, 0.1, 95, 20]]) {
    closed(leafPts(x, y, a, l, w), 0.7);
    brush.line(x, y, x + cos(a) * l * 0.85, y + sin(a) * l * 0.85);
  }

  // Daisy: a ring of long petals round a round heart.
  brush.circle(190, 230, 20);
  for (let k = 0; k < 12; k++) closed(petalPts(190, 230, (k * TWO_PI) / 12, 24, 82, 11), 0.6);

  // Tulip: a cup of three pointed petals.
  closed([[290, 190], [300, 130], [322, 160], [340, 120], [358, 160], [380, 130], [388, 190], [372, 225], [306, 225]], 0.4);
  brush.spline([[322, 160], [330, 200], [338, 225]], 0.5);
  brush.spline([[358, 160], [350, 200], [338, 225]], 0.5);

  // Five-petal bloom.
  for (let k = 0; k < 5; k++) closed(petalPts(430, 270, -0.3 + (k * TWO_PI) / 5, 12, 68, 27), 0.7);
  brush.circle(430, 270, 16);
}
