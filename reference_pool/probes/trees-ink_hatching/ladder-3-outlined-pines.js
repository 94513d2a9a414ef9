// Line drawing with a little tone: four pines of different heights drawn as real conifers,
// tiers of drooping branches down straight trunks, in pen outline on a ground line; a sparse
// single layer of hatching on the right of each, nothing crossed.

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
  const ground = 470;
  for (const [x, h, w] of [[150, 300, 110], [250, 360, 124], [370, 260, 96], [460, 320, 112]]) {
    const p = pine(x, ground, h, w);
    brush.noFill();
    brush.set('pen', INK, 0.6);
    brush.polygon(p.outline);
    brush.noStroke();
    tone(p.shade, 6, 0.4, 0.4, 'pen');
  }
  brush.set('pen', INK, 0.6);
  brush.line(60, ground, 560, ground + 2);
  brush.noStroke();
}
