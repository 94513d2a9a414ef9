// Looking up into a cherry tree in full blossom: a dark trunk from the lower left, branches heavy with pink and white flowers against a deep blue sky, soft pastel on blue-grey paper.

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

const limbs = [];
function grow(x, y, ang, len, w, depth) {
  // Branches bend a little at each joint; store the segments, draw them later grouped by colour.
  const x2 = x + cos(ang) * len;
  const y2 = y + sin(ang) * len;
  limbs.push([x, y, x2, y2, w, depth]);
  if (depth === 0) return;
  const spread = random(0.35, 0.6);
  grow(x2, y2, ang - spread * random(0.6, 1), len * random(0.68, 0.82), w * 0.66, depth - 1);
  grow(x2, y2, ang + spread * random(0.4, 0.9), len * random(0.6, 0.78), w * 0.62, depth - 1);
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#8d9db2');
  brush.scaleBrushes(3);

  // Sky: deep cobalt overhead to a paler cerulean near the bottom, in diagonal pastel strokes.
  const sky = ['#2f4f9a', '#3a5fa8', '#4a72b6', '#5f88c4', '#7ea2d2', '#a2bfe0'];
  for (let i = 0; i < 42; i++) {
    const y = (i / 42) * 660 - 20;
    const x = random(-150, 450);
    const c = sky[constrain(floor((y / 600) * sky.length + random(-0.7, 0.7)), 0, sky.length - 1)];
    dab('pastel', c, 3, x, y + 40, x + 360, y - 60);
  }
  flushDabs();

  // The tree: trunk from the lower-left corner, leaning up and to the right.
  grow(30, 650, -1.0, 200, 28, 5);
  grow(60, 540, -0.45, 150, 13, 4);
  // Bark: each limb is a bundle of parallel strokes across its width (one fat crayon stroke breaks into dots),
  // dark on the shadow side, a cool grey-mauve light along the upper edge.
  for (const [x1, y1, x2, y2, w] of limbs) {
    const len = dist(x1, y1, x2, y2);
    const nx = -(y2 - y1) / len;
    const ny = (x2 - x1) / len;
    const n = max(1, ceil(w / 2.2));
    for (let k = 0; k < n; k++) {
      const o = (n === 1 ? 0 : k / (n - 1) - 0.5) * w * 1.1;
      const c = k === 0 && n > 2 ? '#8a7080' : k < n / 2 ? '#4a3038' : '#2a1c22';
      const wt = min(2.2, w * 0.45 + 0.4);
      dab(k % 2 ? 'crayon' : 'cpencil', c, wt, x1 + nx * o, y1 + ny * o, x2 + nx * o * 0.9, y2 + ny * o * 0.9);
    }
  }
  flushDabs();

  // Blossom, in three layers: soft shadowed masses, then lit clusters, then single flowers in front.
  const tips = limbs.filter((l) => l[5] <= 2 && l[3] < 520);
  for (const [, , x, y] of tips) {
    for (let k = 0; k < 2; k++) {
      const px = x + random(-22, 22);
      const py = y + random(-18, 18);
      dab('pastel', random(['#b87a9e', '#a86a92', '#c890b0']), 2.6, px - 14, py + 5, px + 14, py - 5);
    }
  }
  flushDabs();
  for (const [, , x, y] of tips) {
    for (let k = 0; k < 7; k++) {
      const px = x + random(-24, 24);
      const py = y + random(-20, 20);
      const a = random(TWO_PI);
      const lit = px - x + (y - py) > 0;
      const c = lit ? random(['#f6c6d6', '#fbdce6', '#f0aac2']) : random(['#e08aaa', '#d47a9c', '#e89ab4']);
      dab('crayon', c, 1.6, px, py, px + cos(a) * 7, py + sin(a) * 7);
    }
  }
  flushDabs();
  // Single five-petalled flowers, white and pale pink with a deep pink eye.
  const eyes = [];
  for (let i = 0; i < 90; i++) {
    const [, , x, y] = random(tips);
    const fx = x + random(-24, 24);
    const fy = y + random(-20, 20);
    const r = random(3.5, 6);
    const c = random(['#fff4f6', '#fde2ea', '#f8d0de']);
    const a0 = random(TWO_PI);
    for (let k = 0; k < 5; k++) {
      const a = a0 + (k * TWO_PI) / 5;
      dab('cpencil', c, 1.4, fx + cos(a) * r * 0.3, fy + sin(a) * r * 0.3, fx + cos(a) * r, fy + sin(a) * r);
    }
    eyes.push([fx, fy]);
  }
  for (const [fx, fy] of eyes) dab('cpencil', '#b83a6a', 1.2, fx - 0.8, fy, fx + 0.8, fy + 0.5);
  flushDabs();

  // Petals drifting down through the lower sky.
  for (let i = 0; i < 28; i++) {
    const x = random(150, 600);
    const y = random(380, 600);
    const a = random(TWO_PI);
    dab('cpencil', random(['#fbdce6', '#f4b8cc']), 1.3, x, y, x + cos(a) * 4, y + sin(a) * 2.5);
  }
  flushDabs();
}
