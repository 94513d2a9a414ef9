"""The blind search's genome: its vocabulary, `Mark`, `Genome`, and drawing them at random.

A genome is a small typed program (a background, a three-colour palette, a brush scale and a
list of marks) that `sketch_env.rewardcheck.search.compiler.compile_genome` turns into a
sketch. Its brushes and vector fields are the policy vocabulary's
(`sketch_env.catalog.vocabulary.BRUSHES`, `~sketch_env.catalog.vocabulary.VECTOR_FIELDS`),
the very tuples the instructions list, so the search paints with what the policy is offered and
nothing else; the kinds of mark and the ways of painting a closed one are the search's own
grouping of the brush calls those instructions offer.

Examples:
    >>> import random
    >>> from sketch_env.rewardcheck.search.genome import random_genome
    >>> genome = random_genome(random.Random(0))
    >>> 3 <= len(genome.marks) <= 12
    True
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from sketch_env.catalog.vocabulary import BRUSHES, CANVAS_SIZE, VECTOR_FIELDS

__all__ = [
    "BRUSHES",
    "CANVAS_SIDE",
    "FIELDS",
    "LINE_KINDS",
    "MAX_MARKS",
    "MAX_SLOW_MARKS",
    "PAINTS",
    "RGB",
    "SHAPE_KINDS",
    "Genome",
    "Mark",
    "Point",
    "clamp",
    "hex_colour",
    "jitter_rgb",
    "points_for",
    "random_genome",
    "random_mark",
    "random_rgb",
    "within_cost",
]

#: The vector fields a flow line may follow: the policy vocabulary's.
FIELDS: tuple[str, ...] = VECTOR_FIELDS
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
#: The side of the (square) canvas every task asks for, in pixels.
CANVAS_SIDE = float(CANVAS_SIZE[0])
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


def clamp(value: float, low: float, high: float) -> float:
    """``value`` brought into ``[low, high]``."""
    return min(high, max(low, value))


def random_rgb(rng: random.Random) -> RGB:
    """A colour drawn uniformly from the RGB cube."""
    return (rng.randrange(256), rng.randrange(256), rng.randrange(256))


def jitter_rgb(rng: random.Random, colour: RGB, sigma: float = 40.0) -> RGB:
    """``colour`` with Gaussian noise of ``sigma`` on each channel, kept in 0-255."""
    r, g, b = (int(clamp(round(c + rng.gauss(0.0, sigma)), 0, 255)) for c in colour)
    return (r, g, b)


def hex_colour(colour: RGB) -> str:
    """``colour`` as a ``'#rrggbb'`` string."""
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _xy(rng: random.Random) -> Point:
    return (round(rng.uniform(0.0, CANVAS_SIDE), 1), round(rng.uniform(0.0, CANVAS_SIDE), 1))


def points_for(rng: random.Random, kind: str, centre: Point, size: float) -> tuple[Point, ...]:
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
                round(clamp(cx + rng.uniform(-size, size), 0.0, CANVAS_SIDE), 1),
                round(clamp(cy + rng.uniform(-size, size), 0.0, CANVAS_SIDE), 1),
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
        points=points_for(rng, chosen, _xy(rng), size),
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


def within_cost(marks: Sequence[Mark]) -> tuple[Mark, ...]:
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
        background=random_rgb(rng),
        palette=(random_rgb(rng), random_rgb(rng), random_rgb(rng)),
        scale=round(rng.uniform(1.0, 4.0), 2),
        marks=within_cost([random_mark(rng) for _ in range(rng.randint(3, 12))]),
    )
