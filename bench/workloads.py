"""The benchmark's sketches: a trivial one, a heavy watercolour one, and a mixed GRPO group.

Every sketch here is written for the benchmark. Cost notes (docs/design.md §3, p5.brush facts): a
textured, bleeding watercolour fill is by far the most expensive thing p5.brush draws (seconds of
raster time each on a software GL), strokes and flat washes are cheap. The heavy sketch and the
fill curve therefore vary the number of textured fills, and the group mixes cheap and heavy
sketches the way a policy's eight completions of one prompt do.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from pathlib import Path

#: The checkout's reference pool; a heavy watercolour sketch there is preferred when present.
REFERENCE_POOL = Path(__file__).resolve().parent.parent / "reference_pool"

#: (a) One pencil stroke on a WEBGL canvas: what remains is the per-render overhead.
TRIVIAL = """function setup() {
  createCanvas(600, 600, WEBGL);
  background(245, 240, 228);
  translate(-width / 2, -height / 2);
  brush.set('HB', '#1f2f7a', 1);
  brush.line(60, 80, 540, 520);
}
"""

_PALETTE = ("#c8402a", "#2a6f97", "#e0a23a", "#5b8c4e", "#8e3b6e", "#3d5a80", "#d8735a", "#6a994e")


def watercolour(fills: int, strokes: int = 6) -> str:
    """A watercolour sketch with ``fills`` textured, bleeding fills and a few pencil strokes.

    Args:
        fills: Number of ``fillTexture`` + ``fillBleed`` polygons (the expensive part).
        strokes: Pencil lines drawn over them.

    Returns:
        The sketch source.
    """
    lines = [
        "function setup() {",
        "  createCanvas(600, 600, WEBGL);",
        "  translate(-width / 2, -height / 2);",
        "  background('#f6efdf');",
        "  brush.noStroke();",
    ]
    for i in range(fills):
        # Fills on a loose grid, overlapping a little, as the shapes of a still life would.
        cx = 110 + (i % 4) * 125
        cy = 130 + (i // 4) * 170 + (i % 2) * 40
        size = 95 + (i * 37) % 40
        lines += [
            f"  brush.fill('{_PALETTE[i % len(_PALETTE)]}', {150 + (i * 23) % 80});",
            f"  brush.fillBleed({0.12 + 0.02 * (i % 4):.2f}, 'out');",
            f"  brush.fillTexture({0.4 + 0.05 * (i % 3):.2f}, {0.45 + 0.05 * (i % 2):.2f});",
            f"  brush.polygon(blob({cx}, {cy}, {size}));",
        ]
    lines += [
        "  brush.noFill();",
        "  brush.set('2B', '#2b2b33', 1.2);",
        f"  for (let i = 0; i < {strokes}; i++) {{",
        "    brush.line(random(40, 560), random(40, 560), random(40, 560), random(40, 560));",
        "  }",
        "}",
        "",
        "function blob(cx, cy, r) {",
        "  const pts = [];",
        "  for (let k = 0; k < 9; k++) {",
        "    const a = (k / 9) * TWO_PI;",
        "    const rr = r * (0.75 + 0.3 * noise(cx * 0.01 + k));",
        "    pts.push([cx + cos(a) * rr, cy + sin(a) * rr]);",
        "  }",
        "  return pts;",
        "}",
        "",
    ]
    return "\n".join(lines)


def hatching(lines: int) -> str:
    """An ink-hatching sketch: many cheap pen strokes and one hatched shape."""
    return f"""function setup() {{
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background(250, 248, 240);
  brush.set('pen', '#1d1d2b', 1);
  for (let i = 0; i < {lines}; i++) {{
    const y = 40 + i * (520 / {lines});
    brush.line(40 + random(20), y, 560 - random(20), y + random(-12, 12));
  }}
  brush.hatchStyle('HB', '#7a2f2f', 1);
  brush.hatch(6, PI / 4);
  brush.circle(300, 300, 140);
}}
"""


def pencil_flowfield(strokes: int) -> str:
    """A pencil drawing in a flow field: medium cost, strokes only."""
    return f"""function setup() {{
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background(244, 238, 226);
  brush.field('curved');
  brush.set('2B', '#3a3a48', 1.5);
  for (let i = 0; i < {strokes}; i++) {{
    brush.flowLine(random(600), random(600), random(150, 400), random(TWO_PI));
  }}
  brush.noField();
}}
"""


def flat_wash(shapes: int) -> str:
    """Flat washes (no texture): cheap fills."""
    return f"""function setup() {{
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background(248, 244, 235);
  brush.noStroke();
  for (let i = 0; i < {shapes}; i++) {{
    brush.wash(color(random(255), random(255), random(255)), 180);
    brush.rect(random(500), random(500), random(60, 160), random(60, 160));
  }}
  brush.noWash();
  brush.set('cpencil', '#203040', 1);
  brush.line(30, 570, 570, 30);
}}
"""


@dataclass(frozen=True)
class Sketch:
    """A named benchmark sketch.

    Args:
        name: Short label.
        source: p5.js + p5.brush source.
    """

    name: str
    source: str


def _reference_heavy() -> Sketch | None:
    """The reference pool's hibiscus, "heavy on purpose: a dozen textured, bleeding fills".

    Chosen by construction rather than by the pool's measured ``render_ms``, which was taken on
    a loaded machine and varies 5x between runs of the same sketch.
    """
    path = REFERENCE_POOL / "flowers-watercolour-hibiscus.js"
    if not path.is_file():
        return None
    listed = False
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
        index = json.loads((REFERENCE_POOL / "pool.json").read_text("utf-8"))
        listed = any(r["file"] == path.name for r in index["references"])
    label = "reference_pool/" + path.name + (" (in pool.json)" if listed else "")
    return Sketch(label, path.read_text("utf-8"))


def heavy_sketch(quick: bool = False) -> Sketch:
    """Workload (b): a heavy watercolour sketch.

    The reference pool's hibiscus ("heavy on purpose: a dozen textured, bleeding fills") when
    the checkout has it; otherwise `watercolour` with ten fills. ``quick`` takes a three-fill
    sketch so a smoke run stays short.

    Args:
        quick: Use a light stand-in.

    Returns:
        The sketch.
    """
    if quick:
        return Sketch("watercolour, 3 textured fills", watercolour(3))
    return _reference_heavy() or Sketch("watercolour, 10 textured fills", watercolour(10))


def grpo_group(quick: bool = False) -> list[Sketch]:
    """Workload (c): eight mixed completions, as one GRPO group of a painting prompt.

    Two light, two medium, four with watercolour fills (1 to 4 textured fills): a spread of
    costs like a policy's completions, heavy enough that rasterisation dominates as in real
    training, light enough to repeat within minutes on two cores.

    Args:
        quick: Lighter sketches (fewer fills and strokes) for a smoke run.

    Returns:
        Eight sketches.
    """
    if quick:
        return [
            Sketch("trivial", TRIVIAL),
            Sketch("hatching-20", hatching(20)),
            Sketch("wash-4", flat_wash(4)),
            Sketch("pencil-10", pencil_flowfield(10)),
            Sketch("watercolour-1", watercolour(1)),
            Sketch("trivial", TRIVIAL),
            Sketch("hatching-20", hatching(20)),
            Sketch("watercolour-1", watercolour(1)),
        ]
    return [
        Sketch("hatching-60", hatching(60)),
        Sketch("wash-8", flat_wash(8)),
        Sketch("pencil-40", pencil_flowfield(40)),
        Sketch("trivial", TRIVIAL),
        Sketch("watercolour-1", watercolour(1)),
        Sketch("watercolour-2", watercolour(2)),
        Sketch("watercolour-3", watercolour(3)),
        Sketch("watercolour-4", watercolour(4)),
    ]


#: Fill counts of the paint-amount curve.
FILL_COUNTS = (1, 2, 4, 8)
