// The sea at night seen from a cliff top: a high moon on the right, its silver path broken on
// the dark water straight down the picture, the black cliff falling away along the left edge
// with a moonlit rim and surf at its foot, a far headland on the horizon, grass on the cliff
// top in front; soft pastel on dark blue-grey paper.

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
  background('#262c3c');
  brush.scaleBrushes(3);
  const horizon = 200;
  const moonX = 430;
  const moonY = 82;

  // Underpainting: a blue-violet sky and a darker sea.
  brush.set('cpencil', '#262c3c', 0.5);
  brush.line(1, 1, 2, 2);
  brush.noStroke();
  brush.wash('#2e3654', 200);
  brush.rect(-10, -10, 620, horizon + 10);
  brush.wash('#1c2238', 215);
  brush.rect(-10, horizon, 620, 620 - horizon);
  brush.noWash();

  // Sky: level strokes, lighter toward the horizon and round the moon.
  for (let y = 4; y < horizon - 2; y += 7) {
    const x = random(-200, 0);
    const c = random(y < 120 ? ['#2c3458', '#343e64', '#2a3050'] : ['#3c4670', '#46507a', '#505a84']);
    dab('pastel', c, 2, x, y, x + 820, y + random(-2, 2));
  }
  flushDabs();
  // Thin clouds drifting past the moon, their edges lit silver.
  for (const [x, y, len] of [[250, 60, 150], [330, 118, 260], [60, 140, 200]]) {
    for (let k = 0; k < 3; k++) dab('crayon', random(['#4a5078', '#545a84']), 1.1, x + k * 10, y + k * 4, x + len - k * 14, y + k * 4);
    dab('cpencil', abs(x + len / 2 - moonX) < 160 ? '#c8cce0' : '#7a82a8', 0.8, x + 20, y - 2, x + len - 30, y - 2);
  }
  flushDabs();
  // The moon: a soft halo of level strokes, thinning with distance, then the bright disc.
  for (let k = 0; k < 90; k++) {
    const d = 22 + pow(random(), 1.6) * 60;
    const a = random(TWO_PI);
    const x = moonX + cos(a) * d;
    const y = moonY + sin(a) * d * 0.8;
    dab('pastel', random(['#6a729c', '#7c84aa', '#5c6490']), 1.2, x - 10, y, x + 10, y + random(-1, 1));
  }
  flushDabs();
  brush.noStroke();
  brush.wash('#f6f2de', 245);
  brush.circle(moonX, moonY, 20);
  brush.noWash();

  // A far headland low on the horizon, paler with distance.
  brush.wash('#2a3048', 230);
  brush.polygon([[140, horizon], [120, horizon - 10], [80, horizon - 16], [40, horizon - 20], [-10, horizon - 22], [-10, horizon]]);
  brush.noWash();
  dab('cpencil', '#6a74a0', 0.8, 140, horizon, 610, horizon);

  // Sea: thin level swells, and the moon's path broken into silver dashes, widening as it
  // comes toward the foot of the cliff.
  for (let y = horizon + 3; y < 604; y += 5) {
    const x = random(-150, 100);
    dab('crayon', random(['#262e4c', '#2e3858', '#202842']), 1, x, y, x + random(300, 700), y + random(-1, 1));
  }
  flushDabs();
  for (let k = 0; k < 200; k++) {
    const t = pow(random(), 0.9);
    const y = horizon + 3 + t * 400;
    const hw = 6 + t * 70;
    const x = moonX + random(-hw, hw) * random(0.3, 1);
    const len = 4 + t * 26;
    dab(k % 3 ? 'cpencil' : 'pastel', random(['#d8dcf0', '#f4f2e4', '#b0b8d8', '#9aa4c8']), 0.6 + t * 0.8, x - len / 2, y, x + len / 2, y + random(-0.5, 0.5));
  }
  // Faint glints off the path, fewer and dimmer away from it.
  for (let k = 0; k < 50; k++) {
    const y = random(horizon + 10, 600);
    const x = random(200, 620);
    dab('cpencil', '#5a6490', 0.6, x, y, x + random(6, 16), y);
  }
  flushDabs();

  // The cliff: a near-black mass along the left, hatched in steep strokes, its edge against
  // the water lit by the moon; surf breaking at its foot.
  const cliff = [[-10, 226], [30, 232], [52, 228], [80, 244], [100, 250], [118, 272], [140, 290], [150, 318], [170, 348], [178, 386], [196, 418], [204, 462], [220, 500], [226, 552], [240, 610], [-10, 610]];
  brush.noStroke();
  brush.wash('#12141c', 240);
  brush.polygon(cliff);
  brush.noWash();
  brush.hatchStyle('crayon', '#262a3a', 1);
  brush.hatch(5, 1.25, { rand: 0.3 });
  brush.polygon(cliff);
  brush.noHatch();
  for (let i = 1; i < cliff.length - 2; i++) {
    const [x1, y1] = cliff[i];
    const [x2, y2] = cliff[i + 1];
    dab('cpencil', '#8e98c0', 0.9, x1 - 2, y1 + 1, x2 - 2, y2 + 1);
    for (let k = 0; k < 6; k++) {
      const t = random();
      const x = lerp(x1, x2, t);
      const y = lerp(y1, y2, t);
      dab('crayon', '#4a5070', 0.9, x - 2, y, x - random(10, 30), y + random(10, 30));
    }
  }
  flushDabs();
  for (let k = 0; k < 120; k++) {
    const t = pow(random(), 0.8);
    const y = lerp(240, 600, t);
    const edge = y < 418 ? lerp(60, 196, (y - 232) / 186) : lerp(196, 240, (y - 418) / 192);
    const x = edge + random(0, 8 + t * 30);
    const len = 3 + t * 16;
    dab(k % 2 ? 'pastel' : 'cpencil', random(['#e8ecf4', '#c8d0e4', '#ffffff']), 0.6 + t * 0.8, x, y, x + len, y + random(-2, 2));
  }
  flushDabs();

  // Grass on the cliff top in front: dark blades with silver tips.
  for (let i = 0; i < 60; i++) {
    const x = random(-10, 200) * pow(random(), 0.5);
    const h = random(30, 110) * (1 - x / 260);
    const lean = random(-0.3, 0.5);
    curve('crayon', random(['#2a3044', '#343a52', '#22283a']), 0.9, [[x, 604], [x + lean * h * 0.3, 604 - h * 0.6], [x + lean * h * 0.7, 604 - h]]);
    if (random() < 0.7) dab('cpencil', '#a8b0d0', 0.7, x + lean * h * 0.6, 604 - h * 0.9, x + lean * h * 0.7, 604 - h);
  }
  flushDabs();
}
