// A charcoal line drawing of a still life with a little tone: a skull resting on a closed book
// beside a candle in a dish, on the edge of a table; careful contours (cranium, sockets, teeth,
// the book's page block, a drip of wax), the sockets and nose filled in, a line of shadow.

const CRAN = [[-62, 10], [-70, -30], [-60, -70], [-30, -95], [10, -100], [48, -88], [70, -58], [74, -20], [66, 12], [56, 30], [46, 48], [40, 70], [-26, 70], [-34, 50], [-50, 34]];
const SOCKET_L = [[-44, -4], [-28, -14], [-10, -6], [-12, 12], [-28, 18], [-44, 10]];
const SOCKET_R = [[12, -6], [30, -14], [50, -4], [48, 12], [30, 18], [14, 10]];
const NOSE = [[0, 20], [8, 36], [0, 42], [-8, 36]];

function at(pts, cx, cy, s) {
  return pts.map(([x, y]) => [cx + x * s, cy + y * s]);
}

function closed(pts) {
  brush.spline([...pts, pts[0]], 0.4);
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e6e3dc');
  brush.scaleBrushes(3);

  // The back edge of the table, hidden where the objects stand in front of it.
  brush.set('charcoal', '#3a3733', 0.8);
  brush.line(0, 396, 127, 395);
  brush.line(173, 395, 334, 394);
  brush.line(440, 393, 600, 392);

  // The book: cover seen a little from above, page block facing us.
  brush.set('charcoal', '#2a2825', 0.9);
  brush.spline([[240, 412], [500, 404], [530, 440], [270, 452], [240, 412]], 0);
  brush.spline([[270, 452], [530, 440], [530, 474], [272, 488], [270, 452]], 0);
  brush.set('charcoal', '#6a665f', 0.45);
  for (let i = 1; i < 6; i++) {
    const t = i / 6;
    brush.line(274, 452 + t * 36, 528, 440 + t * 34);
  }
  brush.set('charcoal', '#2a2825', 1);
  brush.spline([[238, 414], [230, 446], [268, 488]], 0.5);

  // The skull on the book, its contour, brow, cheekbones and teeth.
  const cx = 385;
  const cy = 335;
  const s = 0.95;
  brush.set('charcoal', '#24221f', 0.9);
  closed(at(CRAN, cx, cy, s));
  brush.set('charcoal', '#4a4742', 0.6);
  brush.spline(at([[-50, -14], [-28, -22], [0, -16], [30, -22], [56, -14]], cx, cy, s), 0.5);
  brush.spline(at([[-56, 26], [-40, 30], [-26, 36]], cx, cy, s), 0.5);
  brush.spline(at([[54, 24], [40, 30], [30, 36]], cx, cy, s), 0.5);
  brush.spline(at([[56, -76], [64, -40], [60, 0]], cx, cy, s), 0.5);
  brush.spline(at([[-26, 52], [4, 48], [36, 52]], cx, cy, s), 0.4);
  for (let i = 0; i < 8; i++) {
    const x = -22 + i * 7.5;
    brush.line(cx + x * s, cy + 52 * s, cx + x * s, cy + 68 * s);
  }
  // Sockets and nose: the only dark.
  brush.noStroke();
  brush.hatchStyle('charcoal', '#1e1c1a', 0.8);
  brush.hatch(2.5, 0.8, { rand: 0.3 });
  for (const p of [SOCKET_L, SOCKET_R, NOSE]) brush.polygon(at(p, cx, cy, s));
  brush.noHatch();
  brush.set('charcoal', '#1e1c1a', 0.7);
  for (const p of [SOCKET_L, SOCKET_R, NOSE]) closed(at(p, cx, cy, s));

  // The candle in its dish, a drip of wax and the flame.
  brush.set('charcoal', '#2a2825', 0.9);
  brush.line(130, 240, 130, 420);
  brush.line(170, 240, 170, 420);
  brush.spline([[130, 240], [150, 246], [170, 240]], 0.5);
  brush.spline([[130, 240], [150, 234], [170, 240]], 0.5);
  brush.spline([[90, 418], [150, 428], [210, 418]], 0.5);
  brush.spline([[90, 418], [98, 436], [202, 436], [210, 418]], 0.4);
  brush.set('charcoal', '#6a665f', 0.6);
  brush.spline([[138, 244], [140, 270], [136, 286]], 0.6);
  brush.set('charcoal', '#2a2825', 0.7);
  brush.line(150, 240, 151, 224);
  closed([[150, 176], [159, 200], [157, 216], [150, 222], [143, 216], [141, 200]]);

  // A soft shadow line along the foot of the book and the dish.
  brush.set('charcoal', '#7a766f', 0.8);
  brush.line(274, 492, 532, 478);
  brush.line(100, 440, 200, 440);
}
