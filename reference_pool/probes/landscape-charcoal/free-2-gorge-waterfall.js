// A waterfall in a narrow gorge in charcoal, seen close and upright: dark cliff walls fill both
// sides of the page, a tall fall of white water drops from a notch near the top into a misty
// pool, boulders and the pool's dark edge at the foot; only a sliver of sky shows.

// A cliff wall: a ragged inner edge from the top of the page to the bottom, filled out to the side.
function wall(side, pts) {
  const ex = side < 0 ? -10 : 610;
  return [[ex, -10], ...pts, [ex, 610]];
}

// Ledges: short level strata lines across a wall, darker underneath, as the rock is bedded.
function strata(x0, x1, y0, y1, n, tone) {
  for (let i = 0; i < n; i++) {
    const y = random(y0, y1);
    const a = random(x0, x1);
    const len = random(30, 90);
    brush.set('charcoal', tone, random(0.6, 1.1));
    brush.spline([[a, y], [a + len * 0.5, y + random(-4, 4)], [a + len, y + random(-3, 6)]], 0.5);
  }
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#ebe8e1');
  brush.scaleBrushes(3);

  // The back of the gorge: a mid grey rock face behind the fall, lighter towards the sky notch.
  brush.noStroke();
  brush.wash('#9d9992', 240);
  brush.rect(0, 40, 600, 560);
  brush.noWash();
  brush.hatchStyle('charcoal', '#7a766f', 0.6);
  brush.hatch(6, 1.45, { rand: 0.5 });
  brush.rect(150, 40, 300, 420);
  brush.noHatch();
  // The sliver of sky through the notch at the top: bare paper.
  brush.wash('#efece6', 250);
  brush.polygon([[230, -10], [370, -10], [350, 30], [318, 52], [282, 50], [250, 28]]);
  brush.noWash();

  // The fall: a column of bare paper from the lip down, widening, streaked with grey.
  const fall = [[282, 52], [318, 54], [330, 150], [342, 300], [356, 430], [246, 430], [258, 300], [268, 150]];
  brush.wash('#f2efe9', 250);
  brush.polygon(fall);
  brush.noWash();
  for (let i = 0; i < 26; i++) {
    const t = random();
    const x = lerp(272, 328, t) + random(-3, 3);
    const y0 = random(60, 200);
    const drift = (t - 0.5) * 30;
    brush.set('2B', t < 0.35 ? '#8e8a83' : '#b3afa8', random(0.3, 0.6));
    brush.spline([[x, y0], [x + drift * 0.4, y0 + 120], [x + drift, y0 + random(200, 260)]], 0.5);
  }
  // Spray rising from the plunge: soft paper-coloured smudges over the foot of the fall.
  for (const [cx, cy, rx, ry, d] of [[300, 430, 150, 55, 5], [300, 445, 100, 35, 3.5]]) {
    brush.noStroke();
    brush.hatchStyle('spray', '#f1eee8', 3);
    brush.hatch(d, 0.05, { rand: 0.45 });
    brush.beginShape(0.9);
    for (let i = 0; i < 12; i++) {
      const a = (i / 12) * TWO_PI;
      brush.vertex(cx + cos(a) * rx * random(0.85, 1.15), cy + sin(a) * ry * random(0.8, 1.2));
    }
    brush.endShape(true);
    brush.noHatch();
  }

  // The cliff walls: the darkest masses, their faces turned from the light hatched down.
  const leftEdge = [[235, -10], [250, 28], [262, 60], [240, 110], [258, 170], [232, 240], [246, 300], [214, 360], [226, 420], [170, 470], [150, 540], [110, 610]];
  const rightEdge = [[365, -10], [350, 30], [340, 70], [362, 120], [346, 190], [372, 250], [356, 320], [386, 380], [376, 430], [440, 480], [470, 550], [500, 610]];
  brush.noStroke();
  brush.wash('#3c3935', 250);
  brush.polygon(wall(-1, leftEdge));
  brush.noWash();
  brush.wash('#4b4843', 250);
  brush.polygon(wall(1, rightEdge));
  brush.noWash();
  brush.hatchStyle('charcoal', '#1a1816', 1.1);
  brush.hatch(4, 1.35, { rand: 0.5 });
  brush.polygon(wall(-1, leftEdge));
  brush.hatch(5, -1.35, { rand: 0.5 });
  brush.polygon(wall(1, rightEdge));
  brush.noHatch();
  // The lit inner edge of the right wall, catching light from the notch.
  brush.set('charcoal', '#c9c5bd', 1.1);
  brush.spline(rightEdge.slice(1, 9).map(([x, y]) => [x + 5, y]), 0.4);
  brush.set('charcoal', '#8a867f', 0.7);
  brush.spline(leftEdge.slice(1, 9).map(([x, y]) => [x - 4, y]), 0.4);
  strata(0, 200, 40, 560, 12, '#121110');
  strata(400, 600, 40, 560, 12, '#161514');
  strata(380, 520, 90, 400, 4, '#6d6963');
  // Ferns and grass hanging off the ledges: short drooping strokes.
  for (let i = 0; i < 30; i++) {
    const side = i % 2 === 0 ? -1 : 1;
    const x = side < 0 ? random(150, 240) : random(360, 460);
    const y = random(150, 520);
    brush.set('charcoal', '#0f0e0d', random(0.5, 0.8));
    brush.spline([[x, y], [x - side * 10, y + 8], [x - side * 14, y + 20]], 0.6);
  }

  // The pool: dark water with the fall's light broken across it.
  const pool = [[110, 610], [150, 540], [200, 490], [300, 472], [420, 488], [470, 550], [500, 610]];
  brush.noStroke();
  brush.wash('#56534e', 245);
  brush.beginShape(0.7);
  for (const [x, y] of pool) brush.vertex(x, y);
  brush.endShape(true);
  brush.noWash();
  // The fall's light broken on the water: uneven level dashes, fewer and paler towards us.
  for (let i = 0; i < 11; i++) {
    const y = 484 + i * i * 1.0 + i * 3 + random(-2, 2);
    const w = random(25, 80) * (1 - i * 0.05);
    const x = 300 + random(-30, 30);
    brush.set('charcoal', i < 5 ? '#e4e1da' : '#b9b5ad', random(0.5, 0.9));
    brush.line(x - w / 2, y, x + w / 2, y + random(-1, 1));
  }
  // Boulders at the water's edge: rounded dark shapes with a lit top.
  for (const [cx, cy, r] of [[150, 560, 48], [210, 592, 40], [455, 575, 52], [520, 548, 40]]) {
    brush.noStroke();
    brush.wash('#24221f', 250);
    brush.beginShape(0.8);
    for (let i = 0; i < 9; i++) {
      const a = PI + (i / 9) * TWO_PI;
      brush.vertex(cx + cos(a) * r * random(0.85, 1.1), cy + sin(a) * r * (sin(a) < 0 ? 0.7 : 0.4));
    }
    brush.endShape(true);
    brush.noWash();
    brush.set('charcoal', '#b5b1aa', 0.9);
    brush.spline([[cx - r * 0.7, cy - r * 0.35], [cx - r * 0.2, cy - r * 0.62], [cx + r * 0.4, cy - r * 0.5]], 0.6);
  }
}
