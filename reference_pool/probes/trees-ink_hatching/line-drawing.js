// A clean pen line drawing of pine trees: three pines of different heights drawn as tiers of
// drooping branches down straight trunks, two small far pines beside them and a ground line;
// outlines only, no hatching and no fills.

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

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background(PAPER);
  brush.scaleBrushes(3);
  brush.noFill();
  const ground = 470;
  for (const [x, base, h, w, wt] of [[470, ground - 30, 110, 40, 0.45], [520, ground - 30, 84, 32, 0.45], [170, ground, 330, 120, 0.6], [270, ground, 250, 96, 0.6], [360, ground, 300, 110, 0.6]]) {
    const p = pine(x, base, h, w);
    brush.set('pen', INK, wt);
    brush.polygon(p.outline);
  }
  brush.set('pen', INK, 0.6);
  brush.spline([[60, ground + 2], [250, ground], [420, ground - 20], [580, ground - 28]], 0.5);
  brush.noStroke();
}
