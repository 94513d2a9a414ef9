// Ok: a lighthouse on a grassy clifftop at the left above a calm sea by day, black ink; everything is in place and neatly hatched, but the sea is plain ruling and the sky is empty.

const INK = '#202020';

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fcfbf7');
  brush.scaleBrushes(3);
  const horizon = 300;

  // Cliff outline: a flat grassy top and a steep face; the face's x at any height.
  const cliff = [[0, 262], [120, 258], [230, 266], [262, 300], [280, 360], [272, 420], [300, 480], [296, 600], [0, 600]];
  const faceX = (y) => {
    for (let i = 3; i < 8; i++) {
      const [x0, y0] = cliff[i - 1];
      const [x1, y1] = cliff[i];
      if (y >= y0 && y <= y1) return lerp(x0, x1, (y - y0) / (y1 - y0));
    }
    return 300;
  };

  // Sea: evenly ruled lines, a little closer near the horizon, starting at the cliff foot.
  brush.set('pen', INK, 0.55);
  for (let k = 0; k < 30; k++) {
    const y = horizon + 4 + k * (4 + k * 0.25);
    if (y > 600) break;
    brush.line(faceX(y) + random(2, 14), y, 600, y);
  }
  brush.set('pen', INK, 0.9);
  brush.line(262, horizon, 600, horizon);

  // The cliff, hatched in two directions.
  brush.set('pen', INK, 1);
  brush.hatchStyle('pen', INK, 0.45);
  brush.hatch(4.5, 1.3, { rand: 0.1 });
  brush.polygon(cliff);
  brush.noStroke();
  brush.hatch(5, -1.0, { rand: 0.1 });
  brush.polygon([[180, 300], [262, 300], [280, 360], [272, 420], [300, 480], [296, 600], [160, 600], [200, 420]]);
  brush.noHatch();
  brush.set('pen', INK, 0.6);
  for (let i = 0; i < 30; i++) {
    const x = random(5, 225);
    const y = x < 120 ? lerp(262, 258, x / 120) : lerp(258, 266, (x - 120) / 110);
    brush.line(x, y, x + random(-2, 2), y - random(4, 8));
  }

  // Lighthouse: tapered tower with one dark band, gallery, lantern and cap.
  const tx = 110;
  brush.wash('#fcfbf7', 255);
  brush.polygon([[tx - 20, 260], [tx - 12, 110], [tx + 12, 110], [tx + 20, 260]]);
  brush.noWash();
  brush.set('pen', INK, 1.1);
  brush.polygon([[tx - 20, 260], [tx - 12, 110], [tx + 12, 110], [tx + 20, 260]]);
  brush.hatchStyle('pen', INK, 0.45);
  brush.hatch(2.8, 0.4, { rand: 0.06 });
  brush.polygon([[tx - 17, 205], [tx + 17, 205], [tx + 15, 170], [tx - 15, 170]]);
  brush.noHatch();
  brush.line(tx - 17, 110, tx + 17, 110);
  brush.rect(tx - 9, 86, 18, 24);
  brush.hatchStyle('pen', INK, 0.45);
  brush.hatch(2.2, 0.8, { rand: 0.05 });
  brush.polygon([[tx - 12, 86], [tx, 70], [tx + 12, 86]]);
  brush.noHatch();
  brush.rect(tx - 4, 240, 8, 20);

  // A small sailing boat far out.
  brush.set('pen', INK, 0.8);
  brush.line(470, 330, 500, 330);
  brush.line(486, 330, 486, 300);
  brush.polygon([[488, 302], [488, 326], [504, 326]]);
}
