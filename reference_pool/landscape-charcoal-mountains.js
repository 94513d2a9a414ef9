// An alpine range in charcoal: massed dark faces, snow left as bare paper, a valley mist.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#eeebe4');
  brush.scaleBrushes(3);

  // Back range: light, hatched lightly with a soft pencil.
  brush.noStroke();
  brush.hatchStyle('2B', '#7c7872', 0.7);
  brush.hatch(7, PI / 5, { rand: 0.2 });
  brush.polygon([[0, 300], [90, 210], [150, 250], [230, 170], [300, 230], [360, 160], [460, 240], [530, 200], [600, 260], [600, 330], [0, 330]]);
  brush.noHatch();

  // Main peak: shadow side massed in charcoal, sunlit side left bare.
  brush.mass('charcoal', '#25221f', { precision: 0.35, strength: 0.95, gradient: 0.3 });
  brush.polygon([[300, 110], [250, 200], [210, 260], [150, 350], [270, 360], [285, 260], [310, 180]]);
  brush.polygon([[470, 180], [440, 240], [400, 330], [470, 350], [480, 260]]);
  brush.noMass();
  brush.mass('charcoal', '#55504a', { precision: 0.45, strength: 0.6 });
  brush.polygon([[300, 110], [310, 180], [285, 260], [270, 360], [420, 360], [380, 260], [340, 180]]);
  brush.noMass();

  // Ridge lines.
  brush.set('charcoal', '#1e1c1a', 1.2);
  brush.spline([[40, 360], [150, 350], [210, 260], [300, 110], [380, 260], [470, 180], [560, 330]], 0.2);
  brush.set('charcoal', '#3a3632', 0.7);
  brush.spline([[300, 110], [310, 180], [285, 260], [270, 360]], 0.4);
  brush.spline([[470, 180], [480, 260], [470, 350]], 0.4);

  // Pine forest on the valley floor: vertical charcoal ticks.
  for (let i = 0; i < 90; i++) {
    const x = random(0, 600);
    const y = random(400, 470);
    brush.set('charcoal', '#1f1d1b', random(0.5, 0.9));
    brush.line(x, y, x + random(-1, 1), y - random(18, 40));
  }
  // Foreground: a dark rocky bank.
  brush.noStroke();
  brush.mass('charcoal', '#1a1816', { precision: 0.3, strength: 1, gradient: 0.4 });
  brush.polygon([[0, 520], [120, 490], [240, 530], [380, 500], [600, 540], [600, 600], [0, 600]]);
  brush.noMass();
}
