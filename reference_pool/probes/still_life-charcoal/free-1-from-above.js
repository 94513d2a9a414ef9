// A vanitas seen from directly above in charcoal: an open book lying askew on a dark wooden
// table, a snuffed candle in its dish with a curl of smoke, a pocket watch on its chain and a
// quill; daylight from the upper left, every object casting its shadow down to the right.

// Points turned by `a` about (cx, cy).
function turned(pts, cx, cy, a) {
  return pts.map(([x, y]) => [cx + (x - cx) * cos(a) - (y - cy) * sin(a), cy + (x - cx) * sin(a) + (y - cy) * cos(a)]);
}

function ring(cx, cy, r, n) {
  const pts = [];
  for (let i = 0; i < n; i++) pts.push([cx + cos((i / n) * TWO_PI) * r, cy + sin((i / n) * TWO_PI) * r]);
  return pts;
}

function shadow(pts, dx, dy) {
  brush.noStroke();
  brush.hatchStyle('spray', '#0f0e0d', 3);
  brush.hatch(4, 0.7, { rand: 0.45 });
  brush.polygon(pts.map(([x, y]) => [x + dx, y + dy]));
  brush.noHatch();
}

function flat(pts, tone) {
  brush.noStroke();
  brush.wash(tone, 248);
  brush.polygon(pts);
  brush.noWash();
}

function hatched(pts, tone, d, a, w) {
  brush.noStroke();
  brush.hatchStyle('charcoal', tone, w);
  brush.hatch(d, a, { rand: 0.35 });
  brush.polygon(pts);
  brush.noHatch();
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#c9c5bd');
  brush.scaleBrushes(3);

  // The table top: dark boards, their grain running on the diagonal.
  flat([[0, 0], [600, 0], [600, 600], [0, 600]], '#4f4b46');
  for (let i = 0; i < 7; i++) {
    const off = -300 + i * 150;
    brush.set('charcoal', '#2a2825', 1);
    brush.line(off, 0, off + 600, 600);
  }
  for (let i = 0; i < 60; i++) {
    const x = random(-300, 600);
    const len = random(80, 220);
    brush.set('charcoal', random() < 0.5 ? '#35322e' : '#6a665f', random(0.4, 0.8));
    brush.spline([[x, 0 + (x < 0 ? -x : 0)], [x + len * 0.5 + random(-6, 6), len * 0.5 + (x < 0 ? -x : 0)], [x + len, len + (x < 0 ? -x : 0)]], 0.6);
  }
  // Daylight falling across the table from the upper left.
  brush.noStroke();
  brush.hatchStyle('spray', '#8f8b84', 3);
  brush.hatch(7, 0.7, { rand: 0.45 });
  brush.polygon([[0, 0], [420, 0], [0, 420]]);
  brush.noHatch();
  brush.hatchStyle('spray', '#1a1816', 3);
  brush.hatch(8, 0.7, { rand: 0.45 });
  brush.polygon([[600, 250], [600, 600], [250, 600]]);
  brush.noHatch();

  // The open book, turned a little, its pages bowed up from the gutter.
  const bx = 250;
  const by = 250;
  const ba = -0.22;
  const cover = turned([[90, 140], [410, 140], [410, 360], [90, 360]], bx, by, ba);
  shadow(cover, 14, 14);
  flat(cover, '#2b2926');
  const left = turned([[98, 146], [246, 150], [250, 352], [98, 354]], bx, by, ba);
  const right = turned([[254, 150], [402, 146], [402, 354], [250, 352]], bx, by, ba);
  flat(left, '#e7e2d6');
  flat(right, '#ddd8cc');
  // The gutter's shade and the curl of the right page.
  hatched(turned([[230, 150], [250, 150], [250, 352], [230, 352]], bx, by, ba), '#7a766f', 3.4, 1.4, 0.6);
  hatched(turned([[254, 150], [272, 150], [272, 352], [254, 352]], bx, by, ba), '#4a4742', 3, 1.4, 0.7);
  // Lines of text as soft grey strokes, a heading and a drop capital.
  for (const [x0, x1] of [[112, 232], [270, 390]]) {
    for (let i = 0; i < 15; i++) {
      const y = 186 + i * 10.5;
      const end = i % 5 === 4 ? x0 + (x1 - x0) * random(0.3, 0.7) : x1;
      const [a, b] = turned([[x0, y], [end, y]], bx, by, ba);
      brush.set('2B', '#6f6a62', 0.45);
      brush.line(a[0], a[1], b[0], b[1]);
    }
    const [h0, h1] = turned([[x0 + 20, 166], [x1 - 20, 166]], bx, by, ba);
    brush.set('charcoal', '#3a3733', 0.9);
    brush.line(h0[0], h0[1], h1[0], h1[1]);
  }
  hatched(turned([[112, 184], [132, 184], [132, 206], [112, 206]], bx, by, ba), '#1f1d1b', 2, 0.8, 0.8);
  brush.set('charcoal', '#121110', 1);
  brush.spline([...cover, cover[0]], 0);
  brush.set('charcoal', '#4a4742', 0.7);
  brush.spline([...left, left[0]], 0);
  brush.spline([...right, right[0]], 0);
  // A ribbon marker trailing out of the book.
  brush.set('charcoal', '#1a1816', 2.2);
  const rb = turned([[300, 352], [306, 390], [290, 430], [310, 470]], bx, by, ba);
  brush.spline(rb, 0.6);

  // The candle dish, seen from above: a rim, a well, the candle's round top, a drip and the wick.
  const [dx, dy] = [470, 130];
  shadow(ring(dx, dy, 78, 20), 12, 12);
  flat(ring(dx, dy, 78, 20), '#6f6b65');
  hatched(ring(dx + 8, dy + 8, 64, 18), '#2e2c29', 3.2, 0.7, 0.8);
  brush.set('charcoal', '#d5d0c4', 1.2);
  brush.spline([[dx - 70, dy + 10], [dx - 60, dy - 42], [dx - 20, dy - 72], [dx + 20, dy - 74]], 0.6);
  shadow(ring(dx, dy, 30, 16), 22, 22);
  flat(ring(dx, dy, 30, 16), '#ece8de');
  hatched([[dx + 8, dy - 28], [dx + 30, dy - 4], [dx + 22, dy + 20], [dx + 4, dy + 30], [dx + 16, dy + 4]], '#9a958b', 3, 0.7, 0.6);
  brush.set('charcoal', '#24221f', 0.9);
  brush.spline([...ring(dx, dy, 30, 16), ring(dx, dy, 30, 16)[0]], 0.5);
  brush.spline([...ring(dx, dy, 78, 20), ring(dx, dy, 78, 20)[0]], 0.5);
  brush.set('charcoal', '#0f0e0d', 1.4);
  brush.line(dx, dy, dx + 3, dy + 2);
  // A thread of smoke drifting off the snuffed wick.
  brush.set('charcoal', '#d9d4c8', 0.5);
  brush.spline([[dx + 2, dy], [dx + 30, dy - 20], [dx + 10, dy - 60], [dx + 50, dy - 100], [dx + 40, dy - 140]], 0.8);

  // The pocket watch, face up, with its chain looping towards the book.
  const [wx, wy] = [470, 470];
  shadow(ring(wx, wy, 58, 20), 10, 10);
  flat(ring(wx, wy, 58, 20), '#8a867f');
  hatched(ring(wx + 6, wy + 6, 56, 18), '#3a3733', 3, 0.7, 0.7);
  flat(ring(wx, wy, 46, 20), '#e4dfd3');
  for (let i = 0; i < 12; i++) {
    const a = (i / 12) * TWO_PI;
    brush.set('charcoal', '#2a2825', i % 3 === 0 ? 1 : 0.6);
    brush.line(wx + cos(a) * 38, wy + sin(a) * 38, wx + cos(a) * 44, wy + sin(a) * 44);
  }
  brush.set('charcoal', '#1a1816', 1);
  brush.line(wx, wy, wx - 14, wy - 22);
  brush.line(wx, wy, wx + 30, wy + 4);
  brush.set('charcoal', '#141312', 1);
  brush.spline([...ring(wx, wy, 58, 20), ring(wx, wy, 58, 20)[0]], 0.5);
  brush.spline([...ring(wx, wy, 46, 20), ring(wx, wy, 46, 20)[0]], 0.5);
  brush.set('charcoal', '#d9d4c8', 1);
  brush.spline([[wx - 52, wy + 6], [wx - 44, wy - 32], [wx - 12, wy - 54]], 0.6);
  // The bow and the chain, in small links.
  brush.set('charcoal', '#1a1816', 1.2);
  brush.spline([[wx - 12, wy - 58], [wx - 16, wy - 72], [wx, wy - 78], [wx + 14, wy - 72], [wx + 10, wy - 58]], 0.6);
  const chain = [];
  for (let i = 0; i <= 20; i++) {
    const t = i / 20;
    chain.push([lerp(wx, 330, t) - sin(t * PI) * 60, lerp(wy - 78, 430, t) + sin(t * PI) * 40]);
  }
  for (let i = 0; i < chain.length; i++) {
    const [x, y] = chain[i];
    brush.set('charcoal', i % 2 === 0 ? '#d0cbbf' : '#1f1d1b', 0.9);
    brush.spline([...ring(x, y, 4, 6), ring(x, y, 4, 6)[0]], 0.5);
  }

  // The quill lying across the lower left: a long vane and its shaft.
  const q = [[40, 560], [110, 500], [190, 440], [260, 400]];
  const vane = [[70, 548], [120, 480], [190, 430], [258, 398], [200, 452], [140, 500], [90, 548]];
  shadow(vane, 10, 12);
  flat(vane, '#e2ddd1');
  for (let i = 0; i < 22; i++) {
    const t = 0.15 + (i / 22) * 0.8;
    const x = lerp(40, 260, t);
    const y = lerp(560, 400, t);
    brush.set('2B', '#77726a', 0.45);
    brush.line(x, y, x - 14 + random(-2, 2), y - 20);
    brush.line(x, y, x + 18, y + 10 + random(-2, 2));
  }
  brush.set('charcoal', '#24221f', 0.9);
  brush.spline(q, 0.3);
  brush.set('charcoal', '#3a3733', 0.6);
  brush.spline([...vane, vane[0]], 0.5);
}
