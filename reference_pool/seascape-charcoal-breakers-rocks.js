// Storm waves bursting over black rocks, charcoal and white chalk on grey paper: smudged sky, dark heaving water, a plume of spray.

function rock(pts, base) {
  // A craggy rock: dark silhouette scrubbed in facets at alternating angles, cracks, wet lit edges.
  brush.noStroke();
  brush.wash('#45423e', 235);
  brush.polygon([[pts[0][0], base], ...pts, [pts[pts.length - 1][0], base]]);
  brush.noWash();
  for (let i = 0; i < pts.length - 1; i++) {
    const [x0, y0] = pts[i];
    const [x1, y1] = pts[i + 1];
    const lit = y1 < y0;
    brush.hatchStyle('charcoal', lit ? '#2e2c29' : '#1e1c1a', 1);
    brush.hatch(lit ? 3.6 : 2.8, lit ? -0.7 : 1.0, { rand: 0.5 });
    brush.polygon([[x0, y0], [x1, y1], [x1 + random(-15, 5), min(base, y1 + random(60, 140))], [x0 + random(-5, 15), min(base, y0 + random(60, 140))]]);
    brush.noHatch();
  }
  brush.hatchStyle('charcoal', '#1e1c1a', 1);
  brush.hatch(3, 0.3, { rand: 0.5 });
  brush.polygon([[pts[0][0], base - 60], [pts[pts.length - 1][0], base - 60], [pts[pts.length - 1][0], base], [pts[0][0], base]]);
  brush.noHatch();
  brush.set('charcoal', '#141312', 1.3);
  brush.spline(pts, 0.15);
  for (let i = 1; i < pts.length - 1; i += 2) {
    const [x, y] = pts[i];
    brush.set('charcoal', '#141312', 0.8);
    brush.spline([[x, y + 4], [x + random(-12, 12), y + 40], [x + random(-20, 20), y + 90]], 0.4);
  }
  for (let i = 0; i < pts.length - 1; i++) {
    if (pts[i + 1][1] < pts[i][1]) {
      brush.set('charcoal', '#ebe8e2', 0.9);
      brush.line(pts[i][0] + 2, pts[i][1] + 3, pts[i + 1][0] + 2, pts[i + 1][1] + 3);
    }
  }
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#c4c0b8');
  brush.scaleBrushes(3);

  // Storm sky: a smudged dark ceiling, lighter at the horizon.
  brush.noStroke();
  brush.wash('#a8a49c', 220);
  brush.rect(0, 0, 600, 236);
  brush.noWash();
  brush.hatchStyle('spray', '#3a3733', 3);
  brush.hatch(10, 0.25, { rand: 0.4 });
  brush.beginShape(0.8);
  brush.vertex(-10, -10);
  brush.vertex(610, -10);
  brush.vertex(610, 120);
  brush.vertex(420, 150);
  brush.vertex(200, 110);
  brush.vertex(-10, 170);
  brush.endShape(true);
  brush.noHatch();
  for (let i = 0; i < 8; i++) {
    const y = 30 + i * 18;
    const x0 = random(-40, 300);
    brush.set('charcoal', '#55514c', random(0.8, 1.3));
    brush.spline([[x0, y], [x0 + 120, y - 6], [x0 + 260, y + 8]], 0.6);
  }

  // The sea: dark water under the horizon, swells drawn as curved strokes.
  brush.wash('#6a665f', 235);
  brush.rect(0, 236, 600, 364);
  brush.noWash();
  brush.set('charcoal', '#2e2c29', 1.1);
  brush.line(0, 237, 600, 235);
  for (let i = 0; i < 16; i++) {
    const y = 250 + i * i * 1.4 + i * 6;
    const amp = 3 + i * 0.8;
    const pts = [];
    for (let x = -20; x <= 620; x += 40) pts.push([x, y + sin(x * 0.02 + i * 1.3) * amp]);
    brush.set('charcoal', i % 2 ? '#34312d' : '#45423d', 0.8 + i * 0.07);
    brush.spline(pts, 0.5);
  }
  // Wave troughs rubbed darker.
  brush.noStroke();
  brush.hatchStyle('charcoal', '#2e2c29', 1);
  brush.hatch(4, 0.12, { rand: 0.5 });
  brush.beginShape(0.8);
  brush.vertex(-10, 380);
  brush.vertex(150, 360);
  brush.vertex(300, 395);
  brush.vertex(300, 430);
  brush.vertex(120, 420);
  brush.vertex(-10, 440);
  brush.endShape(true);
  brush.noHatch();

  // Whitecaps torn off the swell crests, thicker towards the rocks.
  for (let i = 0; i < 40; i++) {
    const y = random(250, 420);
    const x = random(0, 600);
    const l = random(10, 30) * (0.6 + (y - 250) / 200);
    brush.set('charcoal', '#efece6', random(0.5, 1.1));
    brush.spline([[x, y], [x + l * 0.5, y - 3], [x + l, y + 1]], 0.6);
  }
  // A wave rolling in on the left, its crest spilling into foam.
  brush.noStroke();
  brush.hatchStyle('charcoal', '#2e2c29', 1);
  brush.hatch(3.5, -1.2, { rand: 0.45 });
  brush.beginShape(0.7);
  brush.vertex(-10, 420);
  brush.vertex(-10, 370);
  brush.vertex(100, 350);
  brush.vertex(200, 356);
  brush.vertex(280, 390);
  brush.vertex(300, 440);
  brush.vertex(150, 450);
  brush.endShape(true);
  brush.noHatch();
  brush.mass('pastel', '#f6f3ed', { precision: 0.5, strength: 0.5 });
  brush.beginShape(0.8);
  brush.vertex(40, 372);
  brush.vertex(150, 346);
  brush.vertex(250, 366);
  brush.vertex(300, 410);
  brush.vertex(250, 396);
  brush.vertex(150, 366);
  brush.endShape(true);
  brush.noMass();
  brush.set('charcoal', '#f8f6f1', 1.4);
  brush.spline([[-10, 374], [90, 352], [190, 352], [262, 378], [300, 420]], 0.6);

  // Plume of spray flung up off the big rock and torn to the left by the wind.
  brush.noStroke();
  for (const [cx, cy, r, st] of [[450, 300, 95, 0.7], [390, 240, 80, 0.5], [330, 200, 70, 0.35], [480, 210, 60, 0.4]]) {
    brush.mass('pastel', '#f6f3ed', { precision: 0.5, strength: st });
    brush.beginShape(0.9);
    for (let i = 0; i < 9; i++) {
      const a = (i / 9) * TWO_PI;
      const rr = r * random(0.75, 1.15);
      brush.vertex(cx + cos(a) * rr * 1.2, cy + sin(a) * rr * 0.85);
    }
    brush.endShape(true);
    brush.noMass();
  }
  for (let i = 0; i < 24; i++) {
    const a = -PI / 2 + random(-1.2, 0.7);
    const r0 = random(30, 80);
    const r1 = r0 + random(60, 150);
    const x0 = 460 + cos(a) * r0;
    const y0 = 380 + sin(a) * r0;
    const x1 = 460 + cos(a) * r1 - random(20, 60);
    const y1 = 380 + sin(a) * r1;
    brush.set('charcoal', '#f8f6f1', random(0.5, 1.1));
    brush.spline([[x0, y0], [(x0 + x1) / 2, (y0 + y1) / 2], [x1, y1 - 6]], 0.6);
  }
  for (let i = 0; i < 70; i++) {
    const x = random(250, 590);
    const y = random(120, 330);
    brush.set('charcoal', '#f8f6f1', random(0.4, 0.8));
    brush.line(x, y, x - 5, y + 1);
  }

  // The rocks: a craggy outcrop on the right, a low ledge in the left corner.
  rock([[300, 600], [312, 530], [336, 480], [366, 452], [392, 462], [420, 410], [455, 394], [482, 418], [512, 384], [546, 392], [578, 430], [610, 446]], 610);
  rock([[-10, 520], [30, 500], [72, 512], [104, 488], [142, 498], [172, 532], [200, 566], [214, 610]], 610);

  // Foam seething round the foot of the rocks.
  for (let i = 0; i < 22; i++) {
    const x = random(200, 340);
    const y = random(430, 590);
    const l = random(20, 50);
    brush.set('charcoal', '#f4f1eb', random(0.5, 1.1));
    brush.spline([[x, y], [x + l * 0.5, y - random(2, 6)], [x + l, y + random(-3, 3)]], 0.6);
  }
  brush.noStroke();
  brush.mass('pastel', '#f4f1eb', { precision: 0.5, strength: 0.4 });
  brush.beginShape(0.9);
  brush.vertex(230, 450);
  brush.vertex(300, 430);
  brush.vertex(330, 470);
  brush.vertex(310, 520);
  brush.vertex(250, 500);
  brush.endShape(true);
  brush.noMass();
}
