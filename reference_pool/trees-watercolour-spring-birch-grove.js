// A birch grove in early spring: wet-in-wet greens behind pale trunks (masked out in
// paper-coloured wash), loose leaf dabs, thin branches, a sunlit meadow.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6f1e2');
  brush.scaleBrushes(3);
  brush.noStroke();

  // Wet-in-wet background: the far wood as a band of lemon green with a ragged top, and a
  // deeper band of understory below it; the sky is the bare paper.
  const far = [[-20, 380]];
  for (let x = -20; x <= 620; x += 40) far.push([x, 250 - 70 * noise(x * 0.012, 3)]);
  far.push([620, 380]);
  brush.fill('#cfe08e', 170);
  brush.fillBleed(0.25, 'out');
  brush.fillTexture(0.6, 0.3);
  brush.polygon(far);
  const under = [[-20, 440]];
  for (let x = -20; x <= 620; x += 40) under.push([x, 360 - 50 * noise(x * 0.02, 9)]);
  under.push([620, 440]);
  brush.fill('#8fb75a', 150);
  brush.fillBleed(0.2, 'out');
  brush.fillTexture(0.6, 0.4);
  brush.polygon(under);
  // Meadow: fresh green, darker in the near corner.
  brush.fill('#a3c75e', 190);
  brush.fillBleed(0.15, 'out');
  brush.fillTexture(0.55, 0.3);
  brush.polygon([[-20, 420], [200, 408], [420, 416], [620, 404], [620, 620], [-20, 620]]);
  brush.fill('#5f8f3a', 150);
  brush.fillBleed(0.12, 'out');
  brush.fillTexture(0.6, 0.4);
  brush.polygon([[-20, 540], [150, 525], [230, 620], [-20, 620]]);
  // Soft blue-green shadows cast to the right from the trunk bases.
  brush.fill('#6f8f6a', 120);
  brush.fillBleed(0.15, 'out');
  brush.fillTexture(0.5, 0.3);
  for (const [x, w, base] of [[118, 30, 610], [228, 15, 520], [372, 11, 470], [480, 20, 540]]) {
    brush.polygon([[x - w, base - 6], [x + w * 5, base - 14], [x + w * 6, base + 2], [x - w, base + 8]]);
  }
  brush.noFill();

  // Distant trunks: faint grey strokes half lost in the greens.
  brush.set('marker', '#c2beb0', 0.8);
  for (const x of [30, 180, 270, 300, 410, 560, 590]) {
    brush.line(x, 425, x + random(-6, 6), -5);
  }
  // Foliage of the far trees: clusters of soft dabs.
  const greens = ['#a6c84a', '#7fae3e', '#c8dc6a', '#5a8f34', '#b8d36a', '#8dbb45'];
  const clusters = [[60, 60, 80], [250, 40, 70], [420, 120, 90], [560, 60, 70], [170, 220, 70],
                    [330, 250, 60], [520, 300, 60], [40, 300, 60]];
  for (const [cx, cy, r] of clusters) {
    // One brush per colour, a few dabs each (changing brushes per dab is slow).
    for (const g of greens) {
      brush.set('marker', g, random(1.2, 2.2));
      for (let i = 0; i < 4; i++) {
        const a = random(TWO_PI);
        const d = r * sqrt(random());
        const x = cx + cos(a) * d;
        const y = cy + sin(a) * d * 0.7;
        const ang = random(-0.5, 0.5) + (random() < 0.5 ? 0.9 : 2.2);
        const l = random(4, 13);
        brush.line(x, y, x + cos(ang) * l, y + sin(ang) * l);
      }
    }
  }

  // The near trunks (x at ground, half width, lean at the top, ground line), masked out of
  // the greens with paper-coloured wash, washes sit above fills, then a cool shadow side.
  const trunks = [[118, 30, -14, 610], [228, 15, 8, 520], [372, 11, -5, 470], [480, 20, 12, 540]];
  const at = (x, w, lean, base, y, side) => x + side * w * (0.75 + 0.25 * (y / base)) + lean * (1 - y / base);
  brush.noStroke();
  for (const [x, w, lean, base] of trunks) {
    brush.wash('#f7f2e4', 250);
    brush.polygon([[at(x, w, lean, base, base, -1), base], [at(x, w, lean, base, base, 1), base],
                   [at(x, w, lean, base, -10, 1), -10], [at(x, w, lean, base, -10, -1), -10]]);
    brush.wash('#b7bac6', 70);
    brush.polygon([[at(x, w, lean, base, base, 0.05), base], [at(x, w, lean, base, base, 1), base],
                   [at(x, w, lean, base, -10, 1), -10], [at(x, w, lean, base, -10, 0.1), -10]]);
    brush.wash('#9ea3b6', 80);
    brush.polygon([[at(x, w, lean, base, base, 0.6), base], [at(x, w, lean, base, base, 1), base],
                   [at(x, w, lean, base, -10, 1), -10], [at(x, w, lean, base, -10, 0.6), -10]]);
  }
  brush.noWash();

  // Birch markings: irregular dark dashes, denser and heavier near the base; pencil edges.
  for (const [x, w, lean, base] of trunks) {
    let y = random(5, 30);
    while (y < base - 6) {
      const l = at(x, w, lean, base, y, -1);
      const r = at(x, w, lean, base, y, 1);
      const from = random() < 0.6 ? l : l + random(0.2, 0.6) * (r - l);
      const len = random(0.15, 0.55) * (r - l);
      const low = y > base * 0.75;
      if (random() < 0.5) brush.set('charcoal', '#221e1a', random(0.7, 1.1) * (low ? 1.3 : 1));
      else brush.set('marker', '#2a2520', random(1, 1.6) * min(1.4, w / 16) * (low ? 1.3 : 1));
      brush.line(from, y, from + len, y + random(-2, 3));
      y += random(16, 46) * (low ? 0.5 : 1);
    }
    brush.set('HB', '#6a675e', 0.6);
    brush.line(at(x, w, lean, base, base, -1), base, at(x, w, lean, base, -10, -1), -10);
  }

  // Thin branches reaching up and out into the leaves.
  for (const [x, w, lean, base] of trunks) {
    for (let k = 0; k < 3; k++) {
      const y = random(40, 220);
      const side = k % 2 ? 1 : -1;
      const sx = at(x, w, lean, base, y, side);
      brush.set('HB', '#3b342c', random(0.7, 1.1));
      brush.spline([[sx, y], [sx + side * random(20, 40), y - random(10, 30)], [sx + side * random(50, 90), y - random(30, 70)]], 0.6);
    }
  }

  // New leaves in front of the trunks.
  for (let i = 0; i < 26; i++) {
    const [cx, cy, r] = random(clusters);
    brush.set('marker', random(greens), random(1.2, 2.2));
    const x = cx + random(-r, r);
    const y = cy + random(-r, r) * 0.6;
    brush.line(x, y, x + random(-5, 5), y + random(3, 7));
  }
  // Grass strokes in one vector field (setting a field is slow, so only once): tufts that
  // hide the trunk bases, then the meadow.
  brush.field('waves');
  for (const [x, w, lean, base] of trunks) {
    for (let i = 0; i < 6; i++) {
      brush.set('marker', i % 2 ? '#4f7f2e' : '#86b04e', 0.8);
      brush.flowLine(x + random(-w * 1.6, w * 1.6), base + random(-4, 10), random(12, 26), -HALF_PI);
    }
  }
  for (let i = 0; i < 24; i++) {
    brush.set('marker', i % 2 ? '#4f7f2e' : '#7da84a', 0.7);
    brush.flowLine(random(0, 600), random(440, 595), random(10, 24), -HALF_PI);
  }
  brush.noField();
  // A scatter of pale flowers.
  for (let i = 0; i < 16; i++) {
    brush.set('marker', i % 3 ? '#faf6e4' : '#ead65e', 1.1);
    const x = random(0, 600);
    const y = random(440, 595);
    brush.line(x, y, x + 2, y + 1);
  }
}
