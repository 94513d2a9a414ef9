// Crude: a flat blue band for the sea across the lower part of bare toned paper and a flat
// yellow disc for the sun above it; two shapes, nothing else.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e2d8c8');
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.wash('#4a78b8', 255);
  brush.rect(0, 360, 600, 240);
  brush.wash('#f2c840', 255);
  brush.circle(300, 200, 50);
  brush.noWash();
}
