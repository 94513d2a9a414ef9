// Rolling hills at dawn in layered watercolour: sky, three ranges of hills, a lane, trees.
// Heavy: a flat warm wash and five large textured fills.

function ridge(y0, amp, freq, seedShift) {
  // The top edge of a hill range closed down to the bottom of the canvas.
  const pts = [[-20, 620]];
  for (let x = -20; x <= 620; x += 20) {
    const y = y0 - amp * noise(x * freq + seedShift) - amp * 0.3 * sin(x * 0.01 + seedShift);
    pts.push([x, y]);
  }
  pts.push([620, 620]);
  return pts;
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f7f1e3');
  brush.scaleBrushes(3);
  brush.noStroke();

  // Sky: a flat warm wash low down (washes go before textured fills), then a cool,
  // textured wash high up that bleeds down into it.
  brush.wash('#f4cc9c', 170);
  brush.rect(-20, 150, 640, 200);
  brush.noWash();
  brush.fill('#8fb0d3', 150);
  brush.fillBleed(0.3, 'out', -PI / 2);
  brush.fillTexture(0.5, 0.3);
  brush.rect(-20, -20, 640, 190);

  // Far, middle and near hills, each warmer and darker than the last.
  brush.fill('#8d9cb8', 150);
  brush.fillBleed(0.15, 'out');
  brush.fillTexture(0.5, 0.5);
  brush.polygon(ridge(300, 90, 0.006, 10));
  brush.fill('#7f9f6a', 170);
  brush.fillBleed(0.12, 'out');
  brush.fillTexture(0.55, 0.5);
  brush.polygon(ridge(390, 80, 0.008, 40));
  brush.fill('#4f7a3c', 190);
  brush.fillBleed(0.1, 'out');
  brush.fillTexture(0.6, 0.6);
  brush.polygon(ridge(500, 70, 0.01, 90));

  // A lane winding back toward the middle hills.
  brush.fill('#d9b98a', 200);
  brush.fillBleed(0.05);
  brush.fillTexture(0.3, 0.4);
  brush.polygon([[250, 610], [330, 610], [322, 540], [300, 470], [318, 420], [308, 418], [286, 470], [290, 540]]);
  brush.noFill();

  // Trees on the middle ridge: dabs of charcoal.
  brush.set('charcoal', '#2d4a2a', 1.1);
  for (let i = 0; i < 7; i++) {
    const x = random(30, 570);
    const y = 440 + random(-20, 30);
    for (let k = 0; k < 5; k++) {
      brush.circle(x + random(-8, 8), y - random(4, 16), random(4, 9));
    }
    brush.line(x, y, x, y + 14);
  }
}
