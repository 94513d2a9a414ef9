// Weak on purpose: a lane drawn as two ruled lines, hedges as flat hatched strips that ignore the perspective, and an oversized box house.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fdfcf8');
  brush.scaleBrushes(3);
  brush.set('pen', '#262626', 1);
  brush.line(0, 330, 600, 330);
  brush.line(230, 600, 290, 330);
  brush.line(370, 600, 310, 330);

  // Hedges: level strips, evenly hatched.
  brush.hatchStyle('pen', '#262626', 0.6);
  brush.hatch(6, PI / 4);
  brush.rect(20, 400, 190, 40);
  brush.rect(390, 400, 190, 40);
  // House at the end of the lane, far too big for its distance.
  brush.rect(260, 250, 80, 80);
  brush.polygon([[250, 250], [300, 205], [350, 250]]);
  brush.noHatch();
  brush.rect(290, 295, 20, 35);
}
