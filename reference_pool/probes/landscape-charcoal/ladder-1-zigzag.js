// Crude on purpose: one zigzag charcoal line for mountains across bare paper, nothing else.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#ebe8e1');
  brush.scaleBrushes(3);

  brush.set('charcoal', '#2c2a27', 1.2);
  brush.spline([[40, 380], [140, 260], [240, 380], [340, 260], [440, 380], [560, 280]], 0);
}
