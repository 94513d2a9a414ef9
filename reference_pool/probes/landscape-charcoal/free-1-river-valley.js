// A river valley seen from a high pass in charcoal: the river winds away from the foot of the
// page between wooded spurs that overlap from either side, each nearer spur darker than the one
// behind, up to a thin line of snowy peaks under a high horizon. A view down into depth, not a
// range seen side on.

// The river's centre line, far to near, and its half width at each point.
const RIVER = [[300, 145, 2], [345, 185, 4], [262, 234, 7], [342, 302, 11], [236, 396, 17], [392, 505, 26], [300, 612, 40]];

// A spur coming in from one side: its crest falls from the page edge to a rounded nose, then its
// foot runs back to the edge. side is -1 for the left edge, 1 for the right.
function spur(side, edgeY, tipX, tipY, footY) {
  const ex = side < 0 ? -10 : 610;
  const crest = [];
  for (let k = 0; k <= 8; k++) {
    const t = k / 8;
    const x = lerp(ex, tipX, t);
    crest.push([x, lerp(edgeY, tipY, pow(t, 1.7)) + (noise(x * 0.03 + edgeY) - 0.5) * 14]);
  }
  const nose = [tipX - side * 14, tipY + (footY - tipY) * 0.6];
  return [...crest, nose, [lerp(tipX, ex, 0.25), footY], [ex, footY + 25]];
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#ece9e2');
  brush.scaleBrushes(3);

  // A narrow sky, rubbed faintly at the top edge.
  brush.noStroke();
  brush.hatchStyle('spray', '#c4c0b9', 2);
  brush.hatch(12, 0.03, { rand: 0.4 });
  brush.rect(0, 0, 600, 55);
  brush.noHatch();

  // Far peaks: a small pale line of summits closing the valley.
  const far = [[-10, 140], [40, 118], [90, 128], [150, 92], [190, 112], [250, 80], [300, 104], [360, 86], [420, 118], [480, 96], [540, 122], [610, 108], [610, 160], [-10, 160]];
  brush.wash('#c3bfb7', 230);
  brush.polygon(far);
  brush.noWash();
  brush.hatchStyle('2B', '#8f8b84', 0.5);
  brush.hatch(4, 1.1, { rand: 0.3 });
  for (const [x, y] of [[150, 92], [250, 80], [360, 86], [480, 96]]) brush.polygon([[x, y], [x + 40, y + 28], [x + 30, y + 50], [x + 4, y + 40]]);
  brush.noHatch();

  // The valley floor: a light field tone with level strokes, paler with distance.
  brush.wash('#d2cec6', 220);
  brush.rect(0, 135, 600, 470);
  brush.noWash();
  brush.hatchStyle('charcoal', '#a9a59e', 0.5);
  brush.hatch(10, 0.03, { rand: 0.5 });
  brush.rect(0, 220, 600, 380);
  brush.noHatch();

  // The river: bare paper between dark banks, widening as it comes towards us.
  const left = RIVER.map(([x, y, w]) => [x - w, y]);
  const right = RIVER.map(([x, y, w]) => [x + w, y]);
  brush.wash('#f3f0ea', 250);
  brush.beginShape(0.5);
  for (const [x, y] of left) brush.vertex(x, y);
  for (const [x, y] of right.slice().reverse()) brush.vertex(x, y);
  brush.endShape(true);
  brush.noWash();
  brush.set('charcoal', '#3a3733', 0.7);
  brush.spline(left, 0.5);
  brush.spline(right, 0.5);

  // Spurs, far to near, each darker and more worked than the one behind.
  const spurs = [
    [1, 148, 340, 175, 190, '#aeaaa3', 8],
    [-1, 160, 272, 212, 240, '#9f9b94', 7],
    [1, 185, 328, 280, 305, '#8b8780', 6],
    [-1, 215, 250, 366, 400, '#6f6b65', 5],
    [1, 270, 378, 476, 520, '#4e4b46', 4],
    [-1, 375, 170, 598, 640, '#2d2b28', 3.5],
  ];
  for (const [side, edgeY, tipX, tipY, footY, tone, d] of spurs) {
    const shape = spur(side, edgeY, tipX, tipY, footY);
    brush.noStroke();
    brush.wash(tone, 245);
    brush.polygon(shape);
    brush.noWash();
    // Strokes down the slope, towards the river.
    brush.hatchStyle('charcoal', '#2a2825', 0.6 + 0.08 * (9 - d));
    brush.hatch(d, side < 0 ? 0.9 : -0.9, { rand: 0.5 });
    brush.polygon(shape);
    brush.noHatch();
    // Valley haze rubbed along its foot, so it stands in the air instead of being cut out.
    const ex = side < 0 ? -10 : 610;
    const nose = shape[9];
    brush.hatchStyle('spray', '#d6d2ca', 2.6);
    brush.hatch(d + 2, 0.03, { rand: 0.45 });
    brush.polygon([nose, [lerp(tipX, ex, 0.25), footY], [ex, footY + 25], [ex, footY - 20], [lerp(tipX, ex, 0.25), footY - 34], [nose[0], nose[1] - 24]]);
    brush.noHatch();
    // Light on the crest, where the spur turns up to the sky behind it.
    brush.set('charcoal', '#e6e3dc', 0.5 + 0.1 * (9 - d));
    brush.spline(shape.slice(0, 9).map(([x, y]) => [x, y + 2]), 0.3);
    // Woods: dark dabs along the nearer spurs, larger as they come closer.
    if (d <= 6) {
      for (let i = 0; i < 22; i++) {
        const t = random(0.05, 0.95);
        const p = shape[floor(t * 8)];
        const s = (9 - d) * random(1.2, 2.2);
        brush.set('charcoal', '#1d1b19', s * 0.18);
        brush.line(p[0] + random(-8, 8), p[1] + random(4, 30), p[0] + random(-8, 8), p[1] + random(4, 30) + s);
      }
    }
  }
}
