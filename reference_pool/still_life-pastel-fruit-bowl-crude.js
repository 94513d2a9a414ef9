// Weak on purpose: oranges and pomegranates as flat discs floating over a bowl outline, a red smear for the cloth.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#cfc8ba');
  brush.scaleBrushes(3);
  // Cloth: a few red strokes across the bottom.
  for (let i = 0; i < 5; i++) {
    brush.set('pastel', '#a84038', 2.2);
    brush.line(0, 430 + i * 30, 600, 440 + i * 30);
  }
  // Bowl: a bare outline, lopsided.
  brush.set('crayon', '#6a5a4a', 1.2);
  brush.line(170, 380, 430, 372);
  brush.line(170, 380, 250, 450);
  brush.line(250, 450, 360, 452);
  brush.line(360, 452, 430, 372);
  // Fruit: flat discs, no light or shadow.
  brush.noStroke();
  for (const [x, y, c] of [[230, 340, '#d88a3a'], [300, 330, '#9a3040'], [370, 345, '#d88a3a'], [470, 430, '#9a3040']]) {
    brush.hatchStyle('crayon', c, 1.4);
    brush.hatch(5, 0.5);
    brush.circle(x, y, 34);
    brush.noHatch();
  }
}
