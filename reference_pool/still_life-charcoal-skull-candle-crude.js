// Weak: a skull, a candle and a book as stiff outlines in a row, with a muddy scrubbed background and no real light.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#dedad2');
  brush.scaleBrushes(3);

  // Muddy background scrub.
  brush.noStroke();
  brush.hatchStyle('charcoal', '#6a665f', 0.8);
  brush.hatch(9, 0.4, { rand: 0.6 });
  brush.rect(0, 0, 600, 380);
  brush.noHatch();
  brush.set('charcoal', '#3a3733', 1);
  brush.line(0, 380, 600, 380);

  // Book: a flat rectangle.
  brush.set('charcoal', '#2a2826', 1.2);
  brush.rect(320, 330, 200, 50);
  // Skull: a circle, two dots and a jaw box.
  brush.set('charcoal', '#2a2826', 1.2);
  brush.circle(420, 270, 48);
  brush.rect(395, 305, 50, 25);
  brush.noStroke();
  brush.hatchStyle('charcoal', '#1e1c1a', 1);
  brush.hatch(2.2, 0.5);
  brush.circle(402, 266, 15);
  brush.circle(438, 266, 15);
  brush.polygon([[420, 280], [428, 296], [412, 296]]);
  brush.noHatch();
  // Candle: a tall box and a scribbled flame.
  brush.set('charcoal', '#2a2826', 1.2);
  brush.rect(150, 200, 40, 180);
  brush.set('charcoal', '#2a2826', 0.8);
  brush.spline([[170, 200], [160, 180], [170, 160], [180, 180], [170, 200]], 0.5);
}
