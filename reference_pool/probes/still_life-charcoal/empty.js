// An empty sheet: bare paper only (one paper-coloured pixel of wash, which shows nothing).

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e6e3dc');
  brush.noStroke();
  brush.wash('#e6e3dc', 255);
  brush.rect(0, 0, 1, 1);
  brush.noWash();
}
