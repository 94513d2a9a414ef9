// A lone pine bent by the wind on a rocky headland, in black ink: the trunk leans out from a
// crack in the rock at lower left and twists up to the right, its crown a few flat pads of
// needles with bare paper on top and dense crossed hatching underneath; the rock hatched
// along its steep faces, a far shore as a few level lines, the sky left bare.

const INK = '#161616';
const PAPER = '#fbfaf5';

function tone(poly, d, a, w, name) {
  brush.hatchStyle(name, INK, w);
  brush.hatch(d, a, { rand: 0.12 });
  brush.polygon(poly);
  brush.noHatch();
}

// A pad of needles: a scalloped top of small bumps and a flatter, sagging underside round
// (cx, cy). Returns its outline, the shaded lower part and the points along its top.
function pad(cx, cy, rx, ry) {
  const top = [];
  const under = [];
  const n = 14;
  const bumps = floor(random(3, 5));
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    const x = cx - rx + t * 2 * rx;
    const arch = pow(sin(t * PI), 0.7);
    const scallop = 0.7 + 0.4 * abs(sin(t * PI * bumps + random(-0.2, 0.2)));
    top.push([x, cy - ry * arch * scallop]);
    under.push([x, cy + ry * 0.4 * arch * random(0.8, 1.15)]);
  }
  const outline = [...top, ...under.slice().reverse()];
  const shade = [[cx - rx * 0.9, cy - ry * 0.2], [cx + rx * 0.9, cy - ry * 0.2], ...under.slice(1, n).reverse()];
  return { outline, shade, top, under };
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background(PAPER);
  brush.scaleBrushes(3);

  // The far shore, low and faint, a few level strokes.
  brush.set('pen', INK, 0.4);
  for (let i = 0; i < 8; i++) {
    const y = 430 + i * 4 + random(-1, 1);
    const x = 300 + random(-20, 60) + i * 12;
    brush.line(x, y, 610, y + random(-0.5, 0.5));
  }
  brush.noStroke();

  // The headland: a mass of rock rising from the lower left, its top bare and lit, its steep
  // face toward the viewer hatched and crossed, and the deepest shadow in the cracks.
  const rock = [[-10, 380], [40, 372], [90, 386], [140, 410], [190, 448], [240, 500], [262, 560], [270, 610], [-10, 610]];
  tone(rock, 4.5, 1.2, 0.45, 'pen');
  tone([[90, 430], [140, 440], [190, 470], [236, 520], [252, 610], [60, 610], [70, 500]], 3, -0.9, 0.45, 'pen');
  tone([[150, 470], [190, 490], [220, 540], [230, 610], [160, 610], [170, 540]], 2.2, 0.3, 0.6, 'rotring');
  brush.set('pen', INK, 0.8);
  brush.spline(rock.slice(0, 8), 0.3);
  brush.set('rotring', INK, 0.7);
  brush.spline([[60, 392], [80, 440], [70, 500], [90, 560]], 0.5);
  brush.spline([[150, 430], [170, 480], [160, 540]], 0.5);
  brush.noStroke();

  // The trunk: leaning out of a crack, then bending up and to the right; drawn as two edges,
  // bark hatching across it, dark on the underside.
  const spine = [[70, 384], [120, 330], [180, 290], [250, 262], [320, 236], [380, 200]];
  // Thick where it grips the rock, thinning toward the crown.
  const left = spine.map(([x, y], i) => [x - 4 + i * 0.6, y - (17 - i * 2.2)]);
  const right = spine.map(([x, y], i) => [x + 4 - i * 0.6, y + (17 - i * 2.2)]);
  const trunk = [...left, ...right.slice().reverse()];
  brush.noStroke();
  brush.wash(PAPER, 255);
  brush.polygon(trunk);
  brush.noWash();
  tone(trunk, 3, 2.2, 0.45, 'pen');
  tone(right.map(([x, y], i) => [x, y]).concat(spine.slice().reverse()), 2, 0.6, 0.6, 'rotring');
  brush.set('pen', INK, 0.8);
  brush.spline(left, 0.5);
  brush.set('rotring', INK, 0.9);
  brush.spline(right, 0.5);
  // Bark: long twisting lines running with the trunk.
  brush.set('pen', INK, 0.5);
  for (const f of [-0.5, -0.1, 0.3, 0.6]) {
    brush.spline(spine.map(([x, y], i) => [x + random(-2, 2), y + f * (17 - i * 2.2) + random(-2, 2)]), 0.6);
  }
  // Branches reaching out to the pads.
  brush.set('rotring', INK, 1.1);
  brush.spline([[250, 262], [230, 220], [190, 190]], 0.5);
  brush.spline([[320, 236], [350, 210], [420, 196], [470, 170]], 0.5);
  brush.spline([[180, 290], [150, 262], [110, 250]], 0.5);
  brush.spline([[380, 200], [420, 150], [460, 120]], 0.5);
  brush.noStroke();

  // The crown: flat pads of needles, highest and widest on the right where the wind has
  // pushed them; bare paper on top, a light layer through the middle, crossed and near-black
  // underneath.
  const pads = [[450, 118, 110, 36], [530, 150, 70, 26], [500, 180, 84, 26], [330, 150, 76, 26], [200, 186, 86, 30], [250, 200, 50, 20], [115, 246, 56, 22]];
  for (const [cx, cy, rx, ry] of pads) {
    const p = pad(cx, cy, rx, ry);
    brush.wash(PAPER, 255);
    brush.polygon(p.outline);
    brush.noWash();
    tone(p.outline, 3.4, 0.15, 0.45, 'pen');
    tone(p.shade, 2.4, -0.7, 0.5, 'pen');
    tone(p.shade, 2.2, 0.8, 0.6, 'rotring');
    // Needles: short strokes fanning up from the top edge and hanging dark from the underside.
    brush.set('pen', INK, 0.45);
    for (let i = 0; i < p.top.length - 1; i++) {
      const [x1, y1] = p.top[i];
      const [x2, y2] = p.top[i + 1];
      for (let k = 0; k < 4; k++) {
        const t = random();
        const x = lerp(x1, x2, t);
        const y = lerp(y1, y2, t);
        brush.line(x, y + 3, x + random(-6, 8), y - random(3, 8));
      }
    }
    brush.set('rotring', INK, 0.5);
    for (const [x, y] of p.under) {
      for (let k = 0; k < 2; k++) brush.line(x + random(-4, 4), y - 2, x + random(-4, 6), y + random(3, 6));
    }
    brush.noStroke();
  }

  // Its shadow thrown down across the rock top, level strokes.
  tone([[40, 380], [120, 394], [160, 420], [60, 404]], 2.4, 0.1, 0.5, 'pen');
}
