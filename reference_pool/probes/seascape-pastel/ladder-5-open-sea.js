// Competent, no beach and no sun: the open sea under a grey sky, swells rolling toward the
// viewer and growing as they come, deep teal troughs, lit green faces and broken foam crests,
// a pale break in the clouds lighting a path on the water; soft pastel on blue-grey paper.

let queue = new Map();
// Strokes are queued by colour and drawn colour by colour: each colour change costs a
// compositing pass. Two points make a line, more make a spline.
function dab(name, c, w, x1, y1, x2, y2) {
  curve(name, c, w, [[x1, y1], [x2, y2]]);
}
function curve(name, c, w, pts) {
  if (!queue.has(c)) queue.set(c, []);
  queue.get(c).push([name, w, pts]);
}
function flushDabs() {
  for (const [c, list] of queue) {
    for (const [name, w, pts] of list) {
      brush.set(name, c, w);
      if (pts.length === 2) brush.line(pts[0][0], pts[0][1], pts[1][0], pts[1][1]);
      else brush.spline(pts, 0.5);
    }
  }
  queue = new Map();
  brush.noStroke();
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#b4b8bc');
  brush.scaleBrushes(3);
  const horizon = 205;
  const breakX = 390;

  // Underpainting: a slate sky and a deep teal sea, so the grain of the strokes over them
  // shows colour, not bare paper. A short stroke first: washes before any stroke can be dropped.
  brush.set('cpencil', '#b4b8bc', 0.5);
  brush.line(1, 1, 2, 2);
  brush.noStroke();
  brush.wash('#86909f', 210);
  brush.rect(-10, -10, 620, horizon + 10);
  brush.wash('#2c5662', 220);
  brush.rect(-10, horizon, 620, 620 - horizon);
  brush.noWash();

  // Sky: level strokes, slate above, lighter toward a break in the clouds right of centre.
  for (let y = 4; y < horizon - 2; y += 7) {
    const x = random(-200, 0);
    const near = 1 - y / horizon;
    dab('pastel', random(near > 0.5 ? ['#6c7688', '#7a8496', '#848ea0'] : ['#9aa2b0', '#a8b0bc', '#b4b8be']), 2.2, x, y, x + 820, y + random(-2, 2));
  }
  flushDabs();
  // Cloud masses: stacked strokes, darker undersides, a warm pale rim round the break.
  for (let i = 0; i < 9; i++) {
    const y = 30 + i * 17 + random(-5, 5);
    const x = random(-150, 450);
    const len = random(160, 320);
    for (let k = 0; k < 4; k++) {
      const c = random(k < 2 ? ['#6e7890', '#7a8298', '#687088'] : ['#5a6278', '#646a80']);
      dab(k % 2 ? 'crayon' : 'pastel', c, k % 2 ? 1.2 : 1.9, x + k * 14, y + k * 4, x + len - k * 18, y + k * 4 + random(-1, 1));
    }
  }
  // The break: a long, thin rift of pale light low in the sky, not a disc.
  for (let k = 0; k < 40; k++) {
    const y = random(158, horizon - 12);
    const x = breakX + random(-150, 140);
    dab(k % 2 ? 'crayon' : 'pastel', random(['#f0e4c4', '#f6ecd4', '#e8dcc0', '#fff4dc']), k % 2 ? 1 : 1.5, x - random(30, 80), y, x + random(30, 80), y + random(-1, 1));
  }
  flushDabs();

  // Sea ground: level strokes from a dark band at the horizon to deep teal in front.
  for (let y = horizon; y < 604; y += 8) {
    const x = random(-200, 0);
    const t = (y - horizon) / (600 - horizon);
    const cs = t < 0.15 ? ['#3a5464', '#44606e'] : ['#20444f', '#2a4e5c', '#31565f'];
    dab('crayon', random(cs), 1.6, x, y, x + 820, y + random(-1, 1));
  }
  flushDabs();

  // Swells: rows that grow and spread apart toward the viewer. Each is an arched stroke
  // for the lit face, a dark trough below it, and broken foam along the crest.
  let y = horizon + 8;
  let gap = 8;
  while (y < 640) {
    const s = min(gap / 8, 9);
    const w = 0.5 + s * 0.14;
    let x = random(-80, 0);
    while (x < 620) {
      const len = random(25, 80) * (0.5 + s * 0.25);
      // Now and then a stretch of dark water between swells.
      if (random() < 0.15) {
        x += len * 0.6;
        continue;
      }
      const lift = gap * random(0.3, 0.6);
      const yy = y + random(-0.3, 0.3) * gap;
      // The crests lean right, away from the wind.
      const peak = random(0.45, 0.7);
      const lit = abs(x + len / 2 - breakX) < 50 + (yy - horizon) * 0.5;
      // Trough: a flat dark stroke under the swell.
      dab('crayon', random(['#1e3e4a', '#24465a', '#2a4c56']), w * 1.2, x - len * 0.1, yy + lift * 0.35, x + len * 1.05, yy + lift * 0.4);
      // Face: arched strokes stacked up the swell, greener and lighter toward the top.
      const n = 2 + floor(s / 2);
      for (let k = 0; k < n; k++) {
        const t = k / (n - 1);
        const c = random(t > 0.6 ? ['#86c0b2', '#9ccab8', '#74b0a6'] : ['#4f8c8a', '#5c9a94', '#43807e']);
        const h = lift * (0.1 + t * 0.8);
        curve(k % 2 ? 'crayon' : 'pastel', c, w, [[x + len * t * 0.1, yy + lift * 0.2], [x + len * peak, yy - h], [x + len * (1 - t * 0.1), yy + lift * 0.1]]);
      }
      // Foam on some crests, brighter where the light falls: a soft stroke and a crisp one;
      // the near ones throw a little spray.
      if (random() < 0.5) {
        const c = lit ? '#fffcf2' : '#dce6e0';
        const pts = [[x + len * (peak - 0.22), yy - lift * 0.62], [x + len * peak, yy - lift * 0.92], [x + len * (peak + 0.2), yy - lift * 0.7]];
        curve('pastel', c, w, pts);
        curve('cpencil', c, w * 0.7, pts);
        for (let k = 0; k < s - 3; k++) {
          const sx = x + len * (peak + random(-0.15, 0.2));
          const sy = yy - lift * random(1, 1.5);
          dab('cpencil', c, 0.7, sx, sy, sx + random(2, 6), sy - random(0, 2));
        }
      }
      // Foam streaks trailing in the trough.
      if (random() < 0.25 && s > 2) {
        dab('cpencil', '#b8ccc8', 0.6, x + len * 0.2, yy + lift * 0.5, x + len * 0.9, yy + lift * 0.55);
      }
      x += len * random(0.7, 1.05);
    }
    y += gap;
    gap *= 1.18;
  }
  flushDabs();

  // The light on the water: a broken path of pale level dashes under the break.
  for (let k = 0; k < 140; k++) {
    const t = pow(random(), 1.3);
    const yy = horizon + 3 + t * 260;
    const xx = breakX + random(-1, 1) * (30 + t * 120);
    dab(k % 4 ? 'cpencil' : 'pastel', random(['#f4f0dc', '#fff8e6', '#e4ecdc']), 0.7 + t * 0.7, xx, yy, xx + 6 + t * 30, yy + random(-0.5, 0.5));
  }
  // A crisp dark line where sea meets sky.
  dab('cpencil', '#2c3c48', 1.1, -10, horizon, 610, horizon + 1);
  flushDabs();
}
