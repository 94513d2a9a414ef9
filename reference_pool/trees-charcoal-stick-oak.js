// Weak: a stiff stick tree on a flat line, a few straight branches, sparse and flat.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e6e3dc');
  brush.scaleBrushes(3);
  brush.set('charcoal', '#2a2826', 1.4);
  brush.line(60, 470, 540, 470);
  brush.set('charcoal', '#2a2826', 2.2);
  brush.line(300, 470, 300, 300);
  brush.set('charcoal', '#2a2826', 1.2);
  brush.line(300, 340, 230, 270);
  brush.line(300, 320, 370, 250);
  brush.line(300, 300, 300, 220);
  brush.line(255, 295, 240, 240);
  brush.line(345, 275, 395, 270);
  brush.set('charcoal', '#55514c', 0.8);
  brush.line(180, 470, 175, 460);
  brush.line(420, 470, 426, 460);
}
