// A breaking wave seen close, filling the picture: a tall green face lit through from behind,
// its cream lip curling over a dark hollow on the left and pouring into a tumble of foam, spray
// blown off the crest, lace-streaked water in front and a thin band of sea and sky high above;
// soft pastel on cool grey paper.

let queue = new Map();
// Strokes are queued by colour and drawn colour by colour: each colour change costs a
// compositing pass. Two points make a line, more make a spline.
function dab(name, c, w, x1, y1, x2, y2) {
  curve(name, c, w, [[x1, y1], [x2, y2]]);
}
function curve(name, c, w, pts) {
  if (!queue.has(c)) queue.set(c, []);
  queue.get(c).push([name, w, pts]);
}
function flushDabs() {
  for (const [c, list] of queue) {
    for (const [name, w, pts] of list) {
      brush.set(name, c, w);
      if (pts.length === 2) brush.line(pts[0][0], pts[0][1], pts[1][0], pts[1][1]);
      else brush.spline(pts, 0.5);
    }
  }
  queue = new Map();
  brush.noStroke();
}

// The top of the wave, from the high right shoulder down to where it curls over on the left.
function lipY(x) {
  return 160 + 72 * pow((620 - x) / 420, 1.5);
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#c2c6c4');
  brush.scaleBrushes(3);
  const horizon = 112;
  const base = 462;

  // Underpainting: pale sky, a blue band of far sea, the wave's face and the water in front.
  brush.set('cpencil', '#c2c6c4', 0.5);
  brush.line(1, 1, 2, 2);
  brush.noStroke();
  brush.wash('#c6d4de', 200);
  brush.rect(-10, -10, 620, horizon + 10);
  brush.wash('#3c6a88', 210);
  brush.rect(-10, horizon, 620, base - horizon);
  const face = [];
  for (let x = 620; x >= 200; x -= 20) face.push([x, lipY(x)]);
  face.push([160, 250], [140, 300], [150, 350], [180, base], [620, base]);
  brush.wash('#2c6a6c', 225);
  brush.polygon(face);
  brush.wash('#24505a', 225);
  brush.rect(-10, base - 4, 620, 620 - base);
  brush.noWash();

  // Sky and far sea: level strokes.
  for (let y = 4; y < horizon - 2; y += 8) dab('pastel', random(['#c8d8e4', '#d8e2e8', '#b8c8d8']), 2, -20, y, 620, y + random(-2, 2));
  for (let y = horizon + 2; y < base; y += 5) dab('crayon', random(['#32607e', '#40708c', '#2a5472']), 1.1, -20, y, y < 250 ? 620 : 200, y + random(-1, 1));
  dab('cpencil', '#284a68', 1, -10, horizon, 610, horizon);
  flushDabs();

  // The face: strokes swept up its curve from the trough to the lip, dark at the foot and
  // turning clear green near the top where the light comes through the thin water.
  for (let i = 0; i < 150; i++) {
    const x = random(180, 630);
    const top = lipY(min(x, 620)) + 6;
    const t = random();
    const y0 = lerp(base, top, t * 0.6);
    const y1 = lerp(base, top, min(1, t * 0.6 + random(0.25, 0.45)));
    const up = (y1 - top) / (base - top);
    const c = up < 0.25 ? random(['#78c4a8', '#8ed0b0', '#a4dcbc']) : up < 0.6 ? random(['#3e8c84', '#4a9a8c', '#35807a']) : random(['#235a60', '#2a6468', '#1e4e58']);
    curve(i % 2 ? 'crayon' : 'pastel', c, 1.2, [[x + 8, y0], [x + 2, (y0 + y1) / 2], [x - 6, y1]]);
  }
  flushDabs();
  // The hollow under the curl: the darkest water, strokes bending with the overhang.
  for (let k = 0; k < 40; k++) {
    const x = random(160, 270);
    const y0 = random(262, 300);
    curve('crayon', random(['#173a44', '#1c4450', '#12303a']), 1.1, [[x + 10, y0], [x - 4, y0 + 50], [x + 4, y0 + random(90, 150)]]);
  }
  flushDabs();

  // The lip: a bright cream body (a wash: piled pale strokes turn grey) along the crest and
  // round the curl, modelled with grey-green shadow strokes along its underside.
  // Built from many small translucent washes: they pile up bright where they crowd and thin
  // out into a bubbly, broken edge, where one large wash would end on a hard line.
  brush.noStroke();
  brush.wash('#f4f6f0', 120);
  for (let x = 200; x <= 620; x += 5) {
    const thick = 8 + 12 * (1 - (x - 200) / 420);
    brush.circle(x + random(-3, 3), lipY(x) + random(-2, thick), random(3, 5 + thick * 0.4));
  }
  for (let t = 0; t <= 1; t += 0.025) {
    // The curl: from the crest over and down, thinning as it falls.
    const x = lerp(200, 150, sin(t * HALF_PI)) + random(-4, 4);
    const y = lerp(236, 330, t) + random(-4, 4);
    brush.circle(x, y, random(4, 11) * (1 - t * 0.4));
  }
  brush.noWash();
  for (let k = 0; k < 3; k++) {
    const pts = [];
    const d = 6 + k * 3;
    for (let x = 620; x >= 200; x -= 30) pts.push([x, lipY(x) + d + 8 * (1 - (x - 200) / 420) + random(-1.5, 1.5)]);
    pts.push([182, 262 + k * 2], [166, 290 + k * 4]);
    curve('crayon', random(['#94b4b0', '#a4c0bc', '#8aa8a8']), 0.9, pts);
  }
  // Broken edges: pale dabs crossing the top and bottom of the lip, so it frays instead of
  // ending on a line.
  for (let k = 0; k < 120; k++) {
    const x = random(160, 620);
    const y = lipY(max(x, 200)) + (random() < 0.5 ? -4 : 10 + 10 * (1 - (x - 200) / 420)) + random(-3, 3);
    dab('pastel', random(['#f4f6f0', '#d8e6e0', '#ffffff']), 0.9, x, y, x + random(-6, 6), y + random(2, 8));
  }
  // The curtain falling from the curl tip.
  for (let k = 0; k < 16; k++) {
    const x = 140 + random(-6, 26);
    curve(k % 2 ? 'crayon' : 'pastel', random(['#eef0ea', '#dfe8e4', '#ffffff']), 1.1, [[x + 16, 300], [x, 340], [x + random(-10, 20), 380 + random(0, 30)]]);
  }
  flushDabs();
  // The foam it throws up at the foot: a crowd of bright bubbles, lilac-grey shadow under
  // each billow and pale dabs fraying the outline.
  brush.noStroke();
  brush.wash('#f6f6f2', 110);
  for (let k = 0; k < 190; k++) {
    const a = random(TWO_PI);
    const r = sqrt(random());
    // Denser and bigger bubbles toward the middle of the mass, small ones at its edge.
    brush.circle(185 + cos(a) * r * 145, 420 + sin(a) * r * 52 - (1 - r) * 10, random(4, 8) + (1 - r) * 12);
  }
  brush.noWash();
  // Lilac-grey shadow strokes along the underside of the mass, and the water it churns.
  for (let k = 0; k < 90; k++) {
    const x = random(50, 320);
    const y = 428 + random(0, 40) * (1 - abs(x - 185) / 180);
    dab(k % 2 ? 'crayon' : 'pastel', random(['#a8a8c0', '#9ca2b8', '#b8b8cc']), 1, x, y, x + random(-12, 12), y + random(-2, 3));
  }
  flushDabs();
  // Spray torn off the crest by the wind.
  for (let k = 0; k < 90; k++) {
    const x = random(200, 620);
    const y = lipY(x) - random(2, 30);
    dab('cpencil', random(['#ffffff', '#eef4f0', '#dce8e8']), 0.8, x, y, x + random(4, 12), y - random(0, 3));
  }
  flushDabs();

  // The water in front: level dark strokes and the lace of old foam drifting on it.
  for (let y = base - 6; y < 604; y += 6) dab('crayon', random(['#20464e', '#2a5660', '#1a3c46']), 1.3, -20, y, 620, y + random(-1, 1));
  flushDabs();
  // Where the face meets the flat water: a seam of foam, so the wave rises out of it.
  for (let k = 0; k < 70; k++) {
    const x = random(150, 620);
    const y = base + random(-8, 6);
    curve(k % 2 ? 'pastel' : 'cpencil', random(['#d0e0dc', '#e8f0ec', '#b8d0cc']), 0.9, [[x, y], [x + 12, y - random(1, 4)], [x + random(20, 40), y + random(-2, 2)]]);
  }
  for (let k = 0; k < 60; k++) {
    const x = random(-20, 600);
    const y = random(base - 4, 600);
    const len = random(20, 70) * (0.5 + (y - base) / 140);
    curve('cpencil', random(['#d8e4e0', '#c0d4d0', '#f0f4f0']), 0.8, [[x, y], [x + len * 0.5, y + random(-6, 6)], [x + len, y + random(-3, 3)]]);
  }
  flushDabs();
}
