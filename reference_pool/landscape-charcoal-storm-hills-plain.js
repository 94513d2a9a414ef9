// Ok: a row of mountains under a hatched band of storm cloud; drawn correctly in outline and even hatching, but a plain, evenly divided layout.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#ebe8e1');
  brush.scaleBrushes(3);

  // Storm cloud: an even band of hatching hanging from the top, lumpy along its base.
  const base = [];
  for (let i = 0; i <= 8; i++) base.push([600 - i * 75, 170 + (i % 2) * 28 + random(-8, 8)]);
  const cloudPts = [[0, 0], [600, 0], ...base];
  brush.noStroke();
  brush.hatchStyle('charcoal', '#5a5650', 0.8);
  brush.hatch(7, 0.15, { rand: 0.3 });
  brush.polygon(cloudPts);
  brush.noHatch();
  brush.hatchStyle('charcoal', '#3f3c38', 0.8);
  brush.hatch(7, -0.6, { rand: 0.3 });
  brush.polygon([[600, 110], ...base, [0, 130]]);
  brush.noHatch();
  brush.set('charcoal', '#3a3733', 1);
  brush.spline(base, 0.6);

  // Mountain range: a simple outline of five peaks.
  const ridgePts = [[0, 380], [70, 300], [130, 340], [210, 250], [290, 330], [360, 270], [430, 340], [510, 280], [600, 350]];
  brush.noStroke();
  brush.wash('#a8a49d', 150);
  brush.polygon([...ridgePts, [600, 430], [0, 430]]);
  brush.noWash();
  // Shade the right-hand face of each peak.
  for (let i = 1; i < ridgePts.length - 1; i += 2) {
    const [px, py] = ridgePts[i];
    const [vx, vy] = ridgePts[i + 1];
    brush.hatchStyle('charcoal', '#3f3c38', 0.8);
    brush.hatch(5, 1.2, { rand: 0.2 });
    brush.polygon([[px, py], [vx, vy], [vx, 430], [px, 430]]);
    brush.noHatch();
  }
  brush.set('charcoal', '#2a2825', 1.2);
  brush.spline(ridgePts, 0);

  // Flat foreground with a few dark strokes.
  brush.set('charcoal', '#4a4742', 1);
  brush.line(0, 432, 600, 430);
  for (let i = 0; i < 20; i++) {
    const x = random(20, 580);
    const y = random(460, 580);
    brush.set('charcoal', '#6a665f', 0.8);
    brush.line(x, y, x + random(15, 35), y);
  }
}
