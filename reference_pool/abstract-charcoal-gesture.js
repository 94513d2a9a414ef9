// Weak on purpose: a handful of aimless charcoal gestures in the middle of the page.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#eeece7');
  brush.scaleBrushes(3);
  for (let i = 0; i < 9; i++) {
    brush.set('charcoal', '#302d2a', random(1.2, 2));
    brush.spline([
      [random(180, 420), random(180, 420)],
      [random(180, 420), random(180, 420)],
      [random(180, 420), random(180, 420)],
    ], 0.5);
  }
}
