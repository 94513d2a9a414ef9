// A mountain lake under a breaking storm in charcoal: heavy smudged clouds roll over a great
// dark massif on the right, rain trailing from them, while a rift of light opens low on the left
// behind a paler range and lies as a bright path on the still water; a black wooded shore in the
// foreground.

const SHORE = 452;
const MASSIF = [[395, 290, 150], [520, 200, 95], [270, 150, 80]];
const LOW = [[60, 120, 95], [190, 150, 100]];

function heightAt(x, peaks, jag, off) {
  let h = 0;
  for (const [px, ph, pw] of peaks) h = max(h, ph * pow(max(0, 1 - abs(x - px) / pw), 1.2));
  const n = 1 - abs(noise(x * 0.04 + off) * 2 - 1);
  return h > 0 ? h + n * jag : 0;
}

function skyline(peaks, jag, off) {
  const pts = [];
  for (let x = -10; x <= 610; x += 5) pts.push([x, SHORE - heightAt(x, peaks, jag, off)]);
  return pts;
}

// A soft smudge: spray hatched into a closed curve, for clouds and rubbed darks.
function smudge(pts, tone, d, a) {
  brush.noStroke();
  brush.hatchStyle('spray', tone, 3);
  brush.hatch(d, a, { rand: 0.45 });
  brush.beginShape(0.9);
  for (const [x, y] of pts) brush.vertex(x, y);
  brush.endShape(true);
  brush.noHatch();
}

function billow(cx, cy, w, h, seed) {
  const pts = [];
  for (let i = 0; i < 12; i++) {
    const a = PI + (i / 12) * TWO_PI;
    const lump = 1 + 0.22 * sin(i * 2.3 + seed);
    pts.push([cx + cos(a) * w * lump, cy + sin(a) * h * lump * (sin(a) > 0 ? 0.45 : 1)]);
  }
  return pts;
}

// A rectangle with an oval hole (the hatching fills even-odd): the sky round the rift of light.
function holed(x0, y0, x1, y1, cx, cy, rx, ry) {
  const pts = [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, cy]];
  for (let i = 0; i <= 28; i++) {
    const a = PI + (i / 28) * TWO_PI;
    pts.push([cx + cos(a) * rx, cy - sin(a) * ry]);
  }
  pts.push([x0, cy]);
  return pts;
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e9e6df');
  brush.scaleBrushes(3);

  // The storm: a grey under-tone over the sky, then rubbed dark everywhere but the rift.
  brush.noStroke();
  brush.wash('#bdb9b1', 200);
  brush.rect(0, 0, 600, SHORE);
  brush.noWash();
  brush.hatchStyle('spray', '#4a4742', 3);
  brush.hatch(10, 0.12, { rand: 0.45 });
  brush.polygon(holed(0, 0, 600, SHORE, 210, 300, 200, 62));
  brush.noHatch();
  // Cloud banks rolling in from the right, darkest at their heavy undersides.
  for (const [cx, cy, w, h, tone, seed] of [[470, 70, 220, 90, '#2b2926', 1], [220, 40, 200, 60, '#3a3733', 4], [360, 185, 170, 50, '#34312d', 7], [90, 170, 130, 40, '#4c4944', 2]]) {
    smudge(billow(cx, cy, w, h, seed), tone, 8, 0.2);
    for (let k = 0; k < 3; k++) {
      brush.set('spray', '#1f1d1b', 2.4 - k * 0.4);
      brush.spline([[cx - w * 0.9, cy + h * 0.25 + k * 7], [cx, cy + h * 0.5 + k * 6], [cx + w * (0.9 - k * 0.15), cy + h * 0.3 + k * 7]], 0.6);
    }
  }
  // The rift: rubbed back towards bare paper, brightest low down behind the range.
  smudge(billow(210, 305, 215, 70, 3), '#e4e1da', 7, 0.05);
  smudge(billow(200, 318, 140, 40, 5), '#f3f0ea', 4, 0.05);
  // Wind-dragged strokes across the upper sky.
  for (let i = 0; i < 7; i++) {
    const y = 25 + i * 24 + random(-6, 6);
    const x0 = random(200, 420);
    const len = random(150, 230);
    brush.set('charcoal', '#4f4b46', random(0.6, 1));
    brush.spline([[x0, y], [x0 + len * 0.5, y + len * 0.06], [x0 + len, y + len * 0.15]], 0.6);
  }
  // Rain trailing from the right-hand bank, slanting with the wind.
  for (let i = 0; i < 22; i++) {
    const x = 430 + i * 8 + random(-4, 4);
    brush.set('spray', '#5a5650', 1.6);
    brush.line(x, 140 + random(0, 30), x - 50, 330 + random(-20, 20));
  }

  // The low range under the rift: pale, flattened by the light behind it.
  const low = skyline(LOW, 14, 11);
  brush.noStroke();
  brush.wash('#8f8b84', 235);
  brush.polygon([...low, [610, SHORE + 2], [-10, SHORE + 2]]);
  brush.noWash();
  brush.hatchStyle('2B', '#6a665f', 0.6);
  brush.hatch(5, 1.2, { rand: 0.35 });
  brush.polygon([...low.filter(([x]) => x < 330), [330, SHORE], [-10, SHORE]]);
  brush.noHatch();
  // Its crest rimmed by the light.
  brush.set('charcoal', '#f4f1eb', 0.8);
  brush.spline(low.filter(([x]) => x < 250).map(([x, y]) => [x, y + 2]), 0.2);
  brush.noStroke();

  // The massif: dark, its sunward edges catching the rift light.
  const massif = skyline(MASSIF, 30, 23);
  brush.wash('#6f6b65', 245);
  brush.polygon([...massif.filter(([x]) => x > 180), [610, SHORE + 2], [185, SHORE + 2]]);
  brush.noWash();
  brush.hatchStyle('charcoal', '#57534e', 0.6);
  brush.hatch(7, -0.85, { rand: 0.6 });
  brush.polygon([...massif.filter(([x]) => x > 180), [610, SHORE], [185, SHORE]]);
  brush.noHatch();
  // Shadow faces under each summit, hatched down the fall line, near-black at the crest.
  for (const [px, ph, pw] of MASSIF) {
    const ridge = massif.filter(([x]) => x >= px && x <= px + pw * 0.95);
    const top = ridge[0];
    const spur = [];
    for (let k = 7; k >= 1; k--) {
      const t = k / 7;
      spur.push([top[0] - pw * 0.22 * t + (noise(k * 0.6 + px) - 0.5) * 26, top[1] + (SHORE - top[1]) * t]);
    }
    const face = [...ridge, [ridge[ridge.length - 1][0], SHORE], ...spur];
    brush.hatchStyle('charcoal', '#2c2a27', 1);
    brush.hatch(3.2, 1.15, { rand: 0.35 });
    brush.polygon(face);
    brush.hatch(4, -1.3, { rand: 0.4 });
    brush.polygon(face.filter(([x, y]) => y < top[1] + (SHORE - top[1]) * 0.55 || x > px + pw * 0.4));
    brush.noHatch();
  }
  // Snow streaks down the lit flank of the great peak, and its rim of light.
  for (let i = 0; i < 9; i++) {
    const x = 300 + i * 10 + random(-3, 3);
    const y = SHORE - heightAt(x, MASSIF, 30, 23) + 8;
    brush.set('charcoal', '#e9e6df', random(0.5, 0.8));
    brush.spline([[x, y], [x - 5 + random(-3, 3), y + 35], [x - 14 + random(-5, 5), y + 70]], 0.6);
  }
  brush.set('charcoal', '#f4f1eb', 1);
  brush.spline(massif.filter(([x]) => x > 240 && x < 395).map(([x, y]) => [x + 1, y + 2]), 0.2);
  brush.set('charcoal', '#1c1a18', 0.9);
  brush.spline(massif.filter(([x]) => x >= 395), 0.2);
  brush.noStroke();
  // Rain veiling the far side of the massif.
  brush.hatchStyle('spray', '#8d8982', 2);
  brush.hatch(7, -1.3, { rand: 0.4 });
  brush.polygon([[520, 160], [610, 160], [610, SHORE], [470, SHORE]]);
  brush.noHatch();

  // The lake: a pale sheet with the rift's light lying across it and the massif mirrored dark.
  // The water holds the storm's grey, darkening towards us; the rift lies pale across it.
  brush.wash('#9b978f', 245);
  brush.rect(0, SHORE, 600, 150);
  brush.noWash();
  brush.hatchStyle('spray', '#5c5852', 3);
  brush.hatch(9, 0.02, { rand: 0.4 });
  brush.rect(0, SHORE + 40, 600, 110);
  brush.noHatch();
  smudge(billow(205, SHORE + 30, 150, 40, 9), '#e1ddd6', 5, 0.02);
  const mirror = massif.filter(([x]) => x > 190).map(([x, y]) => [x, SHORE + (SHORE - y) * 0.55]);
  brush.wash('#6a665f', 200);
  brush.polygon([[190, SHORE], ...mirror, [610, SHORE]]);
  brush.noWash();
  // Rubbed into the reflection, softer than the mountain it mirrors.
  brush.hatchStyle('spray', '#3f3c38', 3);
  brush.hatch(7, 0.02, { rand: 0.5 });
  brush.polygon([[250, SHORE], ...mirror.filter(([x]) => x > 250), [610, SHORE]]);
  brush.noHatch();
  // Ripples break the reflection: level strokes scraped back to the pale water.
  for (let i = 0; i < 11; i++) {
    const y = SHORE + 6 + i * i * 0.9 + random(-2, 2);
    const x0 = random(260, 560);
    brush.set('charcoal', '#b9b5ad', random(0.4, 0.8));
    brush.line(x0, y, x0 + random(15, 45) * (1 + i * 0.12), y + random(-1, 1));
  }
  // The light path: bare paper, in broken level dashes under the rift.
  for (let i = 0; i < 22; i++) {
    const y = SHORE + 4 + i * 5.5;
    const w = 120 - i * 3.5 + random(-15, 15);
    const cx = 205 + random(-12, 12);
    brush.set('charcoal', '#f6f3ee', random(0.8, 1.3));
    brush.line(cx - w / 2, y, cx + w / 2, y);
  }
  brush.set('charcoal', '#2a2825', 0.7);
  brush.line(0, SHORE + 1, 600, SHORE);
  brush.noStroke();

  // Foreground shore: near-black, with pines rising against the water on the left.
  const bank = [[-10, 530], [90, 520], [200, 548], [330, 570], [470, 560], [610, 575], [610, 610], [-10, 610]];
  brush.noStroke();
  brush.wash('#2c2a27', 250);
  brush.polygon(bank);
  brush.noWash();
  brush.hatchStyle('charcoal', '#151413', 1.2);
  brush.hatch(3.5, 0.3, { rand: 0.5 });
  brush.polygon(bank);
  brush.noHatch();
  for (let i = 0; i < 6; i++) {
    const x = -4 + i * 17 + random(-5, 5);
    const base = 530 + random(-4, 8);
    const h = (i % 3 === 1 ? 190 : 140) * random(0.8, 1.05) * (1 - i * 0.09);
    const tree = [[x, base - h]];
    for (let k = 1; k <= 7; k++) {
      const y = base - h + (k / 7) * h * 0.92;
      const w = (k / 7) * h * 0.17 * random(0.8, 1.2);
      tree.push([x + w, y + 3]);
      tree.push([x + w * 0.3, y - h * 0.03]);
    }
    const left = tree.slice(1).reverse().map(([tx, ty]) => [2 * x - tx + random(-3, 3), ty]);
    brush.wash('#181715', 250);
    brush.polygon([...tree, [x, base + 10], ...left]);
    brush.noWash();
  }
}
