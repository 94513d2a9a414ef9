// Ok: abstract bands of warm and cool pastel in gentle identical waves, cool above and warm below; pleasant but even and predictable.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e4dccf');
  brush.scaleBrushes(3);

  const pal = ['#4a5a9a', '#5a7ab0', '#7a7ab8', '#b87aa8', '#e0909a', '#eea878', '#f2c068', '#e87a4a'];
  for (let i = 0; i < pal.length; i++) {
    // The same wave for every band, stacked evenly.
    for (let k = 0; k < 3; k++) {
      const pts = [];
      for (let x = -40; x <= 640; x += 80) pts.push([x, 40 + i * 72 + k * 12 + 14 * sin(x * 0.015), 1.1]);
      brush.set(k === 1 ? 'crayon' : 'pastel', pal[i], k === 1 ? 1.3 : 2.8);
      brush.spline(pts, 0.6);
    }
  }
}
