// An empty sheet: bare paper only (one paper-coloured pixel of wash, which shows nothing).

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#ece9e2');
  brush.noStroke();
  brush.wash('#ece9e2', 255);
  brush.rect(0, 0, 1, 1);
  brush.noWash();
}
