// Weak on purpose: one flat green hill under a flat blue sky, horizon dead centre, the path two
// stiff pencil lines, one lollipop tree; no bleeding, no layering.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f6f1e4');
  brush.scaleBrushes(3);

  // Pencil first: the path, two straight converging lines (gone over again at the end).
  brush.set('HB', '#6a5a40', 0.8);
  brush.line(230, 600, 295, 300);
  brush.line(370, 600, 305, 300);
  brush.noStroke();

  brush.wash('#a9c8e0', 200);
  brush.rect(0, 0, 600, 300);
  brush.wash('#7fae55', 210);
  brush.polygon([[0, 600], [0, 310], [150, 290], [300, 300], [450, 290], [600, 305], [600, 600]]);
  brush.wash('#c9b07a', 220);
  brush.polygon([[230, 600], [295, 300], [305, 300], [370, 600]]);
  // A lollipop tree.
  brush.wash('#3f6f35', 230);
  brush.circle(470, 230, 38);
  brush.noWash();
  brush.set('marker', '#4a3020', 1.4);
  brush.line(470, 268, 470, 300);
  brush.set('HB', '#6a5a40', 0.8);
  brush.line(230, 600, 295, 300);
  brush.line(370, 600, 305, 300);
}
