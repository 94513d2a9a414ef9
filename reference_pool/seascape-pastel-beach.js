// Weak on purpose: a flat beach in pastel, three bands and a smudged sun, little else.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#d8d2c6');
  brush.scaleBrushes(3);
  // Sky, sea and sand as a few heavy, muddy strokes.
  for (let i = 0; i < 5; i++) {
    brush.set('pastel', '#a9b4b8', 2);
    brush.line(0, 60 + i * 30, 600, 60 + i * 30);
  }
  for (let i = 0; i < 4; i++) {
    brush.set('pastel', '#6a8088', 2);
    brush.line(0, 250 + i * 25, 600, 255 + i * 25);
  }
  for (let i = 0; i < 5; i++) {
    brush.set('crayon', '#b0a080', 2);
    brush.line(0, 400 + i * 35, 600, 405 + i * 35);
  }
  brush.noStroke();
  brush.mass('pastel', '#c8a070', { precision: 0.3, strength: 0.6 });
  brush.circle(420, 120, 30);
  brush.noMass();
}
