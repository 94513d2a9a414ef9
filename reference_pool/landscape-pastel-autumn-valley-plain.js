// Ok: an autumn valley at sunset drawn plainly, two even slopes, a round sun and lollipop trees with violet shadows; correct but ordinary.

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
  background('#e2d6c4');
  brush.scaleBrushes(3);

  // Sky: horizontal pastel strokes from rose at the top to yellow at the horizon.
  const sky = ['#d99a8a', '#e8a878', '#f0b86e', '#f4c978', '#f6d890'];
  for (let y = 8; y < 260; y += 12) {
    dab('pastel', sky[floor((y / 260) * sky.length)], 2.2, -20, y + random(-3, 3), 620, y + random(-3, 3));
  }
  flushDabs();
  // Sun.
  brush.noStroke();
  brush.hatchStyle('crayon', '#fbeeb0', 1.5);
  brush.hatch(3, 0);
  brush.circle(300, 190, 34);
  brush.noHatch();

  // Far hills closing the valley.
  brush.hatchStyle('crayon', '#9a7e9e', 1.3);
  brush.hatch(5, 0.2, { rand: 0.2 });
  brush.polygon([[-10, 262], [150, 240], [300, 255], [450, 236], [610, 258], [610, 440], [-10, 440]]);
  brush.noHatch();

  // Two slopes meeting in the middle, and a violet shadow on the right-hand one.
  brush.hatchStyle('crayon', '#c98a4a', 1.3);
  brush.hatch(6, -0.5, { rand: 0.2 });
  brush.polygon([[-10, 250], [300, 430], [300, 610], [-10, 610]]);
  brush.noHatch();
  brush.hatchStyle('crayon', '#b8743c', 1.3);
  brush.hatch(6, 0.5, { rand: 0.2 });
  brush.polygon([[610, 250], [300, 430], [300, 610], [610, 610]]);
  brush.noHatch();
  brush.hatchStyle('crayon', '#7a6296', 1.2);
  brush.hatch(7, 0.5, { rand: 0.2 });
  brush.polygon([[300, 430], [420, 360], [420, 610], [300, 610]]);
  brush.noHatch();

  // Lollipop trees along both slopes: a trunk, an orange crown, a violet shadow dab beside it.
  const trees = [[60, 330], [130, 370], [200, 410], [80, 470], [180, 520], [400, 385], [470, 345], [540, 305], [450, 470], [540, 510]];
  for (const [x, y] of trees) {
    const r = 14 + (y - 300) * 0.08;
    dab('cpencil', '#4a2e22', 2.2, x, y, x, y + r * 1.6);
    dab('crayon', '#6a5288', r * 0.12, x - r * 0.5, y + r * 1.6, x - r * 2.5, y + r * 1.8);
    for (let k = 0; k < 8; k++) {
      const a = (k * TWO_PI) / 8;
      dab('crayon', k % 2 ? '#e07a2a' : '#f09a3a', r * 0.1, x, y - r * 0.3, x + cos(a) * r * 0.8, y - r * 0.3 + sin(a) * r * 0.8);
    }
  }
  flushDabs();
}
