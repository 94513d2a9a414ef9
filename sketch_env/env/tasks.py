"""The shipped task set and the policy's instructions.

A task is one painting to make: a subject in a medium, with the concrete scene that the
preference model scores the picture against. The set is 6 subjects x 4 media = 24 tasks, with
ids ``"{subject}/{medium}"`` (``"flowers/watercolour"``), stored in ``data/tasks.json`` and
versioned by `TASKSET_VERSION`: a change to any prompt is a new version, because rewards
measured against different prompts are not comparable.

`POLICY_INSTRUCTIONS` is the system prompt for the policy. It describes the p5.brush 2.x subset
the policy may use; every ``brush.*`` name in it exists in the vendored library (a test checks
each against `sketch_env.scoring.known_brush_members`) and its example sketch is rendered in
a test.
"""

from __future__ import annotations

import hashlib
import json
import re
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from sketch_env.gate.policy import (
    BRUSH_DRAWING_CALLS,
    CANVAS_SIZE,
    ESCAPE_NAMES,
    PRIMITIVES,
    RAW_GRAPHICS_GLOBALS,
    TEXT_CALLS,
)

__all__ = [
    "EXAMPLE_SKETCH",
    "MEDIA",
    "POLICY_INSTRUCTIONS",
    "SUBJECTS",
    "TASKSET_VERSION",
    "Task",
    "UnknownTaskError",
    "brush_names_in",
    "build_messages",
    "get_task",
    "load_tasks",
    "task_for_seed",
    "user_message",
]

#: Version of the shipped task set; bump it whenever a prompt changes.
TASKSET_VERSION = "1"
#: The subjects, in task-set order.
SUBJECTS: tuple[str, ...] = ("flowers", "landscape", "still_life", "seascape", "trees", "abstract")
#: The media, in task-set order.
MEDIA: tuple[str, ...] = ("watercolour", "charcoal", "ink_hatching", "pastel")


class UnknownTaskError(ValueError):
    """A task id that is not in the task set (the message lists close matches)."""


@dataclass(frozen=True)
class Task:
    """One painting task.

    Args:
        id: ``"{subject}/{medium}"``.
        subject: One of `SUBJECTS` (free-form for custom task sets).
        medium: One of `MEDIA` (free-form for custom task sets).
        prompt: The scene the picture is scored against.
    """

    id: str
    subject: str
    medium: str
    prompt: str

    def to_dict(self) -> dict[str, str]:
        """Returns the task as a plain dict."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Task:
        """Builds a task from a mapping with ``id``, ``subject``, ``medium`` and ``prompt``.

        Raises:
            ValueError: If a field is missing, not a non-empty string, or unknown.
        """
        names = ("id", "subject", "medium", "prompt")
        unknown = sorted(set(data) - set(names))
        if unknown:
            raise ValueError(f"unknown task fields {unknown}; expected {list(names)}")
        for name in names:
            value = data.get(name)
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"task field {name!r} must be a non-empty string, got {value!r}")
        return cls(**{name: data[name] for name in names})


def _parse(raw: Any, origin: str) -> tuple[Task, ...]:
    if not isinstance(raw, dict) or not isinstance(raw.get("tasks"), list):
        raise ValueError(f"{origin}: expected an object with a 'tasks' list")
    tasks = tuple(Task.from_dict(item) for item in raw["tasks"])
    if not tasks:
        raise ValueError(f"{origin}: the task list is empty")
    ids = [t.id for t in tasks]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValueError(f"{origin}: duplicate task ids {duplicates}")
    return tasks


@cache
def _shipped() -> tuple[Task, ...]:
    text = resources.files("sketch_env.env").joinpath("data/tasks.json").read_text("utf-8")
    raw = json.loads(text)
    if raw.get("version") != TASKSET_VERSION:
        raise ValueError(
            f"shipped tasks.json has version {raw.get('version')!r}, code expects "
            f"{TASKSET_VERSION!r}"
        )
    return _parse(raw, "tasks.json")


def load_tasks(path: str | Path | None = None) -> tuple[Task, ...]:
    """Loads a task set.

    Args:
        path: A JSON file ``{"version": ..., "tasks": [{id, subject, medium, prompt}, ...]}``;
            the shipped set when ``None``.

    Returns:
        The tasks, in file order.

    Raises:
        ValueError: If the file is malformed, empty, or has duplicate ids.
        OSError: If the file cannot be read.

    Examples:
        >>> tasks = load_tasks()
        >>> len(tasks), tasks[0].id
        (24, 'flowers/watercolour')
    """
    if path is None:
        return _shipped()
    return _parse(json.loads(Path(path).read_text("utf-8")), str(path))


def get_task(task_id: str, tasks: Sequence[Task] | None = None) -> Task:
    """Finds a task by id.

    Args:
        task_id: ``"{subject}/{medium}"``.
        tasks: The task set; the shipped one when ``None``.

    Returns:
        The task.

    Raises:
        UnknownTaskError: If there is no such task (the message names close matches).
    """
    pool = tasks if tasks is not None else load_tasks()
    for task in pool:
        if task.id == task_id:
            return task
    import difflib

    ids = [t.id for t in pool]
    close = difflib.get_close_matches(str(task_id), ids, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise UnknownTaskError(
        f"unknown task id {task_id!r}{hint} Known ids look like 'flowers/watercolour' "
        f"({len(ids)} in this task set)."
    )


def task_for_seed(seed: int, tasks: Sequence[Task] | None = None) -> Task:
    """Chooses a task deterministically from a seed.

    The choice hashes the task-set version and the seed (SHA-256), so it is the same on every
    machine and Python version, and neighbouring seeds do not walk the list in order.

    Args:
        seed: A non-negative integer.
        tasks: The task set; the shipped one when ``None``.

    Returns:
        The chosen task.
    """
    pool = tasks if tasks is not None else load_tasks()
    digest = hashlib.sha256(f"sketch_env/tasks/{TASKSET_VERSION}/{int(seed)}".encode()).digest()
    return pool[int.from_bytes(digest[:8], "big") % len(pool)]


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
- Brushes: 'pen', 'rotring', '2B', 'HB', '2H', 'cpencil', 'pastel', 'crayon', 'charcoal',
  'spray', 'marker'.
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
- Vector fields: `brush.field(name)` with 'hand', 'curved', 'zigzag', 'waves', 'seabed',
  'spiral' or 'columns'; `brush.noField()`.
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
