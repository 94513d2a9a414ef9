// Crude on purpose: three charcoal circles in a row for fruit, floating on bare paper; no table,
// no tone, no light.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e6e3dc');
  brush.scaleBrushes(3);

  brush.set('charcoal', '#2c2a27', 1);
  brush.circle(175, 320, 48);
  brush.circle(300, 320, 48);
  brush.circle(425, 320, 48);
}
