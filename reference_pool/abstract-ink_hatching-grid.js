// A five-by-five grid of squares in ink, each hatched at its own angle and density, so tone
// and direction drift across the sheet.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fbfaf6');
  brush.scaleBrushes(3);
  const cell = 96;
  const m = 60;
  for (let i = 0; i < 5; i++) {
    for (let j = 0; j < 5; j++) {
      const x = m + i * cell;
      const y = m + j * cell;
      // Density grows toward the lower right; the angle turns a little each step.
      const dist = map(i + j, 0, 8, 10, 3);
      brush.set('pen', '#18181f', 0.8);
      brush.hatchStyle('pen', '#18181f', 0.5);
      brush.hatch(dist, (i * 5 + j) * 0.2, { rand: 0.1 });
      brush.rect(x + 6, y + 6, cell - 12, cell - 12);
      if ((i + j) % 3 === 0) {
        brush.noStroke();
        brush.hatch(dist * 1.4, (i * 5 + j) * 0.2 + PI / 2, { rand: 0.1 });
        brush.rect(x + 6, y + 6, cell - 12, cell - 12);
      }
    }
  }
  brush.noHatch();
}
