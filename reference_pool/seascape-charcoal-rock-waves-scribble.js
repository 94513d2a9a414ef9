// Weak: a few wavy lines and one black rock blob, sparse and stiff, most of the page left empty.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e9e6df');
  brush.scaleBrushes(3);

  for (let i = 0; i < 4; i++) {
    const y = 300 + i * 40;
    brush.set('charcoal', '#3a3733', 1);
    brush.spline([[60, y], [160, y - 20], [260, y], [360, y - 20], [460, y], [540, y - 20]], 0.5);
  }
  brush.noStroke();
  brush.hatchStyle('charcoal', '#1e1c1a', 1.2);
  brush.hatch(3, 0.4, { rand: 0.4 });
  brush.polygon([[380, 460], [420, 400], [480, 390], [520, 460]]);
  brush.noHatch();
  brush.set('charcoal', '#55514c', 0.8);
  brush.line(450, 380, 440, 330);
  brush.line(470, 380, 490, 335);
}
