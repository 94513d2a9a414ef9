// Crude: three identical triangle pines on box trunks in a row on a ruled ground line, each
// filled with the same 45-degree hatching; one angle, one spacing, no light.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fbfaf5');
  brush.scaleBrushes(3);
  brush.set('pen', '#161616', 0.6);
  brush.hatchStyle('pen', '#161616', 0.5);
  brush.hatch(6, QUARTER_PI, { rand: 0.05 });
  for (const x of [170, 300, 430]) {
    brush.polygon([[x, 250], [x + 55, 420], [x - 55, 420]]);
  }
  brush.noHatch();
  brush.noFill();
  for (const x of [170, 300, 430]) brush.rect(x - 8, 420, 16, 30);
  brush.line(80, 450, 520, 450);
  brush.noStroke();
}
