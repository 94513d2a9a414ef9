// Plain: a skull on a book beside a candle in a dish, toned in charcoal: an even grey wall over a
// lighter table, each object a light grey with its right side hatched darker and a flat shadow
// cast to the right. Correct and finished, but lit by rule: one even light, no glow from the
// candle, the objects set out in a row.

const CRAN = [[-62, 10], [-70, -30], [-60, -70], [-30, -95], [10, -100], [48, -88], [70, -58], [74, -20], [66, 12], [56, 30], [46, 48], [40, 70], [-26, 70], [-34, 50], [-50, 34]];
const SHADE = [[20, -99], [48, -88], [70, -58], [74, -20], [66, 12], [56, 30], [46, 48], [40, 70], [26, 70], [44, 10], [46, -40]];
const SOCKET_L = [[-44, -4], [-28, -14], [-10, -6], [-12, 12], [-28, 18], [-44, 10]];
const SOCKET_R = [[12, -6], [30, -14], [50, -4], [48, 12], [30, 18], [14, 10]];
const NOSE = [[0, 20], [8, 36], [0, 42], [-8, 36]];

function at(pts, cx, cy, s) {
  return pts.map(([x, y]) => [cx + x * s, cy + y * s]);
}

// A flat light shape with its shadow side hatched at one angle.
function toned(shape, shade, light, dark) {
  brush.noStroke();
  brush.wash(light, 240);
  brush.polygon(shape);
  brush.noWash();
  brush.hatchStyle('charcoal', dark, 0.8);
  brush.hatch(4.5, 0.8, { rand: 0.3 });
  brush.polygon(shade);
  brush.noHatch();
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#d9d5ce');
  brush.scaleBrushes(3);

  // Wall and table, each one even tone.
  brush.noStroke();
  brush.wash('#a5a19a', 235);
  brush.rect(0, 0, 600, 395);
  brush.noWash();
  brush.hatchStyle('charcoal', '#8a867f', 0.6);
  brush.hatch(8, 0.8, { rand: 0.3 });
  brush.rect(0, 0, 600, 395);
  brush.noHatch();
  brush.wash('#c6c2ba', 235);
  brush.rect(0, 395, 600, 205);
  brush.noWash();
  brush.set('charcoal', '#3a3733', 0.9);
  brush.line(0, 395, 600, 393);

  // Flat cast shadows, all to the right.
  brush.noStroke();
  brush.hatchStyle('charcoal', '#6a665f', 0.7);
  brush.hatch(5, 0.1, { rand: 0.3 });
  brush.polygon([[204, 426], [236, 426], [236, 440], [204, 440]]);
  brush.polygon([[530, 442], [566, 446], [566, 470], [530, 474]]);
  brush.noHatch();

  // The book.
  toned([[240, 412], [500, 404], [530, 440], [270, 452]], [[400, 408], [500, 404], [530, 440], [430, 446]], '#8e8a83', '#4a4742');
  toned([[270, 452], [530, 440], [530, 474], [272, 488]], [[430, 446], [530, 440], [530, 474], [430, 481]], '#dcd8d1', '#6a665f');
  brush.set('charcoal', '#6a665f', 0.45);
  for (let i = 1; i < 6; i++) {
    const t = i / 6;
    brush.line(274, 452 + t * 36, 528, 440 + t * 34);
  }
  brush.set('charcoal', '#2a2825', 0.9);
  brush.spline([[240, 412], [500, 404], [530, 440], [530, 474], [272, 488], [270, 452], [240, 412]], 0);
  brush.spline([[270, 452], [530, 440]], 0);
  brush.spline([[238, 414], [230, 446], [268, 488]], 0.5);

  // The skull.
  const cx = 385;
  const cy = 335;
  const s = 0.95;
  toned(at(CRAN, cx, cy, s), at(SHADE, cx, cy, s), '#e4e0d9', '#5a5650');
  brush.noStroke();
  brush.hatchStyle('charcoal', '#1e1c1a', 0.8);
  brush.hatch(2.5, 0.8, { rand: 0.3 });
  for (const p of [SOCKET_L, SOCKET_R, NOSE]) brush.polygon(at(p, cx, cy, s));
  brush.noHatch();
  brush.set('charcoal', '#24221f', 0.9);
  brush.spline([...at(CRAN, cx, cy, s), at(CRAN, cx, cy, s)[0]], 0.4);
  brush.set('charcoal', '#4a4742', 0.6);
  brush.spline(at([[-26, 52], [4, 48], [36, 52]], cx, cy, s), 0.4);
  for (let i = 0; i < 8; i++) {
    const x = -22 + i * 7.5;
    brush.line(cx + x * s, cy + 52 * s, cx + x * s, cy + 68 * s);
  }

  // The candle and its dish.
  toned([[130, 240], [170, 240], [170, 420], [130, 420]], [[156, 240], [170, 240], [170, 420], [156, 420]], '#ebe8e2', '#6a665f');
  toned([[90, 418], [210, 418], [202, 436], [98, 436]], [[160, 418], [210, 418], [202, 436], [160, 436]], '#8e8a83', '#3a3733');
  brush.set('charcoal', '#2a2825', 0.9);
  brush.spline([[130, 420], [130, 240], [150, 246], [170, 240], [170, 420]], 0);
  brush.spline([[90, 418], [98, 436], [202, 436], [210, 418], [90, 418]], 0);
  brush.line(150, 240, 151, 224);
  brush.noStroke();
  brush.wash('#f4f1eb', 245);
  brush.polygon([[150, 176], [159, 200], [157, 216], [150, 222], [143, 216], [141, 200]]);
  brush.noWash();
  brush.set('charcoal', '#2a2825', 0.7);
  brush.spline([[150, 176], [159, 200], [157, 216], [150, 222], [143, 216], [141, 200], [150, 176]], 0.4);
}
