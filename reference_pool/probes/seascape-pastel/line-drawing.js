// A clean pencil line drawing of the sea: a level horizon, a rocky headland outlined on the
// right, rows of wave crests growing toward the viewer, two gulls and the outline of a low
// cloud; lines only, no colour and no fills.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e2d8c8');
  brush.scaleBrushes(3);
  brush.noFill();
  brush.set('HB', '#3a3a3a', 1);
  const horizon = 230;
  brush.line(0, horizon, 600, horizon);
  // The headland.
  brush.spline([[380, horizon], [430, 190], [480, 170], [540, 160], [600, 150]], 0.5);
  brush.spline([[450, horizon], [470, 205], [500, 196]], 0.5);
  // A low cloud.
  brush.spline([[90, 120], [120, 96], [160, 104], [190, 84], [240, 100], [270, 120]], 0.6);
  brush.line(90, 120, 270, 120);
  // Gulls.
  for (const [x, y, s] of [[300, 70, 1], [350, 100, 0.7]]) {
    brush.spline([[x - 18 * s, y - 4 * s], [x - 8 * s, y - 8 * s], [x, y]], 0.5);
    brush.spline([[x, y], [x + 8 * s, y - 8 * s], [x + 18 * s, y - 4 * s]], 0.5);
  }
  // Wave crests: rows of arcs, longer and further apart toward the viewer.
  let y = horizon + 20;
  let gap = 18;
  while (y < 590) {
    const len = 30 + (y - horizon) * 0.35;
    let x = random(-len, 0);
    while (x < 600) {
      brush.spline([[x, y], [x + len * 0.5, y - len * 0.12], [x + len, y]], 0.5);
      x += len * random(1.2, 1.8);
    }
    y += gap;
    gap *= 1.2;
  }
  brush.noStroke();
}
