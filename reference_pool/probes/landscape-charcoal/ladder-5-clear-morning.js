// A mountain range on a still, clear morning in charcoal: a pale far range, a snowy main range
// lit from the left with its shadow faces hatched dark down the fall line, a band of valley
// mist, and a dark wooded spur in the foreground. No clouds.

const MAIN = [[120, 175, 110], [330, 245, 120], [510, 160, 95]];

// The height of a range at x: sharp peaks (a pointed falloff) plus ridged noise for the crags.
function heightAt(x, peaks, jag, off) {
  let h = 0;
  for (const [px, ph, pw] of peaks) h = max(h, ph * pow(max(0, 1 - abs(x - px) / pw), 1.25));
  const n = 1 - abs(noise(x * 0.035 + off) * 2 - 1);
  return h + n * jag;
}

function skyline(base, peaks, jag, off) {
  const pts = [];
  for (let x = -10; x <= 610; x += 5) pts.push([x, base - heightAt(x, peaks, jag, off)]);
  return pts;
}

// The shadow face of one peak: its right-hand ridge from the summit down to the col, then a
// spur back up to the summit, so the face reads as a plane turned away from the light.
function shadowFace(pts, px, pw, base, off) {
  const ridge = pts.filter(([x]) => x >= px && x <= px + pw * 0.95);
  const spur = [];
  const top = ridge[0];
  for (let k = 6; k >= 1; k--) {
    const t = k / 6;
    spur.push([top[0] - pw * 0.18 * t + (noise(k * 0.7 + off) - 0.5) * 22, top[1] + (base - top[1]) * t]);
  }
  return [...ridge, [ridge[ridge.length - 1][0], base], ...spur];
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#ece9e2');
  brush.scaleBrushes(3);

  // Sky: bare paper with one soft rubbed tone along the top edge.
  brush.noStroke();
  brush.hatchStyle('spray', '#c9c5be', 2);
  brush.hatch(16, 0.04, { rand: 0.4 });
  brush.rect(0, 0, 600, 70);
  brush.noHatch();

  // Far range: one pale value, its right-hand faces lightly hatched.
  const FAR = [[40, 120, 110], [250, 150, 130], [440, 125, 110], [600, 110, 100]];
  const far = skyline(330, FAR, 18, 3);
  brush.wash('#d1cdc5', 230);
  brush.polygon([...far, [610, 430], [-10, 430]]);
  brush.noWash();
  for (const [px, , pw] of FAR) {
    brush.hatchStyle('2B', '#a29e96', 0.6);
    brush.hatch(4.5, 1.15, { rand: 0.3 });
    brush.polygon(shadowFace(far, px, pw, 400, px));
    brush.noHatch();
  }

  // Main range: lit faces a light grey with a grain of strokes, snow near the summits.
  const main = skyline(420, MAIN, 26, 17);
  brush.wash('#b9b5ad', 240);
  brush.polygon([...main, [610, 470], [-10, 470]]);
  brush.noWash();
  brush.hatchStyle('charcoal', '#98948c', 0.5);
  brush.hatch(9, -0.9, { rand: 0.6 });
  brush.polygon([...main, [610, 460], [-10, 460]]);
  brush.noHatch();
  brush.wash('#f1eee8', 235);
  for (const [px, ph, pw] of MAIN) {
    const top = 420 - heightAt(px, MAIN, 26, 17);
    brush.polygon([[px, top + 4], [px - pw * 0.22, top + 42], [px - pw * 0.34, top + 85], [px - pw * 0.16, top + 64], [px - pw * 0.08, top + 90], [px - 2, top + 40]]);
  }
  brush.noWash();
  // Shadow faces: a mid layer down the fall line, then a denser core under each summit.
  for (const [px, ph, pw] of MAIN) {
    const faceA = shadowFace(main, px, pw, 460, px);
    brush.hatchStyle('charcoal', '#4a4641', 0.9);
    brush.hatch(3.5, 1.2, { rand: 0.35 });
    brush.polygon(faceA);
    brush.noHatch();
    // The core: the upper half of the face, its lower edge a ragged diagonal back to the spur.
    const top = faceA[0];
    const drop = 460 - top[1];
    const core = [
      ...main.filter(([x]) => x >= px && x <= px + pw * 0.55),
      [px + pw * 0.42, top[1] + drop * 0.62],
      [px + pw * 0.2, top[1] + drop * 0.5 + (noise(px) - 0.5) * 30],
      [px - pw * 0.05, top[1] + drop * 0.4],
    ];
    brush.hatchStyle('charcoal', '#211f1c', 1);
    brush.hatch(3, 1.0, { rand: 0.35 });
    brush.polygon(core);
    brush.noHatch();
  }
  brush.set('charcoal', '#2a2724', 0.8);
  brush.spline(main, 0.1);
  // Gullies on the lit faces.
  for (const [px, ph, pw] of MAIN) {
    for (let i = 0; i < 3; i++) {
      const x = px - pw * (0.3 + i * 0.15);
      const y = 420 - heightAt(x, MAIN, 26, 17) + 12;
      brush.set('charcoal', '#6d6963', 0.55);
      brush.spline([[x, y], [x - 6, y + 30], [x - 16, y + 60]], 0.5);
    }
  }

  // Valley mist: the foot of the range fades into bare paper.
  // Rubbed back in paper colour, in layers that thicken downwards, so it has no hard edge.
  brush.noStroke();
  for (const [y0, d] of [[405, 9], [425, 6], [445, 4]]) {
    brush.hatchStyle('spray', '#ece9e2', 3);
    brush.hatch(d, 0.02, { rand: 0.4 });
    brush.polygon([[-10, y0], [610, y0 - 4], [610, 500], [-10, 500]]);
    brush.noHatch();
  }

  // Foreground spur: the darkest value, a wooded shoulder coming in from the left.
  const crest = [];
  for (let x = -10; x <= 610; x += 10) crest.push([x, 478 + pow(max(0, x) / 600, 1.6) * 80 + (noise(x * 0.02 + 60) - 0.5) * 14]);
  brush.wash('#3b3834', 245);
  brush.polygon([...crest, [610, 610], [-10, 610]]);
  brush.noWash();
  brush.hatchStyle('charcoal', '#1b1917', 1.1);
  brush.hatch(4, 0.35, { rand: 0.5 });
  brush.polygon([...crest, [610, 610], [-10, 610]]);
  brush.noHatch();
  // Pines standing on its crest, tallest where it is nearest (left).
  for (let i = 0; i < 34; i++) {
    const x = random(-10, 380);
    const c = crest[constrain(round((x + 10) / 10), 0, crest.length - 1)];
    const h = map(x, -10, 380, 70, 22) * random(0.65, 1.1);
    const tree = [[x, c[1] - h]];
    for (let k = 1; k <= 5; k++) {
      const yy = c[1] - h + (k / 5) * h * 0.9;
      const w = (k / 5) * h * 0.2;
      tree.push([x + w, yy]);
      tree.push([x + w * 0.35, yy - h * 0.05]);
    }
    const left = tree.slice(1).reverse().map(([tx, ty]) => [2 * x - tx, ty]);
    brush.wash('#1d1b19', 245);
    brush.polygon([...tree, [x, c[1] + 8], ...left]);
    brush.noWash();
  }
}
