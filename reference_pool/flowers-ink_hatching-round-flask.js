// Ok: three tulips in a round glass flask in blue-black ink; drawn correctly and evenly hatched, but centred, with no background and little tonal range.

const INK = '#1f2433';

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fcfbf7');
  brush.scaleBrushes(3);

  // Table line and the flask's shadow.
  brush.set('rotring', INK, 0.8);
  brush.line(40, 552, 560, 552);
  brush.noStroke();
  brush.hatchStyle('pen', INK, 0.45);
  brush.hatch(4, 0.1, { rand: 0.1 });
  brush.beginShape(0.8);
  brush.vertex(310, 553);
  brush.vertex(400, 532);
  brush.vertex(500, 536);
  brush.vertex(470, 556);
  brush.vertex(380, 562);
  brush.endShape(true);
  brush.noHatch();

  // Flask: round body, straight neck, a shaded crescent on the right, a water line.
  brush.set('pen', INK, 1.1);
  brush.circle(300, 470, 82);
  brush.line(282, 392, 282, 330);
  brush.line(318, 392, 318, 330);
  brush.spline([[278, 330], [300, 324], [322, 330]], 0.5);
  brush.noStroke();
  brush.hatchStyle('pen', INK, 0.45);
  brush.hatch(3.5, 1.2, { rand: 0.08 });
  brush.beginShape(0.7);
  brush.vertex(340, 400);
  brush.vertex(380, 460);
  brush.vertex(360, 530);
  brush.vertex(320, 550);
  brush.vertex(352, 470);
  brush.endShape(true);
  brush.noHatch();
  brush.set('pen', INK, 0.7);
  brush.spline([[226, 440], [300, 452], [374, 440]], 0.5);
  // Stems seen through the glass.
  for (const dx of [-8, 0, 8]) brush.line(300 + dx * 0.6, 340, 300 + dx * 3, 520);

  // Stems and two leaves.
  const heads = [[222, 196, -0.45], [300, 150, 0], [380, 204, 0.45]];
  brush.set('pen', INK, 1);
  for (const [hx, hy] of heads) {
    brush.spline([[hx, hy + 30], [(hx + 300) / 2, (hy + 330) / 2], [300 + (hx - 300) * 0.1, 360]], 0.5);
  }
  for (const side of [-1, 1]) {
    const leaf = [[300, 340], [300 + side * 40, 300], [300 + side * 90, 270], [300 + side * 55, 318]];
    brush.hatchStyle('pen', INK, 0.45);
    brush.hatch(4, side * 0.6, { rand: 0.1 });
    brush.beginShape(0.6);
    for (const p of leaf) brush.vertex(p[0], p[1]);
    brush.endShape(true);
    brush.noHatch();
  }

  // Blooms: a cup of three pointed petals, hatched along the petals, crossed on the shaded right half.
  for (const [hx, hy, lean] of heads) {
    push();
    translate(hx, hy);
    rotate(lean);
    const k = 1.35;
    const cup = [[-26, -6], [-28, -44], [-12, -28], [0, -52], [12, -28], [28, -44], [26, -6], [14, 22], [-14, 22]].map(([x, y]) => [x * k, y * k]);
    brush.set('pen', INK, 1);
    brush.hatchStyle('pen', INK, 0.45);
    brush.hatch(4, HALF_PI + 0.1, { rand: 0.08 });
    brush.polygon(cup);
    brush.noStroke();
    brush.hatch(3.5, -0.5, { rand: 0.08 });
    brush.polygon([[4, -30], [12, -28], [28, -44], [26, -6], [14, 22], [2, 22]].map(([x, y]) => [x * k, y * k]));
    brush.noHatch();
    brush.set('pen', INK, 0.8);
    brush.spline([[-12 * k, -28 * k], [-8 * k, 0], [0, 22 * k]], 0.5);
    brush.spline([[12 * k, -28 * k], [8 * k, 0], [0, 22 * k]], 0.5);
    pop();
  }
}
