// A mountain range under heavy storm clouds in charcoal: wind-driven strokes of sky, rain, light breaking behind a dark massif.

function ridge(base, amp, off, freq) {
  // Ridged noise: sharp crests, soft valleys.
  const pts = [];
  for (let x = -12; x <= 612; x += 8) {
    const n1 = 1 - abs(noise(x * freq + off) * 2 - 1);
    const n2 = 1 - abs(noise(x * freq * 3.3 + off * 2) * 2 - 1);
    pts.push([x, base - amp * (n1 * n1 * 0.82 + n2 * 0.18)]);
  }
  return pts;
}

function faces(pts, depth, tone, w, dist) {
  // Shadow faces: every run of the ridge that falls to the right, hatched down the fall line.
  let run = [];
  const flush = () => {
    if (run.length >= 2) {
      const drop = run[run.length - 1][1] - run[0][1];
      const d = depth * min(1.2, 0.4 + drop / 60);
      const back = run.slice().reverse().map(([x, y], k) => [x - d * 0.3 + random(-6, 6), y + d * (0.35 + 0.65 * sin(PI * (k + 0.5) / run.length)) * random(0.75, 1.1)]);
      brush.noStroke();
      brush.hatchStyle('charcoal', tone, w);
      brush.hatch(dist, 1.25, { rand: 0.45 });
      brush.polygon([...run, ...back]);
      brush.noHatch();
      brush.set('charcoal', tone, w * 1.2);
      brush.spline(run, 0.2);
    }
    run = [];
  };
  for (let i = 1; i < pts.length; i++) {
    if (pts[i][1] > pts[i - 1][1] + 0.5) {
      if (run.length === 0) run.push(pts[i - 1]);
      run.push(pts[i]);
    } else {
      flush();
    }
  }
  flush();
}

function litEdges(pts, tone, w) {
  // Sunlit rims on the left-facing slopes.
  for (let i = 1; i < pts.length; i++) {
    if (pts[i][1] < pts[i - 1][1] - 2) {
      brush.set('charcoal', tone, w);
      brush.line(pts[i - 1][0], pts[i - 1][1] + 2, pts[i][0], pts[i][1] + 2);
    }
  }
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e6e3dc');
  brush.scaleBrushes(3);

  // Under-tone of the sky, heavier to the upper left.
  brush.noStroke();
  brush.wash('#c4c0b9', 200);
  brush.rect(0, 0, 600, 340);
  brush.noWash();
  brush.wash('#a9a59e', 160);
  brush.polygon([[0, 0], [600, 0], [600, 60], [260, 200], [0, 260]]);
  brush.noWash();

  // Cloud banks: rounded billows smudged in with soft charcoal dust, darkest at the top left.
  const banks = [[130, 80, 200, 85, '#3a3733', 10], [430, 40, 230, 60, '#4d4a45', 12], [250, 175, 170, 42, '#55524d', 12], [40, 205, 120, 40, '#4a4742', 12]];
  for (const [cx, cy, w, h, tone, sp] of banks) {
    brush.noStroke();
    brush.hatchStyle('spray', tone, 3);
    brush.hatch(sp, 0.2, { rand: 0.4 });
    brush.beginShape(0.9);
    for (let i = 0; i < 10; i++) {
      const a = PI + (i / 10) * TWO_PI;
      const lump = 1 + 0.2 * sin(i * 2.9 + cx);
      brush.vertex(cx + cos(a) * w * lump, cy + (sin(a) > 0 ? 0.5 : 1) * sin(a) * h * lump);
    }
    brush.endShape(true);
    brush.noHatch();
    // Heavier rubbed underside.
    for (let k = 0; k < 2; k++) {
      brush.set('spray', '#2f2d2a', 2.6 - k * 0.5);
      brush.spline([[cx - w * 0.85, cy + h * 0.2 + k * 6], [cx, cy + h * 0.42 + k * 5], [cx + w * (0.85 - k * 0.2), cy + h * 0.22 + k * 6]], 0.6);
    }
  }
  // The heart of the storm: a second, denser smudge in the top-left bank.
  brush.noStroke();
  brush.hatchStyle('spray', '#2c2a27', 3);
  brush.hatch(11, -0.3, { rand: 0.4 });
  brush.beginShape(0.9);
  brush.vertex(-20, 40);
  brush.vertex(120, 30);
  brush.vertex(260, 70);
  brush.vertex(230, 130);
  brush.vertex(60, 150);
  brush.vertex(-20, 130);
  brush.endShape(true);
  brush.noHatch();
  // A few wind-driven strokes dragged across the banks.
  for (let i = 0; i < 6; i++) {
    const y = 40 + i * 30 + random(-6, 6);
    const x0 = random(-40, 160);
    const len = random(140, 260);
    brush.set('charcoal', '#5a5650', random(0.7, 1.1));
    brush.spline([[x0, y], [x0 + len * 0.5, y + len * 0.05], [x0 + len, y + len * 0.14]], 0.6);
  }

  // Rain falling out of the dark bank.
  for (let i = 0; i < 14; i++) {
    const x = 30 + i * 13 + random(-5, 5);
    brush.set('spray', '#4f4b46', 2);
    brush.line(x, 220 + random(0, 20), x + 40, 360 + random(-15, 10));
  }
  // Rims of light on the clouds around the break.


  // Far range: pale, half lost in rain.
  const far = ridge(360, 110, 5, 0.009);
  brush.noStroke();
  brush.wash('#aaa69f', 230);
  brush.polygon([...far, [612, 600], [-12, 600]]);
  brush.noWash();
  faces(far, 30, '#85817a', 0.9, 7);

  // The massif: one great dark peak left of centre, shadow faces hatched, lit rims.
  const mid = [];
  for (let x = -12; x <= 612; x += 8) {
    const peak = 230 * exp(-pow((x - 220) / 120, 2)) + 120 * exp(-pow((x - 470) / 90, 2));
    const n = 1 - abs(noise(x * 0.02 + 40) * 2 - 1);
    mid.push([x, 470 - peak - n * 45 + random(-2, 2)]);
  }
  brush.noStroke();
  brush.wash('#959189', 240);
  brush.polygon([...mid, [612, 600], [-12, 600]]);
  brush.noWash();
  // Grain of the rock on the lit faces: loose strokes along the slope.
  brush.hatchStyle('charcoal', '#817d76', 0.5);
  brush.hatch(11, -0.9, { rand: 0.6 });
  brush.polygon([...mid, [612, 560], [-12, 560]]);
  brush.noHatch();
  faces(mid, 120, '#36332f', 1.4, 5);
  litEdges(mid, '#f3f0ea', 1);
  brush.set('charcoal', '#2d2b28', 0.8);
  brush.spline(mid, 0.2);
  // Snow gullies: pale streaks running down the lit face of the big peak.
  for (let i = 0; i < 8; i++) {
    const x = 140 + i * 11 + random(-4, 4);
    const y = 470 - 230 * exp(-pow((x - 220) / 120, 2)) - 20;
    brush.set('charcoal', '#eeebe5', random(0.5, 0.8));
    brush.spline([[x, y + 10], [x - 6 + random(-4, 4), y + 40], [x - 14 + random(-6, 6), y + 75]], 0.6);
  }

  // Near ridge: a low dark band across the foot of the picture.
  const near = ridge(565, 70, 29, 0.008);
  brush.noStroke();
  brush.wash('#56534e', 245);
  brush.polygon([...near, [612, 600], [-12, 600]]);
  brush.noWash();
  faces(near, 50, '#22201e', 1.4, 4);
  brush.set('charcoal', '#1b1a18', 1.2);
  brush.spline(near, 0.2);
}
