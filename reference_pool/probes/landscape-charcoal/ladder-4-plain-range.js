// Plain: a row of mountains across the middle of the page, a grey under-tone, every right-hand
// face hatched in the same even parallel strokes, a ruled valley floor with even horizontal
// hatching below, and bare sky; correct, but banded and shaded by rule.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#ebe8e1');
  brush.scaleBrushes(3);

  const ridge = [[0, 330], [80, 250], [150, 300], [240, 200], [330, 290], [410, 230], [500, 300], [560, 260], [600, 290]];
  brush.noStroke();
  brush.wash('#bdb9b1', 170);
  brush.polygon([...ridge, [600, 400], [0, 400]]);
  brush.noWash();
  // Shadow side of every peak, the same hatching each time.
  for (let i = 1; i < ridge.length - 1; i += 2) {
    const [px, py] = ridge[i];
    const [vx, vy] = ridge[i + 1];
    brush.hatchStyle('charcoal', '#45423d', 0.8);
    brush.hatch(6, 1.15, { rand: 0.2 });
    brush.polygon([[px, py], [vx, vy], [vx, 400], [px + (vx - px) * 0.3, 400]]);
    brush.noHatch();
  }
  brush.set('charcoal', '#2a2825', 1.2);
  brush.spline(ridge, 0);

  // Valley floor: an even band of level hatching.
  brush.line(0, 400, 600, 400);
  brush.noStroke();
  brush.hatchStyle('charcoal', '#77736c', 0.7);
  brush.hatch(9, 0.02, { rand: 0.3 });
  brush.polygon([[0, 400], [600, 400], [600, 600], [0, 600]]);
  brush.noHatch();
  // A row of small pines standing on the valley floor, evenly spaced.
  for (let i = 0; i < 12; i++) {
    const x = 25 + i * 50;
    brush.set('charcoal', '#34312d', 0.8);
    brush.line(x, 400, x, 368);
    brush.line(x - 8, 392, x, 368);
    brush.line(x + 8, 392, x, 368);
    brush.line(x - 6, 382, x + 6, 382);
  }
}
