// Crude on purpose: three triangle mountains in a row, each scrubbed with the same even grey
// hatching, a ruled ground line and an outlined sun; symbols with one tone, no light side.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#ebe8e1');
  brush.scaleBrushes(3);

  const peaks = [[[40, 420], [150, 250], [260, 420]], [[200, 420], [320, 210], [440, 420]], [[380, 420], [480, 270], [580, 420]]];
  brush.noStroke();
  brush.hatchStyle('charcoal', '#6a665f', 0.8);
  brush.hatch(8, 0.8, { rand: 0.2 });
  for (const tri of peaks) brush.polygon(tri);
  brush.noHatch();
  brush.set('charcoal', '#2c2a27', 1.1);
  for (const tri of peaks) brush.spline(tri, 0);
  brush.line(0, 420, 600, 420);
  brush.circle(480, 110, 35);
}
