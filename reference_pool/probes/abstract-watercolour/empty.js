// An empty sheet: cream paper only (one paper-coloured pixel of wash, which shows nothing).

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6efe0');
  brush.noStroke();
  brush.wash('#f6efe0', 255);
  brush.rect(0, 0, 1, 1);
  brush.noWash();
}
