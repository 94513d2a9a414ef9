"""Compiling a genome to a sketch: `compile_genome`, and `mark_calls` for one mark.

Every call it writes is one the policy's instructions offer
(`sketch_env.catalog.instructions.POLICY_INSTRUCTIONS`), in the instructions' frame (the
vocabulary's canvas, top-left coordinates through ``translate``), and every coordinate is a
literal, so a compiled program passes the default gate and does not depend on p5's
``random()`` (``tests/rewardcheck/test_reward_search.py`` checks thousands).

Examples:
    >>> import random
    >>> from sketch_env.rewardcheck.search.compiler import compile_genome
    >>> from sketch_env.rewardcheck.search.genome import random_genome
    >>> compile_genome(random_genome(random.Random(0))).splitlines()[1]
    '  createCanvas(600, 600, WEBGL);'
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from sketch_env.catalog.vocabulary import CANVAS_SIZE
from sketch_env.rewardcheck.search.genome import LINE_KINDS, RGB, Genome, Mark, Point, hex_colour

__all__ = ["compile_genome", "mark_calls"]


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
    colour = chosen if isinstance(chosen, str) else hex_colour(chosen)
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
    width, height = CANVAS_SIZE
    lines = [
        "function setup() {",
        f"  createCanvas({width}, {height}, WEBGL);",
        "  translate(-width / 2, -height / 2);",
        f"  background({r}, {g}, {b});",
        f"  brush.scaleBrushes({genome.scale:.2f});",
    ]
    for mark in genome.marks:
        lines += ["  " + call for call in mark_calls(mark, genome.palette)]
    lines.append("}")
    return "\n".join(lines) + "\n"
