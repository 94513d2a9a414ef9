// Ok: a lavender field in level rows with yellow daisies dotted evenly through it; clear but plain, centred horizon, safe palette.

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
  background('#cc9f62');
  brush.scaleBrushes(3);

  // Sky: even horizontal pastel strokes, blue above, paler near the horizon.
  for (let y = 10; y < 280; y += 13) {
    dab('pastel', y < 150 ? '#a8c0da' : '#c9d8e4', 2.2, -20, y + random(-3, 3), 620, y + random(-3, 3));
  }
  flushDabs();
  // A flat line of trees on the horizon.
  brush.noStroke();
  brush.hatchStyle('crayon', '#56683f', 1.4);
  brush.hatch(4, -0.5, { rand: 0.2 });
  brush.polygon([[-10, 282], [150, 276], [320, 282], [470, 274], [610, 280], [610, 300], [-10, 300]]);
  brush.noHatch();

  // Lavender rows: level bands of violet hatching separated by green furrows, wider toward the front.
  let y = 300;
  let k = 0;
  while (y < 600) {
    const h = 6 + (y - 300) * 0.12;
    brush.hatchStyle('crayon', k % 2 ? '#8366b2' : '#7458a4', 0.8 + h * 0.04);
    brush.hatch(2.5 + h * 0.12, -1.3, { rand: 0.3 });
    brush.rect(-10, y, 620, h);
    brush.noHatch();
    dab('crayon', '#607840', 0.5 + h * 0.04, -10, y + h + 1, 610, y + h + 1);
    y += h * 1.3 + 2;
    k++;
  }
  flushDabs();

  // Daisies: yellow rosettes spread evenly over the field, bigger in front.
  for (let i = 0; i < 45; i++) {
    const dy = 310 + (i / 45) * 270 + random(-8, 8);
    const dx = random(20, 580);
    const r = 3 + (dy - 300) * 0.04;
    for (let p = 0; p < 8; p++) {
      const a = (p * TWO_PI) / 8;
      dab('cpencil', '#efc02f', 0.6 + r * 0.12, dx, dy, dx + cos(a) * r, dy + sin(a) * r * 0.8);
    }
    dab('cpencil', '#6b4420', 0.5 + r * 0.12, dx - r * 0.2, dy, dx + r * 0.2, dy);
  }
  flushDabs();
}
