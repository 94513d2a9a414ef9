// Plain: a sunny day at the seaside in level pastel strokes on toned paper, evenly banded:
// a pale blue sky, a blue sea, a sand beach, each one flat hue with a little grain, a small
// sun in the middle of the sky and a row of evenly spaced white wave dashes.

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
  background('#e2d8c8');
  brush.scaleBrushes(3);

  // Sky.
  for (let y = 6; y < 300; y += 10) dab('pastel', '#a8c8e4', 2.2, -20, y + random(-2, 2), 620, y + random(-2, 2));
  flushDabs();
  // Sun.
  brush.noStroke();
  brush.wash('#fbe27a', 240);
  brush.circle(300, 140, 28);
  brush.noWash();
  // Sea.
  brush.hatchStyle('crayon', '#4a78b4', 1.4);
  brush.hatch(4, 0, { rand: 0.15 });
  brush.rect(-10, 300, 620, 150);
  brush.noHatch();
  // Wave dashes, in even rows.
  for (let row = 0; row < 3; row++) {
    for (let i = 0; i < 6; i++) {
      const x = 40 + i * 100 + row * 30;
      const y = 330 + row * 40;
      dab('pastel', '#f4f2ec', 1.2, x, y, x + 40, y);
    }
  }
  flushDabs();
  // Sand.
  brush.hatchStyle('crayon', '#d8b880', 1.4);
  brush.hatch(5, 0.05, { rand: 0.2 });
  brush.rect(-10, 450, 620, 160);
  brush.noHatch();
}
