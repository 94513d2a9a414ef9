// A lighthouse on a rocky point, pen and ink: hatched rocks, striped tower, ruled sea.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fbfaf5');
  brush.scaleBrushes(3);
  const ink = '#16161e';

  // Sea: ruled horizontal lines, closer together toward the horizon.
  brush.set('pen', ink, 0.5);
  for (let k = 0; k < 24; k++) {
    const y = 330 + pow(k / 24, 1.6) * 270;
    const x0 = random(-20, 200);
    brush.line(x0, y, x0 + random(150, 420), y + random(-1, 1));
  }
  brush.set('pen', ink, 0.9);
  brush.line(0, 330, 600, 330);

  // Rocks: three overlapping masses, each hatched at its own angle, with cross-hatching on
  // the darkest.
  const rocks = [
    [[300, 340], [360, 300], [470, 290], [560, 330], [600, 360], [600, 430], [320, 430]],
    [[380, 430], [420, 380], [520, 370], [600, 400], [600, 470], [400, 470]],
    [[240, 350], [290, 320], [340, 345], [330, 380], [250, 380]],
  ];
  const angles = [PI / 5, -PI / 6, PI / 3];
  for (let i = 0; i < rocks.length; i++) {
    brush.set('pen', ink, 1);
    brush.hatchStyle('pen', ink, 0.5);
    brush.hatch(5, angles[i], { rand: 0.15 });
    brush.polygon(rocks[i]);
  }
  brush.noStroke();
  brush.hatch(5, -PI / 3, { rand: 0.15 });
  brush.polygon(rocks[1]);
  brush.noHatch();

  // Tower: tapered, with hatched bands.
  brush.set('pen', ink, 1.1);
  brush.polygon([[445, 300], [465, 120], [505, 120], [525, 300]]);
  brush.hatchStyle('pen', ink, 0.5);
  brush.hatch(3, PI / 2.4);
  for (const [y0, y1] of [[150, 180], [210, 240], [270, 300]]) {
    const w0 = map(y0, 120, 300, 20, 40);
    const w1 = map(y1, 120, 300, 20, 40);
    brush.polygon([[485 - w0, y0], [485 + w0, y0], [485 + w1, y1], [485 - w1, y1]]);
  }
  brush.noHatch();
  // Lantern room, roof, and the beam.
  brush.rect(470, 95, 30, 25);
  brush.polygon([[462, 95], [485, 70], [508, 95]]);
  brush.set('pen', ink, 0.5);
  brush.line(470, 105, 250, 60);
  brush.line(470, 110, 250, 150);
  // Gulls.
  brush.set('pen', ink, 0.7);
  for (let i = 0; i < 5; i++) {
    const x = random(80, 380);
    const y = random(160, 260);
    brush.spline([[x - 9, y - 2], [x - 4, y - 6], [x, y]], 0.7);
    brush.spline([[x, y], [x + 4, y - 6], [x + 9, y - 2]], 0.7);
  }
}
