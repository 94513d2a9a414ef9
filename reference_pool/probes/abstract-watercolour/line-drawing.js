// A clean pencil line drawing of overlapping circles of three sizes gathered off-centre, outlines
// only, no colour and no fills.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6efe0');
  brush.scaleBrushes(3);
  brush.noFill();
  brush.set('HB', '#3a3a3a', 1);
  const circles = [
    [250, 340, 135],
    [350, 250, 100],
    [190, 220, 70],
    [420, 140, 45],
    [480, 90, 24],
    [330, 450, 40],
  ];
  for (const [x, y, r] of circles) brush.circle(x, y, r);
  brush.noStroke();
}
