// A cherry tree in full blossom against a soft blue sky, pastel on toned paper.

function limb(x, y, ang, len, w, depth, tips) {
  const x2 = x + cos(ang) * len;
  const y2 = y + sin(ang) * len;
  brush.set('crayon', '#4a3228', w);
  brush.line(x, y, x2, y2);
  if (depth === 0) {
    tips.push([x2, y2]);
    return;
  }
  limb(x2, y2, ang - random(0.2, 0.6), len * random(0.65, 0.8), w * 0.7, depth - 1, tips);
  limb(x2, y2, ang + random(0.2, 0.6), len * random(0.65, 0.8), w * 0.7, depth - 1, tips);
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e4ddd0');
  brush.scaleBrushes(3);

  // Sky: soft pastel strokes in two blues.
  for (let y = 10; y < 600; y += 16) {
    brush.set('pastel', y < 300 ? '#a9c4de' : '#c4d6e4', 2.2);
    brush.line(-20, y + random(-4, 4), 620, y + random(-4, 4));
  }
  // Grass bank.
  brush.noStroke();
  brush.mass('pastel', '#8fae6a', { precision: 0.5, strength: 0.9 });
  brush.polygon([[0, 500], [200, 480], [420, 490], [600, 470], [600, 600], [0, 600]]);
  brush.noMass();

  // Trunk and branches; collect the branch tips for the blossom.
  const tips = [];
  limb(300, 560, -PI / 2, 150, 3, 5, tips);

  // Blossom clusters: pink pastel dabs around each tip, a few deeper and a few white.
  for (const [x, y] of tips) {
    // Crayon lays down more pigment than pastel, so the blossom reads against the sky.
    for (let k = 0; k < 18; k++) {
      const px = x + random(-30, 30);
      const py = y + random(-26, 26);
      brush.set(k % 3 === 0 ? 'pastel' : 'crayon', random(['#f2a8bc', '#e8879f', '#f7c9d4', '#d0607e']), random(1.2, 1.8));
      brush.line(px, py, px + random(-16, 16), py + random(-12, 12));
    }
  }
  for (let i = 0; i < 40; i++) {
    const [x, y] = random(tips);
    brush.set('pastel', '#fff4f6', 0.5);
    brush.circle(x + random(-20, 20), y + random(-20, 20), 3);
  }
  // Fallen petals on the grass.
  for (let i = 0; i < 30; i++) {
    brush.set('pastel', '#f2b8c6', 0.5);
    const x = random(100, 500);
    const y = random(500, 590);
    brush.line(x, y, x + 4, y + 1);
  }
}
