// Abstract: nine ribbons of soft pastel swinging across the page in waves, indigo and teal at the top warming through rose to gold and vermilion, a low sun caught among them, on warm grey paper.

// Strokes are queued and drawn grouped by colour (p5.brush composites on every colour change).
let queue = new Map();
function ribbon(name, c, w, pts) {
  if (!queue.has(c)) queue.set(c, []);
  queue.get(c).push([name, w, pts]);
}
function flushRibbons() {
  for (const [c, list] of queue) {
    for (const [name, w, pts] of list) {
      brush.set(name, c, w);
      if (pts.length === 2) brush.line(pts[0][0], pts[0][1], pts[1][0], pts[1][1]);
      else brush.spline(pts, 0.6);
    }
  }
  queue = new Map();
  brush.noStroke();
}

function wave(i, offset) {
  // Points along one wavy line of band i; the crests drift right from band to band, which sets the rhythm.
  const y0 = 34 + i * 66;
  const amp = 22 + 12 * sin(i * 0.8);
  const phase = i * 0.62;
  const pts = [];
  for (let x = -40; x <= 640; x += 60) {
    const y = y0 + offset + amp * sin(x * 0.016 + phase) + amp * 0.3 * sin(x * 0.043 + phase * 1.7);
    // Pressure at or above 1: below it p5.brush strokes fade out fast.
    pts.push([x, y, 1 + 0.25 * noise(x * 0.01, i)]);
  }
  return pts;
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#b3a596');
  brush.scaleBrushes(3);

  // Cool at the top to warm at the bottom: body colour, a deeper shade for the lower edge, a pale thread for the crest.
  const body = ['#2c3170', '#30538c', '#2a7088', '#6a62a6', '#a8609c', '#d86c86', '#ee8e60', '#f4b64a', '#e0582e'];
  const deep = ['#1a1c48', '#1e3462', '#184a5c', '#443c78', '#703c6c', '#9a3c5c', '#b45432', '#c07a24', '#9a2c1c'];
  const pale = ['#8a9ad6', '#8ab4e0', '#8cd0d4', '#c4b4e8', '#f0b8d8', '#fbc8c8', '#fcd8a8', '#fff0b0', '#f8b890'];
  const n = body.length;
  for (let i = 0; i < n; i++) {
    // Broad soft layer with a neighbouring hue mixed in, then grainy crayon in the band's own colour.
    ribbon('pastel', body[i], 3, wave(i, -12));
    ribbon('pastel', body[constrain(i + 1, 0, n - 1)], 2.6, wave(i, 2));
    ribbon('pastel', body[i], 3, wave(i, 14));
    ribbon('crayon', body[i], 1.4, wave(i, -5));
    ribbon('crayon', body[i], 1.4, wave(i, 8));
    ribbon('crayon', deep[i], 1.5, wave(i, 23));
  }
  flushRibbons();
  for (let i = 0; i < n; i++) ribbon('cpencil', pale[i], 1.8, wave(i, -19));
  flushRibbons();

  // A low gold sun among the warm ribbons (a wash: densely overlapped pale strokes turn grey), with its glitter.
  brush.wash('#fbe0a0', 225);
  brush.circle(402, 452, 40);
  brush.noWash();
  for (let k = 0; k < 26; k++) {
    const y = 500 + random(0, 95);
    const x = 402 + random(-44, 44) * (1 - (y - 500) / 160);
    ribbon('cpencil', random(['#fff0b8', '#f8d070']), 1.5, [[x - 9, y], [x + 9, y + random(-1, 1)]]);
  }
  flushRibbons();
  // The gold band's crayon passes back across the sun's lower half, so it sits inside the rhythm.
  ribbon('crayon', '#e8963a', 1.5, wave(6, 23));
  ribbon('crayon', '#f2b448', 1.3, wave(7, -5));
  flushRibbons();
}
