// Weak on purpose: a cherry tree as a stiff brown fork with scattered pink dots, on a few pale blue strokes.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e4ded4');
  brush.scaleBrushes(3);
  // Sky: four thin blue strokes.
  for (let i = 0; i < 4; i++) {
    brush.set('pastel', '#a4bcd8', 1.8);
    brush.line(0, 60 + i * 60, 600, 60 + i * 60);
  }
  // Tree: a straight trunk and two straight branches.
  brush.set('crayon', '#6a4a38', 1.6);
  brush.line(300, 520, 300, 300);
  brush.line(300, 360, 220, 250);
  brush.line(300, 300, 300, 210);
  brush.line(300, 330, 380, 260);
  // Blossom: pink dots around the branch ends.
  brush.set('crayon', '#e890a8', 1.6);
  for (let i = 0; i < 24; i++) {
    const [x, y] = random([[220, 250], [300, 210], [380, 260]]);
    brush.circle(x + random(-35, 35), y + random(-30, 30), 3);
  }
  // Ground.
  brush.set('crayon', '#8aa060', 1.4);
  brush.line(150, 520, 450, 520);
}
