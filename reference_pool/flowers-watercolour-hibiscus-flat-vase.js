// Weak on purpose: three peach circles on straight pencil stems in a flat grey box of a vase,
// dead centre; each bloom one flat dab with a dot, no petals, no bleeding between them.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6efdf');
  brush.scaleBrushes(3);

  // Stems first, straight pencil lines fanning from the vase mouth.
  brush.set('HB', '#4a6a3a', 1);
  brush.line(300, 380, 200, 200);
  brush.line(300, 380, 300, 170);
  brush.line(300, 380, 400, 200);
  brush.noStroke();

  brush.wash('#8f9aa6', 220);
  brush.rect(240, 380, 120, 160);
  brush.noWash();

  for (const [x, y] of [[200, 200], [300, 170], [400, 200]]) {
    brush.fill('#f0a07c', 210);
    brush.fillBleed(0.03, 'out');
    brush.fillTexture(0.2, 0.4);
    brush.circle(x, y, 48);
  }
  brush.fill('#5f9a4a', 200);
  brush.fillBleed(0.03, 'out');
  brush.fillTexture(0.2, 0.3);
  brush.polygon([[255, 300], [225, 290], [245, 320]]);
  brush.polygon([[345, 300], [375, 290], [355, 320]]);
  brush.noFill();
  brush.set('marker', '#a02a3a', 1.6);
  for (const [x, y] of [[200, 200], [300, 170], [400, 200]]) brush.line(x - 2, y, x + 2, y);
}
