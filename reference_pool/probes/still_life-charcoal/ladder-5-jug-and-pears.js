// A kitchen still life in charcoal on toned paper: a stoneware jug, two pears and an onion on a
// white cloth, daylight from the upper left. The jug is modelled round (light, half tone, core
// shadow, reflected light, a glaze highlight), every object throws its shadow to the right, and
// the wall darkens away from the window. No skull, no candle, no book.

// Half widths of the jug down its height (0 = lip, 1 = foot).
const JUG = [[0, 30], [0.1, 25], [0.22, 40], [0.34, 58], [0.55, 70], [0.78, 62], [0.95, 47], [1, 45]];

function widthAt(t) {
  for (let i = 1; i < JUG.length; i++) {
    if (t <= JUG[i][0]) {
      const u = (t - JUG[i - 1][0]) / (JUG[i][0] - JUG[i - 1][0]);
      return lerp(JUG[i - 1][1], JUG[i][1], (1 - cos(PI * u)) / 2);
    }
  }
  return JUG[JUG.length - 1][1];
}

// A band of the jug between two fractions of its half width (-1 = left edge, 1 = right edge).
function band(cx, top, h, a, b) {
  const l = [];
  const r = [];
  for (let k = 0; k <= 20; k++) {
    const t = k / 20;
    const w = widthAt(t);
    l.push([cx + a * w, top + t * h]);
    r.push([cx + b * w, top + t * h]);
  }
  return [...l, ...r.reverse()];
}

// Half widths of a pear from its base (0) to the stalk (1): a full bulb, a waist, a small top.
const PEAR = [[0, 14], [0.08, 32], [0.28, 40], [0.5, 31], [0.66, 21], [0.82, 17], [0.94, 11], [1, 3]];

// A pear standing on its base at (cx, cy), 100 * s tall, leaning by `tilt`: its outline as the
// right side going up then the left side coming down (24 points, the right side first).
function pear(cx, cy, s, tilt) {
  const side = (dir) => {
    const pts = [];
    for (let k = 0; k <= 11; k++) {
      const t = dir > 0 ? k / 11 : 1 - k / 11;
      let w = PEAR[PEAR.length - 1][1];
      for (let i = 1; i < PEAR.length; i++) {
        if (t <= PEAR[i][0]) {
          const u = (t - PEAR[i - 1][0]) / (PEAR[i][0] - PEAR[i - 1][0]);
          w = lerp(PEAR[i - 1][1], PEAR[i][1], (1 - cos(PI * u)) / 2);
          break;
        }
      }
      const px = dir * w * s;
      const py = -t * 100 * s;
      pts.push([cx + px * cos(tilt) - py * sin(tilt), cy + px * sin(tilt) + py * cos(tilt)]);
    }
    return pts;
  };
  return [...side(1), ...side(-1)];
}

function soft(pts, tone, d, a) {
  brush.noStroke();
  brush.hatchStyle('spray', tone, 3);
  brush.hatch(d, a, { rand: 0.45 });
  brush.polygon(pts);
  brush.noHatch();
}

function shaded(pts, tone, d, a, w) {
  brush.noStroke();
  brush.hatchStyle('charcoal', tone, w);
  brush.hatch(d, a, { rand: 0.35 });
  brush.polygon(pts);
  brush.noHatch();
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#d6d2ca');
  brush.scaleBrushes(3);

  // The wall: mid grey, rubbed darker away from the window on the left.
  brush.noStroke();
  brush.wash('#a9a59d', 235);
  brush.rect(0, 0, 600, 380);
  brush.noWash();
  soft([[250, 0], [600, 0], [600, 380], [330, 380]], '#55524d', 8, 0.9);
  soft([[430, 0], [600, 0], [600, 380], [480, 380]], '#3a3733', 7, 0.9);
  // The table top, lighter, and its back edge.
  brush.wash('#bcb8b0', 235);
  brush.rect(0, 380, 600, 220);
  brush.noWash();
  brush.set('charcoal', '#3f3c38', 0.8);
  brush.line(0, 381, 600, 379);

  // The cloth: a white sheet across the front of the table, with folds.
  const cloth = [[20, 430], [180, 410], [330, 422], [470, 404], [600, 418], [600, 610], [-10, 610], [-10, 450]];
  brush.noStroke();
  brush.wash('#ebe8e2', 245);
  brush.beginShape(0.3);
  for (const [x, y] of cloth) brush.vertex(x, y);
  brush.endShape(true);
  brush.noWash();
  // Folds: soft grey valleys, each with a crease line along its lit side.
  for (const [x0, y0, x1, y1, bend] of [[110, 424, 40, 610, -30], [290, 421, 340, 610, 26], [480, 406, 560, 610, -20]]) {
    const mx = (x0 + x1) / 2 + bend;
    const my = (y0 + y1) / 2;
    soft([[x0, y0], [mx + 10, my], [x1 + 30, y1], [x1 - 4, y1], [mx - 8, my], [x0 - 6, y0 + 4]], '#8a867f', 4, 1.3);
    brush.set('charcoal', '#7a766f', 0.6);
    brush.spline([[x0 - 4, y0 + 2], [mx - 6, my], [x1 - 2, y1]], 0.5);
  }
  brush.set('charcoal', '#5a5650', 0.7);
  brush.spline(cloth.slice(0, 5), 0.5);

  // Cast shadows on the cloth and the wall, to the right, soft-edged.
  soft([[285, 458], [380, 448], [420, 462], [300, 476]], '#6a665f', 5, 0.1);
  soft([[430, 478], [520, 470], [540, 488], [440, 492]], '#6a665f', 5, 0.1);
  soft([[370, 500], [430, 496], [440, 510], [375, 514]], '#6a665f', 5, 0.1);

  // Contact shadows, the darkest touches on the cloth, where each thing sits.
  for (const [x0, x1, y] of [[200, 310, 462], [318, 372, 502], [392, 452, 480], [130, 200, 522]]) {
    soft([[x0, y - 3], [x1, y - 5], [x1 + 6, y + 4], [x0 + 10, y + 7]], '#24221f', 3, 0.05);
  }

  // The jug: light, half tone, core shadow, reflected light, highlight.
  const cx = 240;
  const top = 190;
  const h = 270;
  brush.noStroke();
  brush.wash('#c7c3bb', 245);
  brush.polygon(band(cx, top, h, -1, 1));
  brush.noWash();
  shaded(band(cx, top, h, -0.15, 1), '#6f6b65', 5, 1.2, 0.7);
  shaded(band(cx, top, h, 0.3, 0.82), '#2e2c29', 3.2, 1.1, 0.9);
  shaded(band(cx, top, h, 0.45, 0.72), '#1f1d1b', 3.5, -0.4, 0.8);
  // A glaze line round the shoulder and the glaze highlight, lifted out.
  brush.set('charcoal', '#3a3733', 0.7);
  brush.spline([[cx - widthAt(0.3), top + 0.3 * h], [cx, top + 0.3 * h + 10], [cx + widthAt(0.3), top + 0.3 * h]], 0.5);
  brush.noStroke();
  brush.wash('#f4f1eb', 240);
  brush.beginShape(0.8);
  for (const [x, y] of [[cx - 42, top + 110], [cx - 30, top + 98], [cx - 24, top + 130], [cx - 34, top + 170], [cx - 44, top + 150]]) brush.vertex(x, y);
  brush.endShape(true);
  brush.noWash();
  // The lip and spout, the foot, the handle on the shadow side.
  brush.set('charcoal', '#1f1d1b', 0.9);
  brush.spline([[cx - 30, top], [cx - 40, top - 10], [cx - 24, top - 4], [cx, top - 6], [cx + 30, top]], 0.5);
  brush.spline([[cx - 30, top + 4], [cx, top + 10], [cx + 30, top + 4]], 0.5);
  brush.set('charcoal', '#1a1816', 2.2);
  brush.spline([[cx + 38, top + 40], [cx + 105, top + 52], [cx + 100, top + 130], [cx + 62, top + 170]], 0.6);
  brush.set('charcoal', '#6a665f', 0.7);
  brush.spline([[cx + 42, top + 56], [cx + 88, top + 66], [cx + 86, top + 124], [cx + 64, top + 152]], 0.6);
  brush.set('charcoal', '#24221f', 1);
  brush.spline(band(cx, top, h, -1, -1).slice(0, 21), 0.3);
  brush.set('charcoal', '#141312', 1.3);
  brush.spline(band(cx, top, h, 1, 1).slice(0, 21), 0.3);
  brush.spline([[cx - 45, top + h], [cx, top + h + 8], [cx + 45, top + h]], 0.5);

  // Two pears, one leaning on the other, and an onion in front of the jug.
  for (const [px, py, s, tilt] of [[410, 478, 1.05, 0.22], [345, 500, 0.95, -0.12]]) {
    const p = pear(px, py, s, tilt);
    brush.noStroke();
    brush.wash('#bfbbb3', 245);
    brush.polygon(p);
    brush.noWash();
    // Shadow side: the right half, then a core a little in from its edge.
    const core = p.slice(0, 12).map(([x, y], k) => [lerp(x, px + (p[23 - k][0] - px) * 0.1, 0.35), y]);
    shaded([...p.slice(0, 12), [px + sin(tilt) * 100 * s, py - cos(tilt) * 100 * s], ...core.reverse()], '#4a4742', 3.6, 1.2, 0.8);
    shaded(p.slice(0, 7).map(([x, y]) => [x - 4, y]).concat(core.slice(5, 12)), '#252320', 3.2, -0.5, 0.8);
    // The light catching the bulb on the window side.
    brush.set('charcoal', '#f4f1eb', 1.4);
    brush.spline([p[20], p[21], p[22]].map(([x, y]) => [x + 9 * s, y]), 0.6);
    brush.set('charcoal', '#24221f', 0.9);
    brush.spline([...p, p[0]], 0.5);
    brush.set('charcoal', '#1a1816', 1.2);
    const [sx, sy] = p[11];
    brush.spline([[sx, sy], [sx + 4, sy - 10], [sx + 10, sy - 16]], 0.5);
  }
  const onion = [];
  for (let i = 0; i < 18; i++) {
    const a = (i / 18) * TWO_PI - HALF_PI;
    const r = 36 * (1 + 0.35 * pow(max(0, -sin(a)), 6));
    onion.push([160 + cos(a) * r, 488 + sin(a) * r * 0.85]);
  }
  brush.noStroke();
  brush.wash('#a8a49c', 245);
  brush.polygon(onion);
  brush.noWash();
  shaded(onion.slice(2, 11), '#3a3733', 3.4, 1.3, 0.8);
  for (const k of [-0.6, -0.2, 0.25, 0.6]) {
    brush.set('charcoal', '#4a4742', 0.5);
    brush.spline([[160, 452], [160 + k * 44, 488], [160 + k * 20, 518]], 0.6);
  }
  brush.set('charcoal', '#1f1d1b', 0.9);
  brush.spline([...onion, onion[0]], 0.5);
  soft([[196, 500], [250, 504], [240, 522], [190, 520]], '#5a5650', 4, 0.1);
}
