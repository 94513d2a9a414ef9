// Ok: a wine bottle between three pears lined up on a table edge, black ink; each object is drawn and shaded correctly, but they stand in a plain row on bare paper.

const INK = '#1a1a1a';
const PEAR = [[0, 0], [0.38, -0.08], [0.5, -0.35], [0.46, -0.62], [0.3, -0.85], [0.2, -1.05], [0.15, -1.25],
  [0.05, -1.35], [-0.08, -1.33], [-0.16, -1.2], [-0.22, -1.0], [-0.34, -0.8], [-0.48, -0.6], [-0.5, -0.32], [-0.38, -0.07]];

function pear(x, y, s) {
  const pts = PEAR.map(([u, v]) => [x + u * s, y + v * s]);
  brush.noStroke();
  brush.wash('#fcfbf7', 255);
  brush.polygon(pts);
  brush.noWash();
  brush.set('pen', INK, 1);
  brush.hatchStyle('pen', INK, 0.45);
  brush.hatch(5, 0.9, { rand: 0.1 });
  brush.beginShape(0.5);
  for (const p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
  brush.noStroke();
  brush.hatch(3.6, -0.7, { rand: 0.1 });
  brush.polygon([[0.05, -0.02], [0.38, -0.08], [0.5, -0.35], [0.46, -0.62], [0.3, -0.85], [0.12, -0.7], [0.2, -0.35]].map(([u, v]) => [x + u * s, y + v * s]));
  brush.noHatch();
  brush.set('pen', INK, 1.4);
  brush.line(x - 0.01 * s, y - 1.33 * s, x + 0.08 * s, y - 1.5 * s);
  // Cast shadow to the right.
  brush.noStroke();
  brush.hatchStyle('pen', INK, 0.45);
  brush.hatch(3, 0.05, { rand: 0.1 });
  brush.polygon([[x + 0.1 * s, y + 2], [x + 0.9 * s, y - 4], [x + 0.8 * s, y + 6], [x, y + 8]]);
  brush.noHatch();
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fcfbf7');
  brush.scaleBrushes(3);

  // Table: a back edge and a front edge, the front face hatched once.
  brush.set('rotring', INK, 0.8);
  brush.line(20, 400, 580, 400);
  brush.line(20, 480, 580, 480);
  brush.noStroke();
  brush.hatchStyle('pen', INK, 0.45);
  brush.hatch(4.5, PI / 2, { rand: 0.1 });
  brush.rect(20, 480, 560, 40);
  brush.noHatch();

  pear(110, 452, 80);
  pear(420, 450, 88);
  pear(515, 456, 72);

  // Bottle: two layers of hatching, a paper highlight on the left, a plain label.
  const bottle = [[258, 452], [256, 270], [266, 240], [286, 222], [286, 140], [284, 130], [306, 130], [304, 140],
    [304, 222], [324, 240], [334, 270], [332, 452]];
  brush.wash('#fcfbf7', 255);
  brush.polygon(bottle);
  brush.noWash();
  brush.set('pen', INK, 1.1);
  brush.hatchStyle('pen', INK, 0.5);
  brush.hatch(3.4, PI / 2, { rand: 0.08 });
  brush.polygon(bottle);
  brush.noStroke();
  brush.hatch(4, 0.6, { rand: 0.08 });
  brush.polygon(bottle);
  brush.noHatch();
  brush.wash('#fcfbf7', 255);
  brush.rect(268, 280, 7, 160);
  brush.rect(257, 320, 76, 50);
  brush.noWash();
  brush.set('pen', INK, 0.8);
  brush.rect(257, 320, 76, 50);
  brush.noStroke();
  brush.hatchStyle('pen', INK, 0.45);
  brush.hatch(3, 0.05, { rand: 0.1 });
  brush.polygon([[332, 444], [400, 440], [392, 452], [332, 454]]);
  brush.noHatch();
}
