// Weak on purpose: three identical tulip heads on ruler-straight stems in a box-like bottle, one flat hatching for everything, crammed low on the left.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fdfcf9');
  brush.scaleBrushes(3);
  brush.set('pen', '#2a2a2a', 1);
  brush.hatchStyle('pen', '#2a2a2a', 0.6);
  brush.hatch(7, PI / 4);

  // Bottle: a rectangle with a narrower rectangle on top.
  brush.rect(110, 430, 90, 120);
  brush.noHatch();
  brush.rect(140, 390, 30, 40);

  // Three straight stems and three identical heads.
  for (const x of [85, 155, 225]) {
    brush.line(155, 392, x, 290);
    brush.hatch(7, PI / 4);
    brush.polygon([[x - 16, 284], [x - 20, 244], [x - 8, 256], [x, 238], [x + 8, 256], [x + 20, 244], [x + 16, 284], [x, 292]]);
    brush.noHatch();
  }
  // Two leaves, as plain outlines.
  brush.polygon([[152, 392], [110, 350], [100, 330], [130, 352]]);
  brush.polygon([[158, 392], [200, 350], [210, 330], [180, 352]]);
  brush.line(60, 550, 330, 550);
}
