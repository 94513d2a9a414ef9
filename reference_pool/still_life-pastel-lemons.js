// Weak on purpose: three lemons on a plate in pastel, sparse and muddy.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#cfc6b4');
  brush.scaleBrushes(3);

  // Plate: a single grey-brown ring.
  brush.set('pastel', '#8a8070', 1);
  brush.circle(300, 360, 160);
  // Lemons: small smudged yellow-brown blobs with the same dull outline.
  for (const [x, y] of [[250, 340], [330, 330], [300, 390]]) {
    brush.noStroke();
    brush.mass('pastel', '#b8a048', { precision: 0.3, strength: 0.8 });
    brush.circle(x, y, 48, 0.5);
    brush.noMass();
    brush.set('crayon', '#6a5a3a', 0.6);
    brush.circle(x, y, 50, 0.4);
  }
  // Table: a few flat, dull strokes.
  for (let i = 0; i < 6; i++) {
    brush.set('pastel', '#6a6050', 1.6);
    brush.line(0, 480 + i * 18, 600, 486 + i * 18);
  }
}
