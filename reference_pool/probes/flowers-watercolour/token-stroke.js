// One short green brush stroke on cream paper, nothing else.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6efdf');
  brush.scaleBrushes(3);

  brush.set('marker', '#4c7a3a', 1.2);
  brush.line(280, 320, 330, 290);
}
