// Weak on purpose: three circles marched in a diagonal, flat opaque washes with hard edges,
// the overlaps gone muddy, the page half empty, a crooked pencil ring.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6efe0');
  brush.scaleBrushes(3);

  brush.set('HB', '#555555', 0.8);
  brush.circle(350, 350, 95);
  brush.noStroke();
  brush.wash('#b8707a', 200);
  brush.circle(200, 200, 90);
  brush.wash('#4f7f7c', 200);
  brush.circle(290, 290, 90);
  brush.wash('#a08a4a', 200);
  brush.circle(380, 380, 90);
  brush.noWash();
  brush.set('HB', '#555555', 0.8);
  brush.circle(205, 195, 95);
}
