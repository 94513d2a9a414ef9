// One short charcoal stroke on bare paper, nothing else.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e6e3dc');
  brush.scaleBrushes(3);
  brush.set('charcoal', '#2a2825', 0.9);
  brush.line(282, 304, 320, 298);
  brush.noStroke();
}
