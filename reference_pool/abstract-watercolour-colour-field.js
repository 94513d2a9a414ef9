// A colour-field abstraction: three soft rectangles floating on a warm ground, each built from
// a dozen thin, textured glazes so their edges breathe. Heavy on purpose (about fifty large
// textured fills).

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#efe3cf');
  brush.scaleBrushes(3);
  brush.noStroke();

  // The ground: several warm glazes across the whole sheet.
  for (let g = 0; g < 6; g++) {
    brush.fill(g % 2 ? '#d8a46a' : '#c9824e', 45);
    brush.fillBleed(0.35, 'out');
    brush.fillTexture(0.7, 0.3);
    brush.rect(-30 + random(-10, 10), -30 + random(-10, 10), 660, 660);
  }

  // Three fields, each a stack of glazes that drift slightly, so the edges stay soft.
  const fields = [
    [70, 60, 460, 170, ['#8c2f39', '#a33b3f', '#b8544a']],
    [70, 250, 460, 90, ['#e2a33b', '#eab24f', '#d98f2f']],
    [70, 360, 460, 190, ['#3d4a6b', '#485a80', '#2f3a57']],
  ];
  for (const [x, y, w, h, colours] of fields) {
    for (let g = 0; g < 13; g++) {
      brush.fill(colours[g % colours.length], 55 + g * 6);
      brush.fillBleed(0.2, 'out');
      brush.fillTexture(0.6, 0.5);
      brush.rect(x + random(-8, 8), y + random(-6, 6), w + random(-12, 12), h + random(-8, 8));
    }
  }
  brush.noFill();
}
