// Pastel strands drifting through a curved flow field: warm colours sweeping over cool ones.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#2b2d3a');
  brush.scaleBrushes(3);

  brush.field('curved');
  // Cool undercurrent first, then warm strands on top, then a few bright highlights.
  const layers = [
    [['#3f6f8f', '#4f8a9a', '#5d6f9f'], 70, 1.6],
    [['#e39a5b', '#e7c36a', '#d9644a', '#f0d7a0'], 60, 1.1],
    [['#f7efe0', '#ffd9a8'], 20, 0.6],
  ];
  for (const [palette, count, weight] of layers) {
    for (let i = 0; i < count; i++) {
      brush.set(random(['pastel', 'crayon']), random(palette), weight * random(0.7, 1.2));
      brush.flowLine(random(-80, 600), random(-40, 640), random(160, 420), random(-0.4, 0.4));
    }
  }
  brush.noField();
}
