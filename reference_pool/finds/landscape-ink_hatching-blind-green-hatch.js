function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background(212, 217, 174);
  brush.scaleBrushes(2.27);
  brush.set('pastel', '#c85d2f', 3.35);
  brush.beginStroke('curve', 188, 365.4);
  brush.move(1.660, 349.4, 1);
  brush.move(-1.590, 546.8, 1);
  brush.move(-0.200, 157.2, 1);
  brush.move(0.155, 256.7, 1);
  brush.move(-3.080, 273.2, 1);
  brush.endStroke(-3.080, 1);
  brush.pick('charcoal');
  brush.stroke('#9ab71d');
  brush.strokeWeight(1.90);
  brush.hatchStyle('charcoal', '#9ab71d', 1.90);
  brush.hatch(21, 6.110, { rand: 0.192, continuous: false, gradient: 0.179 });
  brush.hatchArray([brush.polygon([[37.1, 303.6], [436.5, 528.5], [398.1, 591.1]])]);
  brush.noHatch();
}
