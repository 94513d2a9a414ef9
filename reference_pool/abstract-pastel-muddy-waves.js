// Weak on purpose: a few wobbly pastel strokes in muddy browns and greys, hardly warm or cool, scattered over bare paper.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#d4cdc2');
  brush.scaleBrushes(3);
  const cols = ['#8a7a6a', '#7a7a80', '#9a7060', '#6a6a70', '#a08a70'];
  for (let i = 0; i < 5; i++) {
    const y = 120 + i * 85;
    brush.set('pastel', cols[i], 2.2);
    brush.spline([[40, y], [200, y - 30], [380, y + 25], [560, y - 10]], 0.5);
  }
  brush.set('crayon', '#b07048', 1.2);
  brush.line(100, 480, 500, 470);
}
