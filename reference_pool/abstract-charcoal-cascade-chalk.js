// Abstract charcoal and white chalk on grey paper: a cascade of smudged rectangles stepping down the page, crossed by one dark gesture and one chalk gesture.

function ribbon(path, width, tone, n, wmin, wmax) {
  // A broad gesture as a ribbon of parallel strokes, swelling in the middle.
  for (let k = 0; k < n; k++) {
    const off = (k / (n - 1) - 0.5) * width;
    const pts = [];
    for (let i = floor(random(0, 2)); i < path.length - floor(random(0, 2)); i++) {
      const [px, py] = path[i];
      const [qx, qy] = path[min(path.length - 1, i + 1)];
      const [rx, ry] = path[max(0, i - 1)];
      const d = atan2(qy - ry, qx - rx) + HALF_PI;
      const sw = sin((i + 0.5) / path.length * PI);
      pts.push([px + cos(d) * off * (0.3 + sw * 0.7), py + sin(d) * off * (0.3 + sw * 0.7), 0.4 + sw]);
    }
    brush.set('charcoal', tone, random(wmin, wmax));
    brush.spline(pts, 0.6);
  }
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#bdb9b1');
  brush.scaleBrushes(3);

  // Cascade of rectangles, top left to bottom right, each a different value and touch.
  const rects = [
    [60, 50, 190, 130, '#8a867f', 'wash'],
    [190, 150, 160, 120, '#4a4742', 'hatch'],
    [300, 250, 150, 110, '#2c2a27', 'spray'],
    [390, 340, 130, 100, '#6a665f', 'hatch'],
    [450, 430, 100, 80, '#1c1a18', 'dense'],
  ];
  for (const [x, y, w, h, tone, kind] of rects) {
    const pts = [[x, y], [x + w, y + random(-6, 6)], [x + w + random(-6, 6), y + h], [x + random(-6, 6), y + h]];
    brush.noStroke();
    if (kind === 'wash') {
      brush.wash(tone, 200);
      brush.polygon(pts);
      brush.noWash();
      brush.hatchStyle('charcoal', '#6a665f', 0.6);
      brush.hatch(6, 1.2, { rand: 0.6 });
      brush.polygon(pts);
      brush.noHatch();
    } else if (kind === 'hatch') {
      brush.hatchStyle('charcoal', tone, 1);
      brush.hatch(4, random(-0.6, 0.6), { rand: 0.5 });
      brush.polygon(pts);
      brush.noHatch();
    } else if (kind === 'spray') {
      brush.hatchStyle('spray', tone, 3);
      brush.hatch(6, 0.3, { rand: 0.4 });
      brush.polygon(pts);
      brush.noHatch();
    } else {
      brush.hatchStyle('charcoal', tone, 1);
      brush.hatch(2.4, 0.8, { rand: 0.3 });
      brush.polygon(pts);
      brush.noHatch();
    }
    brush.set('charcoal', '#1e1c1a', 0.9);
    brush.line(pts[0][0], pts[0][1], pts[1][0], pts[1][1]);
    brush.line(pts[0][0], pts[0][1], pts[3][0], pts[3][1]);
  }
  // Chalk edges catching the light on the far side of each block.
  for (const [x, y, w, h] of rects) {
    brush.set('charcoal', '#f4f2ed', 0.8);
    brush.line(x + w + 3, y + 4, x + w + 3, y + h - 4);
  }

  // The dark gesture: one long arc sweeping up across the cascade.
  const dark = [];
  for (let i = 0; i <= 12; i++) {
    const t = i / 12;
    dark.push([30 + t * 540, 560 - sin(t * PI * 0.9) * 330 - t * 120]);
  }
  brush.set('spray', '#3a3733', 3);
  brush.spline(dark.map(([x, y]) => [x + 8, y + 14]), 0.6);
  ribbon(dark, 22, '#161514', 8, 0.7, 1.2);
  brush.set('2B', '#2a2826', 0.6);
  brush.spline(dark.map(([x, y], i) => [x - 4, y - 26 - i * 1.5]), 0.6);
  // The chalk gesture: a counter-curve from the top right down to the left edge.
  const chalk = [];
  for (let i = 0; i <= 10; i++) {
    const t = i / 10;
    chalk.push([560 - t * 520, 60 + t * 360 + sin(t * PI) * 80]);
  }
  ribbon(chalk, 16, '#f6f4ef', 6, 0.6, 1.1);
  // Scattered dust and a few fine flicks.
  for (let i = 0; i < 10; i++) {
    const x = random(60, 560);
    const y = random(60, 560);
    const a = random(TWO_PI);
    brush.set('2B', '#2a2826', 0.5);
    brush.line(x, y, x + cos(a) * random(15, 40), y + sin(a) * random(15, 40));
  }
}
