// Crude: one flat rose disc in the middle of cream paper, a hard-edged wash and nothing else.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6efe0');
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.wash('#d7788a', 255);
  brush.circle(300, 300, 90);
  brush.noWash();
}
