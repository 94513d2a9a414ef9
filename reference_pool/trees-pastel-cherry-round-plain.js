// Ok: a cherry tree in blossom drawn plainly, a round pink crown on a straight trunk, flat blue sky and a green bank; clear but ordinary.

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
  background('#e6e0d6');
  brush.scaleBrushes(3);

  // Sky: even horizontal strokes of one blue, a lighter one lower down.
  for (let y = 8; y < 470; y += 13) dab('pastel', y < 260 ? '#8fb0d8' : '#aac4e2', 2.3, -20, y + random(-3, 3), 620, y + random(-3, 3));
  flushDabs();
  // Green bank.
  brush.noStroke();
  brush.hatchStyle('crayon', '#7ea05a', 1.5);
  brush.hatch(4, -1.2, { rand: 0.3 });
  brush.rect(-10, 470, 620, 140);
  brush.noHatch();

  // Trunk and three short branches into the crown.
  for (let k = -2; k <= 2; k++) dab('crayon', '#4e3428', 1.8, 300 + k * 3, 500, 300 + k * 2, 300);
  dab('crayon', '#4e3428', 1.6, 300, 330, 240, 250);
  dab('crayon', '#4e3428', 1.6, 300, 320, 360, 240);
  dab('crayon', '#4e3428', 1.4, 300, 300, 300, 210);
  flushDabs();

  // Crown: a round mass of pink hatching with lighter and darker dabs over it.
  brush.hatchStyle('crayon', '#eaa2b8', 1.6);
  brush.hatch(3.5, 0.6, { rand: 0.2 });
  for (const [cx, cy, r] of [[300, 220, 110], [225, 270, 70], [375, 265, 72]]) brush.circle(cx, cy, r);
  brush.noHatch();
  for (let i = 0; i < 140; i++) {
    const a = random(TWO_PI);
    const d = sqrt(random()) * 125;
    const x = 300 + cos(a) * d * 1.1;
    const y = 235 + sin(a) * d * 0.9;
    const lit = x - 300 + (y - 235) < -20;
    dab('cpencil', lit ? '#fbe4ec' : '#c06488', 1.6, x, y, x + 6, y - 4);
  }
  flushDabs();
  // A few fallen petals under the tree.
  for (let i = 0; i < 20; i++) {
    const x = random(200, 400);
    const y = random(490, 540);
    dab('cpencil', '#f4b8c8', 1.2, x, y, x + 4, y + 1);
  }
  flushDabs();
}
