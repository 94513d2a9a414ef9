// Weak: a stiff lopsided jug and three black scribbled blobs on straight sticks, muddy and flat.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#c4c0b8');
  brush.scaleBrushes(3);

  // Jug: a boxy outline.
  brush.set('charcoal', '#2a2826', 1.4);
  brush.polygon([[170, 360], [270, 360], [285, 520], [160, 520]]);
  brush.line(275, 390, 310, 400);
  brush.line(310, 400, 282, 470);

  // Sticks.
  brush.set('charcoal', '#2a2826', 1);
  brush.line(200, 360, 170, 200);
  brush.line(220, 360, 230, 170);
  brush.line(245, 360, 300, 220);

  // Poppies: tight black scribbles.
  brush.noStroke();
  for (const [x, y, r] of [[170, 200, 34], [230, 170, 38], [300, 220, 30]]) {
    brush.hatchStyle('charcoal', '#1e1c1a', 1.2);
    brush.hatch(3, random(0, PI), { rand: 0.5 });
    brush.circle(x, y, r);
    brush.noHatch();
  }
  // A muddy smear for the table.
  brush.hatchStyle('charcoal', '#5a5650', 0.9);
  brush.hatch(7, 0.05, { rand: 0.4 });
  brush.rect(60, 515, 360, 30);
  brush.noHatch();
}
