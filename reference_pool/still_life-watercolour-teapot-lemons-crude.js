// Weak on purpose: a teapot and lemons set in a stiff row: a flat blue disc with a stick spout,
// yellow ovals floating beside it, a muddy grey table wash and no shadows to seat them.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6f1e6');
  brush.scaleBrushes(3);

  brush.set('HB', '#555555', 0.8);
  brush.line(0, 400, 600, 400);
  brush.noStroke();
  brush.wash('#9c9a8e', 200);
  brush.rect(0, 400, 600, 200);
  brush.wash('#4a6fa8', 230);
  brush.circle(200, 330, 80);
  brush.rect(170, 235, 60, 18);
  brush.wash('#e2c445', 230);
  brush.circle(370, 370, 36);
  brush.circle(460, 370, 36);
  brush.circle(545, 370, 36);
  brush.noWash();

  brush.set('marker', '#4a6fa8', 1.8);
  brush.line(275, 320, 330, 270);
  brush.arc(120, 330, 38, HALF_PI, PI + HALF_PI);
}
