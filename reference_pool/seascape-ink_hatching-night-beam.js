// A lighthouse on a tall cliff at night in indigo ink: cross-hatched sky and sea, the beam and moon left as bare paper.

// A ragged band for clouds and sky layers: a top edge and a noisy bottom edge.
function band(yTop, yBot, amp, seed) {
  const pts = [[-10, yTop]];
  for (let x = -10; x <= 610; x += 20) pts.push([x, yTop + (noise(x * 0.01, seed) - 0.5) * amp * 0.5]);
  pts.push([610, yTop]);
  for (let x = 610; x >= -10; x -= 20) pts.push([x, yBot + (noise(x * 0.012, seed + 7) - 0.5) * amp]);
  return pts;
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f8f5ec');
  brush.scaleBrushes(3);
  const ink = '#1d2340';
  const paper = '#f8f5ec';
  const horizon = 405;

  // Sky: one even layer, then crossing layers with ragged edges so it darkens upward,
  // then two dark cloud streaks.
  brush.noStroke();
  brush.hatchStyle('rotring', ink, 0.4);
  brush.hatch(6.5, 0.1, { rand: 0.12 });
  brush.polygon([[0, 0], [600, 0], [600, 262], [400, 256], [350, horizon], [0, horizon]]);
  brush.hatchStyle('pen', ink, 0.6);
  brush.hatch(7.5, -0.95, { rand: 0.15 });
  brush.polygon(band(-10, 215, 90, 1));
  brush.hatchStyle('rotring', ink, 0.35);
  brush.hatch(6, 0.8, { rand: 0.15 });
  brush.polygon(band(-10, 95, 70, 2));
  brush.hatch(4.8, 0.25, { rand: 0.2 });
  brush.polygon(band(268, 292, 26, 3));
  brush.polygon(band(318, 336, 20, 4));
  brush.noHatch();

  // The beam and the moon are scraped back to bare paper.
  brush.wash(paper, 255);
  brush.polygon([[492, 104], [-5, 128], [-5, 226], [492, 114]]);
  brush.circle(140, 70, 24);
  brush.noWash();

  // Sea: ruled lines, tighter toward the horizon, broken along the moon's path and
  // into foam near the foot of the cliff.
  brush.set('pen', ink, 0.6);
  let y = horizon + 3;
  let gap = 2.8;
  while (y < 600) {
    const pathW = 5 + (y - horizon) * 0.12;
    const cx = 140 + random(-5, 5);
    let x = -10;
    while (x < 610) {
      const x2 = min(x + random(40, 140), 610);
      if (x < cx + pathW && x2 > cx - pathW) {
        if (x < cx - pathW) brush.line(x, y, cx - pathW - random(0, 5), y);
        if (random() < 0.4) {
          const gx = cx + random(-pathW * 0.6, pathW * 0.6);
          brush.line(gx - 3, y, gx + 3, y);
        }
        x = cx + pathW + random(0, 5);
        continue;
      }
      brush.line(x, y + random(-0.6, 0.6), x2, y + random(-0.6, 0.6));
      x = x2 + (x2 > 240 && y > 470 ? random(10, 30) : random(3, 12));
    }
    y += gap;
    gap *= 1.04;
  }
  brush.set('rotring', ink, 0.8);
  brush.line(0, horizon, 380, horizon);

  // The cliff: a jagged seaward face and a flat top.
  const face = [[400, 256], [386, 276], [391, 300], [373, 322], [379, 350], [361, 372], [367, 402],
    [349, 432], [354, 470], [336, 500], [341, 540], [320, 570], [312, 600]];
  const top = [[400, 256], [440, 250], [500, 262], [560, 258], [610, 262]];
  const cliff = [...top.slice().reverse(), ...face, [610, 600]];
  brush.wash(paper, 255);
  brush.polygon(cliff);
  brush.noWash();
  // Rock: two even layers over the whole cliff, a third in ragged shadow patches,
  // and dense dark crevices. The seaward face catches the moon and stays lighter.
  brush.noStroke();
  brush.hatchStyle('pen', ink, 0.5);
  brush.hatch(4.4, 1.38, { rand: 0.12 });
  brush.polygon(cliff);
  brush.hatch(5, -1.05, { rand: 0.12 });
  brush.polygon([[430, 252], [610, 262], [610, 600], [380, 600], [372, 470], [395, 380], [410, 300]]);
  brush.hatchStyle('rotring', ink, 0.33);
  for (let i = 0; i < 7; i++) {
    const cx = random(400, 600);
    const cy = random(290, 590);
    const r = random(25, 55);
    const blob = [];
    for (let k = 0; k < 12; k++) {
      const ang = (k / 12) * TWO_PI;
      const rr = r * (0.6 + noise(cx * 0.05 + cos(ang), cy * 0.05 + sin(ang)) * 0.8);
      blob.push([cx + cos(ang) * rr * 0.7, cy + sin(ang) * rr * 1.3]);
    }
    brush.hatch(4.5, random(0.05, 0.35), { rand: 0.15 });
    brush.polygon(blob);
  }
  // Crevices: thin jagged wedges running down the face, cross-hatched almost solid.
  const crevices = [];
  for (const [x0, y0, len] of [[428, 256, 200], [470, 300, 260], [520, 262, 150], [560, 360, 230], [396, 340, 170]]) {
    const left = [];
    const right = [];
    let x = x0;
    for (let yy = y0; yy <= y0 + len; yy += 24) {
      const w = 5 * sin(PI * (yy - y0) / len) + 1;
      x += random(-9, 5);
      left.push([x - w, yy]);
      right.unshift([x + w, yy]);
    }
    crevices.push([...left, ...right]);
  }
  for (const cr of crevices) {
    brush.hatchStyle('rotring', ink, 0.4);
    brush.hatch(2.5, 0.3, { rand: 0.1 });
    brush.polygon(cr);
    brush.hatch(2.8, -0.9, { rand: 0.1 });
    brush.polygon(cr);
  }
  brush.noHatch();
  brush.set('rotring', ink, 0.6);
  for (const cr of crevices) brush.spline(cr.slice(0, cr.length / 2), 0.4);
  brush.set('rotring', ink, 0.9);
  brush.spline(face, 0.3);
  brush.spline(top, 0.5);
  brush.set('rotring', ink, 0.7);
  // Ledges: short strata strokes.
  for (let i = 0; i < 14; i++) {
    const x0 = random(360, 590);
    const y0 = random(300, 590);
    brush.line(x0, y0, x0 + random(14, 40), y0 + random(-3, 3));
  }
  // Foam curls at the foot of the cliff.
  brush.set('pen', ink, 0.6);
  for (let i = 0; i < 7; i++) {
    const fx = random(250, 330);
    const fy = random(490, 590);
    brush.spline([[fx - 12, fy + 2], [fx - 4, fy - 3], [fx + 6, fy - 1], [fx + 10, fy + 3]], 0.7);
  }

  // Grass along the cliff top.
  brush.set('pen', ink, 0.6);
  for (let i = 0; i < 36; i++) {
    const x0 = random(405, 600);
    const y0 = x0 < 440 ? lerp(256, 250, (x0 - 400) / 40) : x0 < 500 ? lerp(250, 262, (x0 - 440) / 60) : lerp(262, 258, (x0 - 500) / 60);
    brush.line(x0, y0 + 1, x0 + random(-3, 3), y0 - random(4, 9));
  }

  // Tower: white, shaded on its right side.
  const tx = 470;
  const base = 256;
  const tower = [[tx - 17, base], [tx - 10, 122], [tx + 10, 122], [tx + 17, base]];
  brush.wash(paper, 255);
  brush.polygon(tower);
  brush.noWash();
  brush.set('pen', ink, 1.1);
  brush.polygon(tower);
  brush.noStroke();
  brush.hatchStyle('pen', ink, 0.45);
  brush.hatch(2.6, 1.5, { rand: 0.05 });
  brush.polygon([[tx + 4, base], [tx + 5, 122], [tx + 10, 122], [tx + 17, base]]);
  brush.noHatch();
  brush.set('pen', ink, 0.8);
  brush.rect(tx - 4, base - 17, 8, 17);
  brush.rect(tx - 3, 200, 5, 8);
  brush.rect(tx - 2, 160, 5, 8);
  // Gallery, lantern room and cap.
  brush.set('pen', ink, 1);
  brush.line(tx - 16, 122, tx + 16, 122);
  brush.line(tx - 16, 116, tx + 16, 116);
  for (const gx of [-14, -8, 0, 8, 14]) brush.line(tx + gx, 116, tx + gx, 122);
  brush.rect(tx - 9, 98, 18, 18);
  brush.line(tx, 98, tx, 116);
  brush.hatchStyle('rotring', ink, 0.45);
  brush.hatch(2.2, 0.7, { rand: 0.05 });
  brush.polygon([[tx - 12, 98], [tx, 82], [tx + 12, 98]]);
  brush.noHatch();
  brush.line(tx, 82, tx, 74);
  brush.set('pen', ink, 0.5);
  for (let a = -2.6; a < 2.7; a += 0.52) {
    if (abs(abs(a) - PI) < 0.6) continue;
    brush.line(tx + cos(a) * 16, 107 + sin(a) * 16, tx + cos(a) * 26, 107 + sin(a) * 26);
  }

  // Keeper's cottage beside the tower, one window lit.
  brush.set('pen', ink, 1);
  brush.wash(paper, 255);
  brush.polygon([[505, 262], [550, 260], [550, 232], [505, 234]]);
  brush.noWash();
  brush.hatchStyle('pen', ink, 0.45);
  brush.hatch(3, 1.45, { rand: 0.08 });
  brush.polygon([[505, 262], [550, 260], [550, 232], [505, 234]]);
  brush.hatch(2.4, 0.45, { rand: 0.08 });
  brush.polygon([[501, 235], [527, 216], [554, 233]]);
  brush.noHatch();
  brush.wash(paper, 255);
  brush.rect(520, 240, 10, 10);
  brush.noWash();
  brush.rect(520, 240, 10, 10);

  // Moon outline and two gulls in the beam.
  brush.set('pen', ink, 0.8);
  brush.circle(140, 70, 24);
  brush.set('pen', ink, 0.7);
  for (const [gx, gy] of [[220, 160], [252, 150]]) {
    brush.spline([[gx - 9, gy - 2], [gx - 4, gy - 6], [gx, gy]], 0.7);
    brush.spline([[gx, gy], [gx + 4, gy - 6], [gx + 9, gy - 2]], 0.7);
  }
}
