// Ok on purpose: rose, teal and gold circles in two tidy rows, evenly sized and spaced, each
// overlapping its neighbour; correct and translucent, but a plain, predictable arrangement.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6efe0');
  brush.scaleBrushes(3);
  brush.noStroke();

  const colours = ['#d77a8a', '#3f9a98', '#e0b24a'];
  for (let row = 0; row < 2; row++) {
    for (let i = 0; i < 4; i++) {
      brush.fill(colours[(i + row) % 3], 170);
      brush.fillBleed(0.1, 'out');
      brush.fillTexture(0.4, 0.5);
      brush.circle(120 + i * 120, 230 + row * 150, 82);
    }
  }
  brush.noFill();
}
