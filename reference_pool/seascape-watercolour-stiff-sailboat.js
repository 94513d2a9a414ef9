// Weak on purpose: a sailboat in the middle of the sea, horizon dead centre, flat washes for
// sky and water, a stiff triangle sail and a sun stuck in the corner; a greyish, muddy blue.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f4efe3');
  brush.scaleBrushes(3);

  // The horizon in pencil first.
  brush.set('HB', '#444444', 0.8);
  brush.line(0, 300, 600, 300);
  brush.noStroke();

  brush.wash('#b3c6d3', 200);
  brush.rect(0, 0, 600, 300);
  brush.wash('#5f7f8f', 210);
  brush.rect(0, 300, 600, 300);
  brush.wash('#e7c65a', 230);
  brush.circle(520, 80, 40);
  // The boat: a brown hull and a white sail, side by side.
  brush.wash('#6b4a35', 230);
  brush.polygon([[230, 330], [370, 330], [350, 360], [250, 360]]);
  brush.wash('#f4efe3', 240);
  brush.polygon([[305, 320], [305, 170], [380, 320]]);
  brush.noWash();

  brush.set('HB', '#333333', 1);
  brush.line(300, 330, 300, 160);
  brush.set('marker', '#8fa8b5', 0.8);
  for (let i = 0; i < 6; i++) {
    const y = 390 + i * 35;
    brush.line(100 + i * 20, y, 200 + i * 20, y);
  }
}
