// Plain: five watercolour circles of one size in a level row across the middle, rose, teal and
// gold in turn, each overlapping its neighbour; bleeding, textured rims, but one glaze each and
// an even, predictable layout.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6efe0');
  brush.scaleBrushes(3);
  brush.noStroke();
  const colours = ['#d7788a', '#3f9a98', '#e2b04a'];
  for (let i = 0; i < 5; i++) {
    brush.fill(colours[i % 3], 160);
    brush.fillBleed(0.12, 'out');
    brush.fillTexture(0.4, 0.5);
    brush.circle(100 + i * 100, 300, 68, 0.2);
  }
  brush.noFill();
}
