"""The negative corpus: sketches that pass the gate and are not paintings.

The vision scorer's discriminator (`sketch_env.scoring.vision.scorer`) learns what a painting
looks like against what it does not. Its negatives are written into the pool folder as
``negatives.jsonl`` (`sketch_env.scoring.vision.pool`) by three generators, each seeded, so the
corpus is reproduced by running them again:

- `blind_negatives`: random genomes of the blind search, each mutated a few times
  (`sketch_env.rewardcheck.search`): marks of every kind, brush and colour, anywhere;
- `collage_negatives`: random mosaics and collages of brush-mark tiles in a task's own paper
  and colours (`sketch_env.rewardcheck.search.composed`), the raw material of the composed
  search;
- `search_negatives`: what a blind and a composed search found against the current vision
  scorer, one round of hardening (``sketch-env pool negatives --harden``): a discriminator that
  has seen its own adversary's best pictures. A round attacks `HARDEN_TASKS` or, wider,
  `unsearched_tasks`: never ``reward-check --search``'s default tasks, so a later search
  there, with another seed, measures what the hardening generalised to rather than what it saw
  (docs/reward.md, "What search finds").

None of them is ever a reference, a probe (``reference_pool/probes``) or anything a report is
computed on.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image

from sketch_env.catalog.references import find_pool_dir, load_reference_pool
from sketch_env.rewardcheck.search import (
    DEFAULT_TASKS,
    OFFLINE_PER_RENDER,
    compile_genome,
    mutate_genome,
    random_genome,
    run_search,
)
from sketch_env.rewardcheck.search.composed import (
    TileLibrary,
    compile_placements,
    random_collage,
    random_mosaic,
    task_colours,
)
from sketch_env.scoring.vision.pool import NEGATIVES_FILE, Negative

if TYPE_CHECKING:
    from sketch_env.evaluation.evaluator import Evaluator

__all__ = [
    "HARDEN_TASKS",
    "blind_negatives",
    "collage_negatives",
    "search_negatives",
    "unsearched_tasks",
    "write_negatives",
]

#: The tasks a hardening round attacks: one per medium and four subjects, none of them among
#: the search's default tasks (`sketch_env.rewardcheck.search.DEFAULT_TASKS`).
HARDEN_TASKS: tuple[str, ...] = (
    "trees/watercolour",
    "seascape/charcoal",
    "flowers/ink_hatching",
    "landscape/pastel",
)


def unsearched_tasks(path: str | os.PathLike[str] | None = None) -> tuple[str, ...]:
    """Every task of the pool that ``reward-check --search`` does not measure by default.

    A hardening round over them covers every subject and medium while leaving the search's
    own tasks unseen (the round is then measured where it did not look).

    Args:
        path: Pool folder; ``None`` finds the shipped pool.

    Returns:
        Their ids, sorted.
    """
    tasks = {r.task_id for r in load_reference_pool(path)}
    return tuple(sorted(tasks - set(DEFAULT_TASKS)))


def blind_negatives(count: int = 240, seed: int = 12345) -> list[Negative]:
    """Random genomes, each mutated zero to six times.

    Args:
        count: How many.
        seed: The generator's seed.

    Returns:
        The negatives (kind ``blind``).
    """
    rng = random.Random(seed)
    out = []
    for k in range(count):
        genome = random_genome(rng)
        for _ in range(rng.randint(0, 6)):
            genome, _ = mutate_genome(genome, rng)
        out.append(Negative(f"blind-{k:03d}", "blind", compile_genome(genome)))
    return out


def collage_negatives(
    pictures: Mapping[str, Sequence[Image.Image]], per_task: int = 4, seed: int = 777
) -> list[Negative]:
    """Random mosaics and collages of brush-mark tiles, in each task's paper and colours.

    Args:
        pictures: Task id -> its reference pictures (the colours come from them).
        per_task: Compositions per task, alternately collages and mosaics.
        seed: The generator's seed.

    Returns:
        The negatives (kind ``collage``).
    """
    rng = random.Random(seed)
    out = []
    for task_id in sorted(pictures):
        paper, palette = task_colours(pictures[task_id])
        library = TileLibrary(paper, palette, rng, sheets=2)
        tiles = len(library.motifs)
        for k in range(per_task):
            composition = random_mosaic(rng, tiles) if k % 2 else random_collage(rng, tiles)
            out.append(
                Negative(
                    f"collage-{task_id.replace('/', '-')}-{k}",
                    "collage",
                    compile_placements(library.paper, library.palette, library.motifs, composition),
                )
            )
    return out


def search_negatives(
    evaluator: Evaluator,
    round_number: int,
    *,
    tasks: Sequence[str] = HARDEN_TASKS,
    budget: int = 400,
    seed: int = 101,
    per_run: int = 12,
    population: int = 16,
    progress: Callable[[int, int, str], None] | None = None,
    offline_per_render: int = OFFLINE_PER_RENDER,
) -> list[Negative]:
    """One hardening round: what a blind and a composed search found against ``evaluator``.

    Runs `sketch_env.rewardcheck.search.run_search` (modes ``blind`` and ``composed``) on
    ``tasks`` and keeps, per task and mode, the ``per_run`` candidates the reward paid most
    that were scored as pictures: the adversary's best, which no search confuses with a
    painting of the task (blind programs, mosaics of tiles).

    Args:
        evaluator: The evaluation to attack (its scorer is the one being hardened).
        round_number: The round, written into each negative's kind (``search-r1``...).
        tasks: Task ids to attack.
        budget: Renders over all tasks and both modes.
        seed: The search's seed (and every render's).
        per_run: Negatives kept per task and mode.
        population: Candidates per generation of each search.
        progress: Passed to the search.
        offline_per_render: Compositions the composed search scores between two renders.

    Returns:
        The negatives (kind ``search-rN``).
    """
    report = run_search(
        evaluator,
        tasks=tasks,
        budget=budget,
        modes=("blind", "composed"),
        seed=seed,
        keep=per_run,
        population=population,
        progress=progress,
        offline_per_render=offline_per_render,
        # The pool's finds measure what a hardened scorer generalises to: never trained on.
        finds=(),
    )
    out = []
    for task in report.tasks:
        for mode, run in task.runs.items():
            pictures = [c for c in run.ranked() if c.status == "ok" and c.reward is not None]
            for k, candidate in enumerate(pictures[:per_run]):
                name = f"search-r{round_number}-{task.task.id.replace('/', '-')}-{mode}-{k:02d}"
                out.append(Negative(name, f"search-r{round_number}", candidate.source))
    return out


def write_negatives(
    negatives: Iterable[Negative], path: str | os.PathLike[str] | None = None
) -> Path:
    """Writes the corpus as ``negatives.jsonl`` into the pool folder (replacing it).

    Args:
        negatives: The corpus.
        path: Pool folder; ``None`` finds the shipped pool.

    Returns:
        The file written.

    Raises:
        ValueError: If two negatives share an id.
    """
    items = list(negatives)
    ids = [n.id for n in items]
    if len(set(ids)) != len(ids):
        raise ValueError("negative ids must be unique")
    target = find_pool_dir(path) / NEGATIVES_FILE
    lines = [json.dumps({"id": n.id, "kind": n.kind, "source": n.source}) for n in items]
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target
