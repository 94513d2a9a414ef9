// Three sunflowers drawn in charcoal: heavy seed heads, loose petals, one drooping.

function sunflower(cx, cy, r, tilt) {
  // Petals first, as quick outward strokes, so the seed head sits on top of them.
  brush.set('charcoal', '#3a3530', 0.9);
  const n = 18;
  for (let i = 0; i < n; i++) {
    const a = (i / n) * TWO_PI + random(-0.08, 0.08);
    const r0 = r * 0.9;
    const r1 = r * random(1.9, 2.3);
    brush.spline([
      [cx + cos(a) * r0, cy + sin(a) * r0 * tilt],
      [cx + cos(a + 0.12) * (r0 + r1) / 2, cy + sin(a + 0.12) * ((r0 + r1) / 2) * tilt],
      [cx + cos(a) * r1, cy + sin(a) * r1 * tilt],
    ], 0.6);
  }
  // Seed head: charcoal massing gives the dense, smudged black.
  brush.noStroke();
  brush.mass('charcoal', '#1e1b18', { precision: 0.4, strength: 0.9, gradient: 0.2 });
  brush.beginShape(0.8);
  for (let i = 0; i < 10; i++) {
    const a = (i / 10) * TWO_PI;
    brush.vertex(cx + cos(a) * r, cy + sin(a) * r * tilt);
  }
  brush.endShape(true);
  brush.noMass();
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#ece8df');
  brush.scaleBrushes(3);

  // Stems and leaves before the heads.
  brush.set('charcoal', '#4a4540', 1.3);
  brush.spline([[190, 210], [205, 380], [230, 600]], 0.5);
  brush.spline([[400, 170], [380, 360], [360, 600]], 0.5);
  brush.spline([[300, 330], [320, 450], [300, 600]], 0.5);
  brush.set('2B', '#4a4540', 1.1);
  for (const [x, y, d] of [[205, 400, -1], [380, 330, 1], [318, 470, 1], [215, 520, -1]]) {
    brush.spline([[x, y], [x + d * 50, y - 30], [x + d * 95, y - 10]], 0.7);
    brush.spline([[x, y], [x + d * 45, y + 12], [x + d * 95, y - 10]], 0.7);
  }

  sunflower(190, 200, 42, 1);
  sunflower(400, 160, 36, 0.85);
  sunflower(300, 330, 28, 0.55);

  // A loose ground line to seat the stems.
  brush.set('charcoal', '#6a645c', 1);
  brush.line(40, 575, 560, 570);
}
