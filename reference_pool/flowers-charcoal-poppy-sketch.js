// Ok: three poppies in a squat jug, centred, charcoal outlines with light hatching on pale paper; correct but plain, little smudge or depth.

function poppy(cx, cy, r) {
  // Four rounded petals as outlines, a little hatching, a dark centre.
  for (let k = 0; k < 4; k++) {
    const a = -HALF_PI / 2 + k * HALF_PI + random(-0.1, 0.1);
    const pts = [[cx, cy]];
    for (let i = 0; i <= 8; i++) {
      const t = i / 8;
      const b = a + (t - 0.5) * 2.1;
      const rr = r * (0.55 + 0.45 * sqrt(sin(t * PI))) * (1 + 0.06 * sin(t * 19 + k));
      pts.push([cx + cos(b) * rr, cy + sin(b) * rr * 0.85]);
    }
    brush.noStroke();
    brush.hatchStyle('charcoal', '#4a4640', 0.6);
    brush.hatch(5, a + HALF_PI, { rand: 0.4 });
    brush.polygon(pts);
    brush.noHatch();
    brush.set('charcoal', '#2a2724', 0.9);
    brush.spline(pts.slice(1), 0.5);
  }
  brush.noStroke();
  brush.hatchStyle('charcoal', '#1c1a18', 0.8);
  brush.hatch(2.5, 0.8);
  brush.circle(cx, cy, r * 0.22);
  brush.noHatch();
  for (let i = 0; i < 10; i++) {
    const b = (i / 10) * TWO_PI;
    brush.set('charcoal', '#1c1a18', 0.6);
    brush.line(cx + cos(b) * r * 0.15, cy + sin(b) * r * 0.15, cx + cos(b) * r * 0.36, cy + sin(b) * r * 0.36);
  }
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e9e6df');
  brush.scaleBrushes(3);

  // Table line.
  brush.set('charcoal', '#55514b', 1);
  brush.line(40, 470, 560, 466);

  // Stems, straight-ish, from the jug mouth.
  brush.set('charcoal', '#3a3733', 0.8);
  brush.spline([[290, 330], [250, 250], [200, 190]], 0.5);
  brush.spline([[300, 330], [302, 220], [300, 140]], 0.5);
  brush.spline([[310, 330], [350, 250], [400, 200]], 0.5);
  // A leaf on each side.
  brush.set('charcoal', '#3a3733', 0.7);
  brush.spline([[292, 330], [250, 305], [225, 310]], 0.5);
  brush.spline([[308, 330], [350, 300], [380, 308]], 0.5);

  poppy(200, 190, 48);
  poppy(300, 140, 52);
  poppy(400, 200, 46);

  // Jug: outline plus side hatching.
  const jug = [[262, 330], [338, 330], [345, 350], [372, 400], [370, 450], [350, 480], [250, 480], [230, 450], [228, 400], [255, 350]];
  brush.noStroke();
  brush.hatchStyle('charcoal', '#6a655e', 0.7);
  brush.hatch(5, PI / 2.5, { rand: 0.2 });
  brush.polygon([[320, 332], [338, 330], [345, 350], [372, 400], [370, 450], [350, 480], [322, 480], [340, 420]]);
  brush.noHatch();
  brush.set('charcoal', '#2a2724', 1.1);
  brush.spline([...jug, jug[0]], 0.5);
  brush.spline([[368, 380], [405, 392], [400, 440], [366, 455]], 0.6);

  // Shadow on the table.
  brush.noStroke();
  brush.hatchStyle('charcoal', '#6a655e', 0.6);
  brush.hatch(5, 0, { rand: 0.2 });
  brush.polygon([[350, 470], [450, 472], [440, 490], [340, 488]]);
  brush.noHatch();
}
