// Ok: a beach at golden hour, centred sun, three pink clouds and their pink smudges on the wet sand; clear but evenly banded and plain.

let queue = new Map();
function dab(name, c, w, x1, y1, x2, y2) {
  if (!queue.has(c)) queue.set(c, []);
  queue.get(c).push([name, w, x1, y1, x2, y2]);
}
function flushDabs() {
  for (const [c, list] of queue) {
    for (const [name, w, x1, y1, x2, y2] of list) {
      brush.set(name, c, w);
      brush.line(x1, y1, x2, y2);
    }
  }
  queue = new Map();
  brush.noStroke();
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#ddd2c2');
  brush.scaleBrushes(3);

  // Sky: level strokes, gold near the horizon.
  for (let y = 8; y < 290; y += 12) {
    dab('pastel', y < 150 ? '#f0c090' : '#f6d69a', 2.2, -20, y + random(-3, 3), 620, y + random(-3, 3));
  }
  flushDabs();
  // Three pink clouds, evenly spaced.
  const clouds = [[90, 90], [300, 60], [470, 120]];
  for (const [x, y] of clouds) {
    for (let k = 0; k < 4; k++) dab('crayon', '#e0909e', 1.6, x - 60 + k * 5, y + k * 5, x + 60 - k * 5, y + k * 5);
  }
  flushDabs();
  // Sun.
  brush.noStroke();
  brush.wash('#fff2cc', 220);
  brush.circle(300, 250, 26);
  brush.noWash();

  // Sea.
  brush.hatchStyle('crayon', '#5a6a96', 1.4);
  brush.hatch(3.5, 0, { rand: 0.2 });
  brush.rect(-10, 290, 620, 50);
  brush.noHatch();
  // Foam line.
  dab('pastel', '#f8f2e8', 1.6, -10, 342, 610, 344);
  // Wet sand with the clouds' pink reflections and the sun's gold streak.
  brush.hatchStyle('crayon', '#d8b8a8', 1.3);
  brush.hatch(5, 0, { rand: 0.2 });
  brush.rect(-10, 346, 620, 110);
  brush.noHatch();
  for (const [x, y] of clouds) {
    const ry = 350 + (290 - y) * 0.35;
    for (let k = 0; k < 3; k++) dab('pastel', '#e4a0a8', 1.6, x - 50, ry + k * 5, x + 50, ry + k * 5);
  }
  for (let y = 350; y < 450; y += 8) dab('crayon', '#f4d48a', 1.4, 290, y, 310, y);
  flushDabs();
  // Dry sand.
  brush.hatchStyle('crayon', '#c8a070', 1.4);
  brush.hatch(5, 0.1, { rand: 0.3 });
  brush.rect(-10, 456, 620, 154);
  brush.noHatch();
}
