// Ok: a bowl of oranges and pomegranates on a red cloth, centred and frontal, each fruit a shaded round; correct but plain.

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

function fruit(x, y, r, base, dark) {
  brush.noStroke();
  brush.hatchStyle('crayon', base, 1.5);
  brush.hatch(2.4, 0.8, { rand: 0.2 });
  brush.circle(x, y, r);
  brush.noHatch();
  brush.set('crayon', dark, 1.6);
  brush.arc(x, y, r * 0.8, -1.8, 0.2);
  brush.set('cpencil', '#fff0d0', 1.5);
  brush.line(x - r * 0.4, y - r * 0.4, x - r * 0.25, y - r * 0.5);
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#d8cdb8');
  brush.scaleBrushes(3);

  // Plain wall: even horizontal strokes of warm grey.
  for (let y = 10; y < 340; y += 16) {
    dab('pastel', '#b8ab96', 2.4, -20, y + random(-3, 3), 620, y + random(-3, 3));
  }
  flushDabs();
  // Red cloth on the table: level strokes, a darker line for the table edge.
  brush.noStroke();
  brush.hatchStyle('crayon', '#b23a30', 1.5);
  brush.hatch(4, 0.05, { rand: 0.2 });
  brush.rect(-10, 340, 620, 270);
  brush.noHatch();
  for (let y = 360; y < 600; y += 40) dab('crayon', '#8a2424', 1.2, -10, y, 610, y + random(-4, 4));
  flushDabs();

  // Shadow under the bowl.
  brush.hatchStyle('crayon', '#6a2028', 1.4);
  brush.hatch(3, 0);
  brush.rect(190, 452, 250, 18);
  brush.noHatch();

  // Fruit in the bowl: three oranges and two pomegranates in a row.
  fruit(262, 318, 38, '#a82838', '#6a1422');
  fruit(342, 316, 38, '#e88a2a', '#b0561a');
  fruit(210, 352, 38, '#e88a2a', '#b0561a');
  fruit(300, 356, 40, '#e88a2a', '#b0561a');
  fruit(392, 352, 38, '#a82838', '#6a1422');

  // Bowl: a cream half-round in front of the fruit with a rim line.
  const body = [];
  for (let t = PI; t >= 0; t -= PI / 12) body.push([300 + 150 * cos(t), 385 + 20 * sin(t)]);
  for (let t = 0; t <= PI; t += PI / 12) body.push([300 + 150 * cos(t) * (1 - 0.35 * sin(t)), 385 + 75 * sin(t)]);
  brush.hatchStyle('crayon', '#e8dcc0', 1.5);
  brush.hatch(3, 1.3, { rand: 0.2 });
  brush.polygon(body);
  brush.noHatch();
  brush.set('cpencil', '#9a8a70', 1.4);
  for (let i = 0; i < body.length - 1; i++) brush.line(body[i][0], body[i][1], body[i + 1][0], body[i + 1][1]);
}
