// Weak on purpose: four unrelated shapes scattered across the page, all hatched at the same angle and spacing, none touching.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fdfcf8');
  brush.scaleBrushes(3);
  brush.set('pen', '#2a2a2a', 1);
  brush.hatchStyle('pen', '#2a2a2a', 0.6);
  brush.hatch(8, PI / 4);
  brush.rect(70, 80, 110, 90);
  brush.circle(430, 160, 60);
  brush.polygon([[120, 480], [200, 340], [260, 470]]);
  brush.rect(380, 380, 140, 60);
  brush.noHatch();
}
