// One short pen stroke on bare paper, nothing else.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fbfaf5');
  brush.scaleBrushes(3);
  brush.set('pen', '#161616', 0.6);
  brush.line(285, 300, 315, 302);
  brush.noStroke();
}
