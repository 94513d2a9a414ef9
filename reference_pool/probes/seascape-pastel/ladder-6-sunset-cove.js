// Reference: a rocky cove at sunset. A dark violet headland on the left, rim-lit gold on the
// side facing a low sun that sits half behind a cloud bar right of centre; a violet sea with a
// broken gold path, one wave breaking across the cove in cream foam, wet sand mirroring the
// glow and near-black rocks in the lower left corner; soft pastel in three layers on warm grey
// paper.

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

// A rock or cliff: a dark wash (so the paper does not speckle through), hatched in steep
// crayon strokes, then its edges facing the sun picked out in warm strokes.
function rock(pts, dark, mid, rim) {
  brush.noStroke();
  brush.wash(dark, 235);
  brush.polygon(pts);
  brush.noWash();
  brush.hatchStyle('crayon', mid, 1.2);
  brush.hatch(4, 1.2, { rand: 0.3 });
  brush.polygon(pts);
  brush.hatchStyle('crayon', dark, 1.1);
  brush.hatch(6, -1.0, { rand: 0.4 });
  brush.polygon(pts);
  brush.noHatch();
  for (let i = 0; i < pts.length - 1; i++) {
    const [x1, y1] = pts[i];
    const [x2, y2] = pts[i + 1];
    // Lit where the edge faces right and up, toward the sun.
    if (y2 > y1 && x2 > x1) dab('crayon', rim, 1, x1, y1 + 1, x2, y2 + 1);
  }
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#bcaea0');
  brush.scaleBrushes(3);

  const horizon = 252;
  const sunX = 420;
  // The shoreline runs on a slant, from the rocks low on the left up to the right edge.
  const shore = (x) => 448 - 0.15 * (x - 100);

  // Underpainting: sky from violet to gold, a violet sea, a warm wet beach.
  brush.set('cpencil', '#bcaea0', 0.5);
  brush.line(1, 1, 2, 2);
  brush.noStroke();
  const bands = [['#8a74a0', -10, 110], ['#d89aa4', 100, 190], ['#f2c88c', 180, horizon], ['#50487a', horizon, 470]];
  for (const [c, y1, y2] of bands) {
    brush.wash(c, 190);
    brush.rect(-10, y1, 620, y2 - y1);
  }
  brush.wash('#c8a088', 200);
  brush.polygon([[-10, shore(-10)], [620, shore(620)], [620, 610], [-10, 610]]);
  brush.noWash();

  // Sky: level strokes blending the bands, two or three hues in each.
  const sky = ['#7a68a0', '#9a7cac', '#c48ca8', '#e4a0a0', '#f0b890', '#f8d498', '#fbe2a8'];
  for (let y = 4; y < horizon - 3; y += 8) {
    const i = constrain(floor((y / horizon) * sky.length + random(-0.7, 0.7)), 0, sky.length - 1);
    const x = random(-200, 0);
    dab('pastel', sky[i], 2.2, x, y + random(-2, 2), x + 820, y + random(-3, 3));
  }
  flushDabs();
  // A glow round the sun, then the disc itself as a bright wash (piled pale strokes go grey).
  for (let k = 0; k < 30; k++) {
    const a = random(TWO_PI);
    const d = random(14, 60);
    const x = sunX + cos(a) * d * 1.6;
    const y = horizon - 18 + sin(a) * d * 0.5;
    dab('crayon', random(['#fde6a8', '#fff0c0']), 1, x - 12, y, x + 12, y);
  }
  flushDabs();
  brush.noStroke();
  brush.wash('#fff6dc', 240);
  brush.circle(sunX, horizon - 18, 17);
  brush.noWash();
  // Cloud bars: violet bodies, their undersides lit rose and gold near the sun; the lowest
  // one crosses the sun's disc.
  const bars = [[-60, 60, 340], [220, 88, 300], [40, 126, 260], [300, 150, 340], [150, 190, 220], [330, 226, 190]];
  for (const [x, y, len] of bars) {
    const near = 1 - min(1, abs(x + len / 2 - sunX) / 400);
    for (let k = 0; k < 4; k++) {
      const inset = abs(k - 1.5) * 18 + random(0, 8);
      dab(k % 2 ? 'crayon' : 'pastel', random(['#6c5888', '#7a6494', '#86689a']), k % 2 ? 1.2 : 1.8, x + inset, y + k * 3, x + len - inset, y + k * 3 + random(-1, 1));
    }
    dab('cpencil', near > 0.5 ? '#ffd890' : '#f0a8a0', 1, x + 30, y + 13, x + len - 40, y + 13);
  }
  flushDabs();

  // The headland: a dark violet cliff stepping down into the sea, lit gold on the sun's side.
  const cliff = [[-10, 128], [30, 118], [70, 136], [110, 150], [150, 186], [180, 200], [215, 232], [250, horizon + 2], [-10, horizon + 2]];
  rock(cliff, '#3a2c4c', '#5a4068', '#e8a070');
  flushDabs();

  // Sea: level strokes of violet and blue, lighter toward the horizon, stopping at the shore.
  for (let y = horizon + 2; y < 456; y += 5) {
    const x = random(-150, 100);
    const end = min(620, 100 + (448 - y) / 0.15);
    const c = random(y < horizon + 40 ? ['#6a5c90', '#7a6a9a', '#5c5488'] : ['#463e72', '#52487c', '#3c3868']);
    dab('crayon', c, 1.2, x, y, min(end, x + random(300, 700)), y + random(-1, 1));
  }
  // The cliff's reflection pulled down in the calm water under it.
  for (let k = 0; k < 50; k++) {
    const x = random(0, 240);
    dab('crayon', random(['#2c2240', '#3a2e50']), 1.2, x, horizon + 3, x + random(-1, 1), horizon + 3 + random(10, 40) * (1 - x / 300));
  }
  // The gold path: broken level dashes, widening toward the viewer.
  for (let k = 0; k < 90; k++) {
    const t = pow(random(), 0.9);
    const y = horizon + 3 + t * (shore(sunX) - horizon - 30);
    const hw = 10 + t * 60;
    const x = sunX + random(-hw, hw);
    dab('cpencil', random(['#ffe0a0', '#fff0c8', '#f8c078']), 0.7 + t * 0.8, x - 4 - t * 10, y, x + 4 + t * 10, y);
  }
  flushDabs();

  // Wet sand: the sky mirrored in level strokes, starting where the water leaves off, and
  // the sun's gold column in it.
  for (let y = 380; y < 604; y += 7) {
    const skyY = horizon - (y - 380) * 0.9;
    const i = constrain(floor((skyY / horizon) * sky.length + random(-0.6, 0.6)), 0, sky.length - 1);
    const x0 = max(-10, 100 + (448 - y) / 0.15 + 10);
    dab('pastel', sky[i], 1.8, x0 + random(0, 30), y, x0 + random(300, 700), y + random(-1, 1));
  }
  flushDabs();
  for (let k = 0; k < 60; k++) {
    const y = shore(sunX) + 14 + random() * 150;
    const x = sunX + 10 + random(-16, 16) * (1 + (y - 400) / 120);
    dab('cpencil', random(['#f8d890', '#fbe6b0', '#f0c070']), 1.6, x, y, x + random(-1, 1), y + random(6, 16));
  }
  flushDabs();

  // The breaking wave along the shore: a dark face under a curling cream lip, tall where it
  // meets the rocks on the left, low and broken as it runs out to the right.
  const lip = [];
  const foot = [];
  for (let x = 150; x <= 620; x += 20) {
    const h = 8 + 30 * pow(1 - (x - 150) / 470, 1.6);
    lip.push([x, shore(x) - h + random(-2, 2)]);
    foot.push([x, shore(x) + 2]);
  }
  brush.noStroke();
  brush.wash('#3a4672', 190);
  brush.polygon([...lip, ...foot.reverse()]);
  brush.noWash();
  for (let k = 0; k < 50; k++) {
    const x = random(150, 600);
    const h = 8 + 30 * pow(1 - (x - 150) / 470, 1.6);
    dab('crayon', random(['#4a5c80', '#3e6078', '#566a8a']), 0.9, x, shore(x) - h + 3, x + random(-3, 3), shore(x));
    // Foam streaming down the face, gold where the low sun catches it.
    const fy = shore(x) - h * random(0.2, 0.8);
    dab('cpencil', random(['#e8e4e0', '#f8d8a0', '#d8dce4']), 0.7, x, fy, x + random(6, 14), fy + random(0, 3));
  }
  flushDabs();
  for (let k = 0; k < 5; k++) {
    const pts = lip.filter(() => random() < 0.85).map(([x, y]) => [x, y - 2 + k * 1.6]);
    curve(k % 2 ? 'crayon' : 'pastel', random(['#fbf2e0', '#f4e6d0', '#fffaf0']), 1.5 - k * 0.15, pts.slice(0, floor(pts.length * (1 - k * 0.15))));
  }
  // Foam sliding up the sand below the wave, a broken line with a thin crisp edge.
  for (let i = 0; i < 24; i++) {
    const x = random(180, 620);
    const y = shore(x) + 8 + random(0, 10);
    const len = random(30, 80);
    dab('pastel', '#fbf6ec', 1.3, x, y, x + len, y - len * 0.15 + random(-1, 1));
    dab('cpencil', '#ffffff', 0.7, x + 8, y - 2, x + len * 0.7, y - 2 - len * 0.1);
  }
  // Spray thrown up where the wave meets the rocks, lit warm on the right.
  for (let k = 0; k < 110; k++) {
    const x = random(120, 300);
    const y = shore(x) - 40 - random(0, 70) * (1 - (x - 130) / 160);
    dab(k % 3 ? 'cpencil' : 'pastel', random(['#fff6e4', '#fde8c8', '#f0e4e0']), k % 3 ? 0.9 : 1.2, x, y, x + random(2, 8), y - random(0, 4));
  }
  flushDabs();

  // Near rocks in the lower left: the deepest darks of the picture, their upper planes
  // catching the glow, wet rims lit orange.
  rock([[-10, 400], [30, 384], [80, 392], [130, 424], [170, 428], [205, 460], [232, 470], [262, 520], [276, 566], [268, 610], [-10, 610]], '#201828', '#3a2a48', '#f0a070');
  rock([[268, 566], [300, 548], [340, 552], [372, 580], [380, 610], [262, 610]], '#261c34', '#44325a', '#f0a070');
  // Lit planes: lighter violet hatching on the tops that face the sky.
  for (const plane of [[[30, 386], [80, 394], [120, 420], [60, 420], [20, 404]], [[170, 430], [205, 462], [180, 470], [150, 446]], [[300, 550], [340, 554], [330, 566], [296, 562]]]) {
    brush.hatchStyle('crayon', '#7a5c88', 1);
    brush.hatch(3.5, 0.2, { rand: 0.3 });
    brush.polygon(plane);
    brush.noHatch();
  }
  flushDabs();
  for (let k = 0; k < 18; k++) {
    const x = random(20, 230);
    const y = 396 + x * 0.3 + random(0, 26);
    dab('cpencil', random(['#f8c890', '#ffe0b0']), 0.8, x, y, x + random(6, 16), y + random(-1, 2));
  }
  flushDabs();
}
