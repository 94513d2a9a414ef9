// Weak on purpose: five stiff daisies in a row and a few purple strokes for lavender on bare ochre paper.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#c99d60');
  brush.scaleBrushes(3);

  // Lavender: upright purple strokes, evenly spaced, all the same length.
  for (let x = 40; x < 600; x += 45) {
    brush.set('crayon', '#7a5aa0', 1.2);
    brush.line(x, 520, x, 430);
  }
  // Ground line.
  brush.set('pastel', '#6a7a44', 2);
  brush.line(0, 525, 600, 525);
  // Daisies: a yellow ring with spokes and a brown dot, on a straight stem.
  for (let i = 0; i < 5; i++) {
    const x = 100 + i * 100;
    brush.set('cpencil', '#587038', 1);
    brush.line(x, 380, x, 520);
    brush.set('crayon', '#e8b830', 1.8);
    brush.circle(x, 360, 26);
    for (let k = 0; k < 8; k++) {
      const a = (k * TWO_PI) / 8;
      brush.line(x, 360, x + cos(a) * 26, 360 + sin(a) * 26);
    }
    brush.set('crayon', '#6a4a24', 1.6);
    brush.circle(x, 360, 5);
  }
}
