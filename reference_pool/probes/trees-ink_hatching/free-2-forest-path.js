// Inside a pine wood, looking down a path: tall straight trunks cropped by the top of the
// picture, thick, dark and barked near the viewer, thinner and paler as they go back toward a
// bright opening where the path ends; the canopy a dark hatched roof across the top, the
// trunks' shadows laid across the path toward the viewer; black ink.

const INK = '#161616';
const PAPER = '#fbfaf5';

function tone(poly, d, a, w, name) {
  brush.hatchStyle(name, INK, w);
  brush.hatch(d, a, { rand: 0.12 });
  brush.polygon(poly);
  brush.noHatch();
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background(PAPER);
  brush.scaleBrushes(3);
  // The light at the end of the path.
  const vx = 350;
  const vy = 322;

  // The canopy: a roof of hatching across the top, densest at the edges and the top, thinning
  // toward the opening, its lower edge ragged with branch ends.
  const roof = [[-10, -10], [610, -10], [610, 200]];
  for (let x = 600; x >= 0; x -= 30) {
    const d = abs(x - vx) / 300;
    roof.push([x, 70 + d * 150 + random(-20, 20)]);
  }
  roof.push([-10, 210]);
  tone(roof, 3.2, 0.5, 0.45, 'pen');
  tone(roof, 3.6, -0.6, 0.45, 'pen');
  tone([[-10, -10], [610, -10], [610, 110], [-10, 110]], 3, 1.4, 0.5, 'rotring');
  // Boughs hanging from the canopy's edge: drooping strokes with short needles.
  brush.set('pen', INK, 0.5);
  for (let i = 1; i < roof.length - 2; i++) {
    const [x, y] = roof[i + 2] || roof[i];
    if (abs(x - vx) < 60) continue;
    for (let k = 0; k < 3; k++) {
      const bx = x + random(-15, 15);
      const by = y - random(0, 10);
      const len = random(20, 45);
      brush.spline([[bx, by], [bx + len * 0.5, by + len * 0.25], [bx + len, by + len * 0.35]], 0.5);
      for (let t = 0.2; t < 1; t += 0.2) {
        const nx = bx + len * t;
        const ny = by + len * 0.3 * t;
        brush.line(nx, ny, nx + random(-3, 3), ny + random(5, 10));
      }
    }
  }
  brush.noStroke();

  // The far wood beyond the trunks: a band of soft crowns in two light layers, opening to a
  // small bright gap where the path ends.
  const farWood = [[120, vy + 4]];
  for (let x = 120; x <= 580; x += 16) {
    const gapDip = abs(x - vx) < 26 ? 70 : 0;
    farWood.push([x, 200 + random(0, 30) + gapDip + abs(x - vx) * 0.05]);
  }
  farWood.push([580, vy + 4]);
  tone(farWood, 4, 1.3, 0.4, 'pen');
  tone(farWood, 5, -0.4, 0.4, 'pen');
  brush.wash(PAPER, 255);
  brush.polygon([[vx - 14, vy + 2], [vx - 10, vy - 40], [vx + 4, vy - 56], [vx + 16, vy - 36], [vx + 18, vy + 2]]);
  brush.noWash();

  // The floor: short broken strokes and tufts, denser in the distance so the ground darkens
  // away from the viewer.
  brush.set('pen', INK, 0.4);
  for (let i = 0; i < 520; i++) {
    const t = pow(random(), 1.8);
    const yy = lerp(vy + 4, 604, t);
    const xx = random(-10, 610);
    brush.line(xx, yy, xx + random(6, 20) * (0.5 + t), yy + random(-0.6, 0.6));
  }
  for (let i = 0; i < 60; i++) {
    const yy = random(vy + 40, 604);
    const xx = random(-10, 610);
    const h = map(yy, vy, 600, 2, 12);
    brush.line(xx, yy, xx - 2, yy - h);
    brush.line(xx + 2, yy, xx + 3, yy - h * 0.8);
  }
  brush.noStroke();
  // The path: scraped back to paper, widening toward the viewer from the light.
  brush.wash(PAPER, 255);
  // It swings left, then comes forward to the right.
  const pathL = [[vx - 4, vy + 4], [334, 356], [298, 410], [262, 490], [212, 610]];
  const pathR = [[vx + 6, vy + 4], [374, 364], [352, 424], [378, 510], [470, 610]];
  brush.polygon([...pathL, ...pathR.slice().reverse()]);
  brush.noWash();
  brush.set('pen', INK, 0.6);
  brush.spline(pathL, 0.4);
  brush.spline(pathR, 0.4);
  brush.noStroke();

  // Trunks from the back to the front: [x at the ground, how near (0 far .. 1 near)].
  const trunks = [
    [318, 0.04], [392, 0.07], [285, 0.13], [420, 0.2], [250, 0.26], [468, 0.36],
    [200, 0.44], [150, 0.62], [520, 0.6], [585, 0.84], [60, 0.92],
  ];
  for (const [gx, near] of trunks) {
    // Ground line of each trunk comes down toward the viewer as it gets nearer.
    const base = lerp(vy + 8, 640, pow(near, 1.3));
    const x = lerp(vx, gx, 0.4 + near * 0.6) + (gx - vx) * 0.2;
    const hw = lerp(2, 26, pow(near, 1.5));
    // A slight lean, so the wood is not a colonnade.
    const lean = random(-10, 10) * near;
    const poly = [[x - hw + lean, -10], [x + hw + lean, -10], [x + hw * 1.1, base], [x - hw * 1.1, base]];
    brush.noStroke();
    brush.wash(PAPER, 255);
    brush.polygon(poly);
    brush.noWash();
    // Far trunks in one light layer; near ones crossed and dark on the side away from the light.
    const side = x < vx ? 1 : -1;
    const dark = [[x + side * hw * 0.1 + lean, -10], [x + side * hw + lean, -10], [x + side * hw * 1.1, base], [x + side * hw * 0.1, base]];
    tone(poly, lerp(4, 2.6, near), 1.35, 0.45, 'pen');
    if (near > 0.25) tone(dark, lerp(3.2, 2, near), -0.3, 0.5, 'pen');
    if (near > 0.6) {
      tone(dark, 2, 0.4, 0.6, 'rotring');
      // Bark plates: short broken ridges across the trunk.
      brush.set('pen', INK, 0.6);
      for (let k = 0; k < 40; k++) {
        const yy = random(0, base);
        const xx = x + random(-hw, hw) * 0.8;
        brush.line(xx, yy, xx + random(-6, 6), yy + random(6, 16));
      }
    }
    brush.set(near > 0.5 ? 'rotring' : 'pen', INK, lerp(0.4, 0.8, near));
    brush.line(x - hw + lean, -10, x - hw * 1.1, base);
    brush.line(x + hw + lean, -10, x + hw * 1.1, base);
    // Dead branch stubs, angled down, on the nearer trunks.
    if (near > 0.3) {
      for (let k = 0; k < 3; k++) {
        const by = random(60, base * 0.6);
        const s2 = random() < 0.5 ? -1 : 1;
        const bx = lerp(x + lean, x, by / base) + s2 * hw;
        brush.line(bx, by, bx + s2 * (hw * 0.8 + 8), by + random(6, 14));
      }
    }
    brush.noStroke();
    // Its shadow, thrown toward the viewer across the floor and the path.
    if (near > 0.2 && near < 0.9) {
      const sx = x + (x - vx) * 0.1;
      tone([[x - hw, base], [x + hw, base], [sx + hw * 3 + (x - vx) * 0.6, min(604, base + 80 + near * 120)], [sx - hw + (x - vx) * 0.6, min(604, base + 80 + near * 120)]], 2.6, 0.05, 0.45, 'pen');
    }
  }

  // Needles and cones scattered on the floor in front.
  brush.set('pen', INK, 0.5);
  for (let i = 0; i < 50; i++) {
    const xx = random(0, 600);
    const yy = random(480, 600);
    brush.line(xx, yy, xx + random(-6, 6), yy + random(-2, 2));
  }
  brush.noStroke();
}
