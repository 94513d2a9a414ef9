function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background(255);
  brush.set('rotring', '#000000', 80);
  for (let i = 0; i < 14; i++) brush.line(60, 60 + i * 35, 540, 60 + i * 35);
  noLoop();
}
