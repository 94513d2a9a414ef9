// Ok on purpose: a small copse of young birches on a spring hillside, seen from a distance:
// correct and tidy, but the trees stand in an even cluster and the palette stays safe.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6f2e6');
  brush.scaleBrushes(3);

  // Pencil first: the line of the hill.
  brush.set('HB', '#7a8a6a', 0.5);
  brush.spline([[0, 420], [200, 380], [420, 395], [600, 430]], 0.5);
  brush.noStroke();

  // Sky and hill.
  brush.fill('#bcd3e4', 170);
  brush.fillBleed(0.1, 'out');
  brush.fillTexture(0.3, 0.2);
  brush.polygon([[-20, -20], [620, -20], [620, 250], [450, 275], [250, 262], [-20, 280]]);
  // Far hills, pale and cool, closing the gap down to the near slope.
  brush.fill('#b7c9bf', 170);
  brush.fillBleed(0.12, 'out');
  brush.fillTexture(0.3, 0.3);
  brush.beginShape(0.5);
  brush.vertex(-20, 432);
  brush.vertex(-20, 330);
  brush.vertex(120, 312);
  brush.vertex(300, 335);
  brush.vertex(470, 318);
  brush.vertex(620, 338);
  brush.vertex(620, 438);
  brush.vertex(420, 402);
  brush.vertex(200, 388);
  brush.endShape(true);
  brush.fill('#a9c86a', 200);
  brush.fillBleed(0.1, 'out');
  brush.fillTexture(0.35, 0.4);
  brush.beginShape(0.5);
  brush.vertex(-20, 620);
  brush.vertex(-20, 425);
  brush.vertex(200, 382);
  brush.vertex(420, 396);
  brush.vertex(620, 432);
  brush.vertex(620, 620);
  brush.endShape(true);
  // Canopies: soft round dabs of young green.
  const trees = [[250, 392, 14], [285, 388, 16], [318, 389, 13], [350, 391, 15], [382, 394, 12], [300, 392, 11]];
  for (const [x, y, s] of trees) {
    brush.fill(random() < 0.5 ? '#9cc255' : '#7fae45', 190);
    brush.fillBleed(0.15, 'out');
    brush.fillTexture(0.4, 0.4);
    brush.circle(x + random(-6, 6), y - s * 7, s * 2.6, 0.6);
  }
  brush.noFill();

  // Trunks masked out in paper-coloured wash, then a few dark birch marks.
  for (const [x, y, s] of trees) {
    brush.wash('#f6f2e6', 240);
    brush.polygon([[x - 3, y], [x + 3, y], [x + 2, y - s * 6.5], [x - 2, y - s * 6.5]]);
  }
  brush.noWash();
  for (const [x, y, s] of trees) {
    brush.set('marker', '#3a342c', 0.5);
    for (let k = 1; k < 4; k++) {
      const yy = y - k * s * 1.6;
      brush.line(x - 3, yy, x, yy + 1);
    }
    brush.set('HB', '#6a665a', 0.4);
    brush.line(x + 3, y, x + 2, y - s * 6.5);
  }
  // Grass and a shadow line under the copse.
  brush.set('marker', '#6f9a48', 0.8);
  brush.spline([[230, 396], [300, 392], [400, 398]], 0.5);
  brush.field('waves');
  for (let i = 0; i < 25; i++) {
    brush.set('marker', '#7fa850', 0.6);
    brush.flowLine(random(0, 600), random(440, 590), random(10, 20), -HALF_PI);
  }
  brush.noField();
}
