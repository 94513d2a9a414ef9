// Weak on purpose: the forest edge as one zigzag band cross-hatched to a muddy mass, so no single tree reads; a bare ruled ground below.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fdfcf8');
  brush.scaleBrushes(3);
  const ink = '#262626';
  // A zigzag top edge with evenly spaced points, the same height every time.
  const band = [[0, 380]];
  for (let x = 0; x <= 600; x += 50) band.push([x, 250], [x + 25, 330]);
  band.push([600, 380]);
  brush.set('pen', ink, 1);
  brush.hatchStyle('pen', ink, 0.6);
  brush.hatch(3.5, PI / 4);
  brush.polygon(band);
  brush.noStroke();
  brush.hatch(3.5, -PI / 4);
  brush.polygon(band);
  brush.hatch(4, 0);
  brush.polygon(band);
  brush.noHatch();
  brush.set('pen', ink, 0.8);
  for (let x = 50; x < 600; x += 50) brush.rect(x - 4, 380, 8, 16);
  for (const y of [420, 470, 530]) brush.line(0, y, 600, y);
}
