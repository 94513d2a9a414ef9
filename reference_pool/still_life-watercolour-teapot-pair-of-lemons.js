// Ok on purpose: a blue teapot dead centre with a lemon either side on a white cloth, a plain
// ochre wall behind; drawn correctly, palette safe, shadows and edges kept simple.

function oval(cx, cy, rx, ry, n) {
  const pts = [];
  for (let i = 0; i < n; i++) {
    const a = (i / n) * TWO_PI;
    pts.push([cx + cos(a) * rx, cy + sin(a) * ry]);
  }
  return pts;
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f7f2e6');
  brush.scaleBrushes(3);

  // Pencil first: the back edge of the table.
  brush.set('HB', '#8a7a60', 0.6);
  brush.line(0, 330, 180, 330);
  brush.line(420, 330, 600, 330);
  brush.noStroke();

  // Wall.
  brush.fill('#e2cfa5', 180);
  brush.fillBleed(0.05, 'out');
  brush.fillTexture(0.3, 0.3);
  brush.rect(-10, -10, 620, 340);

  // Shadows under each object.
  brush.fill('#b8bdd0', 150);
  brush.fillBleed(0.1, 'out');
  brush.fillTexture(0.4, 0.3);
  brush.polygon(oval(310, 455, 120, 18, 16));
  brush.polygon(oval(125, 460, 55, 12, 12));
  brush.polygon(oval(485, 460, 55, 12, 12));

  // The teapot: body, lid, knob, spout, handle, two glazes of blue.
  for (let g = 0; g < 3; g++) {
    brush.fill('#2f5cab', 215);
    brush.fillBleed(0.04, 'out');
    brush.fillTexture(0.25, 0.5);
    brush.polygon(oval(300, 375, 105, 80, 24));
    brush.polygon(oval(300, 298, 58, 13, 14));
    brush.polygon(oval(300, 280, 11, 9, 10));
    brush.polygon([[395, 385], [430, 330], [452, 312], [458, 320], [440, 342], [410, 410]]);
  }
  // Lemons.
  for (const [x, y] of [[125, 430], [485, 430]]) {
    brush.fill('#efc22e', 220);
    brush.fillBleed(0.05, 'out');
    brush.fillTexture(0.35, 0.5);
    brush.beginShape(0.5);
    for (const [vx, vy] of oval(x, y, 52, 34, 12)) brush.vertex(vx, vy);
    brush.endShape(true);
  }
  brush.noFill();

  brush.set('marker', '#3562ad', 2.2);
  brush.arc(200, 372, 34, HALF_PI + 0.2, PI + HALF_PI - 0.2);
  brush.set('HB', '#2c3a58', 0.7);
  brush.spline([[196, 375], [210, 430], [300, 456], [390, 430], [404, 375]], 0.5);
  brush.set('HB', '#6a5a2a', 0.6);
  brush.spline([[73, 432], [100, 460], [150, 462], [177, 432]], 0.5);
  brush.spline([[433, 432], [460, 460], [510, 462], [537, 432]], 0.5);
}
