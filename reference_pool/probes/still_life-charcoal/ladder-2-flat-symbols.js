// Crude on purpose: a skull, a candle and a book as symbols on a ruled table line: a rectangle
// book with a circle on it for the skull (two dots for eyes), an upright rectangle candle with a
// triangle flame; each filled with the same flat hatching. One tone, no wall, no light.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e6e3dc');
  brush.scaleBrushes(3);

  const shapes = [
    [[300, 400], [500, 400], [500, 440], [300, 440]],
    [[140, 250], [190, 250], [190, 440], [140, 440]],
  ];
  brush.noStroke();
  brush.hatchStyle('charcoal', '#7a766f', 0.8);
  brush.hatch(9, 0.8, { rand: 0.2 });
  for (const s of shapes) brush.polygon(s);
  brush.circle(400, 340, 60);
  brush.noHatch();

  brush.set('charcoal', '#2c2a27', 1);
  for (const s of shapes) brush.spline([...s, s[0]], 0);
  brush.circle(400, 340, 60);
  brush.spline([[165, 200], [182, 248], [148, 248], [165, 200]], 0);
  brush.line(40, 440, 560, 440);
  // Eyes and a nose as dots.
  brush.noStroke();
  brush.wash('#1e1c1a', 250);
  brush.circle(380, 330, 9);
  brush.circle(420, 330, 9);
  brush.circle(400, 356, 5);
  brush.noWash();
}
