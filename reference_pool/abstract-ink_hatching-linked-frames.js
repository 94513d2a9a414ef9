// Two rings linked through a square frame like a chain, in black and vermilion ink: each band hatched at its own angles, passing over and under at every crossing.

const BLACK = '#141418';
const RED = '#b8382b';
const PAPER = '#fbf9f4';

// Bands: rings (centre, outer and inner radius) and a square frame turned 45 degrees
// (centre, outer and inner half-diagonal). Each knows its contours and whether a point lies in it.
function ring(cx, cy, R, r) {
  const circ = (rad, dir) => {
    const pts = [];
    for (let k = 0; k <= 60; k++) {
      const a = dir * (k / 60) * TWO_PI;
      pts.push([cx + cos(a) * rad, cy + sin(a) * rad]);
    }
    return pts;
  };
  return {
    outer: circ(R, 1), inner: circ(r, -1), mid: (R + r) / 2, c: [cx, cy], R, r,
    inside: (p) => { const d = dist(p[0], p[1], cx, cy); return d >= r && d <= R; },
  };
}
function diamond(cx, cy, R, r) {
  const sq = (h, dir) => {
    const corners = [[cx + h, cy], [cx, cy + h], [cx - h, cy], [cx, cy - h]];
    const pts = [];
    for (let k = 0; k <= 4; k++) {
      const i = dir > 0 ? k % 4 : (4 - k) % 4;
      const a = corners[i];
      const b = corners[dir > 0 ? (i + 1) % 4 : (i + 3) % 4];
      if (k === 4) { pts.push(a); break; }
      for (let s = 0; s < 24; s++) pts.push([lerp(a[0], b[0], s / 24), lerp(a[1], b[1], s / 24)]);
    }
    return pts;
  };
  return {
    outer: sq(R, 1), inner: sq(r, -1), c: [cx, cy], R, r,
    inside: (p) => { const d = abs(p[0] - cx) + abs(p[1] - cy); return d >= r && d <= R; },
  };
}

// Where a ring's middle circle crosses the frame's middle line: the crossing point and
// the patch where the two bands overlap (bounded by the frame's side lines and the ring's circles).
function crossings(rg, dm) {
  const out = [];
  const f = (a) => abs(rg.c[0] + cos(a) * rg.mid - dm.c[0]) + abs(rg.c[1] + sin(a) * rg.mid - dm.c[1]) - (dm.R + dm.r) / 2;
  for (let k = 0; k < 720; k++) {
    const a0 = (k / 720) * TWO_PI;
    const a1 = ((k + 1) / 720) * TWO_PI;
    if (f(a0) * f(a1) > 0) continue;
    const p = [rg.c[0] + cos(a0) * rg.mid, rg.c[1] + sin(a0) * rg.mid];
    const sx = p[0] >= dm.c[0] ? 1 : -1;
    const sy = p[1] >= dm.c[1] ? 1 : -1;
    const n = [sx / sqrt(2), sy / sqrt(2)];
    const u = [-n[1], n[0]];
    // A point on the side line at offset d that lies on a circle of radius rho about the ring centre.
    const hit = (d, rho) => {
      const o = [dm.c[0] + n[0] * d / sqrt(2) - rg.c[0], dm.c[1] + n[1] * d / sqrt(2) - rg.c[1]];
      const b = o[0] * u[0] + o[1] * u[1];
      const cc = o[0] * o[0] + o[1] * o[1] - rho * rho;
      const disc = sqrt(max(0, b * b - cc));
      const best = [-b - disc, -b + disc].map((t) => [rg.c[0] + o[0] + u[0] * t, rg.c[1] + o[1] + u[1] * t]);
      return dist(best[0][0], best[0][1], p[0], p[1]) < dist(best[1][0], best[1][1], p[0], p[1]) ? best[0] : best[1];
    };
    const arc = (q0, q1, rho) => {
      let t0 = atan2(q0[1] - rg.c[1], q0[0] - rg.c[0]);
      let t1 = atan2(q1[1] - rg.c[1], q1[0] - rg.c[0]);
      if (t1 - t0 > PI) t1 -= TWO_PI;
      if (t0 - t1 > PI) t1 += TWO_PI;
      const pts = [];
      for (let s = 0; s <= 6; s++) {
        const t = lerp(t0, t1, s / 6);
        pts.push([rg.c[0] + cos(t) * rho, rg.c[1] + sin(t) * rho]);
      }
      return pts;
    };
    const a = hit(dm.r, rg.r);
    const b = hit(dm.r, rg.R);
    const c = hit(dm.R, rg.R);
    const d = hit(dm.R, rg.r);
    out.push({ p, patch: [...arc(b, c, rg.R), ...arc(d, a, rg.r)] });
  }
  return out;
}

// One polygon for a band: outer contour, inner contour and any patches it passes under,
// so the even-odd scan of the hatching leaves those patches bare.
function bandPoly(band, holes) {
  let pts = [...band.outer, ...band.inner, band.inner[0], band.outer[0]];
  for (const h of holes) pts = [...pts, h[0], ...h, h[0], band.outer[0]];
  return pts;
}

function hatchBand(band, holes, looks) {
  const poly = bandPoly(band, holes);
  for (const [b, col, w, d, a, g] of looks) {
    brush.hatchStyle(b, col, w);
    brush.hatch(d, a, { rand: 0.08, gradient: g });
    brush.polygon(poly);
  }
  brush.noHatch();
}

// Draw a band's edges, leaving out the stretches that pass under another band.
function edges(band, under) {
  brush.set('rotring', BLACK, 0.7);
  for (const contour of [band.outer, band.inner]) {
    let run = [];
    const dense = [];
    for (let i = 0; i < contour.length - 1; i++) {
      for (let s = 0; s < 3; s++) dense.push([lerp(contour[i][0], contour[i + 1][0], s / 3), lerp(contour[i][1], contour[i + 1][1], s / 3)]);
    }
    dense.push(contour[contour.length - 1]);
    for (const p of dense) {
      const hidden = under.some(([other, c]) => dist(p[0], p[1], c.p[0], c.p[1]) < 80 && other.inside(p));
      if (!hidden) run.push(p);
      if ((hidden || p === dense[dense.length - 1]) && run.length > 1) {
        brush.spline(run, 0);
        run = [];
      } else if (hidden) {
        run = [];
      }
    }
  }
  brush.noStroke();
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background(PAPER);
  brush.scaleBrushes(3);

  const A = ring(214, 232, 150, 110);
  const D = diamond(352, 336, 176, 130);
  const B = ring(468, 450, 96, 66);
  const xa = crossings(A, D);
  const xb = crossings(B, D);

  // A pale square field, a vermilion disc behind everything, and the bands' shadows
  // thrown down-right.
  brush.noStroke();
  brush.hatchStyle('pen', BLACK, 0.3);
  brush.hatch(7, -0.22, { rand: 0.12 });
  brush.rect(36, 36, 528, 528);
  brush.noHatch();
  brush.set('pen', BLACK, 0.6);
  brush.rect(36, 36, 528, 528);
  brush.noStroke();
  brush.hatchStyle('pen', RED, 0.4);
  brush.hatch(5.5, 0.95, { rand: 0.1 });
  brush.circle(462, 150, 96);
  brush.noHatch();
  const shift = (pts) => pts.map(([x, y]) => [x + 13, y + 15]);
  const tile = [[92, 438], [160, 452], [146, 520], [78, 506]];
  brush.hatchStyle('pen', BLACK, 0.3);
  brush.hatch(4.2, 0.85, { rand: 0.1 });
  for (const band of [A, D, B]) brush.polygon(shift(bandPoly(band, [])));
  brush.polygon(shift(tile));
  brush.noHatch();
  brush.wash(PAPER, 255);
  for (const band of [A, D, B]) brush.polygon(bandPoly(band, []));
  brush.noWash();

  // A small solid tile, off on its own in the lower left, weighs against the chain.
  brush.hatchStyle('rotring', BLACK, 0.45);
  brush.hatch(2.2, 0.2, { rand: 0.06 });
  brush.polygon(tile);
  brush.hatch(2.6, -1.37, { rand: 0.06 });
  brush.polygon(tile);
  brush.noHatch();
  brush.set('rotring', BLACK, 0.7);
  brush.polygon(tile);
  brush.noStroke();

  // Over and under alternate at the two crossings of each ring with the frame.
  const aUnder = xa.filter((c, i) => i % 2 === 0);
  const dUnderA = xa.filter((c, i) => i % 2 === 1);
  const bUnder = xb.filter((c, i) => i % 2 === 1);
  const dUnderB = xb.filter((c, i) => i % 2 === 0);

  hatchBand(A, aUnder.map((c) => c.patch), [['pen', BLACK, 0.5, 2.4, 0.5, 0.05], ['pen', BLACK, 0.45, 3.4, -1.0, 0.12]]);
  hatchBand(D, [...dUnderA, ...dUnderB].map((c) => c.patch), [['rotring', RED, 0.45, 2.6, -0.32, 0.08], ['pen', BLACK, 0.4, 5.5, 1.25, 0]]);
  hatchBand(B, bUnder.map((c) => c.patch), [['rotring', BLACK, 0.45, 2.4, 1.35, 0], ['rotring', BLACK, 0.4, 3, -0.25, 0.1]]);

  edges(A, aUnder.map((c) => [D, c]));
  edges(D, [...dUnderA.map((c) => [A, c]), ...dUnderB.map((c) => [B, c])]);
  edges(B, bUnder.map((c) => [D, c]));
}
