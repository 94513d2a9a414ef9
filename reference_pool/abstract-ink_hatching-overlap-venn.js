// Ok: three overlapping circles and a triangle, each hatched at its own angle so the overlaps cross-hatch darker; clean but centred and symmetrical, one ink.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fbfaf6');
  brush.scaleBrushes(3);
  const ink = '#1c2230';
  const shapes = [
    [() => brush.circle(240, 250, 120), 4.5, 0.3],
    [() => brush.circle(360, 250, 120), 4.5, -0.6],
    [() => brush.circle(300, 355, 120), 4.5, 1.4],
    [() => brush.polygon([[300, 120], [470, 470], [130, 470]]), 6, 0.0],
  ];
  for (const [draw, d, a] of shapes) {
    brush.set('pen', ink, 0.9);
    brush.hatchStyle('pen', ink, 0.45);
    brush.hatch(d, a, { rand: 0.08 });
    draw();
    brush.noHatch();
  }
}
