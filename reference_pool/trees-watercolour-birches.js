// A stand of silver birches in autumn, watercolour foliage behind pencil-drawn trunks.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f7f2e6');
  brush.scaleBrushes(3);
  brush.noStroke();

  // Ground as a flat wash.
  brush.wash('#c9b98a', 180);
  brush.polygon([[0, 470], [600, 455], [600, 600], [0, 600]]);
  brush.noWash();

  // Foliage: loose round blots of ochre, orange and rust.
  const blots = ['#e0a43a', '#d9782e', '#b8532a', '#e8c060'];
  for (let i = 0; i < 4; i++) {
    brush.fill(blots[i % blots.length], 150);
    brush.fillBleed(0.25, 'out');
    brush.fillTexture(0.5, 0.4);
    brush.circle(random(60, 540), random(80, 300), random(70, 110), 0.8);
  }
  brush.noFill();

  // Trunks: pale, outlined, with dark horizontal marks.
  const trunks = [[110, 14], [205, 10], [300, 18], [390, 9], [470, 13]];
  for (const [x, w] of trunks) {
    const lean = random(-12, 12);
    brush.set('HB', '#3a3530', 0.9);
    brush.line(x - w, 600, x - w + lean, 0);
    brush.line(x + w, 600, x + w + lean, 0);
    brush.set('charcoal', '#2a2622', 1.1);
    for (let y = 40; y < 560; y += random(45, 90)) {
      const off = (lean * (600 - y)) / 600;
      brush.line(x - w + off, y, x - w + off + random(w * 0.8, w * 1.6), y + random(-2, 2));
    }
  }
  // Fallen leaves.
  for (let i = 0; i < 60; i++) {
    brush.set('cpencil', random(blots), 0.6);
    const x = random(0, 600);
    const y = random(470, 590);
    brush.line(x, y, x + random(3, 7), y + random(-2, 2));
  }
}
