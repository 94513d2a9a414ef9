// Abstract charcoal on white paper: bold sweeping gestures with swelling pressure across smudged geometric shapes, a soft disc and a tilted square.

function sweep(x, y, a0, turns, seg, width, tone, n) {
  // A gesture dragged with the side of the stick: a ribbon of parallel strokes along one path,
  // each starting and lifting at a slightly different place, pressure swelling mid-stroke.
  const path = [[x, y]];
  let a = a0;
  for (const t of turns) {
    a += t;
    x += cos(a) * seg;
    y += sin(a) * seg;
    path.push([x, y]);
  }
  for (let k = 0; k < n; k++) {
    const off = (k / (n - 1) - 0.5) * width;
    const i0 = floor(random(0, 2));
    const i1 = path.length - floor(random(0, 2));
    const pts = [];
    for (let i = i0; i < i1; i++) {
      const [px, py] = path[i];
      const [qx, qy] = path[min(path.length - 1, i + 1)];
      const [rx, ry] = path[max(0, i - 1)];
      const d = atan2(qy - ry, qx - rx) + HALF_PI;
      const swell = sin((i + 0.5) / path.length * PI);
      pts.push([px + cos(d) * off * (0.4 + swell * 0.6), py + sin(d) * off * (0.4 + swell * 0.6), 0.4 + swell]);
    }
    brush.set('charcoal', tone, random(0.7, 1.2));
    brush.spline(pts, 0.6);
  }
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f3f1ec');
  brush.scaleBrushes(3);

  // A soft smudged disc, upper right.
  brush.noStroke();
  brush.hatchStyle('spray', '#4a4742', 3);
  brush.hatch(7, 0.6, { rand: 0.4 });
  brush.circle(420, 170, 115);
  brush.noHatch();
  brush.hatchStyle('spray', '#2e2c29', 3);
  brush.hatch(9, -0.4, { rand: 0.4 });
  brush.circle(445, 190, 60);
  brush.noHatch();

  // A tilted square scrubbed in mid grey, one edge crisp, the other rubbed away.
  const sq = [[110, 300], [290, 262], [326, 438], [148, 476]];
  brush.wash('#b8b4ad', 200);
  brush.polygon(sq);
  brush.noWash();
  brush.hatchStyle('charcoal', '#55514c', 1);
  brush.hatch(4, 0.35, { rand: 0.5 });
  brush.polygon(sq);
  brush.noHatch();
  brush.set('charcoal', '#1c1a18', 1.4);
  brush.line(110, 300, 290, 262);
  brush.line(110, 300, 148, 476);
  brush.set('spray', '#3a3733', 2.4);
  brush.line(290, 262, 326, 438);
  brush.line(326, 438, 148, 476);

  // A thin triangle cutting through both shapes.
  brush.set('HB', '#3a3733', 0.9);
  brush.polygon([[230, 120], [520, 420], [190, 520]]);

  // Bold sweeping gestures.
  sweep(10, 440, -0.75, [0.1, 0.12, 0.14, 0.16, 0.18, 0.18, 0.2, 0.2, 0.16, 0.12], 58, 26, '#1a1917', 9);
  sweep(600, 590, -2.9, [0.1, 0.12, 0.1, 0.08, 0.05, 0.02], 70, 14, '#2a2826', 6);
  sweep(330, 20, 0.6, [0.2, 0.25, 0.25, 0.2], 50, 12, '#34312d', 5);
  // Echoes of the big sweep in fine line.
  for (let k = 1; k <= 3; k++) {
    brush.set('2B', '#55514c', 0.6);
    brush.spline([[20, 420 + k * 14], [160, 330 + k * 12], [320, 300 + k * 10], [470, 330 + k * 8], [560, 430 + k * 6]], 0.6);
  }
  // A lifted, white sweep dragged back through the square.
  brush.set('charcoal', '#f6f4ef', 1.6);
  brush.spline([[90, 470], [180, 380], [260, 350], [360, 372]], 0.6);

  // One small dense accent to anchor the lower right.
  brush.noStroke();
  brush.hatchStyle('charcoal', '#151413', 1);
  brush.hatch(2.2, 0.9, { rand: 0.3 });
  brush.polygon([[452, 492], [512, 480], [520, 520], [460, 532]]);
  brush.noHatch();
  brush.set('charcoal', '#151413', 0.7);
  brush.line(440, 545, 560, 520);
}
