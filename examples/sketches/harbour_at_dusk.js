// a small harbour at dusk: a washed sky, dark water, two moored boats in ink
function setup() {
  createCanvas(600, 600, WEBGL);
  background('#efe4cf');
  translate(-width / 2, -height / 2);

  // Sky and water as flat washes: the dusk glow above, the darker harbour below.
  brush.noStroke();
  brush.wash('#e7b98c', 170);
  brush.rect(0, 0, 600, 330);
  brush.wash('#4f6a80', 190);
  brush.rect(0, 330, 600, 270);
  brush.noWash();

  // The far shore: a low watercolour band with a little bleed.
  brush.fill('#5b5a6e', 160);
  brush.fillBleed(0.1);
  brush.fillTexture(0.3, 0.2);
  brush.beginShape(0.4);
  brush.vertex(0, 340);
  brush.vertex(0, 300);
  brush.vertex(180, 285);
  brush.vertex(360, 305);
  brush.vertex(600, 290);
  brush.vertex(600, 340);
  brush.endShape(true);
  brush.noFill();

  // Two hulls and their masts, drawn with an ink pen.
  brush.set('pen', '#1d1b22', 1.4);
  for (const [x, y, w] of [[150, 420, 120], [360, 450, 150]]) {
    brush.spline([[x, y], [x + w * 0.15, y + 22], [x + w * 0.85, y + 22], [x + w, y]], 0.6);
    brush.line(x, y, x + w, y);
    brush.line(x + w * 0.5, y, x + w * 0.5, y - w * 0.9);
  }

  // Reflections: short horizontal strokes under each boat.
  brush.set('HB', '#2a3a4a', 1);
  for (let i = 0; i < 18; i++) {
    const x = random(130, 520);
    const y = random(470, 560);
    brush.line(x, y, x + random(20, 50), y);
  }
}
