// Ok on purpose: green hills and a path winding away under a pale morning sky, drawn
// correctly but plainly: a high, even horizon, an even sky, safe greens, little bleeding.

function ridgeLine(y0, amp, freq, shift) {
  const pts = [];
  for (let x = -20; x <= 620; x += 40) pts.push([x, y0 - amp * noise(x * freq + shift)]);
  return pts;
}

function band(top, bottom) {
  // One range: its own ridge line, then back along the next range's ridge pushed 45 px
  // down, so the closing edge lies under the nearer hill (and is cheaper than a full-depth fill).
  return top.concat(bottom.map(([x, y]) => [x, y + 45]).reverse());
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6f1e4');
  brush.scaleBrushes(3);

  // Pencil first: the far skyline.
  brush.set('HB', '#7a8a80', 0.5);
  brush.spline([[0, 205], [200, 190], [400, 200], [600, 188]], 0.5);
  brush.noStroke();

  // Sky: one even pale wash of blue.
  brush.fill('#a9c6de', 200);
  brush.fillBleed(0.1, 'out');
  brush.fillTexture(0.3, 0.2);
  brush.rect(-20, -20, 640, 215);

  // Three ranges of hills, far to near, each laid up to the next one's ridge.
  const far = ridgeLine(235, 45, 0.006, 5);
  const mid = ridgeLine(300, 55, 0.008, 30);
  const near = ridgeLine(400, 60, 0.01, 70);
  const foot = [[-20, 620], [620, 620]];
  brush.fill('#93b096', 210);
  brush.fillBleed(0.1, 'out');
  brush.fillTexture(0.2, 0.4);
  brush.polygon(band(far, mid));
  brush.fill('#86ad5c', 215);
  brush.fillBleed(0.1, 'out');
  brush.fillTexture(0.2, 0.4);
  brush.polygon(band(mid, near));
  brush.fill('#67984a', 220);
  brush.fillBleed(0.1, 'out');
  brush.fillTexture(0.3, 0.4);
  brush.polygon(band(near, foot));

  // The path, narrowing as it winds back over the hills.
  brush.fill('#c4a57a', 250);
  brush.fillBleed(0.05, 'out');
  brush.fillTexture(0.2, 0.3);
  // In three nearly convex pieces: p5.brush misfills a strongly concave polygon.
  brush.polygon([[170, 620], [340, 620], [305, 520], [262, 520]]);
  brush.polygon([[262, 522], [305, 522], [368, 430], [334, 430]]);
  brush.polygon([[334, 432], [368, 432], [338, 360], [356, 300], [338, 300], [312, 360]]);
  brush.noFill();

  // Hedges along the ridges and a few round trees.
  brush.set('marker', '#3f6a35', 0.9);
  brush.spline([[0, 350], [150, 338], [300, 345], [450, 335], [600, 342]], 0.5);
  brush.set('marker', '#56794a', 0.6);
  brush.spline([[0, 262], [200, 252], [400, 258], [600, 248]], 0.5);
  for (const [x, y] of [[90, 330], [470, 322], [520, 326], [230, 250]]) {
    brush.set('marker', '#355f2e', 2.2);
    brush.line(x, y - 8, x + 1, y - 4);
    brush.set('HB', '#3a3428', 0.7);
    brush.line(x, y - 4, x, y + 6);
  }
}
