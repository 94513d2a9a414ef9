"""Breeding genomes: structured mutation (`mutate_genome`) and crossover (`crossover`).

Mutation moves, resizes, recolours a mark or changes its brush, kind or paint, adds, removes,
duplicates or reorders marks, or changes the palette, background or brush scale; crossover
splices two mark lists. Every child stays within the genome's ranges and its render cost
(`sketch_env.rewardcheck.search.genome.within_cost`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import replace

from sketch_env.rewardcheck.search.genome import (
    BRUSHES,
    CANVAS_SIDE,
    FIELDS,
    LINE_KINDS,
    MAX_MARKS,
    PAINTS,
    SHAPE_KINDS,
    Genome,
    Mark,
    Point,
    clamp,
    jitter_rgb,
    points_for,
    random_mark,
    random_rgb,
    within_cost,
)

__all__ = ["crossover", "mutate_genome"]


def _centre(points: Sequence[Point]) -> Point:
    return (
        sum(x for x, _ in points) / len(points),
        sum(y for _, y in points) / len(points),
    )


def _moved(points: Sequence[Point], dx: float, dy: float) -> tuple[Point, ...]:
    return tuple(
        (round(clamp(x + dx, 0.0, CANVAS_SIDE), 1), round(clamp(y + dy, 0.0, CANVAS_SIDE), 1))
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
                round(clamp(cx + (x - cx) * factor, 0.0, CANVAS_SIDE), 1),
                round(clamp(cy + (y - cy) * factor, 0.0, CANVAS_SIDE), 1),
            )
            for x, y in mark.points
        )
        size = round(clamp(mark.size * factor, 5.0, 300.0), 1)
        return replace(mark, points=scaled, size=size), op
    if op == "recolour":
        return replace(mark, colour=rng.randrange(3)), op
    if op == "brush":
        return replace(mark, brush=rng.choice(BRUSHES)), op
    if op == "kind":
        kind = rng.choice(LINE_KINDS + SHAPE_KINDS)
        points = points_for(rng, kind, _centre(mark.points), mark.size)
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
            mark, weight=round(clamp(mark.weight * math.exp(rng.gauss(0.0, 0.4)), 0.3, 4.0), 2)
        )
    if name == "opacity":
        return replace(mark, opacity=int(clamp(mark.opacity + rng.gauss(0, 50), 20, 255)))
    if name == "angle":
        return replace(mark, angle=round((mark.angle + rng.gauss(0.0, 0.8)) % (2 * math.pi), 3))
    if name == "spread":
        return replace(mark, spread=round(clamp(mark.spread + rng.gauss(0.0, 0.25), 0.0, 1.0), 3))
    if name == "texture":
        return replace(mark, texture=round(clamp(mark.texture + rng.gauss(0.0, 0.25), 0.0, 1.0), 3))
    if name == "spacing":
        return replace(
            mark, spacing=round(clamp(mark.spacing * math.exp(rng.gauss(0.0, 0.4)), 4, 40), 1)
        )
    return replace(mark, size=round(clamp(mark.size * math.exp(rng.gauss(0.0, 0.4)), 5, 300), 1))


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
        palette[i] = random_rgb(rng) if rng.random() < 0.3 else jitter_rgb(rng, palette[i])
        return replace(genome, palette=(palette[0], palette[1], palette[2])), "palette"
    if roll < 0.97:
        background = random_rgb(rng) if rng.random() < 0.3 else jitter_rgb(rng, genome.background)
        return replace(genome, background=background), "background"
    scale = round(clamp(genome.scale * math.exp(rng.gauss(0.0, 0.3)), 1.0, 4.0), 2)
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
    return replace(genome, marks=within_cost(genome.marks)), tuple(ops)


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
    marks = within_cost(a.marks[:cut_a] + b.marks[cut_b:])
    p = tuple(rng.choice((x, y)) for x, y in zip(a.palette, b.palette, strict=True))
    return Genome(
        background=rng.choice((a.background, b.background)),
        palette=(p[0], p[1], p[2]),
        scale=rng.choice((a.scale, b.scale)),
        marks=marks,
    )
