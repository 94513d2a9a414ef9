// Crude on purpose: three flat discs of red, yellow and purple on straight stems with triangle
// leaves, standing in a flat green band of grass; symbols side by side, no petals, no bleeding.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6efdf');
  brush.scaleBrushes(3);

  brush.noStroke();
  brush.wash('#7fae5a', 210);
  brush.rect(0, 480, 600, 120);
  brush.noWash();

  const flowers = [[150, 270, '#d8323a'], [300, 200, '#e8b73a'], [450, 280, '#7b5aa6']];
  brush.set('marker', '#3f7a35', 1.3);
  for (const [x, y] of flowers) brush.line(x, 485, x, y);
  brush.noStroke();
  brush.wash('#4f8c3c', 220);
  for (const [x] of flowers) {
    brush.polygon([[x, 420], [x + 45, 395], [x + 8, 440]]);
    brush.polygon([[x, 380], [x - 45, 355], [x - 8, 400]]);
  }
  brush.noWash();
  for (const [x, y, c] of flowers) {
    brush.wash(c, 230);
    brush.circle(x, y, 48);
    brush.noWash();
    brush.wash('#f3d36b', 230);
    brush.circle(x, y, 12);
    brush.noWash();
  }
}
