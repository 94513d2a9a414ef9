// Weak on purpose: a beach at sunset scribbled in a few strokes, an outlined sun, pink squiggles, bare paper for the sand.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e0d6c8');
  brush.scaleBrushes(3);
  // Sun: just an outline.
  brush.set('crayon', '#e0a040', 1.4);
  brush.circle(420, 190, 36);
  // Clouds: pink zigzag scribbles.
  for (const [x, y] of [[120, 110], [300, 80]]) {
    brush.set('pastel', '#d890a0', 1.8);
    brush.line(x, y, x + 40, y + 12);
    brush.line(x + 40, y + 12, x + 80, y);
    brush.line(x + 80, y, x + 120, y + 12);
  }
  // Sea: one wavy blue line and one straight one.
  brush.set('crayon', '#5a78a8', 1.4);
  brush.line(0, 270, 600, 270);
  brush.spline([[0, 300], [150, 290], [300, 305], [450, 290], [600, 300]], 0.5);
  // Wet sand: a pink smear as the reflection.
  brush.set('pastel', '#d890a0', 2.6);
  brush.line(150, 360, 330, 365);
  // Dry sand: four flat strokes.
  for (let i = 0; i < 4; i++) {
    brush.set('crayon', '#c0a070', 1.6);
    brush.line(0, 430 + i * 40, 600, 436 + i * 40);
  }
}
