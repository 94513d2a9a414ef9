// An empty sheet: toned pastel paper only (one paper-coloured pixel of wash, which shows
// nothing).

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e2d8c8');
  brush.noStroke();
  brush.wash('#e2d8c8', 255);
  brush.rect(0, 0, 1, 1);
  brush.noWash();
}
