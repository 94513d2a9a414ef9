function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background(250, 246, 236);
  brush.noStroke();
  brush.fill('#9cc3d5', 70);
  brush.fillBleed(0.1);
  brush.rect(0, 0, 600, 260);
  brush.fill('#5b8e7d', 90);
  brush.fillBleed(0.3);
  brush.beginShape();
  brush.vertex(0, 300); brush.vertex(150, 200); brush.vertex(320, 290); brush.vertex(470, 180); brush.vertex(600, 280);
  brush.vertex(600, 600); brush.vertex(0, 600);
  brush.endShape(CLOSE);
  brush.fill('#bc4b51', 100);
  brush.circle(460, 100, 45);
  brush.noFill();
  brush.set('charcoal', '#2b2d42', 1.5);
  for (let i = 0; i < 12; i++) brush.line(30 + i * 50, 420, 40 + i * 50, 590);
  brush.set('pen', '#1d3557', 1);
  brush.hatchStyle('pen', '#1d3557', 1);
  brush.hatch(6, 45);
  brush.rect(80, 430, 140, 120);
  noLoop();
}
