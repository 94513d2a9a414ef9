// A cobalt teapot and three lemons on a white cloth in morning light: a loose background
// blot, glazed shadows on the cloth, pencil accents.

function blob(cx, cy, rx, ry, rot, wobble) {
  // A soft oval, slightly irregular, turned by rot.
  const pts = [];
  for (let i = 0; i < 20; i++) {
    const a = (i / 20) * TWO_PI;
    const k = 1 + wobble * (noise(cx * 0.01 + cos(a), cy * 0.01 + sin(a)) - 0.5);
    const x = cos(a) * rx * k;
    const y = sin(a) * ry * k;
    pts.push([cx + x * cos(rot) - y * sin(rot), cy + x * sin(rot) + y * cos(rot)]);
  }
  return pts;
}

function lemonOutline(cx, cy, s, rot, dx, dy) {
  // A lemon: an oval with a small nub at each end, optionally shifted by (dx, dy).
  const pts = [];
  for (let i = 0; i < 24; i++) {
    const a = (i / 24) * TWO_PI;
    const x = cos(a) * s * (1 + pow(abs(cos(a)), 14) * 0.2);
    const y = sin(a) * s * 0.66;
    pts.push([cx + dx + x * cos(rot) - y * sin(rot), cy + dy + x * sin(rot) + y * cos(rot)]);
  }
  return pts;
}

function lemonShadow(cx, cy, s, rot) {
  // Cast shadow as a crescent: the lower edge pushed right and down, back along the lemon.
  const moved = lemonOutline(cx, cy, s * 1.05, rot, 16, 12);
  const own = lemonOutline(cx, cy, s, rot, 0, 0);
  const pts = [];
  for (let i = 22; i <= 36; i++) pts.push(moved[i % 24]);
  for (let i = 36; i >= 22; i--) pts.push(own[i % 24]);
  brush.polygon(pts);
}

function lemon(cx, cy, s, rot) {
  brush.fill('#f2c21b', 240);
  brush.fillBleed(0.08, 'out');
  brush.fillTexture(0.45, 0.55);
  brush.polygon(lemonOutline(cx, cy, s, rot, 0, 0));
  // A warm glaze along the shaded belly.
  const own = lemonOutline(cx, cy, s * 0.96, rot, 0, 0);
  const inner = lemonOutline(cx, cy, s * 0.8, rot, -5, -8);
  const shade = [];
  for (let i = 1; i <= 11; i++) shade.push(own[i]);
  for (let i = 11; i >= 1; i--) shade.push(inner[i]);
  brush.fill('#c98a16', 120);
  brush.fillBleed(0.15, 'out');
  brush.fillTexture(0.5, 0.2);
  brush.polygon(shade);
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f7f1e4');
  brush.scaleBrushes(3);
  brush.noStroke();

  // A loose blot of warm grey behind the group, left unfinished at its edges.
  brush.fill('#b9a58c', 190);
  brush.fillBleed(0.3, 'out');
  brush.fillTexture(0.6, 0.3);
  brush.polygon([[40, 190], [140, 120], [300, 105], [470, 140], [560, 230], [540, 312], [40, 318]]);

  // Cool shadows on the white cloth (light from the upper left): the teapot's, the lemons'
  // crescents, and one soft fold.
  brush.fill('#7f8dbd', 160);
  brush.fillBleed(0.2, 'out');
  brush.fillTexture(0.5, 0.3);
  brush.polygon([[300, 432], [350, 412], [395, 425], [372, 452], [318, 462], [255, 458]]);
  brush.polygon([[140, 418], [310, 418], [296, 442], [156, 442]]);
  lemonShadow(420, 440, 52, -0.2);
  lemonShadow(516, 474, 46, 0.35);
  lemonShadow(330, 505, 44, 0.1);
  brush.fill('#aab3d4', 110);
  brush.fillBleed(0.2, 'out');
  brush.fillTexture(0.5, 0.2);
  brush.polygon([[0, 492], [40, 488], [215, 610], [150, 610]]);

  // The teapot: a cobalt body, spout, lid and handle ring, glazed three times so the blue
  // goes deep; the shadowed right side and the knob get two more glazes.
  const body = [];
  for (let i = 0; i < 28; i++) {
    const a = (i / 28) * TWO_PI;
    const rx = 118 * (sin(a) > 0 ? 1 - 0.1 * sin(a) : 1);
    body.push([225 + cos(a) * rx, 355 + sin(a) * 92 * (sin(a) > 0 ? 0.82 : 1)]);
  }
  // The handle as three short curved pieces: p5.brush fills a ring's hole, so no C-shape.
  const handle = [];
  for (let k = 0; k < 3; k++) {
    const piece = [];
    for (let j = 0; j <= 4; j++) {
      const a = HALF_PI + ((k + j / 4) / 3) * PI + (j - 2) * 0.02;
      piece.push([122 + cos(a) * 50, 360 - sin(a) * 44]);
    }
    for (let j = 4; j >= 0; j--) {
      const a = HALF_PI + ((k + j / 4) / 3) * PI + (j - 2) * 0.02;
      piece.push([124 + cos(a) * 38, 360 - sin(a) * 32]);
    }
    handle.push(piece);
  }
  const spout = [[318, 392], [352, 348], [382, 306], [410, 286], [418, 293], [394, 320], [362, 382], [334, 420]];
  for (let g = 0; g < 3; g++) {
    brush.fill('#2f5fb0', 220);
    brush.fillBleed(0.05, 'out');
    brush.fillTexture(0.25 + g * 0.1, 0.6);
    brush.polygon(body);
    brush.polygon(spout);
    for (const piece of handle) brush.polygon(piece);
    brush.polygon(blob(225, 271, 70, 16, 0, 0.05));
  }
  for (let g = 0; g < 2; g++) {
    brush.fill('#1a3575', 200);
    brush.fillBleed(0.06, 'out');
    brush.fillTexture(0.3, 0.4);
    brush.beginShape(0.6);
    for (const [x, y] of [[268, 282], [318, 300], [343, 355], [322, 410], [262, 430], [300, 390], [308, 330]]) {
      brush.vertex(x, y);
    }
    brush.endShape(true);
    brush.polygon(blob(225, 251, 13, 9, 0, 0));
  }

  // Lemons, the sprig behind them first.
  brush.fill('#4f7f30', 210);
  brush.fillBleed(0.06, 'out');
  brush.fillTexture(0.5, 0.5);
  brush.polygon([[470, 412], [515, 380], [578, 366], [532, 400]]);
  brush.polygon([[468, 414], [508, 428], [566, 430], [514, 410]]);
  lemon(420, 440, 52, -0.2);
  lemon(516, 474, 46, 0.35);
  lemon(330, 505, 44, 0.1);
  brush.noFill();

  // Pencil accents over the dry paint.
  brush.set('HB', '#24324e', 0.9);
  brush.spline([[108, 362], [128, 415], [225, 433], [318, 415], [340, 368]], 0.5);
  brush.spline([[155, 270], [225, 280], [295, 270]], 0.5);
  brush.set('2B', '#5a4a36', 0.9);
  brush.spline([[-10, 318], [40, 319], [68, 319]], 0.4);
  brush.spline([[408, 318], [500, 317], [610, 314]], 0.4);
  brush.set('HB', '#3d5a28', 0.7);
  brush.line(472, 412, 562, 378);
  brush.line(470, 414, 550, 428);
}
