// A field of red poppies in soft pastel on warm grey paper.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#d9d2c4');
  brush.scaleBrushes(3);

  // Sky: broad pastel strokes, pale blue to cream toward the horizon.
  for (let y = 20; y < 230; y += 14) {
    const c = lerpColor(color('#9fb7cf'), color('#efe3c8'), y / 230);
    brush.set('pastel', c, 2.2);
    brush.line(-20, y + random(-4, 4), 620, y + random(-4, 4));
  }
  // Distant hills.
  brush.noStroke();
  brush.mass('pastel', '#8a9a78', { precision: 0.5, strength: 0.7 });
  brush.polygon([[0, 250], [120, 215], [260, 235], [420, 205], [600, 240], [600, 275], [0, 275]]);
  brush.noMass();
  // Meadow grass: dense crayon flicks, darker toward the front.
  for (let i = 0; i < 260; i++) {
    const y = random(260, 600);
    const x = random(-10, 610);
    const shade = map(y, 260, 600, 0, 1);
    brush.set(random(['crayon', 'pastel']), lerpColor(color('#a7b66a'), color('#3f6a35'), shade), random(0.6, 1.2));
    brush.line(x, y, x + random(-8, 8), y - random(12, 30) * (0.5 + shade));
  }
  // Poppies: smaller and paler in the distance, large in the front.
  const poppies = [];
  for (let i = 0; i < 40; i++) {
    const y = random(270, 590);
    poppies.push([random(20, 580), y, map(y, 270, 590, 6, 30)]);
  }
  poppies.sort((a, b) => a[1] - b[1]);
  for (const [x, y, s] of poppies) {
    brush.set('2B', '#4d6b3a', 0.8);
    brush.line(x, y, x + random(-6, 6), y + s * 2.5);
    // Each bloom is a knot of short, heavy pastel strokes crossing its centre.
    const red = random(['#d8342a', '#c82a22', '#e4503a']);
    for (let k = 0; k < 5; k++) {
      const a = random(PI);
      brush.set('pastel', red, s / 12);
      brush.line(x - cos(a) * s * 0.6, y - sin(a) * s * 0.45, x + cos(a) * s * 0.6, y + sin(a) * s * 0.45);
    }
    if (s > 10) {
      brush.set('charcoal', '#231c1a', 0.6);
      brush.circle(x + random(-2, 2), y + random(-2, 2), s * 0.22);
    }
  }
}
