// Crude: one pine as a symbol, a triangle on a box trunk in thin pen outline, floating on bare
// paper with no ground and no tone.

function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#fbfaf5');
  brush.scaleBrushes(3);
  brush.noFill();
  brush.set('pen', '#161616', 0.6);
  brush.polygon([[300, 190], [370, 380], [230, 380]]);
  brush.rect(290, 380, 20, 40);
  brush.noStroke();
}
