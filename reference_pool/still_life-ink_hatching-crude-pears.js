// Weak on purpose: a box bottle and two lumpy pears, all with the same flat hatching, jammed into the lower left with no shadows.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fdfcf9');
  brush.scaleBrushes(3);
  brush.set('pen', '#2b2b2b', 1);
  brush.line(0, 520, 600, 520);
  brush.hatchStyle('pen', '#2b2b2b', 0.6);
  brush.hatch(6, PI / 4);
  // Bottle.
  brush.rect(60, 330, 60, 190);
  brush.rect(78, 270, 24, 60);
  // Pears: stiff angular teardrops with a stick on top.
  for (const [x, s] of [[178, 1], [250, 0.9]]) {
    brush.beginShape(0.5);
    for (const [u, v] of [[-26, 520], [-38, 490], [-30, 462], [-14, 448], [-9, 424], [9, 424], [14, 448], [30, 462], [38, 490], [26, 520]]) {
      brush.vertex(x + u * s, 520 - (520 - v) * s);
    }
    brush.endShape(true);
  }
  brush.noHatch();
  brush.line(178, 424, 182, 408);
  brush.line(250, 430, 254, 414);
}
