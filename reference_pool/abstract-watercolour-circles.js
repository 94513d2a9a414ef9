// Overlapping translucent discs and bars in watercolour, a quiet homage to Bauhaus colour
// studies. Heavy: eight bleeding, textured fills.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f5efe1');
  brush.scaleBrushes(3);
  brush.noStroke();

  // A flat ochre ground band (washes before textured fills).
  brush.wash('#e8c98a', 160);
  brush.rect(0, 380, 600, 220);
  brush.noWash();

  const discs = [
    [220, 240, 130, '#d9483b'],
    [380, 300, 110, '#2f6fa8'],
    [300, 430, 90, '#e9b533'],
    [140, 420, 60, '#3f8a5a'],
    [460, 150, 55, '#7a3f86'],
  ];
  for (const [x, y, r, c] of discs) {
    brush.fill(c, 150);
    brush.fillBleed(0.2, 'out');
    brush.fillTexture(0.55, 0.55);
    brush.circle(x, y, r, 0.3);
  }
  // Two crossing bars.
  brush.fill('#1f2a44', 150);
  brush.fillBleed(0.1, 'out', 0);
  brush.fillTexture(0.5, 0.6);
  brush.polygon([[60, 110], [540, 70], [545, 95], [65, 135]]);
  brush.fill('#8a2f2a', 140);
  brush.fillBleed(0.1, 'out', PI / 2);
  brush.polygon([[470, 60], [500, 60], [470, 560], [440, 560]]);
  brush.noFill();

  // Fine pencil rings echo the discs.
  brush.set('HB', '#2a2a2a', 0.8);
  for (const [x, y, r] of discs) {
    brush.circle(x + random(-8, 8), y + random(-8, 8), r * 1.05);
  }
}
