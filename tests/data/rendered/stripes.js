function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  brush.noStroke();
  brush.fill('#10dbf7', 255);
  brush.rect(0, 0, 50, 600);
  brush.fill('#0769ec', 255);
  brush.rect(50, 0, 50, 600);
  brush.fill('#fb8e52', 255);
  brush.rect(100, 0, 50, 600);
  brush.fill('#11faa7', 255);
  brush.rect(150, 0, 50, 600);
  brush.fill('#267fb8', 255);
  brush.rect(200, 0, 50, 600);
  brush.fill('#16d747', 255);
  brush.rect(250, 0, 50, 600);
  brush.fill('#b5c3d7', 255);
  brush.rect(300, 0, 50, 600);
  brush.fill('#9186e9', 255);
  brush.rect(350, 0, 50, 600);
  brush.fill('#599bb9', 255);
  brush.rect(400, 0, 50, 600);
  brush.fill('#44e97a', 255);
  brush.rect(450, 0, 50, 600);
  brush.fill('#e1c016', 255);
  brush.rect(500, 0, 50, 600);
  brush.fill('#027844', 255);
  brush.rect(550, 0, 50, 600);
}
