// A charcoal line drawing of a mountain range with a little tone: the contour of a jagged main
// range, a fainter range behind it, the valley floor with a winding river and a few pines, and
// two shadow faces lightly hatched.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#ebe8e1');
  brush.scaleBrushes(3);

  // Back range, a faint line.
  brush.set('charcoal', '#8a867f', 0.6);
  brush.spline([[0, 260], [70, 225], [130, 245], [200, 190], [250, 215], [330, 175], [420, 230], [500, 200], [600, 240]], 0.3);

  // Main range, a firm contour with sub-peaks.
  const ridge = [[0, 350], [60, 320], [110, 270], [150, 290], [215, 185], [250, 230], [285, 210], [340, 300], [400, 240],
    [440, 265], [500, 215], [560, 300], [600, 320]];
  // Two shadow faces, lightly hatched before the line goes over them.
  brush.noStroke();
  brush.hatchStyle('charcoal', '#57534d', 0.6);
  brush.hatch(7, 1.1, { rand: 0.3 });
  brush.polygon([[215, 185], [250, 230], [285, 210], [340, 300], [300, 370], [230, 330]]);
  brush.polygon([[500, 215], [560, 300], [600, 320], [600, 380], [520, 360]]);
  brush.noHatch();
  brush.set('charcoal', '#2c2a27', 1.1);
  brush.spline(ridge, 0.15);
  // A few ridge spurs running down.
  brush.set('charcoal', '#4a4742', 0.7);
  brush.spline([[215, 185], [205, 260], [170, 340]], 0.4);
  brush.spline([[400, 240], [395, 300], [370, 360]], 0.4);

  // Valley floor and the river.
  brush.set('charcoal', '#3a3733', 0.9);
  brush.spline([[0, 420], [150, 400], [320, 410], [600, 395]], 0.5);
  brush.spline([[260, 410], [300, 450], [240, 500], [320, 560], [300, 610]], 0.6);
  brush.spline([[280, 410], [330, 450], [275, 500], [360, 560], [350, 610]], 0.6);
  // Pines on the far bank: single ticks with short branches.
  for (let i = 0; i < 14; i++) {
    const x = 30 + i * 40 + random(-10, 10);
    if (x > 230 && x < 360) continue;
    const y = 405 + random(-4, 6);
    const h = random(22, 36);
    brush.set('charcoal', '#34312d', 0.7);
    brush.line(x, y, x, y - h);
    brush.line(x - h * 0.25, y - h * 0.3, x, y - h);
    brush.line(x + h * 0.25, y - h * 0.3, x, y - h);
  }
}
