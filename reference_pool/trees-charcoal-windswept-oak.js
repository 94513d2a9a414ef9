// A lone gnarled oak on a windy hilltop in charcoal: a twisted leaning trunk, bare branches streaming downwind, torn sky and bent grass.

function limb(x, y, ang, len, w, depth) {
  // A bare branch that kinks as it grows and is pushed downwind (to the right).
  // Thick limbs are tapered shapes; thin ones are single strokes.
  const pts = [[x, y]];
  let a = ang;
  let px = x;
  let py = y;
  for (let k = 0; k < 3; k++) {
    a += random(-0.5, 0.5);
    a += (-0.25 - a) * 0.15;
    px += cos(a) * len / 3;
    py += sin(a) * len / 3;
    pts.push([px, py]);
  }
  if (w > 4) {
    const left = [];
    const right = [];
    for (let k = 0; k < 4; k++) {
      const [qx, qy] = pts[k];
      const [nx, ny] = pts[min(3, k + 1)];
      const [bx, by] = pts[max(0, k - 1)];
      const d = atan2(ny - by, nx - bx) + HALF_PI;
      const ww = w * (1 - k * 0.2) * 0.5;
      left.push([qx + cos(d) * ww, qy + sin(d) * ww]);
      right.push([qx - cos(d) * ww, qy - sin(d) * ww]);
    }
    brush.noStroke();
    brush.wash('#34312e', 240);
    brush.polygon([...left, ...right.reverse()]);
    brush.noWash();
    brush.set('charcoal', '#121110', 1);
    brush.spline(left, 0.5);
    brush.set('charcoal', '#d9d5ce', 0.6);
    brush.spline(right.reverse(), 0.5);
  } else {
    brush.set('charcoal', '#1f1d1b', constrain(w * 0.4, 0.35, 1.2));
    brush.spline(pts, 0.5);
  }
  if (depth === 0) return;
  const n = depth > 4 ? 2 : random() < 0.6 ? 2 : 3;
  for (let i = 0; i < n; i++) {
    const from = i === 0 ? pts[3] : pts[2];
    limb(from[0], from[1], a + random(-0.9, 0.7), len * random(0.72, 0.86), w * 0.62, depth - 1);
  }
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e8e5de');
  brush.scaleBrushes(3);

  // Torn sky: a soft grey ceiling, wind-driven streaks rising to the right.
  brush.noStroke();
  brush.wash('#c9c5be', 200);
  brush.rect(0, 0, 600, 480);
  brush.noWash();
  brush.hatchStyle('spray', '#4a4742', 3);
  brush.hatch(12, -0.25, { rand: 0.4 });
  brush.beginShape(0.8);
  brush.vertex(-10, -10);
  brush.vertex(610, -10);
  brush.vertex(610, 90);
  brush.vertex(380, 150);
  brush.vertex(150, 120);
  brush.vertex(-10, 200);
  brush.endShape(true);
  brush.noHatch();
  for (let i = 0; i < 16; i++) {
    const x = random(-80, 520);
    const y = random(30, 330);
    const l = random(90, 220);
    brush.set('charcoal', i % 3 ? '#8a867f' : '#6a665f', random(0.7, 1.6));
    brush.spline([[x, y], [x + l * 0.5, y - l * 0.08], [x + l, y - l * 0.2]], 0.6);
  }

  // The hill: a swelling crest rising to the right, darker towards us.
  const crest = [[-10, 470], [120, 455], [260, 438], [380, 424], [470, 430], [560, 452], [610, 470]];
  brush.noStroke();
  brush.wash('#9b978f', 235);
  brush.polygon([...crest, [610, 610], [-10, 610]]);
  brush.noWash();
  brush.hatchStyle('charcoal', '#55514c', 0.8);
  brush.hatch(5, 0.25, { rand: 0.5 });
  brush.polygon([[-10, 520], [300, 500], [610, 520], [610, 610], [-10, 610]]);
  brush.noHatch();
  brush.set('charcoal', '#3a3733', 1.1);
  brush.spline(crest, 0.5);

  push();
  translate(-70, 0);
  // The oak: a squat, twisted trunk leaning downwind, flaring into roots.
  const trunk = [[318, 444], [346, 428], [352, 390], [350, 350], [362, 316], [384, 296], [420, 292], [436, 310], [424, 340], [420, 380], [430, 420], [470, 442]];
  brush.noStroke();
  brush.wash('#4f4c48', 240);
  brush.polygon(trunk);
  brush.noWash();
  brush.hatchStyle('charcoal', '#1e1c1a', 1);
  brush.hatch(2.8, 1.2, { rand: 0.4 });
  brush.polygon([[396, 296], [420, 292], [436, 310], [424, 340], [420, 380], [430, 420], [470, 442], [400, 444], [394, 380], [398, 330]]);
  brush.noHatch();
  // Bark twisting round the trunk, a knot, a split.
  for (let i = 0; i < 6; i++) {
    const y = 312 + i * 21 + random(-6, 6);
    brush.set('charcoal', '#141312', random(0.5, 0.9));
    brush.spline([[356 + random(-4, 4), y + random(18, 30)], [382 + random(-6, 6), y + random(4, 12)], [418, y - random(8, 20)]], 0.6);
  }
  brush.set('charcoal', '#141312', 1.6);
  brush.spline(trunk.slice(0, 6), 0.5);
  brush.spline(trunk.slice(6).reverse(), 0.5);
  brush.set('charcoal', '#f1eee8', 1);
  brush.spline([[356, 420], [360, 384], [358, 350], [370, 320]], 0.5);
  // Limbs twisting out of the crown, streaming to the right.
  randomSeed(11);
  limb(372, 304, -2.0, 70, 16, 5);
  limb(402, 296, -1.3, 75, 18, 5);
  limb(424, 304, -0.55, 78, 15, 5);
  limb(430, 330, 0.05, 62, 9, 4);
  limb(360, 318, -2.7, 46, 8, 4);
  pop();

  // Grass combed flat by the wind along the crest, and torn leaves flying off.
  for (let i = 0; i < 70; i++) {
    const x = random(-10, 600);
    const t = constrain((x + 10) / 620, 0, 1);
    const y = 470 - t * 40 + sin(t * PI) * -10 + random(0, 90);
    brush.set('charcoal', '#3a3733', random(0.4, 0.8));
    brush.spline([[x, y], [x + 8, y - 8], [x + 20, y - 10]], 0.6);
  }
  for (let i = 0; i < 14; i++) {
    const x = random(430, 590);
    const y = random(180, 360);
    brush.set('charcoal', '#2a2826', 0.7);
    brush.spline([[x, y], [x + 4, y - 3], [x + 8, y - 1]], 0.5);
  }
}
