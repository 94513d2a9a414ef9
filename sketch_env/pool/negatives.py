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
- `search_negatives`: what a composed search found against the current scorer, one round of
  hardening (``sketch-env pool negatives --rounds``): a discriminator that has seen its own
  adversary's best pictures. A later search, with another seed, measures what is left
  (docs/reward.md, "What search finds").

None of them is ever a reference, a probe (``reference_pool/probes``) or anything a report is
computed on.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from PIL import Image

from sketch_env.catalog.references import find_pool_dir
from sketch_env.rewardcheck.search import compile_genome, mutate_genome, random_genome
from sketch_env.rewardcheck.search.composed import (
    TileLibrary,
    compile_placements,
    random_collage,
    random_mosaic,
    task_colours,
)
from sketch_env.scoring.vision.pool import NEGATIVES_FILE, Negative

__all__ = [
    "blind_negatives",
    "collage_negatives",
    "write_negatives",
]


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
