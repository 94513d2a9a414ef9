// Crude: the whole seaside as flat cut-paper bands, a light blue sky, a blue sea and a sand
// strip, with a yellow sun disc in the corner and two V-shaped gulls; every shape one flat tone.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e2d8c8');
  brush.scaleBrushes(3);
  // A short stroke first: washes before any stroke can be dropped.
  brush.set('cpencil', '#e2d8c8', 0.5);
  brush.line(1, 1, 2, 2);
  brush.noStroke();
  brush.wash('#a8cce8', 255);
  brush.rect(0, 0, 600, 300);
  brush.wash('#3a6cb0', 255);
  brush.rect(0, 300, 600, 170);
  brush.wash('#e4c890', 255);
  brush.rect(0, 470, 600, 130);
  brush.wash('#f6d040', 255);
  brush.circle(480, 110, 45);
  brush.noWash();
  brush.set('crayon', '#404040', 1.2);
  for (const [x, y] of [[180, 130], [250, 165]]) {
    brush.line(x - 16, y - 8, x, y);
    brush.line(x, y, x + 16, y - 8);
  }
  brush.noStroke();
}
