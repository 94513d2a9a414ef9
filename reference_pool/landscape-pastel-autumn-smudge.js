// Weak on purpose: an autumn valley as three muddy bands, a smudged sun and a few orange blobs for trees.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#d6cfc4');
  brush.scaleBrushes(3);
  // Sky and hills: a few heavy strokes, colours muddied.
  for (let i = 0; i < 5; i++) {
    brush.set('pastel', '#c89878', 2.4);
    brush.line(0, 40 + i * 35, 600, 45 + i * 35);
  }
  for (let i = 0; i < 4; i++) {
    brush.set('pastel', '#8a7088', 2.4);
    brush.line(0, 250 + i * 30, 300, 330 + i * 30);
    brush.line(300, 330 + i * 30, 600, 250 + i * 30);
  }
  for (let i = 0; i < 4; i++) {
    brush.set('crayon', '#8a6a48', 2);
    brush.line(0, 440 + i * 40, 600, 445 + i * 40);
  }
  // Sun.
  brush.noStroke();
  brush.mass('crayon', '#e8b060', { precision: 0.3, strength: 0.7 });
  brush.circle(300, 150, 30);
  brush.noMass();
  // Trees: orange blobs on sticks.
  for (const x of [90, 200, 400, 510]) {
    brush.set('crayon', '#5a4030', 1);
    brush.line(x, 400, x, 460);
    brush.set('crayon', '#d07a3a', 3);
    brush.line(x - 15, 385, x + 15, 395);
    brush.line(x - 10, 375, x + 12, 400);
  }
}
