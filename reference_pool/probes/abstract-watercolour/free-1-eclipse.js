// Three huge translucent circles, rose, teal and gold, so large the edges of the sheet crop
// them: only their lens-shaped overlaps meet in the middle, glazed deepest where all three
// cross, and one small deep rose circle caught on the teal's upper rim for an accent.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6efe0');
  brush.scaleBrushes(3);
  brush.noStroke();

  const giants = [
    [150, 180, 250, ['#e8a0ac', '#d06a80']],
    [470, 290, 230, ['#6db8b2', '#2f8583']],
    [260, 540, 210, ['#f2cc70', '#d99c2c']],
  ];
  // Two glazes each: a wide pale one, then a body pulled in from the rim, so every edge
  // stays soft and the overlaps darken by layering rather than by mixing.
  for (let g = 0; g < 2; g++) {
    for (const [x, y, r, cs] of giants) {
      brush.fill(cs[g], g ? 140 : 180);
      brush.fillBleed(g ? 0.12 : 0.2, 'out');
      brush.fillTexture(0.55, 0.6);
      brush.circle(x + g * 8, y + g * 8, r * (g ? 0.9 : 1));
    }
  }
  // The accent: a small, saturated rose circle with a second glaze at its heart.
  brush.fill('#d46e84', 170);
  brush.fillBleed(0.12, 'out');
  brush.fillTexture(0.5, 0.6);
  brush.circle(500, 70, 30, 0.25);
  brush.fill('#a8445e', 110);
  brush.circle(505, 75, 17, 0.25);
  brush.noFill();
}
