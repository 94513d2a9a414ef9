// Plain, a step up: a beach at sunset in one layer of level pastel strokes on toned paper,
// the sky gold to rose with pink cloud bars, the sun low and centred above a violet sea with a
// gold path, a foam line and the glow mirrored on wet sand; evenly banded.

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
  background('#cdbfae');
  brush.scaleBrushes(3);
  const horizon = 290;
  const surf = 400;

  // Sky strokes, rose above and gold below.
  const sky = ['#d890a0', '#e8a0a0', '#f0b890', '#f6cc90', '#f8dca0'];
  for (let y = 6; y < horizon - 3; y += 9) {
    const i = constrain(floor((y / horizon) * sky.length + random(-0.5, 0.5)), 0, sky.length - 1);
    dab('pastel', sky[i], 2.2, -20, y + random(-2, 2), 620, y + random(-2, 2));
  }
  flushDabs();
  // Cloud bars.
  for (const [x, y, len] of [[40, 70, 200], [330, 100, 220], [150, 170, 240]]) {
    for (let k = 0; k < 3; k++) dab('crayon', '#c07898', 1.4, x + k * 12, y + k * 4, x + len - k * 12, y + k * 4);
  }
  flushDabs();
  // The sun.
  brush.noStroke();
  brush.wash('#fff2cc', 235);
  brush.circle(300, horizon - 30, 24);
  brush.noWash();

  // Sea, level strokes, and the sun's path.
  for (let y = horizon + 3; y < surf; y += 6) dab('crayon', random(['#4e4878', '#5a5488']), 1.2, -10, y, 610, y + random(-1, 1));
  flushDabs();
  for (let k = 0; k < 40; k++) {
    const y = random(horizon + 4, surf - 6);
    const x = 300 + random(-20, 20) * (1 + (y - horizon) / 60);
    dab('cpencil', '#ffe0a0', 1, x - 8, y, x + 8, y);
  }
  // Foam line.
  dab('pastel', '#f8f2e8', 1.4, -10, surf, 610, surf + 2);
  flushDabs();
  // Wet sand mirroring the sky, and the sun's column.
  for (let y = surf + 8; y < 604; y += 8) {
    const i = constrain(floor(((y - surf) / 200) * sky.length + random(-0.5, 0.5)), 0, sky.length - 1);
    dab('pastel', sky[sky.length - 1 - i], 1.8, -10, y, 610, y + random(-1, 1));
  }
  flushDabs();
  for (let y = surf + 10; y < 520; y += 6) dab('cpencil', '#f8d88c', 1.4, 292 + random(-6, 6), y, 308 + random(-6, 6), y);
  flushDabs();
}
