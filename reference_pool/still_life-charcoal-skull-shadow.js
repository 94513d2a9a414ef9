// A vanitas in charcoal: a candle stub in front throws a giant skull shadow on the wall; the skull rests on an open book.

function holed(x0, y0, x1, y1, cx, cy, r) {
  // A rectangle with an oval hole (the hatching fills even-odd).
  const pts = [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, cy]];
  for (let i = 0; i <= 24; i++) {
    const a = PI + (i / 24) * TWO_PI;
    pts.push([cx + cos(a) * r, cy - sin(a) * r * 0.85]);
  }
  pts.push([x0, cy]);
  return pts;
}

const CRAN = [[-74, -14], [-70, -56], [-40, -86], [0, -96], [42, -86], [70, -58], [78, -16], [66, 18], [54, 38], [40, 60], [32, 84], [-30, 84], [-40, 62], [-58, 42], [-72, 18]];

function darkPatch(pts, tone, d) {
  brush.noStroke();
  brush.hatchStyle('charcoal', tone, 0.9);
  brush.hatch(d, 0.7, { rand: 0.3 });
  brush.polygon(pts);
  brush.hatch(d + 0.4, -0.6, { rand: 0.3 });
  brush.polygon(pts);
  brush.noHatch();
}

function skull() {
  // Drawn about the origin, lit from the left (mirror it with scale(-1, 1) for light from the right).
  brush.noStroke();
  brush.wash('#e2ded6', 245);
  brush.polygon(CRAN);
  brush.noWash();
  brush.hatchStyle('spray', '#2c2a27', 2.6);
  brush.hatch(5, 1.1, { rand: 0.3 });
  brush.polygon([[30, -90], [70, -58], [78, -16], [66, 18], [54, 38], [40, 60], [32, 84], [12, 84], [40, 20], [50, -40]]);
  brush.noHatch();
  brush.hatchStyle('charcoal', '#45423d', 0.7);
  brush.hatch(3.5, 1.2, { rand: 0.4 });
  brush.polygon([[56, -66], [70, -58], [78, -16], [66, 18], [54, 38], [40, 60], [32, 84], [24, 84], [56, 0]]);
  brush.polygon([[-64, 34], [-40, 40], [-28, 62], [-40, 62]]);
  brush.noHatch();
  // Sockets, nose, teeth.
  darkPatch([[-50, -2], [-30, -10], [-12, -2], [-14, 18], [-30, 26], [-48, 16]], '#1a1917', 2.2);
  darkPatch([[8, -2], [30, -10], [50, -2], [48, 20], [30, 28], [10, 18]], '#121110', 2);
  darkPatch([[-4, 26], [8, 48], [2, 56], [-8, 56], [-14, 46]], '#1a1917', 2.2);
  brush.hatchStyle('charcoal', '#77736c', 0.6);
  brush.hatch(3, 1.3, { rand: 0.3 });
  brush.polygon([[-30, 64], [36, 64], [32, 82], [-26, 82]]);
  brush.noHatch();
  for (let i = 0; i < 8; i++) {
    const x = -24 + i * 7.6;
    brush.set('charcoal', '#2a2825', 0.5);
    brush.line(x, 66, x + random(-1, 1), 74 + random(2, 6));
  }
  brush.set('charcoal', '#1d1b19', 0.9);
  brush.spline([[-32, 64], [2, 60], [38, 64]], 0.5);
  brush.set('charcoal', '#2a2825', 1);
  brush.spline([[-56, -12], [-30, -16], [0, -8], [30, -16], [56, -10]], 0.5);
  // Contour: light on the lit side, heavy on the shadow side.
  brush.set('charcoal', '#3a3733', 0.8);
  brush.spline(CRAN.slice(0, 5), 0.5);
  brush.set('charcoal', '#141312', 1.4);
  brush.spline([...CRAN.slice(4), CRAN[0]], 0.5);
  brush.set('charcoal', '#f7f4ee', 1.2);
  brush.spline([[-64, -40], [-44, -72], [-8, -86]], 0.6);
  brush.set('charcoal', '#4a4742', 0.6);
  brush.spline([[-70, -30], [-30, -52], [20, -54]], 0.6);
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#ebe7df');
  brush.scaleBrushes(3);

  // Wall and table.
  brush.noStroke();
  brush.wash('#a39f98', 230);
  brush.rect(0, 0, 600, 400);
  brush.noWash();
  brush.wash('#cfcbc3', 230);
  brush.rect(0, 400, 600, 200);
  brush.noWash();
  // Darkness closing in, with a pool of light round the candle at the right.
  brush.hatchStyle('spray', '#34312d', 3);
  brush.hatch(11, 0.9, { rand: 0.4 });
  brush.polygon(holed(0, 0, 600, 600, 440, 380, 330));
  brush.noHatch();

  // The giant shadow of the skull thrown up the wall to the left, soft at its edge.
  const shadow = CRAN.map(([x, y]) => [150 - x * 2.1, 215 + y * 2]);
  brush.noStroke();
  brush.hatchStyle('charcoal', '#4a4742', 1.1);
  brush.hatch(3.2, 0.6, { rand: 0.4 });
  brush.polygon(shadow);
  brush.noHatch();
  brush.hatchStyle('spray', '#3d3a36', 3);
  brush.hatch(9, -0.5, { rand: 0.4 });
  brush.polygon(shadow.map(([x, y]) => [150 + (x - 150) * 1.08, 215 + (y - 215) * 1.06]));
  brush.noHatch();
  brush.set('charcoal', '#2b2926', 1.2);
  brush.line(0, 401, 600, 398);

  // The open book: two pages rising from the gutter, a dark cover edge below.
  brush.noStroke();
  brush.wash('#6b6761', 235);
  brush.polygon([[90, 478], [300, 500], [520, 470], [536, 492], [300, 528], [76, 500]]);
  brush.noWash();
  brush.wash('#f1eee8', 245);
  brush.polygon([[100, 430], [200, 416], [300, 440], [300, 500], [200, 476], [92, 486]]);
  brush.polygon([[300, 440], [400, 414], [512, 426], [522, 478], [400, 470], [300, 500]]);
  brush.noWash();
  brush.hatchStyle('charcoal', '#8a867f', 0.6);
  brush.hatch(4, 0.2, { rand: 0.4 });
  brush.polygon([[100, 430], [200, 416], [300, 440], [300, 500], [200, 476], [92, 486]]);
  brush.noHatch();
  brush.set('charcoal', '#24221f', 1);
  brush.spline([[92, 486], [100, 430], [200, 416], [300, 440], [400, 414], [512, 426], [522, 478]], 0.4);
  brush.spline([[92, 486], [200, 476], [300, 500], [400, 470], [522, 478]], 0.4);
  brush.set('charcoal', '#3a3733', 0.9);
  brush.line(300, 440, 300, 500);
  // Page edges fanned at the sides.
  for (let i = 0; i < 4; i++) {
    brush.set('2B', '#55514c', 0.5);
    brush.spline([[94 - i * 2, 490 + i * 3], [200, 482 + i * 4], [300, 504 + i * 4]], 0.5);
    brush.spline([[300, 504 + i * 4], [400, 476 + i * 4], [522 + i * 2, 484 + i * 3]], 0.5);
  }
  // Book's soft shadow on the table, to the left.
  brush.noStroke();
  brush.hatchStyle('spray', '#3a3733', 2.6);
  brush.hatch(7, 0.1, { rand: 0.4 });
  brush.polygon([[20, 500], [90, 492], [300, 532], [250, 556], [40, 540]]);
  brush.noHatch();

  // The skull on the left page, lit from the candle at the right.
  push();
  translate(215, 370);
  scale(-1, 1);
  skull();
  pop();

  // Candle stub in a chamberstick, front right.
  brush.noStroke();
  brush.wash('#8b8781', 235);
  brush.polygon([[400, 530], [540, 530], [530, 556], [410, 556]]);
  brush.noWash();
  brush.set('charcoal', '#1d1b19', 1.1);
  brush.spline([[400, 530], [470, 540], [540, 530]], 0.5);
  brush.spline([[400, 530], [410, 556], [530, 556], [540, 530]], 0.4);
  brush.spline([[540, 536], [572, 532], [574, 552], [534, 552]], 0.6);
  brush.set('charcoal', '#f7f4ee', 1);
  brush.line(412, 536, 446, 540);
  brush.noStroke();
  brush.wash('#f3f0ea', 250);
  brush.polygon([[452, 446], [488, 442], [490, 536], [452, 538]]);
  brush.noWash();
  brush.hatchStyle('charcoal', '#77736c', 0.6);
  brush.hatch(3.5, 1.5, { rand: 0.3 });
  brush.polygon([[452, 446], [462, 446], [462, 538], [452, 538]]);
  brush.noHatch();
  brush.set('charcoal', '#2a2825', 1);
  brush.line(452, 448, 452, 537);
  brush.line(489, 444, 490, 535);
  brush.spline([[452, 448], [470, 452], [488, 444]], 0.6);
  brush.set('charcoal', '#a8a49d', 0.8);
  brush.spline([[484, 448], [486, 470], [483, 486]], 0.6);
  // Wick and flame.
  brush.set('charcoal', '#1b1a18', 0.8);
  brush.line(470, 449, 471, 432);
  brush.noStroke();
  brush.hatchStyle('charcoal', '#fbfaf7', 1);
  brush.hatch(1.8, 1.57, { rand: 0.2 });
  brush.polygon([[470, 380], [480, 408], [479, 426], [470, 434], [461, 426], [460, 408]]);
  brush.noHatch();
  brush.set('charcoal', '#7a766f', 0.6);
  brush.spline([[470, 380], [480, 408], [479, 426], [470, 434], [461, 426], [460, 408], [470, 380]], 0.5);
}
