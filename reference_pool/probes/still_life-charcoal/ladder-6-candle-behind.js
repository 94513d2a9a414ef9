// A vanitas by candlelight in charcoal on toned paper: a skull on a stack of two old books,
// turned towards a tall candle in a chamberstick on the right. The flame is the only light: the
// wall glows round it and falls away to black, the skull's brow, cheek and teeth catch the light
// on their candle side, and the books throw long shadows to the left; a thread of smoke rises.

const CRAN = [[-62, 10], [-70, -30], [-60, -70], [-30, -95], [10, -100], [48, -88], [70, -58], [74, -20], [66, 12], [56, 30], [46, 48], [40, 70], [-26, 70], [-34, 50], [-50, 34]];
const SOCKET_L = [[-44, -4], [-28, -14], [-10, -6], [-12, 12], [-28, 18], [-44, 10]];
const SOCKET_R = [[12, -6], [30, -14], [50, -4], [48, 12], [30, 18], [14, 10]];
const NOSE = [[0, 20], [8, 36], [0, 42], [-8, 36]];
const FLAME = [440, 212];

function at(pts, cx, cy, s) {
  return pts.map(([x, y]) => [cx + x * s, cy + y * s]);
}

// A rectangle with an oval hole round (cx, cy) (the hatching fills even-odd): the dark of the
// room with the candle's pool of light left out.
function aroundLight(x0, y0, x1, y1, cx, cy, rx, ry) {
  const pts = [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, cy]];
  for (let i = 0; i <= 28; i++) {
    const a = PI + (i / 28) * TWO_PI;
    pts.push([cx + cos(a) * rx, cy - sin(a) * ry]);
  }
  pts.push([x0, cy]);
  return pts;
}

function rub(pts, tone, d, a) {
  brush.noStroke();
  brush.hatchStyle('spray', tone, 3);
  brush.hatch(d, a, { rand: 0.45 });
  brush.polygon(pts);
  brush.noHatch();
}

function hatched(pts, tone, d, a, w) {
  brush.noStroke();
  brush.hatchStyle('charcoal', tone, w);
  brush.hatch(d, a, { rand: 0.35 });
  brush.polygon(pts);
  brush.noHatch();
}

function ellipsePts(cx, cy, rx, ry, n) {
  const pts = [];
  for (let i = 0; i < n; i++) pts.push([cx + cos((i / n) * TWO_PI) * rx, cy + sin((i / n) * TWO_PI) * ry]);
  return pts;
}

// A book lying flat: its cover, the page block facing us, the spine end on the left. The light
// comes from the right, so the page block brightens towards its right end.
function book(x0, x1, y, depth, thick, cover) {
  const top = [[x0, y], [x1, y - 4], [x1 + depth * 0.6, y + depth], [x0 + depth * 0.6, y + depth + 4]];
  const front = [[x0 + depth * 0.6, y + depth + 4], [x1 + depth * 0.6, y + depth], [x1 + depth * 0.6, y + depth + thick], [x0 + depth * 0.6, y + depth + thick + 4]];
  brush.noStroke();
  brush.wash(cover, 245);
  brush.polygon(top);
  brush.noWash();
  hatched(top, '#1f1d1b', 4, -0.4, 0.8);
  brush.wash('#cfc9bd', 245);
  brush.polygon(front);
  brush.noWash();
  const fx = x0 + depth * 0.6;
  const fw = x1 - x0;
  hatched([front[0], [fx + fw * 0.65, y + depth + 2], [fx + fw * 0.65, y + depth + thick + 2], front[3]], '#6a665f', 4.5, 0.1, 0.6);
  hatched([front[0], [fx + fw * 0.35, y + depth + 3], [fx + fw * 0.35, y + depth + thick + 3], front[3]], '#2a2825', 3, 0.1, 0.8);
  for (let i = 1; i < 7; i++) {
    brush.set('2B', '#6a665f', 0.4);
    brush.line(fx + 4, y + depth + 4 + (i / 7) * thick, fx + fw - 4, y + depth + (i / 7) * thick);
  }
  brush.set('charcoal', '#141312', 1.1);
  brush.spline([...top, top[0]], 0);
  brush.spline([front[1], front[2], front[3]], 0);
  brush.set('charcoal', '#0f0e0d', 1.6);
  brush.spline([[x0, y + 2], [x0 - 6, y + depth * 0.6], [fx - 2, y + depth + thick + 4]], 0.5);
  // The cover's edge catching the flame.
  brush.set('charcoal', '#e9e4d8', 0.8);
  brush.line(fx + fw * 0.6, y + depth + 2, x1 + depth * 0.6 - 2, y + depth);
}

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#cdc9c1');
  brush.scaleBrushes(3);

  // Wall and table: mid tones laid flat, then the dark of the room rubbed in round the light,
  // in two layers so the pool of light falls off softly.
  brush.noStroke();
  brush.wash('#8f8b84', 240);
  brush.rect(0, 0, 600, 400);
  brush.noWash();
  brush.wash('#a29e96', 240);
  brush.rect(0, 400, 600, 200);
  brush.noWash();
  brush.noStroke();
  brush.hatchStyle('spray', '#3a3733', 3);
  brush.hatch(10, 0.9, { rand: 0.45 });
  brush.polygon(aroundLight(0, 0, 600, 600, FLAME[0], FLAME[1] + 40, 170, 190));
  brush.hatchStyle('spray', '#1d1b19', 3);
  brush.hatch(9, 0.9, { rand: 0.45 });
  brush.polygon(aroundLight(0, 0, 600, 600, FLAME[0] - 20, FLAME[1] + 60, 270, 300));
  brush.noHatch();
  // The glow itself: the wall lightened round the flame, brightest nearest it.
  rub(ellipsePts(FLAME[0], FLAME[1] + 10, 120, 120, 14), '#bfb9ac', 6, 0.3);
  rub(ellipsePts(FLAME[0], FLAME[1], 55, 60, 12), '#ece6d8', 4, 0.3);
  // The table's back edge, lit only near the candle.
  brush.set('charcoal', '#1a1816', 1);
  brush.line(0, 401, 600, 399);
  brush.noStroke();
  rub(ellipsePts(FLAME[0] + 10, 470, 150, 45, 12), '#c4beb1', 6, 0.05);

  // Long shadows thrown to the left by the books and the skull.
  rub([[60, 478], [120, 470], [110, 520], [-10, 540], [-10, 490]], '#141312', 5, 0.1);
  rub([[60, 400], [150, 330], [165, 240], [100, 190], [-10, 210], [-10, 400]], '#121110', 6, 0.9);

  // Two books, the smaller one on top.
  book(90, 360, 432, 34, 30, '#3f3c38');
  book(120, 330, 392, 30, 22, '#55514b');

  // The skull, turned a little towards the flame, lit from the right.
  const cx = 228;
  const cy = 334;
  const s = 1.02;
  const cran = at(CRAN, cx, cy, s);
  brush.noStroke();
  brush.wash('#d9d3c6', 245);
  brush.polygon(cran);
  brush.noWash();
  // Shade: the left half turned from the flame (rubbed, then hatched), a darker core, the hollows.
  rub(at([[-10, -100], [-48, -88], [-66, -60], [-70, -30], [-62, 10], [-50, 34], [-34, 50], [-26, 70], [0, 70], [-14, 20], [-24, -40]], cx, cy, s), '#3a3733', 5, 0.9);
  hatched(at([[-20, -99], [-48, -88], [-66, -60], [-70, -30], [-62, 10], [-50, 34], [-34, 50], [-26, 70], [-8, 70], [-26, 20], [-40, -30]], cx, cy, s), '#4a4641', 3.6, 1.1, 0.8);
  hatched(at([[-45, -88], [-60, -70], [-70, -30], [-62, 10], [-50, 34], [-38, 46], [-48, 0], [-52, -50]], cx, cy, s), '#1c1a18', 3, -0.7, 0.9);
  hatched(at([[54, 24], [40, 30], [30, 40], [46, 46]], cx, cy, s), '#3a3733', 2.6, 0.9, 0.7);
  hatched(at([[60, -40], [72, -24], [66, 4], [58, -10]], cx, cy, s), '#55514b', 3, 1.2, 0.6);
  // Sockets and nose, near-black, with a glint of reflected light low in the right socket.
  for (const p of [SOCKET_L, SOCKET_R, NOSE]) {
    hatched(at(p, cx, cy, s), '#100f0e', 2, 0.7, 0.9);
    hatched(at(p, cx, cy, s), '#100f0e', 2.4, -0.6, 0.9);
  }
  brush.set('charcoal', '#8a857a', 0.6);
  brush.spline(at([[18, 12], [30, 16], [44, 10]], cx, cy, s), 0.5);
  // Teeth, lit on the right.
  hatched(at([[-26, 52], [36, 52], [36, 68], [-26, 68]], cx, cy, s), '#6a665f', 2.6, 1.4, 0.6);
  for (let i = 0; i < 8; i++) {
    const x = -22 + i * 7.5;
    brush.set('charcoal', '#1d1b19', 0.6);
    brush.line(cx + x * s, cy + 52 * s, cx + (x + random(-1, 1)) * s, cy + 68 * s);
  }
  brush.set('charcoal', '#1d1b19', 0.8);
  brush.spline(at([[-28, 52], [4, 48], [38, 52]], cx, cy, s), 0.5);
  // Contour: lost in the shadow on the left, crisp and lit on the right.
  brush.set('charcoal', '#141312', 1.3);
  brush.spline(at([[-26, 70], [-34, 50], [-50, 34], [-62, 10], [-70, -30], [-60, -70], [-30, -95], [10, -100]], cx, cy, s), 0.5);
  brush.set('charcoal', '#2a2825', 0.8);
  brush.spline(at([[10, -100], [48, -88], [70, -58], [74, -20], [66, 12], [56, 30], [46, 48], [40, 70]], cx, cy, s), 0.5);
  // Light on the brow, the cheekbone and the dome facing the flame.
  brush.set('charcoal', '#f6f1e6', 1.3);
  brush.spline(at([[20, -94], [50, -82], [66, -58]], cx, cy, s), 0.6);
  brush.set('charcoal', '#f6f1e6', 1);
  brush.spline(at([[12, -18], [32, -22], [52, -16]], cx, cy, s), 0.5);
  brush.spline(at([[46, 26], [56, 20], [62, 8]], cx, cy, s), 0.5);
  // A hairline crack across the dome.
  brush.set('charcoal', '#3a3733', 0.5);
  brush.spline(at([[-6, -98], [2, -80], [-6, -66], [4, -52]], cx, cy, s), 0.3);

  // The candle in a chamberstick.
  brush.noStroke();
  brush.wash('#efe9dc', 250);
  brush.polygon([[425, 250], [455, 248], [456, 444], [424, 446]]);
  brush.noWash();
  hatched([[424, 252], [432, 251], [432, 445], [424, 446]], '#7a746a', 3, 1.5, 0.6);
  brush.set('charcoal', '#3a3733', 0.7);
  brush.line(424, 252, 424, 446);
  brush.line(456, 250, 456, 444);
  brush.set('charcoal', '#b8b1a3', 0.9);
  brush.spline([[446, 252], [449, 276], [446, 300], [448, 312]], 0.6);
  // The chamberstick: a dish with a dark rim and a lit lip, a ring handle.
  brush.noStroke();
  brush.wash('#4a4641', 248);
  brush.polygon(ellipsePts(440, 452, 78, 16, 18));
  brush.noWash();
  hatched(ellipsePts(412, 456, 48, 12, 14), '#1a1816', 3, 0.2, 0.8);
  brush.set('charcoal', '#ede7da', 1);
  brush.spline([[446, 438], [490, 442], [514, 450]], 0.5);
  brush.set('charcoal', '#141312', 1);
  brush.spline([...ellipsePts(440, 452, 78, 16, 18), ellipsePts(440, 452, 78, 16, 18)[0]], 0.5);
  brush.set('charcoal', '#1a1816', 1.6);
  brush.spline([[518, 452], [540, 440], [552, 454], [536, 466], [516, 460]], 0.6);
  brush.set('charcoal', '#121110', 0.9);
  brush.spline([[372, 470], [440, 480], [508, 470]], 0.5);
  // Wick, flame (a bright teardrop with a dark core) and a thread of smoke.
  brush.set('charcoal', '#1b1a18', 0.8);
  brush.line(440, 250, 441, 236);
  brush.noStroke();
  brush.wash('#fdfbf6', 250);
  brush.polygon([[440, 176], [451, 206], [450, 226], [440, 236], [430, 226], [429, 206]]);
  brush.noWash();
  hatched([[440, 214], [444, 226], [440, 234], [436, 226]], '#7a746a', 1.8, 1.57, 0.5);
  brush.set('charcoal', '#8f897d', 0.5);
  brush.spline([[440, 172], [446, 150], [434, 124], [446, 96], [438, 64]], 0.7);
}
