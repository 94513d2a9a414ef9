function setup() {
  createCanvas(600, 600, WEBGL);
  background(245, 240, 230);
  noStroke();
  fill(8);
  circle(0, 20, 480);
  brush.set('pen', '#000000', 1);
  brush.line(-280, -280, -200, -280);
  noLoop();
}
