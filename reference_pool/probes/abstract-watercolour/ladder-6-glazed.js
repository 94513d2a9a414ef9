// Reference: a large cool teal circle held by a warm rose one and a small gold one where all
// three cross, the triple overlap the darkest and the focal point, off-centre; each circle
// built from three glazes with darker bleeding rims, a lifted light left in the rose, a faint
// wet-in-wet ochre and teal blot behind, and a trail of small circles leading out to the upper
// right.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f5eedf');
  brush.scaleBrushes(3);
  brush.noStroke();

  // A short pencil tick off the page's edge: washes before the first stroke can be dropped.
  brush.set('HB', '#f5eedf', 0.5);
  brush.line(2, 2, 3, 3);
  brush.noStroke();

  // The ground: two pale, very wet blots that run into each other behind the group.
  brush.fill('#e8c680', 110);
  brush.fillBleed(0.45, 'out');
  brush.fillTexture(0.7, 0.2);
  brush.circle(210, 420, 210, 0.6);
  brush.fill('#a9d0c8', 90);
  brush.fillBleed(0.45, 'out');
  brush.fillTexture(0.7, 0.2);
  brush.circle(420, 220, 200, 0.6);

  // The three main circles, each glazed three times: a wide pale wash, a body, a smaller
  // darker heart offset away from the light (upper left).
  const main = [
    [370, 340, 150, ['#6db8b2', '#3a9290', '#1f6466']],
    [215, 235, 112, ['#e8a0ac', '#d46e84', '#a8445e']],
    [290, 425, 88, ['#f2cc70', '#e3aa38', '#c4861c']],
  ];
  for (let g = 0; g < 3; g++) {
    for (const [x, y, r, cs] of main) {
      brush.fill(cs[g], [170, 160, 150][g]);
      brush.fillBleed([0.22, 0.14, 0.1][g], 'out');
      brush.fillTexture(0.55, 0.65);
      const k = [1.0, 0.92, 0.7][g];
      brush.circle(x + g * 5 + random(-2, 2), y + g * 5 + random(-2, 2), r * k, 0.25);
    }
  }

  // A trail of small circles drifting to the upper right, getting smaller and paler.
  const trail = [
    [470, 150, 40, '#d7788a', 120],
    [535, 92, 24, '#e2b04a', 130],
    [568, 52, 12, '#3f9a98', 120],
    [120, 480, 26, '#3f9a98', 110],
  ];
  for (const [x, y, r, c, a] of trail) {
    brush.fill(c, a);
    brush.fillBleed(0.15, 'out');
    brush.fillTexture(0.5, 0.6);
    brush.circle(x, y, r, 0.3);
  }
  brush.noFill();

  // A lifted light in the rose circle, upper left, where the light falls.
  brush.wash('#f5eedf', 170);
  brush.circle(180, 200, 26);
  brush.noWash();
}
