// One short charcoal stroke on bare paper, nothing else.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#ece9e2');
  brush.scaleBrushes(3);
  brush.set('charcoal', '#2a2825', 0.9);
  brush.line(280, 300, 322, 296);
  brush.noStroke();
}
