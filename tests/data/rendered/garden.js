function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fbf7ef');
  brush.noStroke();
  const cols = ['#264653', '#2a9d8f', '#e9c46a', '#f4a261', '#e76f51', '#8ab17d', '#b5838d'];
  for (let i = 0; i < 14; i++) {
    brush.fill(cols[i % cols.length], 110);
    brush.fillBleed(0.15);
    brush.fillTexture(0.3, 0.2);
    brush.circle(60 + (i * 97) % 480, 80 + (i * 53) % 440, 40 + (i * 13) % 50);
  }
  brush.noFill();
  brush.set('2B', '#3a3a3a', 1);
  for (let i = 0; i < 30; i++) brush.line(20 + i * 19, 590, 30 + i * 19, 430 + (i * 37) % 90);
  brush.set('pen', '#264653', 1);
  brush.hatchStyle('pen', '#264653', 1);
  brush.hatch(5, 30);
  brush.rect(380, 380, 160, 160);
  noLoop();
}
