// Two pears and a wine bottle on a wooden table in black ink: a near-solid hatched bottle with a bare highlight, pears modelled in crossing layers, a dark wall behind the fruit.

const INK = '#17171b';
const PAPER = '#faf7ef';

function layer(poly, b, w, d, a) {
  brush.hatchStyle(b, INK, w);
  brush.hatch(d, a, { rand: 0.1 });
  brush.polygon(poly);
  brush.noHatch();
}

// A pear in local units (blossom end at the origin, stem end up), scaled, turned and placed.
function pearPts(local, x, y, s, turn) {
  return local.map(([u, v]) => [x + (u * cos(turn) - v * sin(turn)) * s, y + (u * sin(turn) + v * cos(turn)) * s]);
}
const PEAR = [[0, 0], [0.38, -0.08], [0.5, -0.35], [0.46, -0.62], [0.3, -0.85], [0.2, -1.05], [0.15, -1.25],
  [0.05, -1.35], [-0.08, -1.33], [-0.16, -1.2], [-0.22, -1.0], [-0.34, -0.8], [-0.48, -0.6], [-0.5, -0.32], [-0.38, -0.07]];
const SHADE = [[0.02, -0.02], [0.38, -0.08], [0.5, -0.35], [0.46, -0.62], [0.3, -0.85], [0.2, -1.05], [0.15, -1.25],
  [0.07, -1.3], [0.06, -1.0], [0.1, -0.72], [0.06, -0.4], [-0.1, -0.12], [-0.3, -0.05]];
const CORE = [[0.16, -0.07], [0.34, -0.13], [0.42, -0.35], [0.39, -0.6], [0.25, -0.84], [0.18, -0.7], [0.25, -0.45], [0.18, -0.2], [0.0, -0.1]];
const SHINE = [[-0.3, -0.62], [-0.22, -0.72], [-0.14, -0.66], [-0.18, -0.5], [-0.28, -0.48]];

function drawPear(x, y, s, turn) {
  const body = pearPts(PEAR, x, y, s, turn);
  brush.noStroke();
  layer(body, 'pen', 0.45, 4.2, turn + 1.0);
  layer(pearPts(SHADE, x, y, s, turn), 'pen', 0.45, 3.4, turn - 0.6);
  layer(pearPts(CORE, x, y, s, turn), 'rotring', 0.35, 2.8, turn + 0.25);
  brush.wash(PAPER, 255);
  brush.beginShape(0.8);
  for (const p of pearPts(SHINE, x, y, s, turn)) brush.vertex(p[0], p[1]);
  brush.endShape(true);
  brush.noWash();
  brush.set('pen', INK, 1.1);
  brush.beginShape(0.5);
  for (const p of body) brush.vertex(p[0], p[1]);
  brush.endShape(true);
  // Freckles, and the stem.
  brush.set('pen', INK, 0.6);
  for (let i = 0; i < 22; i++) {
    const u = random(-0.4, 0.4);
    const v = random(-0.9, -0.1);
    if (abs(u) > 0.45 - abs(v + 0.4) * 0.3) continue;
    const [px, py] = pearPts([[u, v]], x, y, s, turn)[0];
    brush.line(px, py, px + 1.2, py + 0.8);
  }
  const [s0, s1, s2] = pearPts([[-0.01, -1.33], [0.04, -1.48], [0.14, -1.58]], x, y, s, turn);
  brush.set('pen', INK, 1.6);
  brush.spline([s0, s1, s2], 0.6);
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background(PAPER);
  brush.scaleBrushes(3);
  const back = 430;
  const front = 545;

  // Wall: bare paper where the window light falls in the upper left, one steep layer
  // elsewhere, crossed behind the fruit and crossed again toward the right edge.
  brush.noStroke();
  const lit = [[-10, back], [-10, 250]];
  for (let x = 0; x <= 460; x += 40) lit.push([x, 250 - x * 0.62 + (noise(x * 0.02, 9) - 0.5) * 70]);
  lit.push([610, -10], [610, back]);
  layer(lit, 'pen', 0.45, 7, 1.15);
  const ragged = (x0, seed) => {
    const pts = [[610, -10]];
    for (let yy = -10; yy <= back; yy += 30) pts.push([x0 + (noise(yy * 0.015, seed) - 0.5) * 110, yy]);
    pts.push([610, back]);
    return pts;
  };
  layer(ragged(310, 1), 'pen', 0.45, 5.5, -0.55);
  layer(ragged(480, 4), 'pen', 0.45, 5.5, 0.2);

  // Table top: level grain lines wandering across the boards, one board seam.
  layer([[0, back], [600, back], [600, front], [0, front]], 'pen', 0.4, 7, 0.0);
  brush.set('pen', INK, 0.6);
  for (let k = 0; k < 11; k++) {
    const y0 = lerp(back + 8, front - 6, k / 10) + random(-3, 3);
    const pts = [];
    for (let x = -10; x <= 610; x += 62) pts.push([x, y0 + (noise(x * 0.006, k) - 0.5) * 10]);
    brush.spline(pts, 0.5);
  }
  // A knot in the wood.
  brush.spline([[98, 512], [112, 505], [130, 510], [116, 517], [98, 512]], 0.7);
  brush.spline([[90, 514], [112, 500], [140, 511], [116, 522], [90, 514]], 0.7);
  brush.set('rotring', INK, 0.8);
  brush.line(0, back, 600, back);
  brush.line(0, front, 600, front);
  // Front edge of the table in shadow: three layers, vertical grain.
  brush.noStroke();
  const apron = [[0, front], [600, front], [600, 600], [0, 600]];
  layer(apron, 'pen', 0.45, 4, 0.05);
  layer(apron, 'rotring', 0.35, 5, -0.8);

  // Cast shadows, thrown right and back by light from the left.
  const shadows = [
    [[248, 474], [214, 478], [300, 468], [360, 452], [330, 444], [252, 456]],
    [[400, 478], [356, 482], [450, 476], [500, 462], [470, 452], [405, 460]],
    [[470, 532], [420, 534], [520, 530], [590, 514], [560, 500], [500, 505]],
  ];
  for (const sh of shadows) {
    layer(sh, 'pen', 0.45, 3, 0.05);
    layer(sh, 'pen', 0.45, 3.4, -0.9);
  }

  // Bottle: tall body, rounded shoulder, long neck, foil capsule.
  const bottle = [[168, 470], [166, 256], [178, 222], [200, 200], [200, 116], [197, 110], [199, 92], [221, 92], [223, 110],
    [220, 116], [220, 200], [242, 222], [254, 256], [252, 470], [236, 478], [184, 478]];
  const pearA = [360, 478, 118, -0.08];
  const pearB = [404, 488, 94, 1.32];
  brush.wash(PAPER, 255);
  brush.polygon(bottle);
  brush.polygon(pearPts(PEAR, ...pearA));
  brush.polygon(pearPts(PEAR, ...pearB));
  brush.noWash();

  // The bottle is dark glass: three layers, the darkest on its right side, then the
  // highlight down the left scraped back to paper, and a fainter reflection on the right.
  brush.noStroke();
  layer(bottle, 'pen', 0.7, 3.5, HALF_PI);
  layer(bottle, 'rotring', 0.45, 3.6, -0.7);
  layer([[214, 470], [214, 256], [222, 222], [212, 200], [212, 116], [223, 110], [220, 116], [220, 200], [242, 222], [254, 256], [252, 470], [236, 478], [214, 478]], 'rotring', 0.35, 3.2, 0.1);
  brush.wash(PAPER, 255);
  brush.beginShape(0.6);
  brush.vertex(180, 460);
  brush.vertex(180, 262);
  brush.vertex(190, 232);
  brush.vertex(204, 214);
  brush.vertex(205, 120);
  brush.vertex(208, 120);
  brush.vertex(208, 218);
  brush.vertex(194, 240);
  brush.vertex(188, 266);
  brush.vertex(188, 460);
  brush.endShape(true);
  brush.noWash();
  brush.wash(PAPER, 200);
  brush.rect(241, 280, 3, 170);
  brush.noWash();
  // A plain paper label with a ruled double border.
  brush.wash(PAPER, 255);
  brush.rect(167, 338, 86, 62);
  brush.noWash();
  brush.set('pen', INK, 0.8);
  brush.line(167, 338, 253, 338);
  brush.line(167, 400, 253, 400);
  brush.set('pen', INK, 0.5);
  brush.line(167, 343, 253, 343);
  brush.line(167, 395, 253, 395);
  brush.noStroke();
  layer([[226, 343], [253, 343], [253, 395], [226, 395]], 'pen', 0.45, 3.4, HALF_PI);
  // Capsule band.
  layer([[199, 92], [221, 92], [223, 110], [197, 110]], 'rotring', 0.35, 2, 0.3);
  brush.set('pen', INK, 1.2);
  brush.beginShape(0.3);
  for (const p of bottle) brush.vertex(p[0], p[1]);
  brush.endShape(true);
  brush.set('pen', INK, 0.7);
  brush.line(197, 110, 223, 110);

  // Pears: one standing, one lying on its side in front.
  drawPear(...pearA);
  drawPear(...pearB);
}
