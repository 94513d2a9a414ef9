// An empty sheet: bare paper only (one paper-coloured pixel of wash, which shows nothing).

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fbfaf5');
  brush.noStroke();
  brush.wash('#fbfaf5', 255);
  brush.rect(0, 0, 1, 1);
  brush.noWash();
}
