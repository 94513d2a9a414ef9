"""`run_search`: what a black-box optimiser finds when the reward is its only guide.

A policy trained with GRPO is an optimiser; whatever raises the reward it will find. Hand-written
hacks (`hacks`) measure what their authors thought of, so this module measures the reward by
what *search* finds. Two optimisers, both seeded and both blind to painting, take every
candidate through the whole environment (gate → render → score → reward) with
`Evaluator.evaluate_sync`, one generation per concurrent batch:

- **blind** evolves a small typed genome (`Genome`: a background, a three-colour palette, a
  brush scale and a list of `Mark`\\ s) that `compile_genome` turns into a sketch using only the
  p5.brush calls the policy's instructions offer
  (`sketch_env.catalog.instructions.POLICY_INSTRUCTIONS`):
  lines, splines, flow lines, free strokes, arcs, rectangles, circles, polygons, free shapes,
  fills, washes, hatching, massed tone, hatch and mass arrays, every brush and every vector
  field. Every compiled program passes the default gate (``tests/rewardcheck/test_reward_search.py``
  checks thousands). Mutation is structured (move, resize, recolour, change brush, kind or
  paint, add, remove, duplicate, reorder marks...), crossover splices two mark lists.
- **references** starts from each of the task's reference sketches' own source and mutates
  it (`mutate_source`): numeric and colour literals, duplicating, removing and reordering the
  statements of ``setup``, inserting random brush calls. It shows what the reward pays for
  beyond the painting. Mutants are not repaired: one the gate refuses is evaluated anyway and
  earns the gate's penalty (−1 by default), and counts against the budget like any other.

Both keep the best half of everything evaluated so far as parents (elitism: a parent is never
re-evaluated; with one render seed the reward is a function of the program), pick parents by
tournament, and fill each generation with children (crossover then mutation, or mutation
alone). The budget counts evaluations; references are evaluated once per task, outside it.

The report (`SearchReport`) gives per task: the task's references evaluated against the
*task's* prompt with the same evaluator and seed (min/median/max), the best reward found, the
**adversarial gap** (best found − median reference; a sound reward keeps it ≤ 0), the
trajectory of every run (best and median reward per generation), and which reward components
and scorer terms the top candidates saturated (`TermSaturation`). ``report.write_search_html``
puts the winners' pictures beside the references.

Examples:
    >>> from sketch_env.rewardcheck.search import compile_genome, random_genome
    >>> import random
    >>> source = compile_genome(random_genome(random.Random(0)))
    >>> source.startswith("function setup() {")
    True
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import tree_sitter
import tree_sitter_javascript
from PIL import Image

from sketch_env.catalog.references import Reference, load_reference_pool
from sketch_env.catalog.tasks import Task, get_task
from sketch_env.evaluation.evaluator import Evaluator
from sketch_env.evaluation.rollout import Rollout

__all__ = [
    "BRUSHES",
    "DEFAULT_TASKS",
    "FIELDS",
    "LINE_KINDS",
    "MAX_MARKS",
    "MAX_SLOW_MARKS",
    "MODES",
    "PAINTS",
    "PREFERENCE_CAPS",
    "SHAPE_KINDS",
    "Candidate",
    "GenerationStats",
    "Genome",
    "Mark",
    "SearchInfrastructureError",
    "SearchReport",
    "SearchRun",
    "TaskSearch",
    "TermSaturation",
    "compile_genome",
    "crossover",
    "load_search_report",
    "mark_calls",
    "mutate_genome",
    "mutate_source",
    "random_genome",
    "random_mark",
    "run_search",
    "split_budget",
    "write_search_json",
]

# --------------------------------------------------------------------------------------------
# The vocabulary: exactly what POLICY_INSTRUCTIONS offers (a test checks both directions).
# --------------------------------------------------------------------------------------------

#: The brushes the instructions list (`brush.box()` of the vendored p5.brush 2.2.2).
BRUSHES: tuple[str, ...] = (
    "pen",
    "rotring",
    "2B",
    "HB",
    "2H",
    "cpencil",
    "pastel",
    "crayon",
    "charcoal",
    "spray",
    "marker",
)
#: The vector fields the instructions list.
FIELDS: tuple[str, ...] = ("hand", "curved", "zigzag", "waves", "seabed", "spiral", "columns")
#: Marks that are strokes only.
LINE_KINDS: tuple[str, ...] = ("line", "spline", "flow_line", "stroke", "arc")
#: Closed marks, painted by their `PAINTS` mode (``hatch_array``/``mass_array`` hatch or mass a
#: polygon through ``brush.hatchArray``/``brush.massArray``).
SHAPE_KINDS: tuple[str, ...] = (
    "rect",
    "circle",
    "polygon",
    "shape",
    "hatch_array",
    "mass_array",
)
#: How a closed mark is painted: textured fill, flat wash, hatching, massed tone, outline only.
PAINTS: tuple[str, ...] = ("fill", "wash", "hatch", "mass", "outline")
#: The two searches.
MODES: tuple[str, ...] = ("blind", "references")
#: Four tasks of different subjects and media: the default of ``--tasks``.
DEFAULT_TASKS: tuple[str, ...] = (
    "flowers/watercolour",
    "landscape/charcoal",
    "still_life/ink_hatching",
    "seascape/pastel",
)

_SIZE = 600.0
#: Marks a genome may hold.
MAX_MARKS = 32
#: Slow marks (textured fills, massed tone) a genome may hold; more are turned into washes.
#: Measured on llvmpipe under load (2 cores shared): five textured fills cost 3-8 s, five
#: masses 5-11 s, five washes or hatchings about 1 s. The instructions tell the policy the
#: same ("textured fills are slow: use a handful, not dozens"), so the cap is the contract's
#: advice, not knowledge of painting; without it one generation took minutes.
MAX_SLOW_MARKS = 4
#: Points per kind: (fewest, most).
_POINTS: dict[str, tuple[int, int]] = {
    "line": (2, 2),
    "spline": (2, 6),
    "flow_line": (1, 1),
    "stroke": (2, 6),
    "arc": (1, 1),
    "rect": (2, 2),
    "circle": (1, 1),
    "polygon": (3, 7),
    "shape": (3, 7),
    "hatch_array": (3, 7),
    "mass_array": (3, 7),
}

RGB = tuple[int, int, int]
Point = tuple[float, float]


@dataclass(frozen=True)
class Mark:
    """One brush mark of a genome: what to draw, where, and with what.

    Every number is kept inside the range `random_mark` draws from, so any mark compiles to
    calls with sensible arguments; `compile_genome` says how each field is used.

    Args:
        kind: One of `LINE_KINDS` or `SHAPE_KINDS`.
        paint: For a closed mark, one of `PAINTS` (``hatch_array`` hatches and ``mass_array``
            masses whatever this says); ignored by lines.
        brush: One of `BRUSHES`: the stroke's brush, and the hatching's or mass's.
        colour: Index into the genome's palette.
        weight: Stroke or hatch weight, 0.3-4.
        opacity: Fill or wash opacity, 20-255.
        points: Canvas points ``(x, y)`` in ``[0, 600]``, as many as `_POINTS` allows.
        size: Radius of a circle or an arc, length of a flow line, 5-300.
        angle: Direction in radians (flow line, arc start, hatch angle), 0-2π.
        spread: A fraction: spline and shape curvature, fill bleed (x0.4), hatch randomness,
            arc extent.
        texture: A fraction: fill texture, hatch gradient, mass strength.
        spacing: Hatch distance in pixels, 4-40.
        field: One of `FIELDS`, for a flow line.
        pick: Set the stroke with ``brush.pick``/``stroke``/``strokeWeight`` rather than
            ``brush.set``.
        outline: Stroke a closed mark's outline too.
    """

    kind: str
    paint: str
    brush: str
    colour: int
    weight: float
    opacity: int
    points: tuple[Point, ...]
    size: float
    angle: float
    spread: float
    texture: float
    spacing: float
    field: str
    pick: bool = False
    outline: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view (points as lists)."""
        out = asdict(self)
        out["points"] = [list(p) for p in self.points]
        return out


@dataclass(frozen=True)
class Genome:
    """A program the blind search evolves: compiled to a sketch by `compile_genome`.

    Args:
        background: The canvas colour (``background(r, g, b)``).
        palette: Three colours the marks index into.
        scale: ``brush.scaleBrushes`` factor, 1-4.
        marks: One to `MAX_MARKS` marks, drawn in order.
    """

    background: RGB
    palette: tuple[RGB, RGB, RGB]
    scale: float
    marks: tuple[Mark, ...]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        return {
            "background": list(self.background),
            "palette": [list(c) for c in self.palette],
            "scale": self.scale,
            "marks": [m.to_dict() for m in self.marks],
        }


def _clamp(value: float, low: float, high: float) -> float:
    return min(high, max(low, value))


def _rgb(rng: random.Random) -> RGB:
    return (rng.randrange(256), rng.randrange(256), rng.randrange(256))


def _jitter_rgb(rng: random.Random, colour: RGB, sigma: float = 40.0) -> RGB:
    r, g, b = (int(_clamp(round(c + rng.gauss(0.0, sigma)), 0, 255)) for c in colour)
    return (r, g, b)


def _hex(colour: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _xy(rng: random.Random) -> Point:
    return (round(rng.uniform(0.0, _SIZE), 1), round(rng.uniform(0.0, _SIZE), 1))


def _points_for(rng: random.Random, kind: str, centre: Point, size: float) -> tuple[Point, ...]:
    """Points for ``kind``: lines and strokes span the canvas, closed marks cluster around
    ``centre`` within ``size`` (a random polygon over the whole canvas self-intersects)."""
    low, high = _POINTS[kind]
    count = rng.randint(low, high)
    if count == 1:
        return (centre,)
    if kind in ("polygon", "shape", "hatch_array", "mass_array", "rect"):
        cx, cy = centre
        return tuple(
            (
                round(_clamp(cx + rng.uniform(-size, size), 0.0, _SIZE), 1),
                round(_clamp(cy + rng.uniform(-size, size), 0.0, _SIZE), 1),
            )
            for _ in range(count)
        )
    return (centre, *(_xy(rng) for _ in range(count - 1)))


def random_mark(rng: random.Random, kind: str | None = None) -> Mark:
    """A mark with every field drawn uniformly from its range.

    Args:
        rng: The generator (the only source of randomness).
        kind: The mark's kind; any of `LINE_KINDS` + `SHAPE_KINDS` when ``None``.

    Returns:
        The mark.
    """
    chosen = kind or rng.choice(LINE_KINDS + SHAPE_KINDS)
    size = round(rng.uniform(5.0, 300.0), 1)
    return Mark(
        kind=chosen,
        paint=rng.choice(PAINTS),
        brush=rng.choice(BRUSHES),
        colour=rng.randrange(3),
        weight=round(rng.uniform(0.3, 4.0), 2),
        opacity=rng.randint(20, 255),
        points=_points_for(rng, chosen, _xy(rng), size),
        size=size,
        angle=round(rng.uniform(0.0, 2 * math.pi), 3),
        spread=round(rng.random(), 3),
        texture=round(rng.random(), 3),
        spacing=round(rng.uniform(4.0, 40.0), 1),
        field=rng.choice(FIELDS),
        pick=rng.random() < 0.3,
        outline=rng.random() < 0.4,
    )


def _is_slow(mark: Mark) -> bool:
    return mark.kind == "mass_array" or (
        mark.kind in ("rect", "circle", "polygon", "shape") and mark.paint in ("fill", "mass")
    )


def _within_cost(marks: Sequence[Mark]) -> tuple[Mark, ...]:
    """The marks with every slow one past `MAX_SLOW_MARKS` made cheap (a wash; a mass array
    becomes a hatch array), so that a genome's render cost stays bounded."""
    out = []
    slow = 0
    for mark in marks[:MAX_MARKS]:
        if _is_slow(mark):
            slow += 1
            if slow > MAX_SLOW_MARKS:
                mark = (
                    replace(mark, kind="hatch_array")
                    if mark.kind == "mass_array"
                    else replace(mark, paint="wash")
                )
        out.append(mark)
    return tuple(out)


def random_genome(rng: random.Random) -> Genome:
    """A random genome: a background, a palette, a brush scale and 3-12 random marks.

    Args:
        rng: The generator.

    Returns:
        The genome.
    """
    return Genome(
        background=_rgb(rng),
        palette=(_rgb(rng), _rgb(rng), _rgb(rng)),
        scale=round(rng.uniform(1.0, 4.0), 2),
        marks=_within_cost([random_mark(rng) for _ in range(rng.randint(3, 12))]),
    )


# --------------------------------------------------------------------------------------------
# Compiling a genome to a sketch.
# --------------------------------------------------------------------------------------------


def _f(value: float) -> str:
    """A number as JavaScript source, one decimal (whole numbers without one)."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _stroke_setter(mark: Mark, colour: str) -> list[str]:
    if mark.pick:
        return [
            f"brush.pick('{mark.brush}');",
            f"brush.stroke('{colour}');",
            f"brush.strokeWeight({mark.weight:.2f});",
        ]
    return [f"brush.set('{mark.brush}', '{colour}', {mark.weight:.2f});"]


def _point_list(points: Sequence[Point]) -> str:
    return "[" + ", ".join(f"[{_f(x)}, {_f(y)}]" for x, y in points) + "]"


def _line_calls(mark: Mark, colour: str) -> list[str]:
    p = mark.points
    out = _stroke_setter(mark, colour)
    if mark.kind == "line":
        (x1, y1), (x2, y2) = p[0], p[1]
        out.append(f"brush.line({_f(x1)}, {_f(y1)}, {_f(x2)}, {_f(y2)});")
    elif mark.kind == "spline":
        out.append(f"brush.spline({_point_list(p)}, {mark.spread:.2f});")
    elif mark.kind == "flow_line":
        x, y = p[0]
        out += [
            f"brush.field('{mark.field}');",
            f"brush.flowLine({_f(x)}, {_f(y)}, {_f(mark.size)}, {mark.angle:.3f});",
            "brush.noField();",
        ]
    elif mark.kind == "stroke":
        # The free stroke walks from point to point: each move's angle and length are those of
        # the segment (radians, y up, as p5.brush measures them).
        x0, y0 = p[0]
        out.append(f"brush.beginStroke('curve', {_f(x0)}, {_f(y0)});")
        last = 0.0
        for (ax, ay), (bx, by) in itertools.pairwise(p):
            last = math.atan2(-(by - ay), bx - ax)
            length = max(1.0, math.hypot(bx - ax, by - ay))
            out.append(f"brush.move({last:.3f}, {_f(length)}, 1);")
        out.append(f"brush.endStroke({last:.3f}, 1);")
    else:  # arc
        x, y = p[0]
        end = mark.angle + 0.3 + mark.spread * (2 * math.pi - 0.3)
        out.append(f"brush.arc({_f(x)}, {_f(y)}, {_f(mark.size)}, {mark.angle:.3f}, {end:.3f});")
    return out


def _paint_on(mark: Mark, colour: str) -> tuple[list[str], list[str]]:
    """The calls that switch the mark's paint on, and those that switch it off again."""
    if mark.paint == "fill":
        return (
            [
                f"brush.fill('{colour}', {mark.opacity});",
                f"brush.fillBleed({mark.spread * 0.4:.3f});",
                f"brush.fillTexture({mark.texture:.3f}, {mark.spread:.3f});",
            ],
            ["brush.noFill();"],
        )
    if mark.paint == "wash":
        return [f"brush.wash('{colour}', {mark.opacity});"], ["brush.noWash();"]
    if mark.paint == "hatch":
        return _hatch_on(mark, colour), ["brush.noHatch();"]
    if mark.paint == "mass":
        return (
            [f"brush.mass('{mark.brush}', '{colour}', {{ strength: {mark.texture:.2f} }});"],
            ["brush.noMass();"],
        )
    return [], []  # outline: the stroke alone


def _hatch_on(mark: Mark, colour: str) -> list[str]:
    style = f"brush.hatchStyle('{mark.brush}', '{colour}', {mark.weight:.2f});"
    if mark.spread < 0.3:
        return [style, f"brush.hatch({_f(mark.spacing)}, {mark.angle:.3f});"]
    options = (
        f"{{ rand: {mark.spread * 0.3:.3f}, continuous: {str(mark.texture > 0.5).lower()}, "
        f"gradient: {mark.texture * 0.5:.3f} }}"
    )
    return [style, f"brush.hatch({_f(mark.spacing)}, {mark.angle:.3f}, {options});"]


def _shape_calls(mark: Mark, colour: str) -> list[str]:
    p = mark.points
    if mark.outline or mark.paint == "outline":
        out = _stroke_setter(mark, colour)
    else:
        out = ["brush.noStroke();"]
    if mark.kind == "hatch_array":
        # The polygon is drawn (stroke as set) and then hatched as an array of one.
        return [
            *out,
            *_hatch_on(mark, colour),
            f"brush.hatchArray([brush.polygon({_point_list(p)})]);",
            "brush.noHatch();",
        ]
    if mark.kind == "mass_array":
        return [
            *out,
            f"brush.mass('{mark.brush}', '{colour}', {{ strength: {mark.texture:.2f} }});",
            f"brush.massArray([brush.polygon({_point_list(p)})]);",
            "brush.noMass();",
        ]
    on, off = _paint_on(mark, colour)
    out += on
    if mark.kind == "rect":
        (x1, y1), (x2, y2) = p[0], p[1]
        w, h = max(4.0, abs(x2 - x1)), max(4.0, abs(y2 - y1))
        out.append(f"brush.rect({_f(min(x1, x2))}, {_f(min(y1, y2))}, {_f(w)}, {_f(h)});")
    elif mark.kind == "circle":
        x, y = p[0]
        out.append(f"brush.circle({_f(x)}, {_f(y)}, {_f(mark.size)});")
    elif mark.kind == "polygon":
        out.append(f"brush.polygon({_point_list(p)});")
    else:  # shape
        out.append(f"brush.beginShape({mark.spread:.2f});")
        out += [f"brush.vertex({_f(x)}, {_f(y)});" for x, y in p]
        out.append("brush.endShape(true);")
    return out + off


def mark_calls(mark: Mark, palette: Sequence[RGB] | Sequence[str]) -> list[str]:
    """The statements that draw one mark, leaving fill, wash, hatch, mass and field off.

    Args:
        mark: The mark.
        palette: Colours as RGB triples or ``'#rrggbb'`` strings; ``mark.colour`` indexes it
            modulo its length.

    Returns:
        JavaScript statements, one per string.
    """
    chosen = palette[mark.colour % len(palette)]
    colour = chosen if isinstance(chosen, str) else _hex(chosen)
    if mark.kind in LINE_KINDS:
        return _line_calls(mark, colour)
    return _shape_calls(mark, colour)


def compile_genome(genome: Genome) -> str:
    """Compiles a genome to a sketch that passes the default gate.

    The sketch is the instructions' frame (``createCanvas(600, 600, WEBGL)``, top-left
    coordinates through ``translate``), ``background()``, ``brush.scaleBrushes`` and each
    mark's calls (`mark_calls`) in order; every coordinate is a literal, so the program does
    not depend on p5's ``random()``.

    Args:
        genome: The genome.

    Returns:
        The sketch's source.
    """
    r, g, b = genome.background
    lines = [
        "function setup() {",
        "  createCanvas(600, 600, WEBGL);",
        "  translate(-width / 2, -height / 2);",
        f"  background({r}, {g}, {b});",
        f"  brush.scaleBrushes({genome.scale:.2f});",
    ]
    for mark in genome.marks:
        lines += ["  " + call for call in mark_calls(mark, genome.palette)]
    lines.append("}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------
# Mutation and crossover of genomes.
# --------------------------------------------------------------------------------------------


def _centre(points: Sequence[Point]) -> Point:
    return (
        sum(x for x, _ in points) / len(points),
        sum(y for _, y in points) / len(points),
    )


def _moved(points: Sequence[Point], dx: float, dy: float) -> tuple[Point, ...]:
    return tuple(
        (round(_clamp(x + dx, 0.0, _SIZE), 1), round(_clamp(y + dy, 0.0, _SIZE), 1))
        for x, y in points
    )


def _tweak_mark(mark: Mark, rng: random.Random) -> tuple[Mark, str]:
    """One structured change to one mark; returns it and the operator's name."""
    op = rng.choice(
        ("move", "jitter", "resize", "recolour", "brush", "kind", "paint", "scalar", "flags")
    )
    if op == "move":
        dx, dy = rng.gauss(0.0, 60.0), rng.gauss(0.0, 60.0)
        return replace(mark, points=_moved(mark.points, dx, dy)), op
    if op == "jitter":
        i = rng.randrange(len(mark.points))
        moved = _moved([mark.points[i]], rng.gauss(0.0, 30.0), rng.gauss(0.0, 30.0))[0]
        return replace(mark, points=(*mark.points[:i], moved, *mark.points[i + 1 :])), op
    if op == "resize":
        factor = math.exp(rng.gauss(0.0, 0.4))
        cx, cy = _centre(mark.points)
        scaled = tuple(
            (
                round(_clamp(cx + (x - cx) * factor, 0.0, _SIZE), 1),
                round(_clamp(cy + (y - cy) * factor, 0.0, _SIZE), 1),
            )
            for x, y in mark.points
        )
        size = round(_clamp(mark.size * factor, 5.0, 300.0), 1)
        return replace(mark, points=scaled, size=size), op
    if op == "recolour":
        return replace(mark, colour=rng.randrange(3)), op
    if op == "brush":
        return replace(mark, brush=rng.choice(BRUSHES)), op
    if op == "kind":
        kind = rng.choice(LINE_KINDS + SHAPE_KINDS)
        points = _points_for(rng, kind, _centre(mark.points), mark.size)
        return replace(mark, kind=kind, points=points), op
    if op == "paint":
        return replace(mark, paint=rng.choice(PAINTS)), op
    if op == "flags":
        which = rng.choice(("pick", "outline", "field"))
        if which == "field":
            return replace(mark, field=rng.choice(FIELDS)), op
        if which == "pick":
            return replace(mark, pick=not mark.pick), op
        return replace(mark, outline=not mark.outline), op
    return _tweak_scalar(mark, rng), op


def _tweak_scalar(mark: Mark, rng: random.Random) -> Mark:
    """One of the mark's numbers moved within its range (multiplicatively for scales)."""
    name = rng.choice(("weight", "opacity", "angle", "spread", "texture", "spacing", "size"))
    if name == "weight":
        return replace(
            mark, weight=round(_clamp(mark.weight * math.exp(rng.gauss(0.0, 0.4)), 0.3, 4.0), 2)
        )
    if name == "opacity":
        return replace(mark, opacity=int(_clamp(mark.opacity + rng.gauss(0, 50), 20, 255)))
    if name == "angle":
        return replace(mark, angle=round((mark.angle + rng.gauss(0.0, 0.8)) % (2 * math.pi), 3))
    if name == "spread":
        return replace(mark, spread=round(_clamp(mark.spread + rng.gauss(0.0, 0.25), 0.0, 1.0), 3))
    if name == "texture":
        return replace(
            mark, texture=round(_clamp(mark.texture + rng.gauss(0.0, 0.25), 0.0, 1.0), 3)
        )
    if name == "spacing":
        return replace(
            mark, spacing=round(_clamp(mark.spacing * math.exp(rng.gauss(0.0, 0.4)), 4, 40), 1)
        )
    return replace(mark, size=round(_clamp(mark.size * math.exp(rng.gauss(0.0, 0.4)), 5, 300), 1))


def _mutate_once(genome: Genome, rng: random.Random) -> tuple[Genome, str]:
    marks = list(genome.marks)
    roll = rng.random()
    if roll < 0.45:
        i = rng.randrange(len(marks))
        marks[i], op = _tweak_mark(marks[i], rng)
        return replace(genome, marks=tuple(marks)), op
    if roll < 0.58 and len(marks) < MAX_MARKS:
        marks.insert(rng.randint(0, len(marks)), random_mark(rng))
        return replace(genome, marks=tuple(marks)), "add"
    if roll < 0.68 and len(marks) > 1:
        marks.pop(rng.randrange(len(marks)))
        return replace(genome, marks=tuple(marks)), "remove"
    if roll < 0.78 and len(marks) < MAX_MARKS:
        i = rng.randrange(len(marks))
        copy = replace(
            marks[i], points=_moved(marks[i].points, rng.gauss(0, 80.0), rng.gauss(0, 80.0))
        )
        marks.insert(i + 1, copy)
        return replace(genome, marks=tuple(marks)), "duplicate"
    if roll < 0.84 and len(marks) > 1:
        mark = marks.pop(rng.randrange(len(marks)))
        marks.insert(rng.randint(0, len(marks)), mark)
        return replace(genome, marks=tuple(marks)), "reorder"
    if roll < 0.92:
        i = rng.randrange(3)
        palette = list(genome.palette)
        palette[i] = _rgb(rng) if rng.random() < 0.3 else _jitter_rgb(rng, palette[i])
        return replace(genome, palette=(palette[0], palette[1], palette[2])), "palette"
    if roll < 0.97:
        background = _rgb(rng) if rng.random() < 0.3 else _jitter_rgb(rng, genome.background)
        return replace(genome, background=background), "background"
    scale = round(_clamp(genome.scale * math.exp(rng.gauss(0.0, 0.3)), 1.0, 4.0), 2)
    return replace(genome, scale=scale), "scale"


def mutate_genome(genome: Genome, rng: random.Random) -> tuple[Genome, tuple[str, ...]]:
    """Applies one to four structured mutations (geometrically many: half the time one).

    Args:
        genome: The parent.
        rng: The generator.

    Returns:
        The child and the names of the operators applied, in order.
    """
    ops = []
    for _ in range(4):
        genome, op = _mutate_once(genome, rng)
        ops.append(op)
        if rng.random() < 0.5:
            break
    return replace(genome, marks=_within_cost(genome.marks)), tuple(ops)


def crossover(a: Genome, b: Genome, rng: random.Random) -> Genome:
    """One-point crossover of the mark lists; background, scale and each palette colour come
    from either parent.

    Args:
        a: The first parent (its marks before the cut).
        b: The second parent (its marks after the cut).
        rng: The generator.

    Returns:
        The child (1 to `MAX_MARKS` marks, at most `MAX_SLOW_MARKS` of them slow).
    """
    cut_a = rng.randint(1, len(a.marks))
    cut_b = rng.randint(0, len(b.marks))
    marks = _within_cost(a.marks[:cut_a] + b.marks[cut_b:])
    p = tuple(rng.choice((x, y)) for x, y in zip(a.palette, b.palette, strict=True))
    return Genome(
        background=rng.choice((a.background, b.background)),
        palette=(p[0], p[1], p[2]),
        scale=rng.choice((a.scale, b.scale)),
        marks=marks,
    )


# --------------------------------------------------------------------------------------------
# Mutating a reference's own source.
# --------------------------------------------------------------------------------------------

_LANGUAGE = tree_sitter.Language(tree_sitter_javascript.language())
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def _parse(source: bytes) -> tree_sitter.Node:
    return tree_sitter.Parser(_LANGUAGE).parse(source).root_node


def _walk(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    found = []
    stack = [node]
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(reversed(current.children))
    return found


def _setup_body(root: tree_sitter.Node) -> tree_sitter.Node | None:
    for child in root.named_children:
        name = child.child_by_field_name("name")
        if child.type == "function_declaration" and name is not None and name.text == b"setup":
            return child.child_by_field_name("body")
    return None


def _in_create_canvas(node: tree_sitter.Node) -> bool:
    current: tree_sitter.Node | None = node
    while current is not None:
        if current.type == "call_expression":
            callee = current.child_by_field_name("function")
            if callee is not None and callee.text == b"createCanvas":
                return True
        current = current.parent
    return False


def _is_colour(text: bytes) -> bool:
    value = text[1:-1]
    return (
        len(text) >= 2
        and text[:1] in (b"'", b'"')
        and value[:1] == b"#"
        and len(value) in (4, 7, 9)
        and all(chr(c) in _HEX_DIGITS for c in value[1:])
    )


def _splice(data: bytes, start: int, end: int, text: str) -> bytes:
    return data[:start] + text.encode("utf-8") + data[end:]


def _new_number(rng: random.Random, text: str) -> str | None:
    try:
        value = float(text)
    except ValueError:
        return None  # hex, octal, bigint literals: left alone
    if value == 0.0:
        new = rng.uniform(-1.0, 1.0)
    else:
        # Symmetric in log: halving is as likely as doubling.
        new = value * math.exp(rng.uniform(-math.log(2.0), math.log(2.0)))
    if all(c.isdigit() for c in text):
        whole = round(new)
        return str(whole if whole != int(value) else int(value) + rng.choice((-1, 1)))
    return repr(round(new, 3))


def _source_colours(root: tree_sitter.Node) -> list[str]:
    colours = []
    for node in _walk(root):
        text = node.text or b""
        if node.type == "string" and _is_colour(text):
            value = text[1:-1].decode()
            if len(value) == 7:
                colours.append(value)
    return colours


def mutate_source(source: str, rng: random.Random) -> tuple[str, tuple[str, ...]]:
    """One to three source-level mutations of a sketch (geometrically many).

    Operators: ``number`` (a numeric literal times 0.5-2, log-uniform; integers stay
    integers), ``colour`` (a ``'#rrggbb'`` literal jittered or replaced), ``duplicate``,
    ``remove`` and ``reorder`` (a top-level statement of ``setup``), and ``insert`` (a random
    brush mark, `random_mark` in colours taken from the sketch, at a random place in
    ``setup``). The statement holding ``createCanvas`` and its arguments are never touched:
    without them no sketch passes the gate, so mutating them would only spend the budget on
    known −1s. The result is not gated here and may fail the gate.

    Args:
        source: The sketch.
        rng: The generator.

    Returns:
        The mutant and the operators applied. A source without ``function setup`` comes back
        unchanged with no operators.
    """
    ops: list[str] = []
    data = source.encode("utf-8")
    for _ in range(3):
        data, op = _mutate_source_once(data, rng)
        if op is None:
            break
        ops.append(op)
        if rng.random() < 0.5:
            break
    return data.decode("utf-8", "replace"), tuple(ops)


def _mutate_source_once(data: bytes, rng: random.Random) -> tuple[bytes, str | None]:
    root = _parse(data)
    body = _setup_body(root)
    if body is None:
        return data, None
    statements = [s for s in body.named_children if s.type != "comment"]
    anchor = next((i for i, s in enumerate(statements) if b"createCanvas" in (s.text or b"")), -1)
    movable = [s for i, s in enumerate(statements) if i != anchor]
    numbers = [n for n in _walk(root) if n.type == "number" and not _in_create_canvas(n)]
    colours = [n for n in _walk(root) if n.type == "string" and _is_colour(n.text or b"")]
    choices = ["insert"]
    if numbers:
        choices += ["number", "number"]  # the commonest literal: twice the weight
    if colours:
        choices.append("colour")
    if movable:
        choices += ["duplicate", "remove", "reorder"]
    op = rng.choice(choices)
    if op == "number":
        node = rng.choice(numbers)
        new = _new_number(rng, (node.text or b"").decode())
        if new is None:
            return data, "number"
        return _splice(data, node.start_byte, node.end_byte, new), op
    if op == "colour":
        node = rng.choice(colours)
        text = (node.text or b"").decode()
        quote, value = text[0], text[1:-1]
        if len(value) == 4:
            value = "#" + "".join(c * 2 for c in value[1:])
        alpha = value[7:9]
        old = (int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16))
        new_rgb = _rgb(rng) if rng.random() < 0.3 else _jitter_rgb(rng, old)
        literal = quote + _hex(new_rgb) + alpha + quote
        return _splice(data, node.start_byte, node.end_byte, literal), op
    texts = [(s.text or b"").decode("utf-8", "replace") for s in statements]
    floor = anchor + 1  # new and moved statements go after createCanvas
    if op == "insert":
        palette = _source_colours(root) or [_hex(_rgb(rng)) for _ in range(3)]
        picked = [rng.choice(palette) for _ in range(3)]
        block = "{ " + " ".join(mark_calls(random_mark(rng), picked)) + " }"
        texts.insert(rng.randint(floor, len(texts)), block)
    else:
        index = rng.choice([i for i in range(len(statements)) if i != anchor])
        if op == "duplicate":
            texts.insert(rng.randint(max(floor, 0), len(texts)), texts[index])
        elif op == "remove":
            texts.pop(index)
        else:  # reorder
            moved = texts.pop(index)
            new_anchor = anchor - (1 if index < anchor else 0)
            texts.insert(rng.randint(new_anchor + 1, len(texts)), moved)
    inner = "\n  " + "\n  ".join(texts) + "\n"
    return data[: body.start_byte + 1] + inner.encode("utf-8") + data[body.end_byte - 1 :], op


# --------------------------------------------------------------------------------------------
# The report.
# --------------------------------------------------------------------------------------------


class SearchInfrastructureError(RuntimeError):
    """The search could not measure a task: its references got no reward (browser or scorer
    down), so there is no baseline to compare with."""


@dataclass
class Candidate:
    """One evaluated program: a search candidate or a reference.

    Args:
        id: Unique within the report, e.g. ``flowers/watercolour/blind/g2/c05``.
        task_id: The task it was scored for.
        mode: ``blind``, ``references`` or ``reference`` (a reference painting itself).
        generation: Its generation (0 for the first; references are generation 0 of the
            ``references`` run and outside the budget).
        parents: The ids it was bred from.
        ops: The operators that made it (``random`` for a fresh genome, ``crossover``...).
        source: The sketch.
        reward: Its reward (``None`` for an infrastructure failure).
        status: How its rollout ended (`RolloutStatus` value).
        gate_passed: Whether the gate passed it.
        components: The reward's breakdown (`RewardBreakdown.to_dict`).
        render_ms: Its render time, if it rendered.
        genome: The genome (blind search only).
        image: Path of its picture relative to the output folder, once saved.
        png: The picture, kept in memory for the best candidates only.
    """

    id: str
    task_id: str
    mode: str
    generation: int
    parents: tuple[str, ...]
    ops: tuple[str, ...]
    source: str
    reward: float | None
    status: str
    gate_passed: bool
    components: dict[str, Any]
    render_ms: float | None = None
    genome: Genome | None = None
    image: str | None = None
    png: bytes | None = field(default=None, repr=False)
    source_sha: str = ""

    @property
    def sha(self) -> str:
        """The first 16 hex digits of the source's SHA-256 (as recorded, for a candidate read
        back from a report without its source)."""
        if self.source_sha and not self.source:
            return self.source_sha
        return hashlib.sha256(self.source.encode("utf-8")).hexdigest()[:16]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Candidate:
        """Reads back `to_dict`'s view (without the picture's bytes)."""
        genome = data.get("genome")
        return cls(
            id=data["id"],
            task_id=data["task_id"],
            mode=data["mode"],
            generation=data["generation"],
            parents=tuple(data["parents"]),
            ops=tuple(data["ops"]),
            source=data.get("source") or "",
            reward=data["reward"],
            status=data["status"],
            gate_passed=data["gate_passed"],
            components=data["components"],
            render_ms=data.get("render_ms"),
            genome=_genome_from_dict(genome) if genome else None,
            image=data.get("image"),
            source_sha=data.get("sha", ""),
        )

    def to_dict(self, *, with_source: bool = False) -> dict[str, Any]:
        """A JSON-ready view; the source (and genome) only when asked for."""
        out: dict[str, Any] = {
            "id": self.id,
            "task_id": self.task_id,
            "mode": self.mode,
            "generation": self.generation,
            "parents": list(self.parents),
            "ops": list(self.ops),
            "sha": self.sha,
            "reward": self.reward,
            "status": self.status,
            "gate_passed": self.gate_passed,
            "render_ms": self.render_ms,
            "image": self.image,
            "components": self.components,
        }
        if with_source:
            out["source"] = self.source
            out["genome"] = self.genome.to_dict() if self.genome is not None else None
        return out


@dataclass
class GenerationStats:
    """One generation of one run.

    Args:
        generation: Its index.
        evaluated: Candidates evaluated in it.
        best: The best reward in it.
        median: The median reward in it (over candidates with a reward).
        best_so_far: The best reward up to and including it.
        gate_failed: Candidates the gate refused.
        infra_failed: Candidates with no reward (infrastructure failures).
        seconds: Wall time of its batch.
    """

    generation: int
    evaluated: int
    best: float | None
    median: float | None
    best_so_far: float | None
    gate_failed: int
    infra_failed: int
    seconds: float


@dataclass
class SearchRun:
    """One search (one mode) on one task.

    Args:
        task_id: The task.
        mode: ``blind`` or ``references``.
        budget: Evaluations it was given.
        population: Candidates per generation.
        candidates: Every candidate it evaluated, in order.
        generations: The trajectory.
        seconds: Wall time.
    """

    task_id: str
    mode: str
    budget: int
    population: int
    candidates: list[Candidate] = field(default_factory=list)
    generations: list[GenerationStats] = field(default_factory=list)
    seconds: float = 0.0

    def ranked(self) -> list[Candidate]:
        """Candidates with a reward, best first (ties: the earlier first)."""
        return _ranked(self.candidates)

    @property
    def best(self) -> Candidate | None:
        """The best candidate, or ``None`` when none got a reward."""
        ranked = self.ranked()
        return ranked[0] if ranked else None

    def status_counts(self) -> dict[str, int]:
        """How the candidates' rollouts ended, counted."""
        counts: dict[str, int] = {}
        for c in self.candidates:
            counts[c.status] = counts.get(c.status, 0) + 1
        return dict(sorted(counts.items()))

    def to_dict(self, keep: int) -> dict[str, Any]:
        """A JSON-ready view; the ``keep`` best candidates carry their source."""
        top = {c.id for c in self.ranked()[:keep]}
        best = self.best
        return {
            "task_id": self.task_id,
            "mode": self.mode,
            "budget": self.budget,
            "population": self.population,
            "evaluations": len(self.candidates),
            "seconds": round(self.seconds, 1),
            "best": best.to_dict(with_source=True) if best is not None else None,
            "status_counts": self.status_counts(),
            "generations": [asdict(g) for g in self.generations],
            "candidates": [c.to_dict(with_source=c.id in top) for c in self.candidates],
        }


@dataclass
class TermSaturation:
    """How one reward component or scorer term stands in the top candidates of a task.

    Args:
        name: The quantity: a breakdown field (``coverage_term``, ``preference``,
            ``dark_mass_penalty``, ``pairwise_prob``) or ``scorer:NAME`` for a scorer term.
        cap: The value at which it saturates (its best value: 0 for a penalty), or ``None``
            when no cap is known (then nothing is counted as saturated).
        top_mean: Its mean over the top candidates.
        reference_mean: Its mean over the task's references.
        at_cap: How many of the top candidates have it at the cap (within 0.001).
        top: How many top candidates were looked at.
    """

    name: str
    cap: float | None
    top_mean: float | None
    reference_mean: float | None
    at_cap: int
    top: int

    @property
    def saturated(self) -> bool:
        """Whether every top candidate has it at its cap."""
        return self.cap is not None and self.top > 0 and self.at_cap == self.top


@dataclass
class TaskSearch:
    """Everything the search found on one task.

    Args:
        task: The task.
        references: Its references, evaluated against the task's prompt.
        runs: One `SearchRun` per mode.
        seconds: Wall time (references and runs).
        preference_cap: The scorer's maximum (10 for the heuristic), if known.
        top: How many top candidates the saturation analysis looks at.
    """

    task: Task
    references: list[Candidate]
    runs: dict[str, SearchRun] = field(default_factory=dict)
    seconds: float = 0.0
    preference_cap: float | None = None
    top: int = 5

    def reference_rewards(self) -> list[float]:
        """The references' rewards (those that got one)."""
        return [r.reward for r in self.references if r.reward is not None]

    def reference_stats(self) -> dict[str, float | None]:
        """``min``, ``median`` and ``max`` of the references' rewards."""
        rewards = self.reference_rewards()
        if not rewards:
            return {"min": None, "median": None, "max": None}
        return {"min": min(rewards), "median": statistics.median(rewards), "max": max(rewards)}

    def ranked(self) -> list[Candidate]:
        """Every run's candidates with a reward, best first."""
        return _ranked([c for run in self.runs.values() for c in run.candidates])

    @property
    def best(self) -> Candidate | None:
        """The best candidate over every run."""
        ranked = self.ranked()
        return ranked[0] if ranked else None

    @property
    def gap(self) -> float | None:
        """The adversarial gap: best found − median reference (goal ≤ 0)."""
        best, median = self.best, self.reference_stats()["median"]
        if best is None or best.reward is None or median is None:
            return None
        return best.reward - median

    def warnings(self) -> list[str]:
        """What makes the baseline doubtful: references that did not end in a scored picture.

        A reference that timed out earns the environment's penalty, which is what the reward
        gives it but not what the painting is worth; on a loaded machine the heavy ones miss
        the 30 s default deadline (measured: the peony bouquet, 6.3 s on a quiet machine, ran
        past 30 s with the load average at 25 on 2 cores), so the figures say so.
        """
        return [
            f"reference {r.id} ended {r.status} and earned {r.reward}: its reward is not the "
            "painting's (a heavy sketch on a loaded machine: raise --deadline)"
            for r in self.references
            if r.status != "ok"
        ]

    def saturation(self) -> list[TermSaturation]:
        """Which components and scorer terms the `top` candidates saturate, beside the
        references' means (`TermSaturation`)."""
        return _saturation(self.ranked()[: self.top], self.references, self.preference_cap)

    def to_dict(self, keep: int) -> dict[str, Any]:
        """A JSON-ready view."""
        best = self.best
        return {
            "task": self.task.to_dict(),
            "seconds": round(self.seconds, 1),
            "references": [r.to_dict(with_source=True) for r in self.references],
            "reference_rewards": self.reference_stats(),
            "best": best.to_dict(with_source=True) if best is not None else None,
            "gap": self.gap,
            "preference_cap": self.preference_cap,
            "top": self.top,
            "warnings": self.warnings(),
            "saturation": [{**asdict(s), "saturated": s.saturated} for s in self.saturation()],
            "runs": {mode: run.to_dict(keep) for mode, run in self.runs.items()},
        }


@dataclass
class SearchReport:
    """What the search found on every task.

    Args:
        scorer: The scorer's name.
        reward_config: The reward's configuration.
        gate_config: The gate's configuration.
        backend: GL backend of the renders.
        seed: The search's seed (also every render's seed).
        budget: Evaluations, over every task and mode.
        population: Candidates per generation.
        modes: The modes run.
        tasks: One `TaskSearch` per task, in the order asked.
        seconds: Wall time.
        keep: How many best candidates per run keep their source and picture.
    """

    scorer: str
    reward_config: dict[str, Any]
    gate_config: dict[str, Any]
    backend: str
    seed: int
    budget: int
    population: int
    modes: tuple[str, ...]
    tasks: list[TaskSearch] = field(default_factory=list)
    seconds: float = 0.0
    keep: int = 6

    @property
    def evaluations(self) -> int:
        """Search evaluations made (references not counted)."""
        return sum(len(r.candidates) for t in self.tasks for r in t.runs.values())

    @property
    def reference_evaluations(self) -> int:
        """Reference evaluations made (one per reference and task)."""
        return sum(len(t.references) for t in self.tasks)

    @property
    def passed(self) -> bool:
        """Whether every task's gap is measured and ≤ 0."""
        return all(t.gap is not None and t.gap <= 0 for t in self.tasks)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        return {
            "kind": "reward-search",
            "scorer": self.scorer,
            "reward_config": self.reward_config,
            "gate_config": self.gate_config,
            "backend": self.backend,
            "seed": self.seed,
            "budget": self.budget,
            "population": self.population,
            "modes": list(self.modes),
            "evaluations": self.evaluations,
            "reference_evaluations": self.reference_evaluations,
            "seconds": round(self.seconds, 1),
            "keep": self.keep,
            "passed": self.passed,
            "gaps": {t.task.id: t.gap for t in self.tasks},
            "tasks": [t.to_dict(self.keep) for t in self.tasks],
        }


def _genome_from_dict(data: dict[str, Any]) -> Genome:
    r, g, b = data["background"]
    p = [(c[0], c[1], c[2]) for c in data["palette"]]
    marks = tuple(
        Mark(**{**m, "points": tuple((x, y) for x, y in m["points"])}) for m in data["marks"]
    )
    return Genome((r, g, b), (p[0], p[1], p[2]), data["scale"], marks)


def load_search_report(path: str | Path) -> SearchReport:
    """Reads a report written by `write_search_json` back (to redraw its page or compare two
    rewards' runs). Candidates outside each run's best ``keep`` come back without source.

    Args:
        path: The ``report.json``.

    Returns:
        The `SearchReport`.

    Raises:
        OSError: If the file cannot be read.
        ValueError: If it is not a search report.
    """
    data = json.loads(Path(path).read_text("utf-8"))
    if not isinstance(data, dict) or data.get("kind") != "reward-search":
        raise ValueError(f"{path} is not a reward-search report")
    report = SearchReport(
        scorer=data["scorer"],
        reward_config=data["reward_config"],
        gate_config=data["gate_config"],
        backend=data["backend"],
        seed=data["seed"],
        budget=data["budget"],
        population=data["population"],
        modes=tuple(data["modes"]),
        seconds=data["seconds"],
        keep=data.get("keep", 6),
    )
    for entry in data["tasks"]:
        task = TaskSearch(
            Task.from_dict(entry["task"]),
            [Candidate.from_dict(r) for r in entry["references"]],
            seconds=entry["seconds"],
            preference_cap=entry.get("preference_cap", PREFERENCE_CAPS.get(data["scorer"])),
            top=entry.get("top", 5),
        )
        for mode, run in entry["runs"].items():
            task.runs[mode] = SearchRun(
                task_id=run["task_id"],
                mode=run["mode"],
                budget=run["budget"],
                population=run["population"],
                candidates=[Candidate.from_dict(c) for c in run["candidates"]],
                generations=[GenerationStats(**g) for g in run["generations"]],
                seconds=run["seconds"],
            )
        report.tasks.append(task)
    return report


def write_search_json(report: SearchReport, path: str | Path) -> Path:
    """Writes the report as JSON.

    Args:
        report: The report.
        path: The file.

    Returns:
        The path written.
    """
    target = Path(path)
    target.write_text(json.dumps(report.to_dict(), indent=1, ensure_ascii=False), "utf-8")
    return target


def _ranked(candidates: Sequence[Candidate]) -> list[Candidate]:
    order = sorted(
        ((c.reward, -i, c) for i, c in enumerate(candidates) if c.reward is not None),
        key=lambda t: (t[0], t[1]),
        reverse=True,
    )
    return [c for _, _, c in order]


#: Known scorer maxima: the heuristic and anchored scorers score 0-10. Other scorers have no
#: fixed range (HPSv3's ``mu`` is unbounded), so their preference is reported without a cap.
PREFERENCE_CAPS: dict[str, float] = {"heuristic": 10.0, "anchored": 10.0}


def _term_cap(name: str) -> float | None:
    # The heuristic's terms and factors are fractions in [0, 1] by its naming convention
    # (`heuristic_terms`): ``*_term``, ``*_factor`` and ``base``. Raw measurements have no cap.
    return 1.0 if name.endswith(("_term", "_factor")) or name == "base" else None


def _mean(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _saturation(
    top: Sequence[Candidate], references: Sequence[Candidate], preference_cap: float | None
) -> list[TermSaturation]:
    """`TermSaturation` of each breakdown field and scorer term the top candidates have."""

    def values(items: Sequence[Candidate], name: str) -> list[float]:
        out = []
        for c in items:
            if name.startswith("scorer:"):
                value = (c.components.get("scorer_terms") or {}).get(name[len("scorer:") :])
            else:
                value = c.components.get(name)
            if isinstance(value, int | float) and not isinstance(value, bool):
                out.append(float(value))
        return out

    caps: dict[str, float | None] = {
        "preference": preference_cap,
        "coverage_term": 1.0,
        "dark_mass_penalty": 0.0,
        "pairwise_prob": 1.0,
    }
    terms = sorted({t for c in top for t in (c.components.get("scorer_terms") or {})})
    caps.update({f"scorer:{t}": _term_cap(t) for t in terms})
    found = []
    for name, cap in caps.items():
        mine = values(top, name)
        if not mine:
            continue
        at_cap = 0 if cap is None else sum(abs(v - cap) <= 1e-3 for v in mine)
        reference_mean = _mean(values(references, name))
        found.append(TermSaturation(name, cap, _mean(mine), reference_mean, at_cap, len(top)))
    return found


# --------------------------------------------------------------------------------------------
# The search.
# --------------------------------------------------------------------------------------------


def split_budget(budget: int, parts: int) -> list[int]:
    """Splits ``budget`` evaluations into ``parts`` near-equal shares, the first ones larger.

    Examples:
        >>> split_budget(500, 8)
        [63, 63, 63, 63, 62, 62, 62, 62]
    """
    share, extra = divmod(budget, parts)
    return [share + (1 if i < extra else 0) for i in range(parts)]


def _generation_sizes(budget: int, population: int) -> list[int]:
    sizes = [population] * (budget // population)
    return [*sizes, budget % population] if budget % population else sizes


def _tournament(rng: random.Random, parents: Sequence[Candidate], size: int = 3) -> Candidate:
    """The best of ``size`` parents drawn at random (``parents`` is ranked, best first)."""
    picks = sorted(rng.randrange(len(parents)) for _ in range(min(size, len(parents))))
    return parents[picks[0]]


class _Session:
    """Evaluates batches for one report, counts progress and keeps only the best pictures."""

    def __init__(
        self,
        evaluator: Evaluator,
        seed: int,
        total: int,
        progress: Callable[[int, int, str], None] | None,
    ) -> None:
        self.evaluator = evaluator
        self.seed = seed
        self.total = total
        self.done = 0
        self.progress = progress
        self.backend = ""

    def evaluate(self, task: Task, drafts: Sequence[dict[str, Any]], label: str) -> list[Candidate]:
        rollouts = self.evaluator.evaluate_sync(
            [d["source"] for d in drafts], [task.prompt] * len(drafts), self.seed
        )
        out = [self._candidate(task, d, r) for d, r in zip(drafts, rollouts, strict=True)]
        self.done += len(drafts)
        if self.progress is not None:
            self.progress(self.done, self.total, label)
        return out

    def _candidate(self, task: Task, draft: dict[str, Any], rollout: Rollout) -> Candidate:
        render = rollout.render
        if render is not None and render.backend and not self.backend:
            self.backend = render.backend
        return Candidate(
            id=draft["id"],
            task_id=task.id,
            mode=draft["mode"],
            generation=draft["generation"],
            parents=tuple(draft.get("parents", ())),
            ops=tuple(draft.get("ops", ())),
            source=draft["source"],
            reward=rollout.reward.reward,
            status=rollout.status.value,
            gate_passed=rollout.gate.passed,
            components=rollout.reward.to_dict(),
            render_ms=round(render.render_ms, 1) if render is not None else None,
            genome=draft.get("genome"),
            png=render.png if render is not None and render.status.has_picture else None,
        )


def _keep_best_pictures(candidates: Sequence[Candidate], keep: int) -> None:
    """Drops the pictures of all but the ``keep`` best candidates (memory stays bounded)."""
    best = {id(c) for c in _ranked(candidates)[:keep]}
    for c in candidates:
        if id(c) not in best:
            c.png = None


def _run_blind(
    session: _Session,
    task: Task,
    budget: int,
    population: int,
    rng: random.Random,
    keep: int,
) -> SearchRun:
    run = SearchRun(task.id, "blind", budget, population)
    start = time.perf_counter()
    seen: set[str] = set()
    elite = max(2, population // 2)
    for generation, size in enumerate(_generation_sizes(budget, population)):
        parents = run.ranked()[:elite]
        drafts = []
        for index in range(size):
            lineage: tuple[str, ...]
            ops: tuple[str, ...]
            for _ in range(10):  # a child identical to one already evaluated is redrawn
                if not parents:
                    genome, lineage, ops = random_genome(rng), (), ("random",)
                elif rng.random() < 0.5 and len(parents) >= 2:
                    a, b = _tournament(rng, parents), _tournament(rng, parents)
                    assert a.genome is not None and b.genome is not None
                    genome, ops = mutate_genome(crossover(a.genome, b.genome, rng), rng)
                    lineage, ops = (a.id, b.id), ("crossover", *ops)
                else:
                    a = _tournament(rng, parents)
                    assert a.genome is not None
                    genome, ops = mutate_genome(a.genome, rng)
                    lineage = (a.id,)
                source = compile_genome(genome)
                if source not in seen:
                    break
            seen.add(source)
            drafts.append(
                {
                    "id": f"{task.id}/blind/g{generation}/c{index:02d}",
                    "mode": "blind",
                    "generation": generation,
                    "parents": lineage,
                    "ops": ops,
                    "source": source,
                    "genome": genome,
                }
            )
        _record_generation(session, task, run, drafts, generation, keep)
    run.seconds = round(time.perf_counter() - start, 1)  # as reported
    return run


def _run_references(
    session: _Session,
    task: Task,
    references: Sequence[Candidate],
    budget: int,
    population: int,
    rng: random.Random,
    keep: int,
) -> SearchRun:
    run = SearchRun(task.id, "references", budget, population)
    start = time.perf_counter()
    seen = {r.source for r in references}
    elite = max(2, population // 2)
    for generation, size in enumerate(_generation_sizes(budget, population), start=1):
        # Generation 1 mutates every reference in turn; later ones breed from the best of the
        # references and everything evaluated so far.
        pool = _ranked([*references, *run.candidates])[:elite]
        drafts = []
        for index in range(size):
            for _ in range(10):
                if generation == 1 or not pool:
                    parent = references[index % len(references)]
                else:
                    parent = _tournament(rng, pool)
                source, ops = mutate_source(parent.source, rng)
                if source not in seen:
                    break
            seen.add(source)
            drafts.append(
                {
                    "id": f"{task.id}/references/g{generation}/c{index:02d}",
                    "mode": "references",
                    "generation": generation,
                    "parents": (parent.id,),
                    "ops": ops,
                    "source": source,
                }
            )
        _record_generation(session, task, run, drafts, generation, keep)
    run.seconds = round(time.perf_counter() - start, 1)  # as reported
    return run


def _record_generation(
    session: _Session,
    task: Task,
    run: SearchRun,
    drafts: Sequence[dict[str, Any]],
    generation: int,
    keep: int,
) -> None:
    start = time.perf_counter()
    batch = session.evaluate(task, drafts, f"{task.id} {run.mode} g{generation}")
    run.candidates.extend(batch)
    _keep_best_pictures(run.candidates, keep)
    rewards = [c.reward for c in batch if c.reward is not None]
    so_far = [c.reward for c in run.candidates if c.reward is not None]
    run.generations.append(
        GenerationStats(
            generation=generation,
            evaluated=len(batch),
            best=max(rewards) if rewards else None,
            median=statistics.median(rewards) if rewards else None,
            best_so_far=max(so_far) if so_far else None,
            gate_failed=sum(not c.gate_passed for c in batch),
            infra_failed=sum(c.reward is None for c in batch),
            seconds=round(time.perf_counter() - start, 2),
        )
    )


def _save_pictures(report: SearchReport, out: Path) -> None:
    images = out / "images"
    images.mkdir(parents=True, exist_ok=True)
    for task in report.tasks:
        for c in [*task.references, *(x for run in task.runs.values() for x in run.candidates)]:
            if c.png is None:
                continue
            name = c.id.replace("/", "__") + ".png"
            # The canvas's RGBA over white, as every scorer sees it (`Render.image`).
            picture = Image.open(io.BytesIO(c.png)).convert("RGBA")
            ground = Image.new("RGBA", picture.size, (255, 255, 255, 255))
            Image.alpha_composite(ground, picture).convert("RGB").save(images / name)
            c.image = f"images/{name}"


def run_search(
    evaluator: Evaluator,
    *,
    tasks: Sequence[str | Task] = DEFAULT_TASKS,
    budget: int = 500,
    modes: Sequence[str] = MODES,
    population: int = 16,
    seed: int = 0,
    references: Sequence[Reference] | None = None,
    out_dir: str | Path | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    keep: int = 6,
    top: int = 5,
) -> SearchReport:
    """Searches for programs the reward pays for, and compares them with the references.

    The budget is split evenly over every (task, mode) pair (`split_budget`); each run fills
    generations of ``population`` candidates (the last one smaller when the share does not
    divide), each generation one concurrent batch through ``evaluator``. Every render uses
    ``seed``, so the reward is a function of the program and a rerun with the same seed gives
    the same programs and the same rewards on the same backend.

    Args:
        evaluator: The evaluation whose reward is measured (its renderer, scorer, reward and
            gate configuration).
        tasks: Task ids (or `Task`\\ s); every one needs at least one reference.
        budget: Search evaluations over all tasks and modes (references not counted).
        modes: Any of `MODES`.
        population: Candidates per generation (at least 2).
        seed: The search's seed and every render's seed.
        references: The reference paintings; the shipped pool when ``None``.
        out_dir: Where to save the pictures of the references and the best candidates
            (``images/``); none saved when ``None`` (they stay in memory in ``Candidate.png``).
        progress: Called with ``(evaluations done, evaluations in all, label)`` after every
            batch.
        keep: Best candidates per run that keep their picture and source in the report.
        top: Best candidates per task that the saturation analysis looks at.

    Returns:
        The `SearchReport`.

    Raises:
        ValueError: On an unknown task or mode, a task without references, a population
            below 2, or a budget below one evaluation per task and mode.
        SearchInfrastructureError: When a task's references all got no reward.

    Examples:
        >>> evaluator = Evaluator(scorer="heuristic")  # doctest: +SKIP
        >>> report = run_search(evaluator, tasks=["trees/pastel"], budget=32)  # doctest: +SKIP
        >>> report.tasks[0].gap  # best found minus the median reference  # doctest: +SKIP
    """
    start = time.perf_counter()
    chosen = [t if isinstance(t, Task) else get_task(t) for t in tasks]
    mode_list = list(dict.fromkeys(modes))
    unknown = [m for m in mode_list if m not in MODES]
    if unknown or not mode_list:
        raise ValueError(f"search modes must be among {list(MODES)}, got {list(modes)}")
    if not chosen:
        raise ValueError("the search needs at least one task")
    if population < 2:
        raise ValueError(f"the population must be at least 2, got {population}")
    runs = len(chosen) * len(mode_list)
    if budget < runs:
        raise ValueError(
            f"a budget of {budget} is less than one evaluation per task and mode ({runs})"
        )
    pool = list(references) if references is not None else load_reference_pool()
    by_task = {t.id: [r for r in pool if r.task_id == t.id] for t in chosen}
    bare = [task_id for task_id, refs in by_task.items() if not refs]
    if bare:
        raise ValueError(f"no reference paintings for task(s) {', '.join(bare)}")
    shares = iter(split_budget(budget, runs))
    session = _Session(evaluator, seed, budget + sum(len(r) for r in by_task.values()), progress)
    report = SearchReport(
        scorer=evaluator.scorer.name,
        reward_config=evaluator.reward_config.to_dict(),
        gate_config=evaluator.gate_config.to_dict(),
        backend="",
        seed=seed,
        budget=budget,
        population=population,
        modes=tuple(mode_list),
        keep=keep,
    )
    for task in chosen:
        task_start = time.perf_counter()
        drafts = [
            {"id": ref.id, "mode": "reference", "generation": 0, "source": ref.source}
            for ref in by_task[task.id]
        ]
        refs = session.evaluate(task, drafts, f"{task.id} references")
        if all(r.reward is None for r in refs):
            reasons = "; ".join(sorted({str(r.components.get("infra_error")) for r in refs}))
            raise SearchInfrastructureError(
                f"the references of {task.id} got no reward ({reasons}): nothing to compare with"
            )
        result = TaskSearch(
            task,
            refs,
            preference_cap=PREFERENCE_CAPS.get(evaluator.scorer.name),
            top=top,
        )
        for mode in mode_list:
            rng = random.Random(f"sketch_env.search:{seed}:{task.id}:{mode}")
            share = next(shares)
            if mode == "blind":
                result.runs[mode] = _run_blind(session, task, share, population, rng, keep)
            else:
                result.runs[mode] = _run_references(
                    session, task, refs, share, population, rng, keep
                )
        result.seconds = round(time.perf_counter() - task_start, 1)  # as reported
        report.tasks.append(result)
    report.backend = session.backend
    if out_dir is not None:
        _save_pictures(report, Path(out_dir))
    report.seconds = round(time.perf_counter() - start, 1)  # as reported
    return report
