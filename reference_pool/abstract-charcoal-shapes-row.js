// Ok: a circle, a square and a triangle in charcoal with a few curved strokes between them on white paper; clean and balanced but evenly spaced and safe.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f1efea');
  brush.scaleBrushes(3);

  // Three shapes in a row, each hatched a different way.
  brush.noStroke();
  brush.hatchStyle('charcoal', '#4a4742', 0.8);
  brush.hatch(5, 0.8, { rand: 0.3 });
  brush.circle(130, 300, 70);
  brush.noHatch();
  brush.hatchStyle('charcoal', '#3a3733', 0.9);
  brush.hatch(4, -0.3, { rand: 0.3 });
  brush.rect(240, 232, 130, 130);
  brush.noHatch();
  brush.hatchStyle('spray', '#4a4742', 2.6);
  brush.hatch(6, 0.2, { rand: 0.3 });
  brush.polygon([[470, 225], [545, 370], [395, 370]]);
  brush.noHatch();
  brush.set('charcoal', '#1e1c1a', 1.1);
  brush.circle(130, 300, 70);
  brush.rect(240, 232, 130, 130);
  brush.polygon([[470, 225], [545, 370], [395, 370]]);

  // Curved strokes above and below.
  brush.set('charcoal', '#2a2826', 1.6);
  brush.spline([[60, 170], [200, 130], [380, 150], [540, 120]], 0.6);
  brush.set('charcoal', '#2a2826', 1.2);
  brush.spline([[60, 460], [220, 500], [400, 470], [540, 500]], 0.6);
  brush.set('charcoal', '#55514c', 0.8);
  brush.spline([[80, 490], [240, 530], [420, 500], [530, 530]], 0.6);
}
