// A still life on the corner of a table in charcoal: the corner juts towards us out of a dark
// room, a white cloth hangs off it in heavy folds, and on it stand a pewter jug, a wine glass and
// a plate with a lemon whose peel curls down over the cloth; light from the upper left.

function soft(pts, tone, d, a) {
  brush.noStroke();
  brush.hatchStyle('spray', tone, 3);
  brush.hatch(d, a, { rand: 0.45 });
  brush.polygon(pts);
  brush.noHatch();
}

function hatched(pts, tone, d, a, w) {
  brush.noStroke();
  brush.hatchStyle('charcoal', tone, w);
  brush.hatch(d, a, { rand: 0.35 });
  brush.polygon(pts);
  brush.noHatch();
}

function flat(pts, tone) {
  brush.noStroke();
  brush.wash(tone, 248);
  brush.polygon(pts);
  brush.noWash();
}

function oval(cx, cy, rx, ry, n) {
  const pts = [];
  for (let i = 0; i < n; i++) pts.push([cx + cos((i / n) * TWO_PI) * rx, cy + sin((i / n) * TWO_PI) * ry]);
  return pts;
}

// A turned vessel: half widths from top to bottom, as an outline.
function vessel(cx, top, h, widths) {
  const l = [];
  const r = [];
  for (let k = 0; k < widths.length; k++) {
    const y = top + (k / (widths.length - 1)) * h;
    l.push([cx - widths[k], y]);
    r.push([cx + widths[k], y]);
  }
  return [...l, ...r.reverse()];
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#cbc7bf');
  brush.scaleBrushes(3);

  // The dark room.
  flat([[0, 0], [600, 0], [600, 600], [0, 600]], '#4a4641');
  soft([[0, 0], [600, 0], [600, 600], [0, 600]], '#1a1816', 6, 0.9);

  // The table: its top in two-point perspective, the corner nearest us below the centre.
  const topFace = [[-10, 262], [610, 238], [610, 330], [300, 468], [-10, 340]];
  flat(topFace, '#8a867f');
  hatched(topFace, '#6a665f', 7, 0.15, 0.6);
  soft([[300, 250], [610, 238], [610, 330], [400, 420]], '#2f2d2a', 7, 0.2);
  // Its two sides: the left catches a little light, the right is in shadow.
  flat([[-10, 340], [300, 468], [300, 610], [-10, 610]], '#3f3c38');
  hatched([[-10, 340], [300, 468], [300, 610], [-10, 610]], '#24221f', 5, 0.42, 0.8);
  flat([[300, 468], [610, 330], [610, 610], [300, 610]], '#242220');
  hatched([[300, 468], [610, 330], [610, 610], [300, 610]], '#0f0e0d', 4, -0.42, 0.9);
  brush.set('charcoal', '#d0cbbf', 0.8);
  brush.spline([[-10, 340], [300, 468]], 0);
  brush.set('charcoal', '#111', 1);
  brush.spline([[300, 468], [610, 330]], 0);

  // The cloth: a diamond lying on the top with its point on the corner, then falling from the
  // two edges in folds that fan out from the corner to a looping hem.
  const A = [190, 422];
  const C = [300, 468];
  const B = [430, 410];
  flat([[140, 330], [300, 296], [480, 316], B, C, A], '#ddd8ce');
  soft([[330, 300], [480, 316], B, [340, 430]], '#8a857c', 6, 0.2);
  const hang = [A, C, B, [428, 470], [412, 512], [386, 540], [356, 568], [322, 596], [290, 604], [258, 582], [230, 554], [208, 520], [196, 470]];
  flat(hang, '#e6e1d7');
  // Folds: shadowed valleys fanning from the corner, the deepest on the side away from the light.
  for (const [x0, y0, x1, y1, tone] of [[262, 455, 232, 552, '#9a958b'], [290, 472, 262, 582, '#8a857c'], [310, 474, 322, 596, '#6f6b63'], [336, 458, 358, 566, '#57534d'], [372, 442, 392, 530, '#4a4641']]) {
    soft([[x0 - 5, y0], [x0 + 6, y0], [x1 + 14, y1], [x1 - 10, y1]], tone, 3.6, 1.4);
    brush.set('charcoal', '#5a5650', 0.5);
    brush.spline([[x0, y0], [(x0 + x1) / 2 + 3, (y0 + y1) / 2], [x1, y1]], 0.5);
  }
  soft([C, B, [428, 470], [412, 512], [386, 540], [356, 568], [330, 470]], '#3f3c38', 5, 1.2);
  // The crest of the cloth over the lit edge, and its outline.
  brush.set('charcoal', '#f4f0e8', 1.1);
  brush.spline([A, [250, 448], C], 0.4);
  brush.set('charcoal', '#3a3733', 0.7);
  brush.spline([...hang.slice(2), A], 0.4);
  brush.spline([A, [140, 330], [300, 296], [480, 316], B], 0.3);

  // Shadows thrown to the right across the table and the cloth.
  soft([[230, 320], [330, 300], [360, 330], [250, 350]], '#2a2825', 5, 0.1);
  soft([[420, 300], [500, 292], [520, 312], [430, 318]], '#2a2825', 5, 0.1);

  // The pewter jug, at the back on the left: grey with a broad dull highlight and a dark core.
  const jug = vessel(190, 170, 150, [26, 22, 24, 34, 44, 50, 48, 40, 36]);
  flat(jug, '#8e8a84');
  hatched(vessel(190, 170, 150, [4, 6, 8, 12, 16, 18, 17, 14, 12]).map(([x, y]) => [x + 20, y]), '#2a2825', 3.4, 1.2, 0.8);
  soft(vessel(190, 170, 150, [0, 2, 6, 12, 18, 22, 20, 16, 14]).map(([x, y]) => [x + 28, y]), '#1f1d1b', 4, 1.2);
  brush.set('charcoal', '#dedad2', 1.3);
  brush.spline([[164, 232], [158, 262], [162, 296]], 0.6);
  brush.set('charcoal', '#b5b1aa', 0.8);
  brush.spline([[172, 178], [170, 196]], 0);
  brush.set('charcoal', '#1a1816', 1);
  brush.spline([...jug, jug[0]], 0.4);
  brush.spline([[164, 170], [190, 176], [216, 170]], 0.5);
  brush.set('charcoal', '#1a1816', 2);
  brush.spline([[236, 196], [270, 204], [268, 262], [238, 288]], 0.6);
  brush.set('charcoal', '#1a1816', 1.2);
  brush.spline([[160, 170], [170, 158], [200, 156], [218, 162], [216, 170]], 0.5);
  brush.spline([[150, 168], [164, 170]], 0);

  // The wine glass on the right: transparent, drawn by its dark edges and sharp highlights.
  const gx = 420;
  const bowl = vessel(gx, 150, 90, [34, 36, 36, 33, 27, 16, 4]);
  flat(bowl, '#5f5b55');
  soft(bowl.map(([x, y]) => [x, y]), '#2a2825', 6, 0.9);
  brush.set('charcoal', '#dcd7cc', 1.2);
  brush.spline([[gx - 26, 160], [gx - 28, 190], [gx - 20, 222]], 0.6);
  brush.set('charcoal', '#0f0e0d', 0.9);
  brush.spline([...bowl, bowl[0]], 0.5);
  brush.spline([[gx - 34, 150], [gx, 158], [gx + 34, 150]], 0.5);
  brush.spline([[gx - 34, 150], [gx, 144], [gx + 34, 150]], 0.5);
  brush.line(gx - 2, 240, gx - 2, 290);
  brush.line(gx + 2, 240, gx + 2, 290);
  brush.set('charcoal', '#bdb8ad', 0.7);
  brush.line(gx - 1, 244, gx - 1, 286);
  brush.set('charcoal', '#0f0e0d', 0.9);
  brush.spline([...oval(gx, 294, 30, 7, 14), oval(gx, 294, 30, 7, 14)[0]], 0.5);

  // The plate and the lemon on the cloth, its peel hanging in a spiral over the corner.
  const plate = oval(300, 350, 88, 24, 20);
  flat(plate, '#b7b2a8');
  hatched(oval(320, 356, 60, 14, 16), '#6a665f', 3.5, 0.1, 0.6);
  brush.set('charcoal', '#2a2825', 0.9);
  brush.spline([...plate, plate[0]], 0.5);
  brush.set('charcoal', '#efebe3', 1);
  brush.spline([[216, 346], [250, 332], [300, 326]], 0.5);
  const lemon = oval(292, 330, 44, 28, 16);
  flat(lemon, '#c4bfb3');
  hatched([[300, 306], [330, 316], [336, 336], [316, 356], [290, 358], [318, 334]], '#3a3733', 3.2, 1.1, 0.8);
  brush.set('charcoal', '#f3efe7', 1.2);
  brush.spline([[262, 326], [268, 314], [282, 308]], 0.6);
  brush.set('charcoal', '#1f1d1b', 0.9);
  brush.spline([...lemon, lemon[0]], 0.5);
  brush.spline([[334, 326], [344, 322]], 0);
  // The peel: a ribbon twisting down from the lemon past the edge of the table.
  const side1 = [];
  const side2 = [];
  for (let i = 0; i <= 16; i++) {
    const t = i / 16;
    const x = 336 + sin(t * 9) * 14 + t * 26;
    const y = 352 + t * 170;
    const w = 11 * cos(t * 9 + 0.6);
    side1.push([x - w, y]);
    side2.push([x + w, y + 3]);
  }
  flat([...side1, ...side2.slice().reverse()], '#b3ad9f');
  hatched([...side1, ...side2.slice().reverse()], '#4a4641', 3, 1.2, 0.6);
  brush.set('charcoal', '#1a1816', 0.8);
  brush.spline(side1, 0.5);
  brush.spline(side2, 0.5);
}
