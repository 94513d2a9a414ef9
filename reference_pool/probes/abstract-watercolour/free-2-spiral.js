// A spiral of translucent circles unwinding from a small deep-gold centre: rose, teal and gold
// in turn, each larger and paler than the last as the curl opens out toward the lower left,
// neighbours overlapping so the colours glaze where they touch; cream paper all round.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6efe0');
  brush.scaleBrushes(3);
  brush.noStroke();

  const colours = ['#e3aa38', '#d46e84', '#3a9290'];
  const cx = 320;
  const cy = 250;
  // Drawn from the outside in, so the small deep circles of the centre sit on top.
  for (let i = 10; i >= 0; i--) {
    const a = -3.84 + i * 0.62;
    const d = 8 + i * 21;
    const r = 16 + i * 8;
    brush.fill(colours[i % 3], 200 - i * 6);
    brush.fillBleed(0.14, 'out');
    brush.fillTexture(0.5, 0.55);
    brush.circle(cx + cos(a) * d, cy + sin(a) * d, r, 0.25);
  }
  // A second glaze on the three innermost circles: the eye starts at the centre.
  for (let i = 0; i < 3; i++) {
    const a = -3.84 + i * 0.62;
    const d = 8 + i * 21;
    brush.fill(colours[i % 3], 110);
    brush.fillBleed(0.1, 'out');
    brush.fillTexture(0.5, 0.6);
    brush.circle(cx + cos(a) * d + 3, cy + sin(a) * d + 3, (16 + i * 8) * 0.7, 0.25);
  }
  brush.noFill();
}
