// Empty: cream paper only. The gate asks for one p5.brush call, so a one-pixel wash in the
// paper's own colour is laid in the corner, which leaves nothing visible.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6efdf');
  brush.noStroke();
  brush.wash('#f6efdf', 255);
  brush.rect(0, 0, 1, 1);
  brush.noWash();
}
