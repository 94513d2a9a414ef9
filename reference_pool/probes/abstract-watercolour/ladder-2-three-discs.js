// Crude: three flat opaque discs, rose, teal and gold, the same size in a row, none touching.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6efe0');
  brush.scaleBrushes(3);
  brush.noStroke();
  const discs = [
    [150, '#d7788a'],
    [300, '#3f9a98'],
    [450, '#e2b04a'],
  ];
  for (const [x, c] of discs) {
    brush.wash(c, 255);
    brush.circle(x, 300, 62);
  }
  brush.noWash();
}
