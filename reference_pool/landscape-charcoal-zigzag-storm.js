// Weak: a zigzag line of mountains and a scribbled cloud; stiff, sparse and flat.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#e8e5de');
  brush.scaleBrushes(3);

  brush.set('charcoal', '#2c2a27', 1.3);
  brush.spline([[30, 400], [110, 300], [190, 400], [270, 300], [350, 400], [430, 300], [510, 400], [570, 330]], 0);

  // Cloud: a scribbled lump.
  brush.noStroke();
  brush.hatchStyle('charcoal', '#3a3733', 1);
  brush.hatch(5, 0.3, { rand: 0.5 });
  brush.circle(260, 150, 60);
  brush.circle(330, 160, 45);
  brush.noHatch();
  // Rain: a few straight lines.
  for (let i = 0; i < 5; i++) {
    brush.set('charcoal', '#55514c', 0.7);
    brush.line(240 + i * 20, 210, 230 + i * 20, 260);
  }
}
