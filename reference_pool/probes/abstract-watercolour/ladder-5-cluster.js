// Competent: circles of three sizes gathered off-centre and drifting to the upper right,
// rose and gold warm against one large teal; two glazes each, so the overlaps deepen, on cream
// paper with room to breathe.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6efe0');
  brush.scaleBrushes(3);
  brush.noStroke();
  const discs = [
    [250, 340, 135, '#3f9a98'],
    [350, 250, 100, '#d7788a'],
    [190, 220, 70, '#e2b04a'],
    [420, 140, 45, '#e2b04a'],
    [480, 90, 24, '#d7788a'],
    [330, 450, 40, '#d7788a'],
  ];
  for (let g = 0; g < 2; g++) {
    for (const [x, y, r, c] of discs) {
      brush.fill(c, 145);
      brush.fillBleed(0.18, 'out');
      brush.fillTexture(0.5, 0.5);
      brush.circle(x + random(-5, 5), y + random(-5, 5), r * (1 - g * 0.12), 0.3);
    }
  }
  brush.noFill();
}
