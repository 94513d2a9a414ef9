// A beach at golden hour: a low sun, pink cloud bands mirrored in the wet sand below the surf line, soft pastel on warm grey paper.

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
  background('#c7b8aa');
  brush.scaleBrushes(3);

  const horizon = 238;
  const surf = 300;
  const sunX = 170;

  // Underpainting washes: sky from lilac to gold, a violet sea, a pale mirror of wet sand, warm dry sand.
  brush.noStroke();
  const bands = [['#a996b8', -10, 120], ['#f0b890', 100, 200], ['#f7d49a', 185, horizon], ['#5e5a86', horizon, surf], ['#d8b8b0', surf, 470], ['#d2a878', 462, 610]];
  for (const [c, y1, y2] of bands) {
    const pts = [];
    for (let x = -10; x <= 630; x += 40) pts.push([x, y1 + (y1 === horizon ? 0 : random(-5, 5))]);
    for (let x = 630; x >= -10; x -= 40) pts.push([x, y2 + (y2 === horizon ? 0 : random(-5, 5))]);
    brush.wash(c, 185);
    brush.polygon(pts);
    brush.noWash();
  }
  // A one-pixel wash: the last wash before a pastel stroke can otherwise be dropped.
  brush.wash('#c7b8aa', 10);
  brush.rect(0, 0, 1, 1);
  brush.noWash();

  // Sky strokes blending the bands, then long pink and mauve cloud bars, lit gold underneath.
  const sky = ['#9d8cb6', '#b59ab8', '#d8a8a8', '#eeb890', '#f4c88e', '#f8dca2'];
  for (let y = 6; y < horizon - 4; y += 10) {
    const i = constrain(floor((y / horizon) * sky.length + random(-0.6, 0.6)), 0, sky.length - 1);
    dab('pastel', sky[i], 2.4, -20, y + random(-2, 2), 620, y + random(-3, 3));
  }
  flushDabs();
  const clouds = [];
  for (let i = 0; i < 8; i++) {
    const y = 36 + i * 21 + random(-6, 6);
    const x = random(-120, 420);
    const len = random(170, 340) * (1 - i * 0.05);
    clouds.push([x, y, len]);
    // A cloud bar: stacked strokes, rose and mauve in the body, tapering at both ends.
    for (let k = 0; k < 5; k++) {
      const inset = abs(k - 2) * 22 + random(0, 10);
      const c = random(i < 4 ? ['#c07a9e', '#b0709a', '#d68aa6'] : ['#e48c98', '#ee9e96', '#d87c90']);
      dab(k % 2 ? 'crayon' : 'pastel', c, k % 2 ? 1.3 : 2, x + inset, y + k * 3.2, x + len - inset * 1.3, y + k * 3.2 + random(-1.5, 1.5));
    }
    dab('crayon', '#ffd49a', 1, x + 30, y + 17, x + len * 0.75, y + 17);
  }
  flushDabs();

  // The sun just above the sea: a bright disc of dense strokes with a short warm glow either side.
  for (let k = 0; k < 6; k++) {
    const y = horizon - 22 + k * 4;
    dab('crayon', '#fbe0a0', 0.9, sunX - 70 + k * 4, y, sunX + 70 - k * 4, y);
  }
  flushDabs();
  // The disc itself is a wash: densely overlapped pale strokes turn grey in p5.brush, a wash stays bright.
  brush.noStroke();
  brush.wash('#fff8e2', 235);
  brush.circle(sunX, horizon - 14, 15);
  brush.noWash();
  for (let k = 0; k < 12; k++) {
    const a = (k * TWO_PI) / 12;
    dab('cpencil', '#fff2c8', 1.1, sunX + cos(a) * 15, horizon - 14 + sin(a) * 15, sunX + cos(a) * 19, horizon - 14 + sin(a) * 19);
  }
  flushDabs();

  // A low headland on the right, dark against the glow.
  brush.noStroke();
  brush.hatchStyle('crayon', '#4e4068', 1.5);
  brush.hatch(2.6, -0.9, { rand: 0.25 });
  brush.beginShape(0.6);
  brush.vertex(420, horizon + 1);
  brush.vertex(470, horizon - 14);
  brush.vertex(540, horizon - 30);
  brush.vertex(610, horizon - 38);
  brush.vertex(610, horizon + 1);
  brush.endShape(true);
  brush.noHatch();

  // Sea: a deep violet band in horizontal strokes, with a glittering path under the sun.
  for (let y = horizon + 3; y < surf - 4; y += 5) {
    const x = random(-100, 200);
    dab('crayon', random(['#4a4674', '#6a6494', '#56507e']), 1.2, x, y, x + random(300, 600), y + random(-1, 1));
  }
  for (let k = 0; k < 40; k++) {
    const t = random();
    const y = horizon + 2 + t * (surf - horizon - 6);
    const hw = 8 + t * 30;
    const x = sunX + random(-hw, hw);
    dab('cpencil', random(['#ffe6a8', '#fff4d0', '#f8c880']), 0.9 + t, x - 4 - t * 6, y, x + 4 + t * 6, y);
  }
  flushDabs();

  // Surf: a broken line of foam where the wave slides up the sand.
  for (let i = 0; i < 24; i++) {
    const x = random(-20, 600);
    const y = surf + random(-3, 4);
    dab('pastel', '#f6efe4', 1.5, x, y, x + random(40, 110), y + random(-2, 2));
    dab('cpencil', '#ffffff', 0.8, x + 10, y - 1, x + random(30, 70), y - 1);
  }
  flushDabs();

  // Wet sand: the sky mirrored, compressed and drawn down in short upright strokes;
  // the clouds show as pink smears, the sun as a gold column.
  for (let y = surf + 6; y < 462; y += 7) {
    const skyY = horizon - (y - surf) / 0.7;
    const i = constrain(floor((skyY / horizon) * sky.length + random(-0.6, 0.6)), 0, sky.length - 1);
    const x = random(-200, 100);
    dab('pastel', sky[i], 2, x, y, x + random(400, 700), y + random(-1, 1));
  }
  flushDabs();
  for (const [x, y, len] of clouds) {
    const ry = surf + 10 + (horizon - y) * 0.7;
    if (ry > 462) continue;
    for (let k = 0; k < len / 9; k++) {
      const sx = x + random(len);
      dab(k % 2 ? 'crayon' : 'pastel', random(['#e09aa8', '#d08aa0', '#eaa8a6']), k % 2 ? 1.1 : 1.7, sx, ry + random(-3, 3), sx + random(-2, 2), ry + random(8, 20));
    }
  }
  for (let k = 0; k < 70; k++) {
    const y = surf + 8 + random() * 150;
    const x = sunX + random(-18, 18) * (1 + (y - surf) / 100);
    dab('cpencil', random(['#f8d890', '#fbe6b0', '#f0c070']), 1.8, x, y, x + random(-1, 1), y + random(6, 16));
  }
  // The headland's dark reflection, pulled down in upright strokes.
  for (let k = 0; k < 40; k++) {
    const x = random(440, 600);
    const h = ((x - 420) / 190) * 36;
    dab('crayon', random(['#6a5a82', '#7a6890']), 1.2, x, surf + 6, x + random(-1, 1), surf + 6 + h * random(0.5, 1));
  }
  // Thin streaks where the water film ends and the sand darkens.
  for (let i = 0; i < 12; i++) {
    const y = 440 + random(0, 26);
    const x = random(-40, 560);
    dab('crayon', '#9a7a78', 0.9, x, y, x + random(60, 160), y + random(-2, 2));
  }
  flushDabs();

  // Dry sand in front: warm ochre strokes, ripples of shadow, and a few pebbles.
  brush.noStroke();
  brush.hatchStyle('crayon', '#c69a68', 1.3);
  brush.hatch(6, 0.15, { rand: 0.4 });
  brush.rect(-10, 470, 620, 140);
  brush.noHatch();
  for (let i = 0; i < 16; i++) {
    const y = 482 + i * 7.5 + random(-2, 2);
    const x = random(-40, 500);
    dab('pastel', random(['#a87a6a', '#e8c698']), 1.2, x, y, x + random(100, 220), y + random(-3, 3));
  }
  for (let i = 0; i < 9; i++) {
    const x = random(40, 580);
    const y = random(500, 590);
    dab('cpencil', '#6a5050', 2, x, y, x + 4, y + 1);
    dab('cpencil', '#fff0d8', 0.8, x, y - 2, x + 2, y - 2);
  }
  flushDabs();

  // Dune grass at the lower right: arching blades, dark against the sand.
  for (let i = 0; i < 34; i++) {
    const x = 470 + random(0, 150);
    const y = 602 - random(0, 16);
    const a = -HALF_PI + random(-0.9, 0.4);
    const len = random(30, 95);
    const mx = x + cos(a) * len * 0.55;
    const my = y + sin(a) * len * 0.55;
    const c = random(['#5a5a3a', '#7a7446', '#3e3a2e']);
    const w = random(0.7, 1.2);
    dab('crayon', c, w, x, y, mx, my);
    dab('crayon', c, w * 0.7, mx, my, mx + cos(a - 0.45) * len * 0.45, my + sin(a - 0.45) * len * 0.45);
  }
  flushDabs();
}
