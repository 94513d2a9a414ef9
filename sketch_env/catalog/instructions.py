"""The policy's instructions: the system prompt, the user turn and the example sketch.

`POLICY_INSTRUCTIONS` describes the p5.brush 2.x subset the policy may use. Its rules are
written from the policy vocabulary (`sketch_env.catalog.vocabulary`), the same constants the
gate and the run-time check read, so the three cannot drift apart
(tests/catalog/test_policy_contract.py holds them together); every ``brush.*`` name in it exists
in the vendored library (a test checks each against `sketch_env.gate.known_brush_members`) and
its example sketch is rendered in a test.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable

from sketch_env.catalog.vocabulary import (
    BRUSH_DRAWING_CALLS,
    BRUSHES,
    CANVAS_SIZE,
    ESCAPE_NAMES,
    PRIMITIVES,
    RAW_GRAPHICS_GLOBALS,
    TEXT_CALLS,
    VECTOR_FIELDS,
)

__all__ = [
    "EXAMPLE_SKETCH",
    "POLICY_INSTRUCTIONS",
    "REFUSED_HEADING",
    "brush_names_in",
    "build_messages",
    "user_message",
]

#: The example sketch in `POLICY_INSTRUCTIONS` (rendered by a test, so it stays correct).
EXAMPLE_SKETCH = """\
function setup() {
  createCanvas(600, 600, WEBGL);
  background('#f3ead7');
  translate(-width / 2, -height / 2);

  // A flat wash for the sky: cheap and even.
  brush.noStroke();
  brush.wash('#b9cfe0', 180);
  brush.rect(0, 0, 600, 340);
  brush.noWash();

  // A watercolour hill: a textured fill with a little bleed.
  brush.fill('#6d9a5a', 150);
  brush.fillBleed(0.15);
  brush.fillTexture(0.3, 0.2);
  brush.beginShape(0.5);
  brush.vertex(0, 600);
  brush.vertex(0, 380);
  brush.vertex(220, 320);
  brush.vertex(430, 370);
  brush.vertex(600, 330);
  brush.vertex(600, 600);
  brush.endShape(true);
  brush.noFill();

  // Pencil contour along the ridge.
  brush.set('2B', '#3a3226', 1.2);
  brush.spline([[10, 382], [220, 322], [430, 372], [590, 332]], 0.5);

  // A hatched sun.
  brush.noStroke();
  brush.hatchStyle('pen', '#c0703a', 0.7);
  brush.hatch(5, PI / 4);
  brush.circle(470, 140, 45);
  brush.noHatch();

  // Grass strokes that follow a vector field.
  brush.field('waves');
  brush.set('HB', '#2f4a2a', 1);
  for (let i = 0; i < 14; i++) {
    brush.flowLine(random(20, 580), random(430, 580), random(30, 70), -HALF_PI);
  }
  brush.noField();
}
"""

#: The line that opens the list of what the gate refuses (a test reads the list after it).
REFUSED_HEADING = "Refused (a sketch that uses any of these is not run):"


def _names(names: Iterable[str], call: bool = True) -> str:
    return ", ".join(f"`{name}()`" if call else f"`{name}`" for name in sorted(names))


def _bullet(text: str) -> str:
    return textwrap.fill(text, width=94, initial_indent="- ", subsequent_indent="  ")


# The gate's rules, written from the gate's own constants so the two cannot drift apart.
_W, _H = CANVAS_SIZE
_DRAWING = _bullet(
    f"Paint with p5.brush: at least one brush drawing call "
    f"({_names(f'brush.{n}' for n in BRUSH_DRAWING_CALLS)}). Setters such as `brush.set()`, "
    "`brush.fill()` or `brush.noStroke()` choose how to paint but paint nothing."
)
_REFUSED = "\n".join(
    [
        REFUSED_HEADING,
        _bullet(
            f"p5's own shapes: {_names(PRIMITIVES)}. Use brush.line, brush.rect, brush.circle, "
            "brush.arc, brush.polygon, brush.spline, brush.flowLine and "
            "brush.beginShape/vertex/endShape instead."
        ),
        _bullet(f"Text: {_names(TEXT_CALLS)}."),
        _bullet(
            "Raw canvas, pixel and WebGL access: "
            f"{_names(RAW_GRAPHICS_GLOBALS | {'getContext'}, call=False)}."
        ),
        _bullet(
            "Images, fonts, sound and files "
            f"({_names(ESCAPE_NAMES['asset_load'], call=False)}), the network, browser "
            "storage, the page outside the canvas, `eval` and code built from strings, "
            "computed names on `window`, `with`, and changing built-in objects or their "
            "prototypes."
        ),
        _bullet(
            "The window under another name: `this` as a value or with a computed name (use "
            "it only to reach your own fields; p5 callbacks and timers get the window as "
            "`this`), listeners and on-event handlers on the window itself, `postMessage`, and "
            "p5's private members (names starting with an underscore, such as "
            "`renderer._pInst`)."
        ),
    ]
)
# The brushes and vector fields, in the vocabulary's order (the reward search draws from the same
# tuples).
_BRUSHES = _bullet("Brushes: " + ", ".join(f"'{name}'" for name in BRUSHES) + ".")
_FIELDS = _bullet(
    "Vector fields: `brush.field(name)` with "
    + ", ".join(f"'{name}'" for name in VECTOR_FIELDS[:-1])
    + f" or '{VECTOR_FIELDS[-1]}'; `brush.noField()`."
)

POLICY_INSTRUCTIONS = f"""\
You paint pictures by writing p5.js sketches that draw with the p5.brush library (p5.js 2.x,
p5.brush 2.x). Reply with exactly one ```javascript fenced code block holding the whole sketch.

Rules the sketch must follow (a sketch that breaks them is not run):
- Global mode: declare `function setup() {{ ... }}` (not `const setup = ...`). A `draw()` is
  optional; without one the picture is what `setup()` painted. With one, call `noLoop()`.
- Start with `createCanvas({_W}, {_H}, WEBGL);` - p5.brush only draws on a WEBGL canvas, and a
  canvas of any other size (or pixel density) is refused. The WEBGL origin is the centre, so
  call `translate(-width / 2, -height / 2);` to use top-left coordinates from (0, 0) to
  ({_W}, {_H}).
{_DRAWING}
- Errors must surface: no `try`/`catch`, `.catch()` or error handlers. Fix what throws instead.
- Do not name a top-level `function` or `var` after a p5 global (such as `map`, `hex`,
  `random`, `color`): p5 then stops with "Cannot redefine property". Rename yours.

{_REFUSED}

The p5.brush 2.x functions you may use:
- Stroke: `brush.set(name, color, weight)` picks a brush, colour and weight and turns strokes
  on; `brush.pick(name)`, `brush.stroke(color)`, `brush.strokeWeight(weight)`,
  `brush.noStroke()`.
{_BRUSHES}
- Lines: `brush.line(x1, y1, x2, y2)`; `brush.spline([[x, y], [x, y, pressure], ...],
  curvature)`; `brush.flowLine(x, y, length, direction)` follows the active vector field;
  `brush.beginStroke('curve', x, y)`, then `brush.move(angle, length, pressure)` as often as
  needed, then `brush.endStroke(angle, pressure)`.
- Shapes (drawn with the current stroke, fill and hatch): `brush.rect(x, y, w, h)`,
  `brush.circle(x, y, radius)`, `brush.arc(x, y, radius, start, end)` (stroke only),
  `brush.polygon([[x, y], ...])`, and `brush.beginShape(curvature)`,
  `brush.vertex(x, y)`..., `brush.endShape(true)` to close it.
- Watercolour fill: `brush.fill(color, opacity)` (opacity 0-255), `brush.fillBleed(strength)`
  (0-1), `brush.fillTexture(texture, border)` (0-1 each), `brush.noFill()`. Textured fills
  are slow: use a handful, not dozens.
- Flat colour: `brush.wash(color, opacity)` ... `brush.noWash()`; fast, good for skies and
  grounds.
- Hatching: `brush.hatchStyle(name, color, weight)` first, then `brush.hatch(distance, angle)`
  or `brush.hatch(distance, angle, {{ rand: 0.1, continuous: false, gradient: 0.2 }})`;
  `brush.noHatch()`. Massed tone: `brush.mass(name, color, {{ strength: 0.8 }})` ...
  `brush.noMass()`.
{_FIELDS}
- Sizes: brush weights are tuned for small canvases; `brush.scaleBrushes(3)` early in
  `setup()` suits a 600x600 canvas.
- Order and state: lay flat `brush.wash()` areas before textured fills (a wash drawn after a
  textured fill in the same frame does not reach the canvas); fill, hatch and wash stay on
  until `brush.noFill()`, `brush.noHatch()`, `brush.noWash()`, so switch them off before
  drawing lines that should not be filled.
- p5's own `background()`, `random()`, `noise()`, `push()`, `pop()`, `translate()`,
  `rotate()`, `noLoop()` work as usual (random numbers are seeded for you); `background()` is
  the one way to colour the whole canvas without a brush.

Old p5.brush 1.x names no longer exist and throw: bleed (now fillBleed), setHatch (now
hatchStyle), segment (now move), and the brush versions of push, pop, rotate and scale (use
p5's own), reDraw and reBlend (delete them).

Example:
```javascript
{EXAMPLE_SKETCH}```
"""


def user_message(prompt: str) -> str:
    """The user turn for one task.

    Args:
        prompt: The scene to paint.

    Returns:
        The message text.
    """
    return f"Paint this: {prompt}"


def build_messages(prompt: str, instructions: str = POLICY_INSTRUCTIONS) -> list[dict[str, str]]:
    """Chat messages (system, user) for a policy, in the Hugging Face chat-template format.

    Args:
        prompt: The scene to paint.
        instructions: The system prompt.

    Returns:
        ``[{"role": "system", ...}, {"role": "user", ...}]``.
    """
    return [
        {"role": "system", "content": instructions},
        {"role": "user", "content": user_message(prompt)},
    ]


_BRUSH_NAME = re.compile(r"\bbrush\.([A-Za-z_$][\w$]*)")


def brush_names_in(texts: str | Iterable[str]) -> set[str]:
    """The ``brush.X`` member names a text mentions (to check them against the library).

    Args:
        texts: A text or several.

    Returns:
        The names after ``brush.``.
    """
    items = [texts] if isinstance(texts, str) else list(texts)
    return {m.group(1) for text in items for m in _BRUSH_NAME.finditer(text)}
