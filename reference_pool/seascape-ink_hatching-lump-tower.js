// Weak on purpose: a stubby lighthouse on a round lump of cliff, one even hatching, the sea reduced to a few ruled lines.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fdfcf8');
  brush.scaleBrushes(3);
  brush.set('pen', '#2a2a2a', 1);
  // Sea.
  brush.line(0, 400, 600, 400);
  for (const y of [440, 490, 550]) brush.line(40, y, 560, y);
  // Cliff: a half-round lump.
  brush.hatchStyle('pen', '#2a2a2a', 0.6);
  brush.hatch(7, PI / 4);
  brush.beginShape(0.9);
  brush.vertex(180, 400);
  brush.vertex(210, 330);
  brush.vertex(300, 305);
  brush.vertex(390, 330);
  brush.vertex(420, 400);
  brush.endShape(true);
  brush.noHatch();
  // Tower with a triangle cap and a square lamp.
  brush.rect(285, 215, 30, 95);
  brush.rect(288, 195, 24, 20);
  brush.polygon([[282, 195], [300, 175], [318, 195]]);
  brush.line(300, 205, 220, 170);
  brush.line(300, 205, 380, 170);
}
