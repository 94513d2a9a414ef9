// Plain: three coral five-petal flowers on straight stems in a blue vase, dead centre on a flat
// table band; every shape one glaze with a little bleeding, safe local colour, no shadow, no
// background.

function petal(cx, cy, ang, len, wid) {
  const pts = [[cx, cy]];
  for (let i = 0; i <= 8; i++) {
    const a = ang + (i / 8 - 0.5) * wid;
    const r = len * (0.9 + 0.1 * sin((i / 8) * PI));
    pts.push([cx + cos(a) * r, cy + sin(a) * r]);
  }
  return pts;
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6efdf');
  brush.scaleBrushes(3);

  // Table: one flat band.
  brush.noStroke();
  brush.wash('#e4d2b2', 200);
  brush.rect(0, 470, 600, 130);
  brush.noWash();

  // Straight stems from the vase mouth.
  brush.set('marker', '#4c7a3a', 1);
  brush.line(300, 360, 200, 200);
  brush.line(300, 360, 300, 160);
  brush.line(300, 360, 400, 200);
  brush.noStroke();

  // Leaves, one each side.
  brush.fill('#5f9a4a', 190);
  brush.fillBleed(0.08, 'out');
  brush.fillTexture(0.3, 0.4);
  brush.polygon([[250, 280], [205, 270], [180, 300], [230, 300]]);
  brush.polygon([[350, 280], [395, 270], [420, 300], [370, 300]]);

  // The vase: one even glaze.
  brush.fill('#6f8fb0', 190);
  brush.fillBleed(0.06, 'out');
  brush.fillTexture(0.3, 0.4);
  brush.beginShape(0.5);
  brush.vertex(265, 350);
  brush.vertex(335, 350);
  brush.vertex(360, 420);
  brush.vertex(345, 500);
  brush.vertex(255, 500);
  brush.vertex(240, 420);
  brush.endShape(true);

  // Three identical flowers: five petals in one tone, a red dot in the middle.
  for (const [x, y] of [[200, 200], [300, 160], [400, 200]]) {
    brush.fill('#f0916c', 190);
    brush.fillBleed(0.12, 'out');
    brush.fillTexture(0.4, 0.4);
    for (let k = 0; k < 5; k++) brush.polygon(petal(x, y, -HALF_PI + (k * TWO_PI) / 5, 55, 1.1));
    brush.fill('#b8323e', 200);
    brush.fillBleed(0.05, 'out');
    brush.fillTexture(0.3, 0.3);
    brush.circle(x, y, 11);
  }
}
