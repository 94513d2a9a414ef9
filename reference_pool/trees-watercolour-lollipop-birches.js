// Weak on purpose: three birch trees stood in a row like posts, pencil outlines and a few
// dashes, a round green blob on each, a flat green strip of ground; sparse and stiff.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6f1e4');
  brush.scaleBrushes(3);

  // Trunks first, in pencil, then marks.
  for (const x of [150, 300, 450]) {
    brush.set('HB', '#555555', 0.8);
    brush.line(x - 10, 480, x - 10, 200);
    brush.line(x + 10, 480, x + 10, 200);
    brush.set('marker', '#333333', 0.8);
    for (let y = 240; y < 470; y += 60) brush.line(x - 10, y, x + 2, y);
  }
  brush.noStroke();

  brush.wash('#8fbf5a', 200);
  brush.rect(0, 480, 600, 120);
  brush.noWash();

  for (const x of [150, 300, 450]) {
    brush.fill('#7fb04a', 200);
    brush.fillBleed(0.05, 'out');
    brush.fillTexture(0.3, 0.4);
    brush.circle(x, 170, 60);
  }
  brush.noFill();
}
