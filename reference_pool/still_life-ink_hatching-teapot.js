// A round teapot, a cup and a lemon in pen and ink, modelled entirely with hatching.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fbf9f3');
  brush.scaleBrushes(3);
  const ink = '#15151c';

  // Teapot body: light hatching everywhere, a second crossing layer on the shadow side.
  brush.set('pen', ink, 1.1);
  brush.hatchStyle('pen', ink, 0.5);
  brush.hatch(7, PI / 4, { rand: 0.1 });
  brush.circle(260, 330, 110, 0.2);
  brush.noStroke();
  brush.hatch(5, -PI / 4, { rand: 0.1 });
  brush.beginShape(0.6);
  brush.vertex(300, 240);
  brush.vertex(370, 330);
  brush.vertex(300, 430);
  brush.vertex(330, 330);
  brush.endShape(true);
  brush.noHatch();

  // Lid, knob, spout and handle.
  brush.set('pen', ink, 1.1);
  brush.spline([[200, 235], [260, 210], [320, 235]], 0.6);
  brush.spline([[200, 235], [260, 250], [320, 235]], 0.6);
  brush.circle(260, 205, 12);
  brush.spline([[155, 330], [110, 300], [90, 250], [70, 240]], 0.5);
  brush.spline([[160, 370], [115, 330], [95, 265], [70, 240]], 0.5);
  brush.spline([[360, 280], [420, 270], [430, 340], [360, 380]], 0.7);
  brush.spline([[365, 300], [405, 295], [405, 340], [362, 362]], 0.7);

  // Cup and saucer to the right.
  brush.hatchStyle('pen', ink, 0.45);
  brush.hatch(4, PI / 3, { rand: 0.1 });
  brush.beginShape(0.4);
  brush.vertex(430, 400);
  brush.vertex(530, 400);
  brush.vertex(515, 455);
  brush.vertex(445, 455);
  brush.endShape(true);
  brush.noHatch();
  brush.spline([[410, 458], [480, 472], [550, 458]], 0.5);
  brush.spline([[530, 410], [555, 415], [550, 440], [520, 445]], 0.6);

  // Lemon in front.
  brush.hatchStyle('pen', ink, 0.45);
  brush.hatch(3.5, PI / 8, { rand: 0.15, gradient: 0.3 });
  brush.beginShape(0.8);
  brush.vertex(330, 470);
  brush.vertex(370, 450);
  brush.vertex(420, 465);
  brush.vertex(425, 480);
  brush.vertex(380, 500);
  brush.vertex(335, 492);
  brush.endShape(true);
  brush.noHatch();

  // Table edge and the teapot's cast shadow, hatched in two directions.
  brush.set('rotring', ink, 0.9);
  brush.line(20, 440, 580, 440);
  brush.noStroke();
  brush.hatchStyle('pen', ink, 0.45);
  brush.hatch(4, 0, { rand: 0.1 });
  brush.polygon([[180, 440], [380, 440], [330, 470], [200, 470]]);
  brush.hatch(4, PI / 2, { rand: 0.1 });
  brush.polygon([[220, 440], [360, 440], [320, 458], [230, 458]]);
  brush.noHatch();
}
