// A clean line drawing of a mountain landscape in thin charcoal: the contour of a jagged main
// range with its ridge spurs and snow line, a fainter range showing behind it, a lake along the
// valley floor and three pines on the near shore; lines only, no hatching and no fills.

const MAIN = [[-10, 365], [50, 330], [95, 285], [130, 300], [190, 200], [215, 225], [250, 150], [300, 250], [335, 235],
  [395, 300], [440, 235], [470, 258], [520, 205], [575, 300], [610, 318]];
const BACK = [[-10, 280], [60, 240], [110, 255], [170, 205], [220, 230], [300, 190], [360, 222], [440, 196], [520, 232], [610, 212]];

// The height of a polyline at x (straight segments between its points).
function yAt(pts, x) {
  for (let i = 1; i < pts.length; i++) {
    if (x <= pts[i][0]) {
      const t = (x - pts[i - 1][0]) / (pts[i][0] - pts[i - 1][0]);
      return pts[i - 1][1] + t * (pts[i][1] - pts[i - 1][1]);
    }
  }
  return pts[pts.length - 1][1];
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#ece9e2');
  brush.scaleBrushes(3);

  // Back range, the faintest line, drawn only where it shows above the main range.
  brush.set('charcoal', '#9a968f', 0.5);
  let run = [];
  for (let x = -10; x <= 610; x += 5) {
    const y = yAt(BACK, x);
    if (y < yAt(MAIN, x) - 4) {
      run.push([x, y]);
    } else {
      if (run.length > 1) brush.spline(run, 0);
      run = [];
    }
  }
  if (run.length > 1) brush.spline(run, 0);

  // Main range: one firm contour.
  brush.set('charcoal', '#2a2825', 0.8);
  brush.spline(MAIN, 0);
  // Ridge spurs falling from each summit.
  brush.set('charcoal', '#4a4742', 0.6);
  brush.spline([[250, 150], [262, 220], [250, 290], [225, 370]], 0.4);
  brush.spline([[190, 200], [180, 260], [150, 340]], 0.4);
  brush.spline([[440, 235], [448, 300], [430, 370]], 0.4);
  brush.spline([[520, 205], [530, 280], [515, 360]], 0.4);
  // The snow line: a broken contour under the highest summits.
  brush.set('charcoal', '#6a665f', 0.5);
  brush.spline([[205, 245], [222, 262], [240, 250], [258, 270]], 0.5);
  brush.spline([[455, 280], [470, 296], [490, 288], [512, 300]], 0.5);

  // The valley floor and the lake, with a few level strokes for the water.
  brush.set('charcoal', '#3a3733', 0.7);
  brush.spline([[0, 405], [140, 395], [300, 400], [460, 392], [600, 398]], 0.4);
  brush.spline([[40, 440], [180, 430], [330, 438], [480, 428], [600, 434]], 0.4);
  brush.set('charcoal', '#6a665f', 0.5);
  brush.line(150, 412, 230, 413);
  brush.line(330, 418, 420, 417);
  brush.line(250, 425, 300, 425);

  // Near shore and three pines in outline: tiers of branches down a trunk.
  brush.set('charcoal', '#2a2825', 0.8);
  brush.spline([[0, 520], [150, 505], [320, 530], [600, 515]], 0.4);
  for (const [x, y, h] of [[70, 512, 130], [112, 508, 95], [520, 516, 105]]) {
    brush.set('charcoal', '#2a2825', 0.6);
    brush.line(x, y, x, y - h * 0.2);
    const side = [[x, y - h]];
    for (let k = 1; k <= 5; k++) {
      const yy = y - h + (k / 5) * h * 0.8;
      const w = (k / 5) * h * 0.22;
      side.push([x + w, yy]);
      if (k < 5) side.push([x + w * 0.35, yy - h * 0.03]);
    }
    side.push([x, y - h * 0.2]);
    brush.spline(side, 0);
    brush.spline(side.map(([sx, sy]) => [2 * x - sx, sy]), 0);
  }
}
