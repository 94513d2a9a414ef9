// A clean line drawing of a still life in thin charcoal: a skull beside an open book and a
// candle in a chamberstick on a table; contours only (the skull's sockets, nose and teeth
// outlined, the book's pages and lines of text as strokes), no hatching and no fills.

const CRAN = [[-62, 10], [-70, -30], [-60, -70], [-30, -95], [10, -100], [48, -88], [70, -58], [74, -20], [66, 12], [56, 30], [46, 48], [40, 70], [-26, 70], [-34, 50], [-50, 34]];
const SOCKET_L = [[-44, -4], [-28, -14], [-10, -6], [-12, 12], [-28, 18], [-44, 10]];
const SOCKET_R = [[12, -6], [30, -14], [50, -4], [48, 12], [30, 18], [14, 10]];
const NOSE = [[0, 20], [8, 36], [0, 42], [-8, 36]];

function at(pts, cx, cy, s) {
  return pts.map(([x, y]) => [cx + x * s, cy + y * s]);
}

function closed(pts, c) {
  brush.spline([...pts, pts[0]], c);
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e6e3dc');
  brush.scaleBrushes(3);

  // The table's back edge, broken where the objects stand in front of it.
  brush.set('charcoal', '#4a4742', 0.7);
  brush.line(0, 380, 155, 380);
  brush.line(311, 379, 398, 379);
  brush.line(552, 378, 600, 378);

  // The skull, on the table at the left.
  const cx = 230;
  const cy = 392;
  const s = 1.05;
  brush.set('charcoal', '#24221f', 0.8);
  closed(at(CRAN, cx, cy, s), 0.4);
  brush.set('charcoal', '#2a2825', 0.7);
  for (const p of [SOCKET_L, SOCKET_R, NOSE]) closed(at(p, cx, cy, s), 0.4);
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

  // The open book, lying to the right of the skull, pages fanned up from the spine.
  brush.set('charcoal', '#24221f', 0.8);
  // Two pages curving up from the spine, the cover edges showing beneath.
  brush.spline([[330, 468], [380, 448], [432, 446], [468, 470]], 0.5);
  brush.spline([[468, 470], [500, 440], [548, 436], [588, 452]], 0.5);
  brush.spline([[330, 468], [352, 520], [452, 514], [468, 470]], 0.4);
  brush.spline([[468, 470], [482, 512], [560, 510], [588, 452]], 0.4);
  brush.spline([[348, 520], [360, 530], [456, 524], [466, 518], [478, 522], [564, 520], [576, 508]], 0.4);
  brush.set('charcoal', '#8a867f', 0.4);
  for (let i = 0; i < 4; i++) {
    const t = (i + 1) / 5;
    brush.line(352 + t * 4, 462 + t * 46, 444 - t * 2, 458 + t * 46);
    brush.line(486 + t * 2, 456 + t * 46, 568 - t * 8, 450 + t * 50);
  }

  // The candle in a chamberstick, at the back on the right.
  brush.set('charcoal', '#2a2825', 0.8);
  brush.line(446, 230, 446, 368);
  brush.line(474, 230, 474, 368);
  closed([[446, 230], [460, 236], [474, 230], [460, 225]], 0.5);
  brush.spline([[452, 234], [454, 258], [451, 270]], 0.6);
  closed([[400, 372], [460, 364], [520, 372], [460, 384]], 0.6);
  brush.spline([[400, 372], [404, 380], [460, 392], [516, 380], [520, 372]], 0.5);
  brush.spline([[522, 374], [542, 366], [548, 380], [530, 386]], 0.6);
  brush.line(460, 228, 461, 214);
  closed([[460, 168], [468, 190], [467, 206], [460, 212], [453, 206], [452, 190]], 0.4);
}
