// Five tulips in a glass, drawn with a fine pen and hatched in the shadows.

function tulip(x, y, s, lean) {
  // Outline of the cup-shaped bloom: three overlapping petals.
  const body = [
    [x - s * 0.55, y - s * 0.2], [x - s * 0.5, y - s * 0.8], [x - s * 0.2, y - s * 0.55],
    [x, y - s * 1.05], [x + s * 0.2, y - s * 0.55], [x + s * 0.5, y - s * 0.8],
    [x + s * 0.55, y - s * 0.2], [x + s * 0.3, y + s * 0.15], [x - s * 0.3, y + s * 0.15],
  ];
  brush.set('pen', '#1c1c24', 1);
  brush.hatchStyle('pen', '#1c1c24', 0.6);
  brush.hatch(5, lean + PI / 4, { rand: 0.08 });
  brush.polygon(body);
  brush.noHatch();
  // The middle petal's edges, drawn over the hatching.
  brush.spline([[x - s * 0.2, y - s * 0.55], [x - s * 0.15, y - s * 0.1], [x, y + s * 0.15]], 0.5);
  brush.spline([[x + s * 0.2, y - s * 0.55], [x + s * 0.15, y - s * 0.1], [x, y + s * 0.15]], 0.5);
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fbf8f1');
  brush.scaleBrushes(3);

  // Glass: two curved sides, a rim ellipse and a heavy cross-hatched base.
  brush.set('pen', '#1c1c24', 1);
  brush.spline([[240, 380], [228, 470], [250, 545]], 0.5);
  brush.spline([[360, 380], [372, 470], [350, 545]], 0.5);
  brush.spline([[240, 380], [300, 392], [360, 380]], 0.5);
  brush.spline([[240, 380], [300, 370], [360, 380]], 0.5);
  brush.hatchStyle('pen', '#1c1c24', 0.5);
  brush.hatch(4, PI / 3, { rand: 0.1 });
  brush.polygon([[250, 525], [350, 525], [350, 545], [250, 545]]);
  brush.hatch(4, -PI / 3, { rand: 0.1 });
  brush.polygon([[250, 525], [350, 525], [350, 545], [250, 545]]);
  brush.noHatch();
  // Water line and the table's edge.
  brush.set('pen', '#3a3a48', 0.7);
  brush.line(236, 430, 364, 430);
  brush.set('rotring', '#1c1c24', 0.8);
  brush.line(30, 548, 570, 548);
  // Shadow of the glass, hatched flat.
  brush.hatchStyle('pen', '#3a3a48', 0.5);
  brush.hatch(5, 0, { rand: 0.15 });
  brush.noStroke();
  brush.polygon([[350, 548], [520, 548], [500, 570], [340, 570]]);
  brush.noHatch();

  // Stems, then blooms.
  const heads = [[190, 200, 0.3], [260, 140, 0.1], [330, 170, -0.1], [410, 215, -0.35], [300, 260, 0]];
  brush.set('pen', '#1c1c24', 0.9);
  for (const [hx, hy] of heads) {
    brush.spline([[hx, hy + 10], [(hx + 300) / 2, (hy + 400) / 2 - 20], [300 + (hx - 300) * 0.15, 470]], 0.6);
  }
  // A long leaf on each side.
  brush.spline([[285, 420], [220, 330], [170, 300]], 0.7);
  brush.spline([[285, 420], [240, 350], [170, 300]], 0.7);
  brush.spline([[315, 420], [390, 330], [445, 320]], 0.7);
  brush.spline([[315, 420], [370, 360], [445, 320]], 0.7);
  for (const [hx, hy, lean] of heads) {
    tulip(hx, hy, random(62, 72), lean);
  }
}
