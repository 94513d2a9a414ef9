// A hill village in pen and ink: white houses, hatched roofs and a hatched hillside.

function house(x, y, w, h) {
  brush.set('pen', '#1d1d26', 0.9);
  brush.noFill();
  brush.rect(x, y, w, h);
  // Roof: hatched densely so it reads darker than the walls.
  brush.hatchStyle('pen', '#1d1d26', 0.55);
  brush.hatch(3.5, PI / 6, { rand: 0.05 });
  brush.polygon([[x - 6, y], [x + w / 2, y - h * 0.6], [x + w + 6, y]]);
  brush.noHatch();
  // Door and a window.
  brush.rect(x + w * 0.4, y + h * 0.5, w * 0.2, h * 0.5);
  brush.rect(x + w * 0.12, y + h * 0.25, w * 0.16, h * 0.18);
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fcfaf4');
  brush.scaleBrushes(3);

  // Hill: wide, loosely hatched strokes.
  brush.noStroke();
  brush.hatchStyle('pen', '#40404c', 0.5);
  brush.hatch(9, -PI / 8, { rand: 0.2, gradient: 0.2 });
  brush.polygon([[0, 360], [160, 300], [330, 280], [470, 310], [600, 350], [600, 600], [0, 600]]);
  brush.noHatch();
  brush.set('pen', '#1d1d26', 1);
  brush.spline([[0, 360], [160, 300], [330, 280], [470, 310], [600, 350]], 0.5);

  // Houses stepping up the slope.
  const houses = [[120, 330, 50, 40], [190, 300, 60, 45], [270, 290, 55, 42], [340, 300, 45, 38], [420, 320, 60, 44], [240, 360, 50, 40]];
  for (const [x, y, w, h] of houses) house(x, y - h, w, h);

  // A church tower behind the houses.
  brush.set('pen', '#1d1d26', 0.9);
  brush.rect(300, 180, 30, 80);
  brush.hatchStyle('pen', '#1d1d26', 0.55);
  brush.hatch(3, PI / 2.5);
  brush.polygon([[296, 180], [315, 135], [334, 180]]);
  brush.noHatch();
  brush.line(315, 135, 315, 118);
  brush.line(309, 124, 321, 124);

  // Path down the hill and a few cypresses.
  brush.set('pen', '#1d1d26', 0.7);
  brush.spline([[260, 600], [280, 480], [250, 420], [265, 370]], 0.5);
  brush.spline([[320, 600], [320, 480], [290, 420], [280, 370]], 0.5);
  for (const x of [80, 470, 530]) {
    brush.hatchStyle('pen', '#1d1d26', 0.5);
    brush.hatch(2.5, PI / 2.2);
    brush.beginShape(0.7);
    brush.vertex(x, 260);
    brush.vertex(x + 12, 320);
    brush.vertex(x, 345);
    brush.vertex(x - 12, 320);
    brush.endShape(true);
    brush.noHatch();
  }
  // Birds.
  brush.set('pen', '#1d1d26', 0.6);
  for (let i = 0; i < 4; i++) {
    const bx = random(380, 540);
    const by = random(80, 160);
    brush.spline([[bx - 8, by], [bx - 3, by - 4], [bx, by]], 0.7);
    brush.spline([[bx, by], [bx + 3, by - 4], [bx + 8, by]], 0.7);
  }
}
