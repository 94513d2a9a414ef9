// Ok: a road running up between two hedgerows to a farmhouse on a high horizon, sepia ink; correct and tidy, but the hedges are plain hatched wedges and the sky is nearly empty.

const INK = '#3b2a1c';

// Points along a polyline, n per segment.
function along(ctrl, n) {
  const pts = [];
  for (let i = 0; i < ctrl.length - 1; i++) {
    for (let k = 0; k < n; k++) {
      const t = k / n;
      pts.push([lerp(ctrl[i][0], ctrl[i + 1][0], t), lerp(ctrl[i][1], ctrl[i + 1][1], t)]);
    }
  }
  pts.push(ctrl[ctrl.length - 1]);
  return pts;
}

// A hedge along a road edge: it leans away from the road (side -1 left, +1 right) and
// shrinks from near (first point) to far, with a bumpy top.
function hedge(base, side, wNear, hNear, angle) {
  const n = base.length - 1;
  const top = base.map(([x, y], i) => {
    const t = pow(1 - i / n, 1.3);
    return [x + side * (wNear * t + 3), y - (hNear * t + 6) * (1 + 0.12 * sin(i * 2.3))];
  });
  const poly = [...top, ...base.slice().reverse(), [top[0][0], 605]];
  brush.noStroke();
  brush.hatchStyle('pen', INK, 0.45);
  brush.hatch(4, angle, { rand: 0.1 });
  brush.polygon(poly);
  brush.hatch(5, angle + 1.5, { rand: 0.1 });
  brush.polygon(poly);
  brush.noHatch();
  brush.set('pen', INK, 0.9);
  brush.spline(top, 0.5);
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fbf8f0');
  brush.scaleBrushes(3);
  const horizon = 205;

  // Horizon and distant fields.
  brush.set('pen', INK, 0.8);
  brush.line(0, horizon, 600, horizon);
  brush.set('pen', INK, 0.5);
  for (let k = 1; k < 6; k++) {
    const y = horizon + k * k * 4;
    brush.line(0, y, 200 - k * 12, y + 2);
    brush.line(480 + k * 10, y, 600, y + 1);
  }

  // Farmhouse on the horizon, right of centre.
  brush.set('pen', INK, 1);
  brush.rect(420, 176, 40, 29);
  brush.hatchStyle('pen', INK, 0.45);
  brush.hatch(2.5, 1.1, { rand: 0.05 });
  brush.polygon([[414, 176], [440, 156], [466, 176]]);
  brush.noHatch();
  brush.rect(448, 152, 6, 14);
  brush.rect(436, 190, 8, 15);
  brush.rect(425, 182, 7, 7);

  // The road, curving from the bottom up to the farm gate.
  const left = along([[190, 600], [250, 480], [340, 350], [425, 206]], 8);
  const right = along([[430, 600], [410, 480], [420, 350], [445, 206]], 8);
  brush.set('pen', INK, 0.9);
  brush.spline(left, 0.5);
  brush.spline(right, 0.5);

  // Hedges on both sides, stepping back from the road edges.
  hedge(left.map(([x, y]) => [x - 12, y]), -1, 200, 160, 0.9);
  hedge(right.map(([x, y]) => [x + 12, y]), 1, 170, 110, -0.9);

  // Two clouds, as outlines only.
  brush.set('pen', INK, 0.7);
  brush.spline([[90, 110], [110, 92], [140, 96], [160, 84], [190, 98], [200, 112]], 0.6);
  brush.spline([[310, 70], [330, 58], [360, 62], [380, 74]], 0.6);
}
