// A vanitas in charcoal: a skull resting on an old book beside a lit candle, strong candlelight chiaroscuro on toned paper.

function blobShape(cx, cy, rx, ry, n, j) {
  const pts = [];
  for (let i = 0; i < n; i++) {
    const a = (i / n) * TWO_PI;
    pts.push([cx + cos(a) * rx * random(1 - j, 1 + j), cy + sin(a) * ry * random(1 - j, 1 + j)]);
  }
  return pts;
}

function holed(x0, y0, x1, y1, cx, cy, r) {
  // A rectangle with a round hole cut in it (the hatching fills even-odd).
  const pts = [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, cy]];
  for (let i = 0; i <= 24; i++) {
    const a = PI + (i / 24) * TWO_PI;
    pts.push([cx + cos(a) * r, cy - sin(a) * r * 0.9]);
  }
  pts.push([x0, cy]);
  return pts;
}

function darkHole(pts, tone) {
  // Small deep shadows (eye sockets, nose): dense crossed charcoal, then a firm rim.
  brush.noStroke();
  brush.hatchStyle('charcoal', tone, 0.9);
  brush.hatch(2.2, 0.7, { rand: 0.3 });
  brush.polygon(pts);
  brush.hatch(2.6, -0.6, { rand: 0.3 });
  brush.polygon(pts);
  brush.noHatch();
  brush.set('charcoal', '#121110', 0.8);
  brush.spline([...pts, pts[0]], 0.5);
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#c9c5bd');
  brush.scaleBrushes(3);

  // Wall and table: deep tones laid flat first.
  brush.noStroke();
  brush.wash('#8c8881', 235);
  brush.rect(0, 0, 600, 430);
  brush.noWash();
  brush.wash('#8e8a83', 235);
  brush.rect(0, 430, 600, 170);
  brush.noWash();

  // Candlelight: the wall is smudged dark everywhere except a soft pool round the flame.
  brush.hatchStyle('spray', '#34312d', 3);
  brush.hatch(11, 0.9, { rand: 0.4 });
  brush.polygon(holed(0, 0, 600, 432, 150, 230, 190));
  brush.noHatch();

  // Smudged dark gathering in the far corner and under the table edge.
  brush.hatchStyle('spray', '#2a2825', 3);
  brush.hatch(11, 0.9, { rand: 0.4 });
  brush.polygon([[430, 0], [600, 0], [600, 430], [500, 430], [520, 200]]);
  brush.polygon([[380, 560], [600, 520], [600, 600], [360, 600]]);
  brush.noHatch();
  brush.set('charcoal', '#2a2825', 1.2);
  brush.line(0, 431, 600, 428);

  // Cast shadows, soft, thrown to the right away from the flame.
  brush.noStroke();
  brush.hatchStyle('spray', '#2a2825', 3);
  brush.hatch(9, 0.2, { rand: 0.5 });
  brush.beginShape(0.8);
  brush.vertex(440, 310);
  brush.vertex(520, 290);
  brush.vertex(610, 300);
  brush.vertex(610, 428);
  brush.vertex(450, 428);
  brush.endShape(true);
  brush.polygon([[556, 470], [610, 466], [610, 524], [560, 530]]);
  brush.noHatch();

  // The book: lying flat, cover on top, a thick block of page edges facing us.
  const top = [[210, 432], [520, 420], [560, 470], [240, 486]];
  brush.wash('#6b6761', 230);
  brush.polygon(top);
  brush.noWash();
  brush.hatchStyle('charcoal', '#55514c', 0.7);
  brush.hatch(5, -0.5, { rand: 0.5 });
  brush.polygon(top);
  brush.hatchStyle('charcoal', '#3d3a36', 0.8);
  brush.hatch(4, 0.1, { rand: 0.5 });
  brush.polygon([[360, 428], [520, 420], [560, 470], [380, 480]]);
  brush.noHatch();
  const front = [[240, 486], [560, 470], [560, 510], [242, 528]];
  brush.wash('#c9c5bd', 230);
  brush.polygon(front);
  brush.noWash();
  for (let i = 1; i < 9; i++) {
    const t = i / 9;
    brush.set('2B', '#6a665f', 0.5);
    brush.line(244, 486 + t * 42, 556, 470 + t * 40);
  }
  brush.noStroke();
  brush.hatchStyle('charcoal', '#56524d', 0.7);
  brush.hatch(4, 0.05, { rand: 0.4 });
  brush.polygon([[420, 478], [560, 470], [560, 510], [420, 518]]);
  brush.noHatch();
  brush.set('charcoal', '#1d1b19', 1.1);
  brush.spline([[210, 432], [520, 420], [560, 470], [560, 510], [242, 528], [240, 486], [210, 432]], 0);
  brush.spline([[240, 486], [560, 470]], 0);
  // Worn spine end and a hanging ribbon.
  brush.set('charcoal', '#1d1b19', 1.4);
  brush.spline([[205, 434], [198, 470], [232, 528]], 0.6);
  brush.set('charcoal', '#2a2825', 1);
  brush.spline([[300, 522], [306, 550], [298, 574]], 0.6);

  // The skull, turned a little towards the candle, lit from the left.
  const cran = [[300, 366], [302, 326], [330, 294], [372, 282], [418, 292], [446, 322], [452, 362], [440, 392], [430, 412], [414, 432], [404, 456], [340, 456], [330, 434], [310, 414], [300, 388]];
  brush.noStroke();
  brush.wash('#d8d4cc', 240);
  brush.polygon(cran);
  brush.noWash();
  // Shadow side of the skull.
  brush.hatchStyle('spray', '#2a2825', 2.6);
  brush.hatch(5, 1.1, { rand: 0.3 });
  brush.polygon([[400, 286], [418, 292], [446, 322], [452, 362], [440, 392], [430, 412], [414, 432], [404, 456], [384, 456], [410, 396], [420, 336]]);
  brush.noHatch();
  brush.hatchStyle('charcoal', '#3a3733', 0.8);
  brush.hatch(4, 1.2, { rand: 0.4 });
  brush.polygon([[425, 306], [446, 322], [452, 362], [440, 392], [430, 412], [414, 432], [404, 456], [396, 456], [428, 376]]);
  brush.noHatch();
  // Under the cheekbone and the temple hollow.
  brush.hatchStyle('charcoal', '#4a4742', 0.7);
  brush.hatch(3.5, 0.9, { rand: 0.4 });
  brush.polygon([[312, 408], [336, 414], [346, 434], [334, 436]]);
  brush.polygon([[410, 336], [430, 336], [436, 366], [418, 372]]);
  brush.noHatch();
  // Eye sockets, nose cavity.
  darkHole([[326, 358], [344, 352], [360, 358], [358, 374], [344, 382], [328, 374]], '#1c1a18');
  darkHole([[382, 358], [402, 352], [420, 360], [418, 378], [402, 386], [384, 376]], '#141312');
  darkHole([[368, 388], [378, 408], [372, 416], [364, 416], [358, 408]], '#1c1a18');
  // Upper teeth and the jaw line.
  brush.noStroke();
  brush.hatchStyle('charcoal', '#6a665f', 0.6);
  brush.hatch(3, 1.3, { rand: 0.3 });
  brush.polygon([[338, 430], [402, 430], [398, 448], [342, 448]]);
  brush.noHatch();
  for (let i = 0; i < 8; i++) {
    const x = 343 + i * 7.5;
    brush.set('charcoal', '#2a2825', 0.5);
    brush.line(x, 432 + random(-1, 1), x + random(-1, 1), 440 + random(2, 6));
  }
  brush.set('charcoal', '#1d1b19', 0.9);
  brush.spline([[336, 430], [370, 426], [404, 430]], 0.5);
  brush.set('charcoal', '#2a2825', 0.7);
  brush.spline([[340, 446], [370, 450], [400, 446]], 0.5);
  // Brow ridge over the sockets, temple hollow on the shadow side.
  brush.set('charcoal', '#2a2825', 1);
  brush.spline([[322, 352], [344, 346], [372, 354], [402, 346], [426, 354]], 0.5);
  // Contour, heavier on the shadow side.
  brush.set('charcoal', '#24221f', 0.9);
  brush.spline([...cran.slice(0, 6)], 0.5);
  brush.set('charcoal', '#141312', 1.4);
  brush.spline([...cran.slice(5), cran[0]], 0.5);
  brush.set('charcoal', '#3a3733', 0.7);
  brush.spline([[310, 388], [330, 392], [352, 388]], 0.5);
  brush.spline([[300, 336], [340, 312], [390, 308]], 0.6);
  // Light on the brow and cheek facing the flame.
  brush.set('charcoal', '#f6f3ed', 1.2);
  brush.spline([[308, 336], [326, 306], [360, 292]], 0.6);
  brush.set('charcoal', '#f6f3ed', 0.8);
  brush.spline([[320, 392], [334, 398], [350, 396]], 0.6);

  // The candle in a low dish.
  brush.noStroke();
  brush.wash('#e6e3dc', 245);
  brush.polygon([[120, 230], [158, 226], [160, 444], [120, 446]]);
  brush.noWash();
  brush.hatchStyle('charcoal', '#6a665f', 0.7);
  brush.hatch(3.5, 1.5, { rand: 0.3 });
  brush.polygon([[148, 228], [158, 226], [160, 444], [150, 446]]);
  brush.noHatch();
  brush.set('charcoal', '#3a3733', 0.9);
  brush.line(120, 232, 120, 446);
  brush.set('charcoal', '#2a2825', 1.1);
  brush.line(159, 228, 160, 444);
  brush.spline([[120, 232], [132, 238], [158, 228]], 0.6);
  // A drip of wax.
  brush.set('charcoal', '#8a867f', 0.8);
  brush.spline([[128, 236], [130, 262], [127, 276]], 0.6);
  // Dish.
  brush.wash('#8b8781', 230);
  brush.polygon([[82, 440], [196, 440], [186, 462], [92, 462]]);
  brush.noWash();
  brush.set('charcoal', '#1e1c1a', 1.1);
  brush.spline([[82, 440], [140, 450], [196, 440]], 0.5);
  brush.spline([[82, 440], [92, 462], [186, 462], [196, 440]], 0.4);
  brush.set('charcoal', '#f6f3ed', 0.9);
  brush.line(90, 444, 120, 448);
  // Wick and flame: a bright teardrop with a dark core.
  brush.set('charcoal', '#1b1a18', 0.8);
  brush.line(139, 232, 140, 214);
  brush.noStroke();
  brush.hatchStyle('charcoal', '#fbfaf7', 1);
  brush.hatch(1.8, 1.57, { rand: 0.2 });
  brush.polygon([[140, 160], [150, 188], [149, 208], [140, 216], [131, 208], [130, 188]]);
  brush.noHatch();
  brush.set('charcoal', '#8a867f', 0.6);
  brush.spline([[140, 160], [150, 188], [149, 208], [140, 216], [131, 208], [130, 188], [140, 160]], 0.5);
}
