// Ok: a bare oak on a low rounded hill, centred and upright, branches drawn cleanly in charcoal; correct but calm and plain, with no weather or light.

function branch(x, y, ang, len, w, depth) {
  const x2 = x + cos(ang) * len;
  const y2 = y + sin(ang) * len;
  brush.set('charcoal', '#2a2826', w);
  brush.spline([[x, y], [(x + x2) / 2 + random(-4, 4), (y + y2) / 2 + random(-4, 4)], [x2, y2]], 0.5);
  if (depth === 0) return;
  branch(x2, y2, ang - random(0.3, 0.6), len * random(0.68, 0.8), w * 0.7, depth - 1);
  branch(x2, y2, ang + random(0.3, 0.6), len * random(0.68, 0.8), w * 0.7, depth - 1);
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#eeebe4');
  brush.scaleBrushes(3);

  // Hill.
  brush.noStroke();
  brush.hatchStyle('charcoal', '#8a867f', 0.7);
  brush.hatch(6, 0.1, { rand: 0.3 });
  brush.beginShape(0.7);
  brush.vertex(-10, 520);
  brush.vertex(160, 470);
  brush.vertex(300, 455);
  brush.vertex(440, 470);
  brush.vertex(610, 520);
  brush.vertex(610, 610);
  brush.vertex(-10, 610);
  brush.endShape(true);
  brush.noHatch();
  brush.set('charcoal', '#4a4742', 1);
  brush.spline([[-10, 520], [160, 470], [300, 455], [440, 470], [610, 520]], 0.6);

  // Trunk: two contour lines and shading on the right.
  brush.noStroke();
  brush.hatchStyle('charcoal', '#4a4742', 0.8);
  brush.hatch(3.5, 1.4, { rand: 0.3 });
  brush.polygon([[300, 300], [318, 300], [324, 462], [302, 462]]);
  brush.noHatch();
  brush.set('charcoal', '#1e1c1a', 1.3);
  brush.spline([[284, 462], [290, 400], [288, 300]], 0.5);
  brush.spline([[326, 462], [318, 400], [318, 300]], 0.5);

  // Branches.
  randomSeed(5);
  branch(300, 305, -PI / 2 - 0.45, 70, 2, 5);
  branch(306, 300, -PI / 2 + 0.1, 80, 2, 5);
  branch(314, 305, -PI / 2 + 0.6, 70, 2, 5);
  branch(296, 340, -PI + 0.4, 50, 1.4, 3);
  branch(318, 350, -0.35, 50, 1.4, 3);
}
