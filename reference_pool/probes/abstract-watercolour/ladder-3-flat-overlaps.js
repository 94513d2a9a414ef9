// Crude: five flat translucent washes, rose, teal and gold, bunched together in the centre;
// the overlaps show, but every edge is hard and every disc one flat tone, like cut paper.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6efe0');
  brush.scaleBrushes(3);
  brush.noStroke();
  const discs = [
    [250, 250, 85, '#d7788a'],
    [350, 260, 80, '#3f9a98'],
    [300, 340, 85, '#e2b04a'],
    [220, 350, 60, '#3f9a98'],
    [380, 360, 60, '#d7788a'],
  ];
  for (const [x, y, r, c] of discs) {
    brush.wash(c, 150);
    brush.circle(x, y, r);
  }
  brush.noWash();
}
