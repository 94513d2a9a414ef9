// A summer meadow of red poppies and blue cornflowers seen from low down, running back to a pale
// line of hills under a wet blue sky: the nearest poppies large, laid on reserved paper and cut
// by the bottom edge, the far ones only dabs of red, grasses drawn in pencil over the wet green.

function poppy(x, y, r, tone) {
  // Paper reserved under the flower first, so the red is laid on white, not on the wet green.
  brush.noStroke();
  brush.wash('#f7f1e3', 255);
  brush.circle(x, y, r * 0.8);
  brush.noWash();
  brush.fill(tone, 245);
  brush.fillBleed(0.15, 'out');
  brush.fillTexture(0.5, 0.45);
  brush.beginShape(0.8);
  for (let i = 0; i < 9; i++) {
    const a = (i / 9) * TWO_PI;
    const rr = r * (0.85 + 0.2 * sin(i * 2.3) + random(-0.05, 0.05));
    brush.vertex(x + cos(a) * rr, y + sin(a) * rr * 0.8);
  }
  brush.endShape(true);
  brush.fill('#2e1a22', 220);
  brush.fillBleed(0.1, 'out');
  brush.fillTexture(0.4, 0.4);
  brush.circle(x + r * 0.1, y - r * 0.05, r * 0.22, 0.6);
  brush.noFill();
}

function bigPoppy(x, y, r, tone) {
  // A near poppy: four cupped petals, each its own wash, so they deepen where they overlap.
  brush.noStroke();
  brush.wash('#f7f1e3', 255);
  brush.circle(x, y, r * 0.85);
  brush.noWash();
  for (let k = 0; k < 4; k++) {
    const a = -HALF_PI + (k - 1.5) * 0.9;
    const px = x + cos(a) * r * 0.35;
    const py = y + sin(a) * r * 0.3;
    brush.fill(tone, 230);
    brush.fillBleed(0.15, 'out');
    brush.fillTexture(0.5, 0.45);
    brush.circle(px, py + r * 0.1, r * 0.62, 0.7);
  }
  brush.fill('#2e1a22', 225);
  brush.fillBleed(0.1, 'out');
  brush.fillTexture(0.4, 0.4);
  brush.circle(x, y + r * 0.05, r * 0.2, 0.6);
  brush.noFill();
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f7f1e3');
  brush.scaleBrushes(3);

  // Sky: a wet blue wash, paler toward the hills, white paper left for two clouds.
  brush.noStroke();
  brush.fill('#8fb2d4', 170);
  brush.fillBleed(0.3, 'out');
  brush.fillTexture(0.6, 0.3);
  brush.polygon([[-10, -10], [610, -10], [610, 170], [470, 120], [400, 150], [260, 120], [180, 160], [-10, 140]]);
  brush.fill('#b9cde0', 140);
  brush.fillBleed(0.3, 'out');
  brush.fillTexture(0.6, 0.3);
  brush.polygon([[-10, 130], [180, 150], [260, 170], [420, 150], [610, 160], [610, 240], [-10, 240]]);
  // Far hills.
  brush.fill('#9aa6b8', 170);
  brush.fillBleed(0.15, 'out');
  brush.fillTexture(0.5, 0.3);
  brush.polygon([[-10, 250], [80, 225], [190, 232], [300, 212], [430, 230], [530, 218], [610, 232], [610, 262], [-10, 262]]);
  // The field: yellow-green behind, deeper and wetter toward us.
  brush.fill('#c3cf7a', 180);
  brush.fillBleed(0.2, 'out');
  brush.fillTexture(0.5, 0.35);
  brush.polygon([[-10, 255], [610, 255], [610, 360], [-10, 380]]);
  brush.fill('#7fa452', 185);
  brush.fillBleed(0.25, 'out');
  brush.fillTexture(0.55, 0.45);
  brush.polygon([[-10, 360], [200, 345], [420, 352], [610, 340], [610, 610], [-10, 610]]);
  brush.fill('#5b8440', 150);
  brush.fillBleed(0.3, 'out');
  brush.fillTexture(0.6, 0.45);
  brush.polygon([[-10, 470], [300, 450], [610, 480], [610, 610], [-10, 610]]);

  // Far poppies and cornflowers: dabs, smaller and denser toward the hills.
  for (let i = 0; i < 70; i++) {
    const y = 262 + pow(random(), 1.6) * 120;
    const x = random(0, 600);
    const s = map(y, 262, 382, 1.5, 5);
    brush.set('marker', random() < 0.78 ? '#d8392e' : '#4d6fc0', s * 0.45);
    brush.line(x, y, x + s, y + random(-1, 1));
  }
  // Middle distance: poppies on thin stems.
  for (let i = 0; i < 9; i++) {
    const x = 30 + i * 64 + random(-20, 20);
    const y = 390 + random(-15, 25);
    brush.set('HB', '#4f7a36', 1);
    brush.line(x, y + 8, x + random(-4, 4), y + 45);
    brush.noStroke();
    poppy(x, y, 11 + random(-2, 3), '#dd3f33');
  }
  // Cornflowers: ragged blue stars.
  for (const [x, y, r] of [[120, 470, 14], [380, 455, 12], [520, 500, 16], [250, 520, 15]]) {
    brush.set('HB', '#4f7a36', 1.1);
    brush.line(x, y + r, x + 5, y + 90);
    brush.set('marker', '#3f5fb8', 1.1);
    for (let k = 0; k < 10; k++) {
      const a = (k * TWO_PI) / 10;
      brush.line(x, y, x + cos(a) * r, y + sin(a) * r * 0.8);
    }
  }
  brush.noStroke();
  // The nearest poppies, large, one cut by the bottom edge, one half open bud.
  brush.set('HB', '#45702f', 1.6);
  brush.spline([[200, 610], [190, 560], [175, 505]], 0.5);
  brush.spline([[430, 610], [445, 540], [455, 470]], 0.5);
  brush.spline([[330, 610], [320, 570], [335, 540]], 0.5);
  brush.noStroke();
  bigPoppy(175, 500, 44, '#d9352b');
  bigPoppy(455, 465, 36, '#e24a3a');
  bigPoppy(80, 580, 48, '#d23428');
  brush.fill('#6d8f4e', 200);
  brush.fillBleed(0.1, 'out');
  brush.fillTexture(0.5, 0.4);
  brush.polygon([[325, 545], [335, 515], [347, 540], [338, 556]]);
  brush.fill('#d9352b', 210);
  brush.fillBleed(0.1, 'out');
  brush.fillTexture(0.5, 0.4);
  brush.polygon([[332, 520], [336, 510], [342, 526]]);
  brush.noFill();

  // Grasses over the wet green, leaning with the wind.
  for (let i = 0; i < 40; i++) {
    const x = random(-10, 610);
    const y = random(430, 610);
    const h = random(30, 90);
    brush.set('HB', random() < 0.5 ? '#3f6a2c' : '#6f9a48', random(0.8, 1.3));
    brush.spline([[x, y], [x + h * 0.1, y - h * 0.5], [x + h * 0.3, y - h]], 0.5);
  }
}
