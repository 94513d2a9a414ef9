// One short blue pastel stroke on toned paper, nothing else.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e2d8c8');
  brush.scaleBrushes(3);
  brush.set('crayon', '#4a78b4', 1.2);
  brush.line(270, 320, 330, 322);
  brush.noStroke();
}
