// Oranges and pomegranates heaped in a teal bowl on a draped red cloth, a cut pomegranate in front, soft pastel on dark umber paper, lit from the upper left.

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

const ORANGE = ['#ec8424', '#f8b850', '#c0541a', '#7a2e16', '#fff0c4'];
const POMEGRANATE = ['#a82432', '#e06a66', '#761826', '#40101c', '#f6c8b8'];

function fruit(x, y, R, cols, crown) {
  // A round fruit: a hatched body, arcs of shadow hugging the lower right, light arcs at the upper left.
  // (brush.arc angles run counter-clockwise on screen: 0 is right, HALF_PI is up.)
  const [base, light, dark, deep, hi] = cols;
  brush.noStroke();
  brush.hatchStyle('crayon', base, 1.6);
  brush.hatch(3, -0.8, { rand: 0.2 });
  brush.circle(x, y, R);
  brush.noHatch();
  for (let k = 0; k < 4; k++) {
    brush.set('crayon', k < 2 ? dark : deep, 1.2 + k * 0.35);
    brush.arc(x, y, R * (0.6 + k * 0.12), -2.3 + k * 0.15, 0.5 - k * 0.12);
  }
  for (let k = 0; k < 3; k++) {
    brush.set('pastel', light, 1.9);
    brush.arc(x, y, R * (0.3 + k * 0.16), 1.7, 3.0);
  }
  brush.set('cpencil', hi, 1.8);
  brush.line(x - R * 0.44, y - R * 0.36, x - R * 0.3, y - R * 0.46);
  if (crown) {
    // The pomegranate's crown: a little star of dark pointed strokes on top.
    for (let k = -2; k <= 2; k++) {
      brush.set('cpencil', k % 2 ? deep : dark, 1.6);
      brush.line(x + k * R * 0.05, y - R * 0.9, x + k * R * 0.13, y - R * 1.12);
    }
  }
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#3e302c');
  brush.scaleBrushes(3);

  // Wall: broad diagonal strokes of olive and umber, lighter toward the light on the left.
  for (let i = 0; i < 26; i++) {
    const x = random(-100, 600);
    const y = random(-20, 330);
    const c = x < 250 ? random(['#6a5a44', '#7a6a50', '#5a4c3c']) : random(['#4a3e34', '#524536', '#3a3430']);
    dab('pastel', c, 3, x, y, x + 160, y - 110);
  }
  flushDabs();

  // Red cloth over the table: a hatched crimson field, then folds in dark and light strokes.
  brush.noStroke();
  brush.hatchStyle('crayon', '#a8282a', 1.6);
  brush.hatch(4.2, 0.35, { rand: 0.25 });
  brush.polygon([[-10, 330], [200, 318], [420, 326], [610, 312], [610, 610], [-10, 610]]);
  brush.noHatch();
  const folds = [[-10, 470, 250, 340], [60, 610, 330, 470], [200, 610, 470, 455], [380, 610, 610, 430], [450, 360, 610, 340]];
  for (const [x1, y1, x2, y2] of folds) {
    // Each fold bends once, so it reads as cloth rather than ruled stripes.
    const mx = (x1 + x2) / 2 + random(-25, 25);
    const my = (y1 + y2) / 2 + random(10, 30);
    for (let k = 0; k < 3; k++) {
      dab('crayon', '#6a1418', 1.6 - k * 0.3, x1 + k * 6, y1 + k * 3, mx + k * 6, my + k * 3);
      dab('crayon', '#6a1418', 1.6 - k * 0.3, mx + k * 6, my + k * 3, x2 + k * 6, y2 + k * 3);
      dab('pastel', '#dc5a48', 1.4, x1 - 14 - k * 5, y1 - 6, mx - 14 - k * 5, my - 6);
      dab('pastel', '#dc5a48', 1.4, mx - 14 - k * 5, my - 6, x2 - 14 - k * 5, y2 - 6);
    }
    dab('cpencil', '#f08a6c', 1, x1 - 20, y1 - 9, mx - 20, my - 9);
    dab('cpencil', '#f08a6c', 1, mx - 20, my - 9, x2 - 20, y2 - 9);
  }
  // The cloth falls over the table edge: vertical folds below it.
  dab('crayon', '#5a1016', 2, -10, 548, 610, 540);
  for (let x = 10; x < 600; x += 34) {
    dab('crayon', '#6a1418', 1.6, x + random(-6, 6), 552, x + random(-10, 10), 610);
    dab('pastel', '#c84a3a', 1.6, x + 14, 552, x + 14 + random(-8, 8), 610);
  }
  flushDabs();

  // Cast shadows to the lower right of the bowl and of the loose fruit.
  brush.hatchStyle('crayon', '#4a1420', 1.6);
  brush.hatch(3, -0.3, { rand: 0.3 });
  brush.beginShape(0.7);
  brush.vertex(330, 440);
  brush.vertex(520, 430);
  brush.vertex(560, 470);
  brush.vertex(420, 490);
  brush.endShape(true);
  brush.beginShape(0.7);
  brush.vertex(510, 530);
  brush.vertex(600, 515);
  brush.vertex(600, 560);
  brush.vertex(530, 560);
  brush.endShape(true);
  brush.noHatch();

  // Bowl interior: the dark far wall inside the rim ellipse, seen above and around the fruit.
  const bx = 330;
  const by = 384;
  const rx = 152;
  const ry = 30;
  const rim = [];
  for (let t = 0; t < TWO_PI; t += PI / 12) rim.push([bx + rx * cos(t), by + ry * sin(t)]);
  brush.hatchStyle('crayon', '#1c3640', 1.6);
  brush.hatch(3, 0.2, { rand: 0.2 });
  brush.polygon(rim);
  brush.noHatch();

  // Fruit in the bowl, back to front.
  fruit(318, 300, 40, POMEGRANATE, true);
  fruit(398, 330, 42, ORANGE, false);
  fruit(250, 352, 43, ORANGE, false);
  fruit(338, 374, 44, ORANGE, false);
  fruit(438, 380, 36, POMEGRANATE, false);

  // Bowl body: a teal glazed curve in front of the fruit, dark on the right, a light streak on the left.
  const body = [];
  for (let t = PI; t >= 0; t -= PI / 16) body.push([bx + rx * cos(t), by + ry * sin(t)]);
  for (let t = 0; t <= PI; t += PI / 16) body.push([bx + rx * cos(t) * (1 - 0.4 * sin(t)), by + 92 * sin(t)]);
  brush.noStroke();
  brush.hatchStyle('crayon', '#2f6070', 1.7);
  brush.hatch(2.6, 1.2, { rand: 0.2 });
  brush.polygon(body);
  brush.noHatch();
  for (let k = 0; k < 6; k++) {
    // Shadow strokes follow the bowl's curve on the right, light ones on the left.
    const t = 0.15 + k * 0.09;
    dab('crayon', '#16303a', 1.7, bx + rx * cos(t), by + ry * sin(t) + 2, bx + rx * cos(t) * (1 - 0.4 * sin(t + 0.5)) - 8, by + 92 * sin(t + 0.5));
    const u = PI - 0.3 - k * 0.08;
    dab('pastel', '#7fb8c0', 1.6, bx + rx * cos(u), by + ry * sin(u) + 3, bx + rx * cos(u) * (1 - 0.4 * sin(u - 0.4)) + 6, by + 92 * sin(u - 0.4));
  }
  dab('cpencil', '#d8f0ec', 1.4, bx - rx * 0.86, by + 18, bx - rx * 0.74, by + 52);
  for (let i = 0; i < body.length / 2 - 1; i++) {
    dab('cpencil', '#9ac8c8', 1.5, body[i][0], body[i][1], body[i + 1][0], body[i + 1][1]);
  }
  dab('crayon', '#1a3038', 2.4, bx - 60, by + 90, bx + 60, by + 90);
  flushDabs();

  // On the cloth: a loose orange at the right and a cut pomegranate at the left, its seeds showing.
  fruit(520, 505, 38, ORANGE, false);
  // The cut half: a dark maroon dome of skin, its cut face a cream ellipse packed with ruby seeds.
  const px = 132;
  const py = 488;
  brush.noStroke();
  brush.hatchStyle('crayon', '#5a1420', 1.7);
  brush.hatch(2.6, 0.6, { rand: 0.2 });
  const dome = [];
  for (let t = 0; t <= PI; t += PI / 12) dome.push([px + 62 * cos(t), py + 40 * sin(t)]);
  brush.polygon(dome);
  brush.noHatch();
  const face = [];
  for (let t = 0; t < TWO_PI; t += PI / 12) face.push([px + 60 * cos(t), py + 20 * sin(t)]);
  brush.hatchStyle('crayon', '#ecd2a4', 1.3);
  brush.hatch(2.5, -0.3, { rand: 0.2 });
  brush.polygon(face);
  brush.noHatch();
  for (let i = 0; i < face.length; i++) {
    const [x1, y1] = face[i];
    const [x2, y2] = face[(i + 1) % face.length];
    dab('cpencil', y1 < py ? '#fff0d4' : '#c89a7a', 1.4, x1, y1, x2, y2);
  }
  // Seeds in five chambers, leaving pale pith between them.
  for (let c = 0; c < 5; c++) {
    const a0 = (c * TWO_PI) / 5 + 0.2;
    for (let k = 0; k < 11; k++) {
      const a = a0 + random(0.15, 1.1);
      const d = random(0.25, 0.85);
      const sx = px + cos(a) * d * 54;
      const sy = py + sin(a) * d * 17;
      dab('cpencil', random(['#9a1028', '#c01c34', '#7a0c20']), 3, sx, sy, sx + 3.5, sy + 1);
      if (k % 3 === 0) dab('cpencil', '#ffe0dc', 1, sx + 0.5, sy - 0.8, sx + 2, sy - 1.2);
    }
  }
  dab('pastel', '#c24a4a', 1.6, px - 50, py + 24, px - 20, py + 36);
  flushDabs();
}
