// Ok: a single row of pines along the edge of a ploughed field, black ink; the trees are properly shaped and cross-hatched, but all one tone and one row, evenly spaced.

const INK = '#222222';

function pine(x, base, h, w) {
  const tiers = floor(h / 18);
  const left = [];
  const right = [];
  for (let i = 1; i <= tiers; i++) {
    const t = i / tiers;
    const y = base - h + t * h * 0.9;
    const hw = w * 0.5 * t;
    left.push([x - hw * 0.45, y - 2], [x - hw, y + 4]);
    right.push([x + hw * 0.45, y - 2], [x + hw, y + 4]);
  }
  const outline = [[x, base - h], ...left, [x - 3, base - h * 0.1], [x - 3, base], [x + 3, base], [x + 3, base - h * 0.1], ...right.reverse()];
  brush.noStroke();
  brush.wash('#fcfbf6', 255);
  brush.polygon(outline);
  brush.noWash();
  brush.set('pen', INK, 0.8);
  brush.hatchStyle('pen', INK, 0.45);
  brush.hatch(4, 1.1, { rand: 0.1 });
  brush.polygon(outline);
  brush.noStroke();
  brush.hatch(4.5, -1.1, { rand: 0.1 });
  brush.polygon(outline);
  brush.noHatch();
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fcfbf6');
  brush.scaleBrushes(3);
  const edge = 330;

  // Field: furrows running toward a point on the horizon.
  brush.set('pen', INK, 0.6);
  for (let k = -8; k <= 8; k++) brush.line(300 + k * 14, edge + 4, 300 + k * 90, 600);
  brush.set('pen', INK, 0.9);
  brush.line(0, edge, 600, edge);

  // The row of pines.
  for (let i = 0; i < 9; i++) {
    const x = 40 + i * 65 + random(-8, 8);
    const h = random(170, 240);
    pine(x, edge + 2, h, h * 0.38);
  }
}
