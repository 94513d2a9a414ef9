function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f3ecdd');
  brush.noStroke();
  brush.fill('#8fb8a8', 60);
  brush.fillBleed(0.2);
  brush.fillTexture(0.4, 0.2);
  brush.rect(40, 380, 520, 180);
  const petals = ['#e9967a', '#f4a582', '#d6604d', '#f08a6b', '#e07a5f'];
  for (let i = 0; i < 5; i++) {
    const a = (TWO_PI * i) / 5;
    brush.fill(petals[i], 90);
    brush.fillBleed(0.25);
    brush.circle(300 + 70 * cos(a), 260 + 70 * sin(a), 70);
  }
  brush.fill('#f6d55c', 120);
  brush.circle(300, 260, 28);
  brush.noFill();
  brush.set('2B', '#3d405b', 1.2);
  brush.line(300, 330, 290, 560);
  brush.set('HB', '#2e5e4e', 1);
  for (let i = 0; i < 40; i++) {
    const x = 60 + i * 12;
    brush.line(x, 560, x + 8 * sin(i), 470 + 20 * cos(i * 1.7));
  }
  brush.set('cpencil', '#6d597a', 1);
  brush.flowLine(80, 120, 300, 0.3);
  noLoop();
}
