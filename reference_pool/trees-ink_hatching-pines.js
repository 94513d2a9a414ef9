// Weak on purpose: three stiff pine trees, evenly hatched triangles on a bare page.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fdfcf8');
  brush.scaleBrushes(3);
  brush.set('pen', '#222', 1);
  brush.hatchStyle('pen', '#222', 0.6);
  brush.hatch(6, PI / 4);
  for (const x of [170, 300, 430]) {
    brush.polygon([[x, 180], [x + 60, 420], [x - 60, 420]]);
    brush.rect(x - 8, 420, 16, 40);
  }
  brush.noHatch();
  brush.line(60, 460, 540, 460);
}
