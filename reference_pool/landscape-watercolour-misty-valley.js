// A misty river valley: twelve ranges of hills fading into the distance, each range glazed
// several times, with a river catching the light. Heavy on purpose (dozens of textured fills).

function range(y0, amp, freq, shift) {
  const pts = [[-30, 640]];
  for (let x = -30; x <= 630; x += 15) {
    pts.push([x, y0 - amp * noise(x * freq + shift, shift) - amp * 0.4 * sin(x * 0.008 + shift)]);
  }
  pts.push([630, 640]);
  return pts;
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f4efe4');
  brush.scaleBrushes(3);
  brush.noStroke();

  // A pale sky laid first as a flat wash, then a textured glaze at the top.
  brush.wash('#e9e4d8', 200);
  brush.rect(-20, -20, 640, 260);
  brush.noWash();
  brush.fill('#b8c6d6', 110);
  brush.fillBleed(0.3, 'out', -PI / 2);
  brush.fillTexture(0.5, 0.3);
  brush.rect(-20, -20, 640, 150);

  // Twelve ranges, far (pale, blue) to near (dark, green), each glazed three times.
  const far = color('#b9c3d3');
  const near = color('#2f4b33');
  for (let i = 0; i < 12; i++) {
    const t = i / 11;
    const c = lerpColor(far, near, t);
    const y = 210 + i * 30;
    for (let g = 0; g < 3; g++) {
      brush.fill(c, 60 + g * 35);
      brush.fillBleed(0.1 + 0.1 * (1 - t), 'out');
      brush.fillTexture(0.4 + 0.3 * t, 0.4);
      brush.polygon(range(y + random(-4, 4), 40 + 30 * t, 0.004 + 0.006 * t, i * 13 + g));
    }
  }

  // The river winding forward, glazed light over the dark ranges.
  for (let g = 0; g < 3; g++) {
    brush.fill('#dfe6ea', 140);
    brush.fillBleed(0.08);
    brush.fillTexture(0.3, 0.5);
    brush.polygon([[285, 330], [300, 330], [330, 420], [300, 500], [380, 610], [250, 610],
                   [270, 500], [305, 420]]);
  }
  brush.noFill();

  // Pencil trees along the nearest ridge.
  brush.set('HB', '#1f2d20', 1);
  for (let i = 0; i < 18; i++) {
    const x = random(10, 590);
    const y = 540 + random(-20, 20);
    brush.line(x, y, x, y - random(18, 40));
    brush.line(x - 6, y - 12, x, y - 30);
    brush.line(x + 6, y - 12, x, y - 30);
  }
}
