// One large red poppy seen from above, so close that its petals are cut by the top and left
// edges; a dark blotch at each petal's base round a grey-green seed head, a deeper glaze on the
// shaded lower petal, and a nodding bud and a lobed leaf on a hairy stem trailing to the lower
// right over bare paper.

function petal(cx, cy, ang, len, wid) {
  const pts = [[cx + cos(ang) * len * 0.05, cy + sin(ang) * len * 0.05]];
  for (let i = 0; i <= 14; i++) {
    const t = i / 14;
    const a = ang + (t - 0.5) * wid;
    const r = len * (0.8 + 0.15 * sin(t * PI) + 0.05 * sin(t * PI * 7) + random(-0.03, 0.03));
    pts.push([cx + cos(a) * r, cy + sin(a) * r]);
  }
  return pts;
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f7f1e3');
  brush.scaleBrushes(3);
  const cx = 215;
  const cy = 205;

  // The stem, coming from under the bloom, and the bud.
  brush.set('marker', '#5d7a45', 1.4);
  brush.spline([[335, 350], [380, 410], [430, 470], [470, 610]], 0.5);
  brush.spline([[380, 420], [450, 390], [495, 410]], 0.6);
  brush.set('marker', '#6f8c55', 0.5);
  for (let i = 0; i < 26; i++) {
    const t = i / 26;
    const x = lerp(350, 460, t) + random(-4, 4);
    const y = lerp(370, 560, t) + random(-4, 4);
    brush.line(x, y, x + random(3, 7), y - random(2, 5));
  }
  brush.noStroke();
  brush.fill('#7d9a62', 200);
  brush.fillBleed(0.12, 'out');
  brush.fillTexture(0.5, 0.5);
  brush.polygon([[490, 400], [515, 395], [532, 420], [528, 462], [508, 478], [490, 455], [484, 425]]);
  brush.fill('#d8392e', 210);
  brush.fillBleed(0.12, 'out');
  brush.fillTexture(0.5, 0.4);
  brush.polygon([[506, 405], [516, 408], [518, 445], [508, 470], [502, 440]]);
  // A long lobed leaf leaving the stem low down, its lobes cut deep.
  brush.fill('#7f9c63', 190);
  brush.fillBleed(0.15, 'out');
  brush.fillTexture(0.5, 0.5);
  brush.polygon([[440, 520], [410, 500], [395, 470], [380, 492], [352, 470], [345, 500], [315, 492], [330, 520], [300, 530],
    [340, 545], [390, 538], [440, 528]]);
  brush.set('marker', '#4d6a38', 0.6);
  brush.spline([[440, 524], [380, 520], [310, 528]], 0.5);
  brush.noStroke();

  // Four broad petals, the back pair first, each its own bleeding wash.
  const turns = [-2.4, -0.8, 0.75, 2.35];
  const tones = ['#e2473a', '#d9392f', '#e85444', '#d23428'];
  for (let k = 0; k < 4; k++) {
    brush.fill(tones[k], 200);
    brush.fillBleed(0.2, 'out');
    brush.fillTexture(0.55, 0.45);
    brush.polygon(petal(cx, cy, turns[k], 215, 2.0));
  }
  // Second glaze toward the heart, deeper on the lower right (away from the light).
  brush.fill('#b3212a', 150);
  brush.fillBleed(0.25, 'out');
  brush.fillTexture(0.5, 0.3);
  brush.polygon(petal(cx, cy, 0.75, 150, 2.2));
  brush.fill('#c4262a', 150);
  brush.fillBleed(0.3, 'out');
  brush.fillTexture(0.5, 0.3);
  brush.circle(cx, cy, 95, 0.7);
  // The dark blotches at the petal bases.
  for (const a of turns) {
    brush.fill('#2a0e1a', 235);
    brush.fillBleed(0.15, 'out');
    brush.fillTexture(0.4, 0.4);
    brush.polygon(petal(cx, cy, a, 58, 1.1));
  }

  // Seed head with its rayed cap, and a ring of dark stamens.
  brush.fill('#8d9a74', 220);
  brush.fillBleed(0.05, 'out');
  brush.fillTexture(0.4, 0.5);
  brush.circle(cx, cy, 28, 0.5);
  brush.noFill();
  brush.set('marker', '#2a1a22', 0.8);
  for (let k = 0; k < 9; k++) {
    const a = (k * TWO_PI) / 9;
    brush.line(cx, cy, cx + cos(a) * 24, cy + sin(a) * 24);
  }
  brush.set('marker', '#1c1418', 0.7);
  for (let k = 0; k < 46; k++) {
    const a = random(TWO_PI);
    const r = random(34, 52);
    brush.line(cx + cos(a) * r, cy + sin(a) * r, cx + cos(a) * (r + 5), cy + sin(a) * (r + 5));
  }
}
