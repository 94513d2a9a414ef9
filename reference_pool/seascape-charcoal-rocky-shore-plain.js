// Ok: storm waves rolling onto a low line of rocks, charcoal on white paper; correct and clear but evenly drawn, with little drama or smudge.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#edeae3');
  brush.scaleBrushes(3);

  // Sky: loose diagonal hatching for the cloud cover.
  brush.noStroke();
  brush.hatchStyle('charcoal', '#77736c', 0.7);
  brush.hatch(7, 0.35, { rand: 0.3 });
  brush.rect(0, 0, 600, 200);
  brush.noHatch();
  brush.set('charcoal', '#3a3733', 1);
  brush.line(0, 200, 600, 198);

  // Swells: long crest lines with hatched faces beneath, bigger towards the shore.
  for (let r = 0; r < 8; r++) {
    const y = 225 + r * r * 3.2 + r * 22;
    const amp = 4 + r * 2.2;
    const ph = random(TWO_PI);
    const crest = [];
    for (let x = -20; x <= 620; x += 40) crest.push([x, y + sin(x * 0.018 + ph) * amp]);
    brush.noStroke();
    brush.hatchStyle('charcoal', '#5a5650', 0.7);
    brush.hatch(4, 1.2, { rand: 0.3 });
    brush.polygon([...crest, ...crest.slice().reverse().map(([x, yy]) => [x, yy + 8 + r * 3])]);
    brush.noHatch();
    brush.set('charcoal', '#2e2c29', 0.8 + r * 0.08);
    brush.spline(crest, 0.5);
  }

  // Rocks along the right: dark hatched shapes.
  const rocks = [[[360, 540], [390, 470], [440, 450], [490, 470], [520, 540]], [[480, 560], [520, 490], [580, 480], [610, 500], [610, 570]]];
  for (const pts of rocks) {
    brush.noStroke();
    brush.hatchStyle('charcoal', '#2a2826', 1);
    brush.hatch(3.5, 0.8, { rand: 0.3 });
    brush.polygon(pts);
    brush.noHatch();
    brush.set('charcoal', '#1c1a18', 1.2);
    brush.spline([...pts, pts[0]], 0.3);
  }
  // Spray marks above the rocks.
  for (let i = 0; i < 16; i++) {
    const a = -PI / 2 + random(-0.9, 0.9);
    const r0 = random(20, 40);
    brush.set('charcoal', '#6a665f', 0.6);
    brush.line(445 + cos(a) * r0, 440 + sin(a) * r0, 445 + cos(a) * (r0 + random(30, 60)), 440 + sin(a) * (r0 + random(30, 60)));
  }

  // Beach line.
  brush.set('charcoal', '#4a4742', 1);
  brush.spline([[0, 560], [200, 550], [360, 570]], 0.5);
}
