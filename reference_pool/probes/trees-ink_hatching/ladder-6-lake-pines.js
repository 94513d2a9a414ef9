// Reference: pines on a rocky point over a still lake, in black ink. Four dark pines crowd the
// point on the left, lit from the left, with bare paper on their lit tips and near-black cores;
// their reflections hang broken in the ruled water; across the lake a far shore of small pale
// spires and a faint ridge behind, mist between; the sky and the open water left bare so the
// near trees stand out against them.

const INK = '#161616';
const PAPER = '#fbfaf5';

// Hatch a polygon: lines `d` apart at angle `a`.
function tone(poly, d, a, w, name) {
  brush.hatchStyle(name, INK, w);
  brush.hatch(d, a, { rand: 0.12 });
  brush.polygon(poly);
  brush.noHatch();
}

// A pine: tiers of drooping branches down a straight trunk. Returns the whole outline, its
// shadow half (light comes from the left), its darker core near the trunk and the lit tips
// of the left side.
function pine(x, base, h, w) {
  const tiers = max(5, floor(h / 20));
  const left = [];
  const right = [];
  const tips = [];
  for (let i = 1; i <= tiers; i++) {
    const t = i / tiers;
    const y = base - h + t * h * 0.86;
    for (const side of [-1, 1]) {
      const hw = w * 0.5 * pow(t, 0.9) * random(0.78, 1.15);
      const tip = [x + side * hw, y + random(1, 4)];
      const notch = [x + side * hw * random(0.3, 0.45), y - h * 0.035];
      (side < 0 ? left : right).push(notch, tip);
      if (side < 0) tips.push(tip);
    }
  }
  const tw = max(2, w * 0.035);
  const crownFoot = base - h * 0.1;
  // Down the left side, across the foot of the trunk, back up the right side.
  const rightUp = right.slice().reverse();
  const outline = [[x, base - h], ...left, [x - tw, crownFoot], [x - tw, base], [x + tw, base], [x + tw, crownFoot], ...rightUp];
  const shade = [[x, base - h], [x, crownFoot], [x + tw, crownFoot], ...rightUp];
  // The core: the shadow half pulled in toward the trunk, where the branches shade each other.
  const core = shade.map(([px, py]) => [x + (px - x) * 0.55, py]);
  return { outline, shade, core, tips, tiers, x, base, crownFoot, tw };
}

function nearPine(p) {
  tone(p.outline, 2.8, 0.3, 0.45, 'pen');
  tone(p.shade, 2.6, -0.55, 0.45, 'pen');
  tone(p.core, 2, 1.25, 0.65, 'rotring');
  tone(p.core, 2.4, -0.1, 0.65, 'rotring');
  tone(p.core, 3, 0.7, 0.6, 'rotring');
  brush.set('pen', INK, 0.7);
  brush.spline(p.outline.slice(0, p.tiers * 2 + 1), 0.15);
  brush.set('rotring', INK, 0.8);
  brush.line(p.x + p.tw, p.crownFoot, p.x + p.tw, p.base);
  brush.noStroke();
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background(PAPER);
  brush.scaleBrushes(3);
  const shore = 300;

  // Evening sky: broken level lines, close together at the top and opening out to bare paper
  // above the lake.
  brush.set('pen', INK, 0.4);
  let sy = 6;
  let sgap = 3.5;
  while (sy < 170) {
    let x = random(-40, 20);
    while (x < 600) {
      const len = random(60, 220);
      brush.line(x, sy, x + len, sy + random(-0.6, 0.6));
      x += len + random(4, 30) * (1 + sy / 60);
    }
    sy += sgap;
    sgap *= 1.16;
  }
  brush.noStroke();
  // A faint ridge behind the far shore: one open, nearly level layer, the palest tone in the
  // picture.
  const ridge = [[180, shore], [180, 268], [260, 250], [340, 262], [420, 240], [500, 252], [610, 236], [610, shore]];
  tone(ridge, 5, 0.12, 0.35, 'pen');
  // The far shore: a serrated band of small spires, a mid tone between the ridge and the
  // near trees.
  const far = [[200, shore + 2]];
  for (let x = 200; x < 620; x += random(9, 15)) {
    const h = random(22, 58);
    far.push([x - 5, shore - h * 0.3], [x, shore - h], [x + 5, shore - h * 0.3]);
  }
  far.push([620, shore + 2]);
  brush.noStroke();
  brush.wash(PAPER, 255);
  brush.polygon(far);
  brush.noWash();
  tone(far, 2.4, 1.2, 0.45, 'pen');
  tone(far, 2.8, -0.4, 0.45, 'pen');
  tone(far, 3.2, 0.1, 0.4, 'pen');
  // Mist over their feet.
  brush.wash(PAPER, 170);
  brush.rect(190, shore - 12, 430, 12);
  brush.noWash();
  // Their reflection: a short band of level lines under the shore.
  tone([[200, shore + 3], [610, shore + 3], [610, shore + 14], [200, shore + 14]], 3.2, 0, 0.35, 'pen');

  // The water: ruled level lines, closer together in the distance, broken where light lies.
  brush.set('pen', INK, 0.4);
  let y = shore + 18;
  let gap = 4;
  while (y < 600) {
    let x = random(-30, 30);
    while (x < 600) {
      const len = random(40, 180);
      brush.line(x, y, x + len, y + random(-0.5, 0.5));
      x += len + random(10, 60) * (1 + gap / 8);
    }
    y += gap;
    gap *= 1.09;
  }
  brush.noStroke();

  // The near pines, back to front, each scraped to paper first; their reflections below the
  // point's waterline, in level hatching broken into bands.
  const point = 432;
  const trees = [[150, point - 18, 290, 100], [-4, point - 6, 300, 120], [220, point - 8, 190, 74], [68, point, 390, 136]];
  for (const [x, base, h, w] of trees) {
    const p = pine(x, base, h, w);
    brush.wash(PAPER, 255);
    brush.polygon(p.outline);
    brush.noWash();
    nearPine(p);
    // The reflection: the silhouette flipped about the waterline and squashed a little.
    const refl = p.outline.map(([px, py]) => [px, point + (point - py) * 0.7]);
    tone(refl, 2.4, 0, 0.45, 'pen');
    tone(refl, 3.2, 0.6, 0.4, 'pen');
  }
  // Ripples cut the reflections into bands: thin strips scraped back to paper.
  brush.wash(PAPER, 255);
  for (let ry = point + 8; ry < 600; ry += random(7, 12)) {
    let x = random(-20, 10);
    while (x < 320) {
      const len = random(40, 160);
      brush.rect(x, ry, len, random(1.5, 3.5));
      x += len + random(0, 30);
    }
  }
  brush.noWash();

  // The rocky point: angular slabs, their tops bare and lit, steep faces hatched, crossed in
  // the shadows, a dark slot of shade at the waterline.
  const rocks = [
    [[-10, 410], [40, 402], [110, 408], [180, 418], [240, 426], [270, 436], [-10, 436]],
    [[-10, 436], [270, 436], [252, 446], [-10, 448]],
  ];
  brush.wash(PAPER, 255);
  for (const r of rocks) brush.polygon(r);
  brush.noWash();
  tone(rocks[0], 3.2, 1.1, 0.45, 'pen');
  tone([[120, 412], [180, 418], [240, 426], [270, 436], [130, 436]], 2.6, -0.7, 0.45, 'pen');
  tone(rocks[1], 2, 0.05, 0.6, 'rotring');
  brush.set('pen', INK, 0.7);
  brush.spline(rocks[0].slice(0, 6), 0.3);
  brush.noStroke();
}
