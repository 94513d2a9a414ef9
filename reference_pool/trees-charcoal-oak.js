// A lone oak in a field, charcoal: massed crown, a gnarled trunk, a long shadow.

function branch(x, y, ang, len, w, depth) {
  // Recursive branching drawn with tapered charcoal strokes.
  const x2 = x + cos(ang) * len;
  const y2 = y + sin(ang) * len;
  brush.set('charcoal', '#1c1a18', w);
  brush.line(x, y, x2, y2);
  if (depth === 0) return;
  const n = depth > 2 ? 2 : 3;
  for (let i = 0; i < n; i++) {
    branch(x2, y2, ang + random(-0.7, 0.7), len * random(0.6, 0.8), w * 0.65, depth - 1);
  }
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#ebe7df');
  brush.scaleBrushes(3);

  // Crown: three massed clumps, darker underneath.
  brush.noStroke();
  brush.mass('charcoal', '#3c3935', { precision: 0.35, strength: 0.75, gradient: 0.3 });
  brush.circle(300, 210, 150, 0.7);
  brush.noMass();
  brush.mass('charcoal', '#1f1d1b', { precision: 0.35, strength: 0.9 });
  brush.circle(220, 260, 80, 0.8);
  brush.circle(390, 250, 90, 0.8);
  brush.noMass();

  // Trunk and branches.
  brush.set('charcoal', '#151311', 3.2);
  brush.spline([[300, 520], [292, 450], [305, 380], [298, 320]], 0.5);
  randomSeed(7);
  branch(298, 330, -PI / 2 - 0.5, 80, 1.8, 4);
  branch(298, 330, -PI / 2 + 0.5, 80, 1.8, 4);
  branch(300, 360, -PI / 2, 70, 1.6, 3);

  // Field and the tree's shadow.
  brush.set('charcoal', '#4a4743', 1);
  brush.line(0, 520, 600, 515);
  brush.hatchStyle('charcoal', '#3a3733', 0.7);
  brush.hatch(5, 0, { rand: 0.3 });
  brush.noStroke();
  brush.beginShape(0.8);
  brush.vertex(250, 522);
  brush.vertex(470, 530);
  brush.vertex(520, 550);
  brush.vertex(260, 545);
  brush.endShape(true);
  brush.noHatch();
  for (let i = 0; i < 80; i++) {
    const x = random(0, 600);
    const y = random(525, 600);
    brush.set('2B', '#55514c', 0.6);
    brush.line(x, y, x + random(-3, 3), y - random(5, 12));
  }
}
