// Crude on purpose: one stick flower, a straight green stem and a flat red disc on cream paper.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6efdf');
  brush.scaleBrushes(3);

  brush.set('marker', '#3f7a35', 1.5);
  brush.line(300, 520, 300, 250);
  brush.noStroke();
  brush.wash('#d8323a', 230);
  brush.circle(300, 215, 50);
  brush.noWash();
}
