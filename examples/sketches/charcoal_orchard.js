// an orchard in charcoal: three trees on a rise, hatched shadows
function setup() {
  createCanvas(600, 600, WEBGL);
  background('#f1ede4');
  translate(-width / 2, -height / 2);

  // The rise: a soft charcoal mass across the lower third.
  brush.noStroke();
  brush.fill('#8b867c', 120);
  brush.fillTexture(0.6, 0.4);
  brush.beginShape(0.5);
  brush.vertex(0, 600);
  brush.vertex(0, 430);
  brush.vertex(300, 390);
  brush.vertex(600, 440);
  brush.vertex(600, 600);
  brush.endShape(true);
  brush.noFill();

  // Three trees: trunks in charcoal, crowns as hatched circles.
  for (const [x, y, r] of [[140, 420, 70], [310, 395, 90], [480, 430, 65]]) {
    brush.set('charcoal', '#2b2824', 2);
    brush.line(x, y, x - 4, y - r * 1.2);
    brush.noStroke();
    brush.hatchStyle('charcoal', '#3a3631', 0.8);
    brush.hatch(6, PI / 5);
    brush.circle(x - 4, y - r * 1.6, r);
    brush.noHatch();
  }

  // Grass: short strokes that follow a curving field.
  brush.field('curved');
  brush.set('2B', '#4a463f', 1);
  for (let i = 0; i < 20; i++) {
    brush.flowLine(random(20, 580), random(450, 590), random(20, 45), -HALF_PI);
  }
  brush.noField();
}
