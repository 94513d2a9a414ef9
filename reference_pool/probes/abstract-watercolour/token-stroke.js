// One short rose stroke on cream paper, nothing else.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6efe0');
  brush.scaleBrushes(3);
  brush.set('cpencil', '#d46e84', 1);
  brush.line(280, 300, 320, 304);
  brush.noStroke();
}
