// An autumn valley at sunset seen from a hillside: a river catching the low sun, orange trees with long violet shadows, soft pastel on grey-violet paper.

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

function tree(x, y, r) {
  // A round autumn crown of short strokes, lit from the right, violet on the shadow side,
  // with a trunk and a long cast shadow reaching left across the slope.
  dab('crayon', '#4e3a6a', 0.6 + r * 0.06, x, y + r * 0.85, x - r * 3.4, y + r * 1.2);
  dab('cpencil', '#3e2a3a', 0.4 + r * 0.05, x, y + r * 0.3, x + random(-2, 2), y + r * 0.95);
  const n = 4 + floor(r * 0.55);
  for (let k = 0; k < n; k++) {
    const a = random(TWO_PI);
    const d = sqrt(random()) * r * 0.85;
    const px = x + cos(a) * d;
    const py = y + sin(a) * d * 0.85;
    const side = cos(a) * d / r + random(-0.25, 0.25);
    const c = side > 0.25 ? random(['#f4a640', '#f6c45a', '#fbd97a']) : side < -0.25 ? random(['#6a4f8a', '#7a5488', '#8a4a5a']) : random(['#d8642a', '#c04a2a', '#e47f2c']);
    const ang = random(-1.0, -0.3);
    dab(k % 3 ? 'crayon' : 'pastel', c, 0.6 + r * 0.06, px, py, px + cos(ang) * r * 0.4, py + sin(ang) * r * 0.4);
  }
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#b9aeb4');
  brush.scaleBrushes(3);

  // Underpainting: flat washes for the sky gradient and the valley floor (washes are cheap; strokes go on top).
  brush.noStroke();
  const bands = [['#8a70a8', -10, 110], ['#eeaa7e', 100, 250], ['#b7794a', 245, 610]];
  for (const [c, y1, y2] of bands) {
    // Wavy-edged bands, so no ruler-straight seams show between them.
    const pts = [];
    for (let x = -10; x <= 630; x += 40) pts.push([x, y1 + random(-6, 6)]);
    for (let x = 630; x >= -10; x -= 40) pts.push([x, y2 + random(-6, 6)]);
    brush.wash(c, 190);
    brush.polygon(pts);
    brush.noWash();
  }
  // A one-pixel wash: the last wash before a pastel stroke can otherwise be dropped.
  brush.wash('#b9aeb4', 10);
  brush.rect(0, 0, 1, 1);
  brush.noWash();

  // Sky strokes: soft horizontal pastel over the washes, blending the bands.
  const sky = ['#6f6aa6', '#8a72a8', '#b886a6', '#d99a94', '#eca57a', '#f3b872', '#f9dea0'];
  for (let y = 4; y < 235; y += 11) {
    const i = constrain(floor((y / 235) * (sky.length - 1) + random(-0.7, 0.7)), 0, sky.length - 1);
    dab('pastel', sky[i], 2.4, -20, y + random(-3, 3), 620, y + random(-4, 4));
  }
  flushDabs();

  // Far ridges: blue-violet, then a warmer mauve, parting in a notch where the sun sets.
  brush.hatchStyle('crayon', '#6f6696', 1.5);
  brush.hatch(5, 0.25, { rand: 0.3 });
  brush.polygon([[-10, 196], [90, 182], [200, 194], [300, 208], [350, 228], [420, 230], [480, 206], [560, 190], [610, 196], [610, 262], [-10, 262]]);
  brush.noHatch();
  brush.hatchStyle('crayon', '#8a5f86', 1.4);
  brush.hatch(5, -0.3, { rand: 0.3 });
  brush.polygon([[-10, 238], [120, 230], [250, 246], [330, 254], [410, 250], [470, 240], [610, 228], [610, 292], [-10, 292]]);
  brush.noHatch();
  // The low sun resting in the notch, with a warm halo.
  for (let k = 0; k < 16; k++) {
    const a = random(PI + 0.3, TWO_PI - 0.3);
    const d = random(26, 70);
    const hx = 384 + cos(a) * d;
    const hy = 228 + sin(a) * d * 0.45;
    dab('pastel', '#fbe2a6', 1, hx - 16, hy, hx + 16, hy + random(-2, 2));
  }
  flushDabs();
  brush.hatchStyle('cpencil', '#fff6d6', 2.2);
  brush.hatch(2.5, 0.15, { rand: 0.15 });
  brush.polygon([[360, 230], [362, 216], [372, 207], [386, 204], [399, 208], [408, 218], [410, 230]]);
  brush.noHatch();

  // Valley slopes: rust and ochre hillsides hatched along their fall, with violet shadow zones.
  brush.hatchStyle('crayon', '#d09050', 1.3);
  brush.hatch(11, -0.6, { rand: 0.35 });
  brush.polygon([[-10, 270], [120, 266], [260, 300], [340, 350], [300, 440], [180, 520], [-10, 540]]);
  brush.noHatch();
  brush.hatchStyle('crayon', '#c2763e', 1.3);
  brush.hatch(11, 0.6, { rand: 0.35 });
  brush.polygon([[610, 268], [480, 272], [410, 292], [372, 340], [392, 430], [470, 520], [610, 540]]);
  brush.noHatch();
  brush.hatchStyle('crayon', '#6a5890', 1.5);
  brush.hatch(6, 0.9, { rand: 0.3 });
  brush.polygon([[372, 300], [428, 294], [410, 360], [440, 470], [392, 432], [366, 350]]);
  brush.polygon([[-10, 420], [130, 446], [210, 505], [-10, 560]]);
  brush.noHatch();

  // The river: winding from the notch toward the viewer, laid in horizontal reflection strokes:
  // gold down the middle where the sun is mirrored, sky violet and rose toward the banks.
  const river = [[384, 252, 4], [374, 292, 10], [348, 336, 17], [356, 392, 25], [320, 444, 34], [296, 506, 46], [252, 600, 62]];
  for (let k = 0; k < river.length - 1; k++) {
    const [x1, y1, w1] = river[k];
    const [x2, y2, w2] = river[k + 1];
    for (let y = y1; y < y2; y += 3 + k * 0.7) {
      const t = (y - y1) / (y2 - y1);
      const cx = lerp(x1, x2, t);
      const w = lerp(w1, w2, t);
      const wb = 0.5 + k * 0.3;
      if (random() < 0.5) dab('pastel', random(['#8f7fb8', '#a58ab8']), wb, cx - w, y, cx - w * 0.3, y + random(-1, 1));
      else dab('pastel', random(['#e7a0a0', '#c98fb0']), wb, cx + w * 0.3, y, cx + w, y + random(-1, 1));
      dab('crayon', random(['#f8d890', '#fbe6b0', '#f2c070']), wb * 0.8, cx - w * random(0.2, 0.5), y, cx + w * random(0.2, 0.5), y + random(-1, 1));
    }
    dab('cpencil', '#45365e', 0.7 + k * 0.3, x1 - w1, y1, x2 - w2, y2);
    dab('cpencil', '#5a3c52', 0.5 + k * 0.2, x1 + w1, y1, x2 + w2, y2);
  }
  flushDabs();

  // Trees: small and dense in the distance, bigger toward the viewer; drawn back to front in depth bands.
  const trees = [];
  for (let i = 0; i < 56; i++) {
    const t = pow(random(), 0.9);
    const y = 268 + t * 250;
    let x = random(-20, 620);
    const rx = 384 - t * 110;
    if (abs(x - rx) < 30 + t * 60) x = rx + (x < rx ? -1 : 1) * (36 + t * 66);
    trees.push([x, y, 6 + t * 22]);
  }
  trees.sort((a, b) => a[1] - b[1]);
  let band = 0;
  for (const [x, y, r] of trees) {
    if (floor((y - 268) / 70) > band) {
      flushDabs();
      band = floor((y - 268) / 70);
    }
    tree(x, y, r);
  }
  flushDabs();

  // Foreground bank: dark violet-brown grass with orange flicks, and a clump of big trees on the left.
  brush.hatchStyle('crayon', '#5a3f58', 1.6);
  brush.hatch(6, -1.1, { rand: 0.4 });
  brush.polygon([[-10, 528], [150, 522], [300, 552], [450, 536], [610, 548], [610, 610], [-10, 610]]);
  brush.noHatch();
  for (let i = 0; i < 80; i++) {
    const x = random(-10, 610);
    const y = random(534, 610);
    dab('crayon', random(['#d8742e', '#e9a24a', '#8e5a6e']), random(0.8, 1.4), x, y, x + random(-6, 10), y - random(10, 26));
  }
  flushDabs();
  for (const [x, y, r] of [[40, 420, 34], [95, 455, 30], [20, 485, 28], [150, 490, 24], [545, 470, 30], [590, 430, 26]]) {
    tree(x, y, r);
  }
  flushDabs();
}
