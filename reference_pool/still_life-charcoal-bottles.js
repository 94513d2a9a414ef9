// Two bottles and a jug on a ledge, charcoal on grey paper: tone first, then contours.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#dcd9d2');
  brush.scaleBrushes(3);

  // Back wall, darker on the right.
  brush.noStroke();
  brush.mass('charcoal', '#6a6660', { precision: 0.5, strength: 0.5, gradient: 0.5 });
  brush.polygon([[330, 0], [600, 0], [600, 420], [330, 420]]);
  brush.noMass();

  // Tall bottle: a dark body with a bright stripe left bare.
  brush.mass('charcoal', '#1f1d1b', { precision: 0.45, strength: 0.9 });
  brush.polygon([[150, 200], [150, 420], [215, 420], [215, 200], [195, 170], [192, 110], [173, 110], [170, 170]]);
  // Short round bottle.
  brush.circle(300, 380, 42, 0.3);
  brush.rect(292, 300, 16, 45);
  brush.noMass();
  // Jug, mid-grey.
  brush.mass('charcoal', '#5a5650', { precision: 0.5, strength: 0.7 });
  brush.beginShape(0.6);
  brush.vertex(390, 260);
  brush.vertex(375, 330);
  brush.vertex(380, 420);
  brush.vertex(480, 420);
  brush.vertex(485, 330);
  brush.vertex(470, 260);
  brush.endShape(true);
  brush.noMass();

  // Contours.
  brush.set('charcoal', '#151412', 1);
  brush.line(150, 200, 150, 420);
  brush.line(215, 200, 215, 420);
  brush.spline([[150, 200], [170, 170], [173, 110]], 0.5);
  brush.spline([[215, 200], [195, 170], [192, 110]], 0.5);
  brush.spline([[470, 275], [510, 290], [500, 340], [482, 360]], 0.6);
  brush.spline([[390, 260], [430, 255], [470, 260]], 0.5);
  // Highlights are drawn in the paper's own colour over the charcoal.
  brush.set('pastel', '#eeebe4', 0.6);
  brush.line(165, 215, 165, 405);
  brush.line(286, 365, 290, 395);

  // Ledge edge and cast shadows.
  brush.set('charcoal', '#2a2826', 1.3);
  brush.line(0, 422, 600, 418);
  brush.noStroke();
  brush.hatchStyle('charcoal', '#3a3834', 0.6);
  brush.hatch(6, PI / 9, { rand: 0.2 });
  brush.polygon([[215, 425], [300, 425], [320, 450], [220, 450]]);
  brush.polygon([[480, 425], [580, 425], [590, 455], [470, 455]]);
  brush.noHatch();
}
