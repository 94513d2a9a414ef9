// A sunset over a calm sea, built up in many thin watercolour glazes.
// Heavy on purpose: about fifty large textured fills, the way a painter lays glaze on glaze.

function band(y, h, wobble) {
  // A soft horizontal band with an uneven top and bottom edge.
  const pts = [];
  for (let x = -30; x <= 630; x += 30) pts.push([x, y + wobble * noise(x * 0.01, y * 0.02)]);
  for (let x = 630; x >= -30; x -= 30) pts.push([x, y + h + wobble * noise(x * 0.012, y * 0.03 + 5)]);
  return pts;
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f8f0e0');
  brush.scaleBrushes(3);
  brush.noStroke();

  // Sky glazes: warm at the horizon, cooling upward, each layer thin and textured.
  const sky = ['#f6c27a', '#f2a65e', '#ee8a5a', '#d9707a', '#a8688e', '#6e6a9c', '#4d5f92'];
  for (let layer = 0; layer < 4; layer++) {
    for (let i = 0; i < sky.length; i++) {
      const y = 330 - i * 48 - random(10, 30);
      brush.fill(sky[i], 60 + layer * 18);
      brush.fillBleed(0.25, 'out');
      brush.fillTexture(0.6, 0.4);
      brush.polygon(band(y, 90 + random(20), 30));
    }
  }

  // The sun, glazed three times so its edge glows.
  for (let i = 0; i < 3; i++) {
    brush.fill(i === 2 ? '#fff2c0' : '#fbd98a', 150);
    brush.fillBleed(0.3);
    brush.fillTexture(0.3, 0.5);
    brush.circle(300 + random(-3, 3), 318, 46 - i * 9);
  }

  // Sea: dark bands with reflected light glazed over them.
  const sea = ['#3f4f7c', '#4a5d86', '#55688c', '#6d6f8e'];
  for (let layer = 0; layer < 4; layer++) {
    for (let i = 0; i < sea.length; i++) {
      brush.fill(sea[i], 80 + layer * 22);
      brush.fillBleed(0.12, 'out');
      brush.fillTexture(0.55, 0.5);
      brush.polygon(band(340 + i * 65 + random(-8, 8), 80, 14));
    }
  }
  for (let i = 0; i < 6; i++) {
    brush.fill('#f5c27e', 110);
    brush.fillBleed(0.05);
    brush.fillTexture(0.4, 0.3);
    const y = 350 + i * 38;
    const w = 120 - i * 12 + random(-10, 10);
    brush.rect(300 - w / 2 + random(-6, 6), y, w, 6 + random(4));
  }
  brush.noFill();

  // A distant boat and a few pencil ripples.
  brush.set('2B', '#2a2438', 1.2);
  brush.line(170, 372, 208, 372);
  brush.line(188, 372, 188, 344);
  for (let i = 0; i < 10; i++) {
    const y = random(380, 590);
    const x = random(20, 520);
    brush.line(x, y, x + random(30, 80), y + random(-2, 2));
  }
}
