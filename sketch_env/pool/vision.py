"""Measures the pool for the vision scorer: ``vision.npz`` from renders of every reference (at
each of `VISION_SEEDS`) and of the negative corpus (`sketch_env.scoring.vision.pool`)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from PIL import Image

from sketch_env.catalog.references import find_pool_dir, load_reference_pool
from sketch_env.scoring.vision.network import network
from sketch_env.scoring.vision.pool import VISION_SEEDS, load_negatives, write_pool_vision

__all__ = ["Painter", "measure_pool_vision"]

#: Renders ``(source, seed)`` jobs into pictures (``None`` where a render gave none).
Painter = Callable[[Sequence[tuple[str, int]]], Sequence[Image.Image | None]]


def measure_pool_vision(
    paint: Painter,
    backend: str,
    path: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    batch: int = 8,
) -> Path:
    """Renders the references and the negatives, runs the network and writes ``vision.npz``.

    Args:
        paint: Renders jobs (a renderer's batch call, or a cache of earlier renders).
        backend: The GL backend the pictures come from (recorded in the file).
        path: Pool folder; ``None`` finds the shipped pool.
        progress: Called with ``(done, total)`` after each batch.
        batch: Jobs per call of ``paint``.

    Returns:
        The file written.

    Raises:
        RuntimeError: If a reference or a negative rendered no picture.
    """
    folder = find_pool_dir(path)
    references = load_reference_pool(folder)
    negatives = load_negatives(folder)
    jobs: list[tuple[str, str, int]] = [
        (ref.id, ref.source, seed) for ref in references for seed in VISION_SEEDS
    ]
    jobs += [(f"negative:{n.id}", n.source, 0) for n in negatives]
    net = network()
    pooled = {}
    local = {}
    colour = {}
    negative_features = {}
    for start in range(0, len(jobs), batch):
        chunk = jobs[start : start + batch]
        pictures = paint([(source, seed) for _, source, seed in chunk])
        for (name, _, seed), picture in zip(chunk, pictures, strict=True):
            if picture is None:
                raise RuntimeError(f"{name} at seed {seed} rendered no picture")
            view = net(picture)
            if name.startswith("negative:"):
                negative_features[name.removeprefix("negative:")] = view.pooled
            else:
                pooled[(name, seed)] = view.pooled
                if seed == VISION_SEEDS[0]:
                    local[name] = view.local
                    colour[name] = view.colour
        if progress is not None:
            progress(min(start + batch, len(jobs)), len(jobs))
    return write_pool_vision(pooled, local, colour, negative_features, backend, folder)
