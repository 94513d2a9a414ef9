// Rows of lavender running to a farmhouse under an apricot evening sky, in oil-pastel.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e6dccb');
  brush.scaleBrushes(3);

  // Sky bands.
  const sky = ['#f0b47a', '#f3c28e', '#f5d3a6', '#f2dfc0'];
  for (let i = 0; i < 14; i++) {
    brush.set('pastel', sky[floor(i / 4) % sky.length], 2.4);
    brush.line(-20, 20 + i * 15, 620, 24 + i * 15 + random(-5, 5));
  }
  // Far tree line and farmhouse.
  brush.noStroke();
  brush.mass('crayon', '#5f6b55', { precision: 0.5, strength: 0.8 });
  brush.polygon([[0, 245], [200, 232], [420, 240], [600, 228], [600, 262], [0, 262]]);
  brush.noMass();
  brush.mass('pastel', '#e9d8b4', { precision: 0.7, strength: 0.9 });
  brush.rect(380, 215, 50, 35);
  brush.noMass();
  brush.mass('pastel', '#a2563a', { precision: 0.7, strength: 0.9 });
  brush.polygon([[374, 217], [405, 196], [436, 217]]);
  brush.noMass();

  // Lavender rows converging on a vanishing point near the house.
  const vx = 400;
  const vy = 262;
  for (let i = -9; i <= 9; i++) {
    const ex = 300 + i * 70;
    brush.set('pastel', i % 2 === 0 ? '#7b5ea8' : '#8f6fba', 1.6);
    brush.line(vx + i * 4, vy, ex, 620);
    brush.set('crayon', '#5d7d4a', 0.7);
    brush.line(vx + i * 4 + 2, vy + 2, ex + 30, 620);
  }
  // Highlights on the front rows.
  for (let i = 0; i < 60; i++) {
    const y = random(420, 600);
    const x = random(0, 600);
    brush.set('pastel', '#b69ad6', 0.5);
    brush.line(x, y, x + random(-3, 3), y - random(6, 14));
  }
}
