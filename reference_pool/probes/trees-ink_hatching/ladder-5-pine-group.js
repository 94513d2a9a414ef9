// Competent: three pines grouped left of centre, one tall and two smaller, light from the
// left; bare paper on the lit branch tips, one layer of hatching on the lit side, crossed on
// the shadow side, near-black under the branch tiers; their shadows laid level across the
// ground to the right, and two small far pines in light hatching for depth.

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

function drawPine(p, depth) {
  // Depth 0 is far (one light layer), 1 is near (three values).
  if (depth === 0) {
    tone(p.outline, 5, 0.35, 0.4, 'pen');
    return;
  }
  tone(p.outline, 3, 0.3, 0.45, 'pen');
  tone(p.shade, 2.8, -0.55, 0.45, 'pen');
  tone(p.core, 2.4, 1.25, 0.5, 'rotring');
  tone(p.core, 3, -0.1, 0.5, 'rotring');
  brush.set('pen', INK, 0.7);
  brush.spline(p.outline.slice(0, p.tiers * 2 + 1), 0.15);
  // The trunk below the crown, dark on its shadow side.
  brush.set('rotring', INK, 0.7);
  brush.line(p.x + p.tw, p.crownFoot, p.x + p.tw, p.base);
  brush.set('pen', INK, 0.5);
  brush.line(p.x - p.tw, p.crownFoot, p.x - p.tw, p.base);
  brush.noStroke();
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background(PAPER);
  brush.scaleBrushes(3);
  const ground = 500;

  // Two far pines on the right, small and pale, standing a little higher up the ground.
  for (const [x, h, w] of [[470, 120, 44], [515, 95, 36]]) drawPine(pine(x, ground - 40, h, w), 0);

  // Shadows: long level hatching running right from each near tree's foot.
  const near = [[200, 400, 140], [280, 290, 108], [128, 230, 92]];
  for (const [x, h] of near) {
    const len = h * 0.8;
    tone([[x - 6, ground + 2], [x + len, ground - 4], [x + len + 20, ground + 6], [x, ground + 12]], 2.6, 0.02, 0.45, 'pen');
  }
  // The ground itself: a few broken level strokes fading out to the sides.
  brush.set('pen', INK, 0.45);
  for (let i = 0; i < 26; i++) {
    const y = ground + random(-2, 60) * random();
    const x = random(40, 520);
    brush.line(x, y, x + random(20, 70), y + random(-1, 1));
  }
  brush.noStroke();

  // The three near pines, back to front.
  for (const [x, h, w] of near) {
    const p = pine(x, ground, h, w);
    // Scrape the silhouette back to paper so nothing behind shows through it.
    brush.wash(PAPER, 255);
    brush.polygon(p.outline);
    brush.noWash();
    drawPine(p, 1);
  }

  // A few grass tufts at the feet.
  brush.set('pen', INK, 0.6);
  for (let i = 0; i < 30; i++) {
    const x = random(60, 420);
    const y = ground + random(0, 14);
    brush.line(x, y, x + random(-3, 3), y - random(4, 10));
  }
  brush.noStroke();
}
