"""The composed search: compose the *picture* from rendered tiles, score it without rendering.

The blind search breeds programs and pays a render for every try, so a reward whose statistics
are easy to reach as a picture but hard to reach by chance as a program looks safe to it. This
search optimises the picture instead, the way a policy that had learnt where the reward's
statistics come from would:

1. **A tile library, rendered once.** `TILE_SHEETS` sketches, each a 6 x 6 grid of motifs (one
   to three marks of the blind search's vocabulary, `random_mark`-style, drawn inside a
   100 x 100 cell) on the task's paper, in the task's own colours (the commonest colours of
   its reference renders: an attacker who has seen the references). Each sheet is one render
   and counts against the budget; its cells are cut into tiles.
2. **Compositions scored as pictures.** A composition is a list of `Placement`\\ s: a 6 x 6
   mosaic of tiles, or a collage of tiles at several sizes anywhere on the canvas (later ones
   painted over earlier ones where they carry paint). `compose` builds its picture from the
   tile images; `Evaluator.score_pictures` scores it through the reward's own picture path
   (measurements, guards, scorer, reward) without a render. An evolutionary loop keeps the
   best ``population`` compositions and breeds ``OFFLINE_CHILDREN`` children per offline
   generation (change, swap, copy, move or rescale a tile, add or drop one; crossover of two
   mosaics), ``offline_per_render`` offline scores per render.
3. **Confirmed by a render.** After each offline round, the best composition not yet rendered
   is compiled (`compile_placements`: every tile's marks drawn again at its place and scale)
   and evaluated through the whole environment; that reward is what the search reports. A
   render of a composition is not its composed picture (p5.brush's texture is random per
   stroke, and a scaled motif is redrawn, not resized), so offline scores are kept beside the
   confirmed ones in the candidates' ``ops``.

The budget counts renders (sheets and confirmations); offline scores are free but bounded.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
from PIL import Image

from sketch_env.catalog.tasks import Task
from sketch_env.rewardcheck.search.compiler import mark_calls
from sketch_env.rewardcheck.search.genome import BRUSHES, FIELDS, PAINTS, RGB, Mark
from sketch_env.rewardcheck.search.results import Candidate, SearchRun, record_batch

if TYPE_CHECKING:
    from sketch_env.evaluation.evaluator import Evaluator


class Session(Protocol):
    """What the composed search needs of the search's session: the evaluator (for offline
    scores) and evaluation of drafts into candidates (for renders, counted)."""

    evaluator: Evaluator

    def evaluate(self, task: Task, drafts: Sequence[dict[str, Any]], label: str) -> list[Candidate]:
        """Renders and scores drafts through the whole environment."""


__all__ = [
    "CELL",
    "OFFLINE_CHILDREN",
    "TILE_SHEETS",
    "Placement",
    "TileLibrary",
    "compile_placements",
    "compose",
    "random_collage",
    "random_mosaic",
    "run_composed",
    "task_colours",
]

#: Canvas and tile sides.
SIDE = 600
CELL = 100
_GRID = SIDE // CELL
#: Sheets of 36 motifs rendered for the library.
TILE_SHEETS = 4
#: Children bred per offline generation.
OFFLINE_CHILDREN = 16
#: Compositions kept between offline generations.
_POPULATION = 24
_KINDS = ("line", "spline", "stroke", "arc", "rect", "circle", "polygon", "shape", "hatch_array")
_SCALES = (0.5, 1.0, 1.5, 2.0, 3.0)
#: A composed picture scored below every possible reward (a failed offline score).
_FLOOR = -1e9
#: Offline rounds the composed search spends looking for a composition it has not rendered
#: before it stops early (`SearchRun.stopped_early`).
_STALL_ROUNDS = 8
#: Pictures a composed run may score offline, in units of its budget x ``offline_per_render``
#: (what it spends when every render finds a new composition in its first round). A population
#: that has converged spends up to `_STALL_ROUNDS` rounds a render: under
#: `vision?quality_regions=16` landscape/charcoal's renders went from 6 s to 56-72 s apart and
#: its 125 took 105 min, while still_life's took 31. Counted in pictures, not seconds, so that
#: the same seed stops at the same place on any machine.
_OFFLINE_ALLOWANCE = 3


@dataclass(frozen=True)
class Placement:
    """One tile at a place: its index in the library, its top-left corner and its scale."""

    tile: int
    x: float
    y: float
    scale: float = 1.0


Composition = tuple[Placement, ...]


def _motif_mark(rng: random.Random, colours: int) -> Mark:
    kind = rng.choice(_KINDS)
    count = {"line": 2, "rect": 2, "arc": 1, "circle": 1}.get(kind, rng.randint(3, 6))
    return Mark(
        kind=kind,
        paint=rng.choice(PAINTS),
        brush=rng.choice(BRUSHES),
        colour=rng.randrange(colours),
        weight=round(rng.uniform(0.3, 2.5), 2),
        opacity=rng.randint(40, 220),
        points=tuple(
            (round(rng.uniform(5, CELL - 5), 1), round(rng.uniform(5, CELL - 5), 1))
            for _ in range(count)
        ),
        size=round(rng.uniform(8, CELL / 2), 1),
        angle=round(rng.uniform(0, 2 * math.pi), 3),
        spread=round(rng.random(), 3),
        texture=round(rng.random(), 3),
        spacing=round(rng.uniform(3, 12), 1),
        field=rng.choice(FIELDS),
        pick=False,
        outline=rng.random() < 0.3,
    )


def _placed(mark: Mark, placement: Placement) -> Mark:
    s = placement.scale
    return replace(
        mark,
        points=tuple(
            (round(placement.x + px * s, 1), round(placement.y + py * s, 1))
            for px, py in mark.points
        ),
        size=round(mark.size * s, 1),
        spacing=round(max(2.0, mark.spacing * s), 1),
    )


def compile_placements(
    paper: RGB,
    palette: Sequence[RGB],
    motifs: Sequence[Sequence[Mark]],
    placements: Sequence[Placement],
) -> str:
    """The sketch that paints a composition: each tile's marks at its place and scale.

    Args:
        paper: The background colour.
        palette: The colours the marks index.
        motifs: Each tile's marks, in cell coordinates.
        placements: The composition.

    Returns:
        The sketch (it passes the default gate: it is made of the blind search's calls).
    """
    lines = [
        "function setup() {",
        "  createCanvas(600, 600, WEBGL);",
        "  translate(-width / 2, -height / 2);",
        f"  background({paper[0]}, {paper[1]}, {paper[2]});",
        "  brush.scaleBrushes(1.5);",
    ]
    for placement in placements:
        for mark in motifs[placement.tile]:
            lines += ["  " + call for call in mark_calls(_placed(mark, placement), palette)]
    lines.append("}")
    return "\n".join(lines) + "\n"


def task_colours(pictures: Sequence[Image.Image], count: int = 8) -> tuple[RGB, list[RGB]]:
    """The paper (the commonest coarse colour) and up to ``count`` distinct paint colours of
    the pictures, commonest first."""
    pixels = np.concatenate(
        [np.asarray(p.convert("RGB").resize((150, 150))).reshape(-1, 3) for p in pictures]
    )
    coarse = (pixels >> 4).astype(np.int64)
    keys = (coarse[:, 0] << 8) | (coarse[:, 1] << 4) | coarse[:, 2]
    counts = np.bincount(keys, minlength=4096)
    order = np.argsort(counts, kind="stable")[::-1]

    def mean_of(key: int) -> RGB:
        r, g, b = (int(v) for v in pixels[keys == key].mean(axis=0))
        return (r, g, b)

    paper = mean_of(int(order[0]))
    colours: list[RGB] = []
    for key in order[1:]:
        if counts[key] == 0 or len(colours) == count:
            break
        colour = mean_of(int(key))
        if math.dist(colour, paper) >= 30 and all(math.dist(colour, c) >= 40 for c in colours):
            colours.append(colour)
    return paper, colours or [(40, 40, 40)]


class TileLibrary:
    """The motifs, the sketches of their sheets, and (once rendered) their tile pictures.

    Args:
        paper: The paper colour.
        palette: The paint colours.
        rng: Draws the motifs.
        sheets: How many sheets of 36 motifs.
    """

    def __init__(
        self, paper: RGB, palette: Sequence[RGB], rng: random.Random, sheets: int = TILE_SHEETS
    ) -> None:
        self.paper = paper
        self.palette = list(palette)
        self.motifs = [
            [_motif_mark(rng, len(self.palette)) for _ in range(rng.randint(1, 3))]
            for _ in range(sheets * _GRID * _GRID)
        ]
        self.tiles: list[np.ndarray] = []

    def sheet_sources(self) -> list[str]:
        """One sketch per sheet: 36 motifs in a 6 x 6 grid."""
        per_sheet = _GRID * _GRID
        return [
            compile_placements(
                self.paper,
                self.palette,
                self.motifs,
                [
                    Placement(start + i, (i % _GRID) * CELL, (i // _GRID) * CELL)
                    for i in range(per_sheet)
                ],
            )
            for start in range(0, len(self.motifs), per_sheet)
        ]

    def cut(self, sheets: Sequence[Image.Image | None]) -> None:
        """Cuts the rendered sheets into tiles (a sheet that did not render gives paper)."""
        self.tiles = []
        for sheet in sheets:
            if sheet is None:
                blank = np.empty((SIDE, SIDE, 3), np.uint8)
                blank[:] = self.paper
                pixels = blank
            else:
                pixels = np.asarray(sheet.convert("RGB"))
            for i in range(_GRID * _GRID):
                r, c = divmod(i, _GRID)
                self.tiles.append(pixels[r * CELL : (r + 1) * CELL, c * CELL : (c + 1) * CELL])


def compose(library: TileLibrary, placements: Sequence[Placement]) -> Image.Image:
    """The picture of a composition, built from the tile pictures.

    A tile is pasted where it carries paint (further than 6 RGB units from the paper), so a
    later tile paints over an earlier one as a later mark would, and its paper does not.
    """
    canvas = np.empty((SIDE, SIDE, 3), np.uint8)
    canvas[:] = library.paper
    paper = np.asarray(library.paper, np.float32)
    for placement in placements:
        tile = library.tiles[placement.tile]
        size = max(4, round(CELL * placement.scale))
        if size != CELL:
            tile = np.asarray(Image.fromarray(tile).resize((size, size), Image.Resampling.BILINEAR))
        x0, y0 = round(placement.x), round(placement.y)
        left, top = max(0, x0), max(0, y0)
        right, bottom = min(SIDE, x0 + size), min(SIDE, y0 + size)
        if right <= left or bottom <= top:
            continue
        part = tile[top - y0 : bottom - y0, left - x0 : right - x0]
        paint = np.linalg.norm(part.astype(np.float32) - paper, axis=-1) > 6.0
        canvas[top:bottom, left:right][paint] = part[paint]
    return Image.fromarray(canvas)


def random_mosaic(rng: random.Random, tiles: int) -> Composition:
    return tuple(
        Placement(rng.randrange(tiles), (i % _GRID) * CELL, (i // _GRID) * CELL)
        for i in range(_GRID * _GRID)
    )


def _random_placement(rng: random.Random, tiles: int) -> Placement:
    scale = rng.choice(_SCALES)
    size = CELL * scale
    low, high = -size / 3, SIDE - 2 * size / 3
    return Placement(
        rng.randrange(tiles), round(rng.uniform(low, high)), round(rng.uniform(low, high)), scale
    )


def random_collage(rng: random.Random, tiles: int) -> Composition:
    return tuple(_random_placement(rng, tiles) for _ in range(rng.randint(6, 30)))


def _mutate(rng: random.Random, comp: Composition, tiles: int, mosaic: bool) -> Composition:
    items = list(comp)
    for _ in range(rng.choice((1, 1, 2, 3))):
        i = rng.randrange(len(items))
        j = rng.randrange(len(items))
        op = rng.random()
        if mosaic:
            if op < 0.5:
                items[i] = replace(items[i], tile=rng.randrange(tiles))
            elif op < 0.75:
                items[i], items[j] = (
                    replace(items[i], tile=items[j].tile),
                    replace(items[j], tile=items[i].tile),
                )
            else:
                items[i] = replace(items[i], tile=items[j].tile)
        elif op < 0.3:
            items[i] = replace(items[i], tile=rng.randrange(tiles))
        elif op < 0.5:
            items[i] = replace(
                items[i],
                x=round(items[i].x + rng.gauss(0, 40)),
                y=round(items[i].y + rng.gauss(0, 40)),
            )
        elif op < 0.65:
            items[i] = replace(items[i], scale=rng.choice(_SCALES))
        elif op < 0.8 and len(items) < 40:
            items.insert(rng.randrange(len(items) + 1), _random_placement(rng, tiles))
        elif len(items) > 2:
            items.pop(i)
    return tuple(items)


def _crossover(rng: random.Random, a: Composition, b: Composition, mosaic: bool) -> Composition:
    if mosaic:
        cut = rng.randrange(1, len(a))
        if rng.random() < 0.5:
            return a[:cut] + b[cut:]
        return tuple(a[i] if i % _GRID < cut % _GRID else b[i] for i in range(len(a)))
    return a[: rng.randrange(len(a) + 1)] + b[rng.randrange(len(b) + 1) :] or a


def run_composed(
    session: Session,
    task: Task,
    references: Sequence[Candidate],
    pictures: Sequence[Image.Image],
    budget: int,
    rng: random.Random,
    keep: int,
    offline_per_render: int,
) -> SearchRun:
    """One composed search on one task (see the module docstring).

    Args:
        session: The report's evaluation session.
        task: The task; its prompt is every candidate's.
        references: The task's references, evaluated.
        pictures: Their pictures (the attacker's colours come from them).
        budget: Renders: the sheets, then one confirmation per offline round.
        rng: The search's only source of randomness.
        keep: Best candidates that keep their picture.
        offline_per_render: Compositions scored offline between two confirmations.

    Returns:
        The run; its candidates are the sheets and the confirmed compositions.
    """
    run = SearchRun(task.id, "composed", budget, OFFLINE_CHILDREN)
    start = time.perf_counter()
    paper, palette = task_colours(pictures)
    sheets = min(TILE_SHEETS, max(1, budget // 4))
    library = TileLibrary(paper, palette, rng, sheets)
    drafts = [
        {
            "id": f"{task.id}/composed/tiles/s{i}",
            "mode": "composed",
            "generation": 0,
            "ops": ("tiles",),
            "source": source,
        }
        for i, source in enumerate(library.sheet_sources())
    ]
    started = time.perf_counter()
    sheets_done = session.evaluate(task, drafts, f"{task.id} composed tiles")
    library.cut([c.picture() for c in sheets_done])
    record_batch(run, sheets_done, 0, keep, time.perf_counter() - started)
    tiles = len(library.tiles)

    def offline(comps: Sequence[Composition]) -> list[float]:
        run.offline_scored += len(comps)
        images = [compose(library, c) for c in comps]
        rewards = session.evaluator.score_pictures_sync(images, [task.prompt] * len(images))
        return [b.reward if b.reward is not None else _FLOOR for b in rewards]

    seeds = [(random_mosaic(rng, tiles), True) for _ in range(_POPULATION // 2)]
    seeds += [(random_collage(rng, tiles), False) for _ in range(_POPULATION // 2)]
    population = sorted(
        zip(offline([c for c, _ in seeds]), seeds, strict=True), key=lambda t: -t[0]
    )
    rendered: set[Composition] = set()
    generation = 0
    allowance = _OFFLINE_ALLOWANCE * budget * offline_per_render
    while len(run.candidates) < budget:
        unrendered = None
        # A population that has stopped improving is made of compositions already rendered
        # (a reward that scores every collage alike keeps its first 24): search on, a few
        # rounds, for one not yet confirmed, then stop early rather than render one twice.
        # (Found at 500 renders under vision: the composed run raised StopIteration after 35
        # minutes.) Once the offline allowance is spent, the population's unrendered
        # compositions are still confirmed, best first, and nothing new is bred.
        for _ in range(_STALL_ROUNDS):
            spent = 0 if run.offline_scored < allowance else offline_per_render
            while spent < offline_per_render:
                children = []
                for _ in range(OFFLINE_CHILDREN):
                    _, (parent, mosaic) = population[
                        min(rng.randrange(len(population)) for _ in range(3))
                    ]
                    if rng.random() < 0.3:
                        _, (other, other_mosaic) = population[
                            min(rng.randrange(len(population)) for _ in range(3))
                        ]
                        if other_mosaic == mosaic:
                            parent = _crossover(rng, parent, other, mosaic)
                    children.append((_mutate(rng, parent, tiles, mosaic), mosaic))
                scored = offline([c for c, _ in children])
                spent += len(children)
                population = sorted(
                    [*population, *zip(scored, children, strict=True)], key=lambda t: -t[0]
                )[:_POPULATION]
            unrendered = next(
                ((s, entry) for s, entry in population if entry[0] not in rendered), None
            )
            if unrendered is not None or run.offline_scored >= allowance:
                break
        if unrendered is None:
            run.stopped_early = True
            break
        best_offline, (chosen, mosaic) = unrendered
        rendered.add(chosen)
        generation += 1
        kind = "mosaic" if mosaic else "collage"
        started = time.perf_counter()
        draft = {
            "id": f"{task.id}/composed/g{generation}",
            "mode": "composed",
            "generation": generation,
            "ops": (kind, f"offline={best_offline:.3f}"),
            "source": compile_placements(library.paper, library.palette, library.motifs, chosen),
        }
        batch = session.evaluate(task, [draft], f"{task.id} composed g{generation}")
        record_batch(run, batch, generation, keep, time.perf_counter() - started)
    run.seconds = round(time.perf_counter() - start, 1)  # as reported
    return run
