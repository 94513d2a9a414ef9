"""What the image network made of the reference pool, and of pictures that are not paintings.

The vision scorer (`sketch_env.scoring.vision.scorer`) judges a picture against the pool, so it
needs the network's view of every reference; rendering and running the network on 96
references at every start would take minutes, so `sketch-env pool refresh` measures them once
and writes ``vision.npz`` into the pool folder. It holds:

- ``ids``, ``seeds``, ``pooled``: the pooled 1280 features of each reference at seeds 0, 1 and
  2 (the discriminator learns from all three, every other part reads seed 0);
- ``local``: each reference's 7 x 7 map of 192 features at seed 0, as float16 (a picture's
  regions are compared with the medium's, `VisionScorer`'s realism);
- ``colour``: each reference's colourfulness at seed 0 (`NetworkView.colour`: a medium's
  references span a range of colour, charcoal and ink hatching almost none, `VisionScorer`'s
  realism);
- ``negative_ids``, ``negatives``: the pooled features of the negative corpus
  (``negatives.jsonl`` beside ``pool.json``): sketches that pass the gate and are not
  paintings (random genomes of the blind search, random collages of brush marks, and what
  earlier composed searches found), the other class of the discriminator;
- ``version`` and ``weights_sha256``: a file written by another feature version or another
  network is refused.

``negatives.jsonl`` is one JSON object a line: ``{"id", "kind", "source"}``; `load_negatives`
reads it. A picture's features depend on the GL backend that drew it (docs/design.md §3.9): the
file says which one (``backend``), and a test re-renders a sample and compares.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sketch_env.catalog.references import find_pool_dir, load_reference_pool
from sketch_env.scoring.vision.weights import WEIGHTS_SHA256

__all__ = [
    "NEGATIVES_FILE",
    "VISION_FILE",
    "VISION_SEEDS",
    "VISION_VERSION",
    "Negative",
    "PoolVision",
    "load_negatives",
    "load_pool_vision",
    "write_pool_vision",
]

#: The file in the pool folder that holds the network's view of the pool.
VISION_FILE = "vision.npz"
#: The negative corpus's sketches.
NEGATIVES_FILE = "negatives.jsonl"
#: Bumped whenever what is stored changes meaning: a stale file is refused.
VISION_VERSION = 2
#: The seeds each reference is measured at.
VISION_SEEDS: tuple[int, ...] = (0, 1, 2)


@dataclass(frozen=True)
class Negative:
    """One sketch of the negative corpus.

    Args:
        id: Unique id.
        kind: Where it came from (``blind``, ``collage``, ``search-r1``...).
        source: The sketch.
    """

    id: str
    kind: str
    source: str


def load_negatives(path: str | os.PathLike[str] | None = None) -> tuple[Negative, ...]:
    """Reads the pool's negative corpus.

    Args:
        path: Pool folder; ``None`` finds the shipped pool.

    Returns:
        The negatives, in file order.

    Raises:
        FileNotFoundError: If the pool has no ``negatives.jsonl``.
        ValueError: If a line is not a negative.
    """
    target = find_pool_dir(path) / NEGATIVES_FILE
    out = []
    for number, line in enumerate(target.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        data = json.loads(line)
        if not isinstance(data, dict) or set(data) != {"id", "kind", "source"}:
            raise ValueError(f"{target}:{number}: expected an object with id, kind and source")
        out.append(Negative(str(data["id"]), str(data["kind"]), str(data["source"])))
    return tuple(out)


@dataclass(frozen=True)
class PoolVision:
    """The network's view of the pool (see the module docstring).

    Args:
        ids: Reference ids, in pool order.
        pooled: ``(references, seeds, 1280)`` pooled features.
        local: ``(references, 49, 192)`` local features at seed 0.
        colour: ``(references,)`` colourfulness at seed 0.
        negative_ids: The negatives' ids.
        negatives: ``(negatives, 1280)`` pooled features.
        backend: The GL backend that drew every picture.
    """

    ids: tuple[str, ...]
    pooled: np.ndarray
    local: np.ndarray
    colour: np.ndarray
    negative_ids: tuple[str, ...]
    negatives: np.ndarray
    backend: str


def write_pool_vision(
    pooled: Mapping[tuple[str, int], np.ndarray],
    local: Mapping[str, np.ndarray],
    colour: Mapping[str, float],
    negatives: Mapping[str, np.ndarray],
    backend: str,
    path: str | os.PathLike[str] | None = None,
) -> Path:
    """Writes ``vision.npz``.

    Args:
        pooled: ``(reference id, seed)`` -> pooled features, for every reference and every
            seed of `VISION_SEEDS`.
        local: Reference id -> local features at seed 0.
        colour: Reference id -> colourfulness at seed 0.
        negatives: Negative id -> pooled features, for every negative of the corpus.
        backend: The GL backend that drew them.
        path: Pool folder; ``None`` finds the shipped pool.

    Returns:
        The file written.

    Raises:
        ValueError: If a reference, a seed or a negative is missing.
    """
    folder = find_pool_dir(path)
    ids = [ref.id for ref in load_reference_pool(folder)]
    missing = [f"{i}@{s}" for i in ids for s in VISION_SEEDS if (i, s) not in pooled]
    missing += [i for i in ids if i not in local or i not in colour]
    corpus = [n.id for n in load_negatives(folder)]
    missing += [n for n in corpus if n not in negatives]
    if missing:
        raise ValueError(f"vision features missing for {', '.join(missing[:8])}")
    target = folder / VISION_FILE
    np.savez_compressed(
        target,
        version=np.array(VISION_VERSION),
        weights_sha256=np.array(WEIGHTS_SHA256),
        backend=np.array(backend),
        ids=np.array(ids),
        pooled=np.stack([np.stack([pooled[(i, s)] for s in VISION_SEEDS]) for i in ids]).astype(
            np.float32
        ),
        local=np.stack([local[i] for i in ids]).astype(np.float16),
        colour=np.array([colour[i] for i in ids], np.float32),
        negative_ids=np.array(corpus),
        negatives=np.stack([negatives[n] for n in corpus]).astype(np.float32),
    )
    return target


def load_pool_vision(path: str | os.PathLike[str] | None = None) -> PoolVision:
    """Reads ``vision.npz``, checking it matches the pool, the network and this version.

    Args:
        path: Pool folder; ``None`` finds the shipped pool.

    Returns:
        The `PoolVision`.

    Raises:
        FileNotFoundError: If the file is missing (the message names the command that writes
            it).
        ValueError: If it is stale: another version, network or set of references.
    """
    folder = find_pool_dir(path).resolve()
    target = folder / VISION_FILE
    fix = f"run `sketch-env pool refresh --pool-dir {folder}` to measure the references"
    if not target.is_file():
        raise FileNotFoundError(f"{target} is missing: {fix}")
    with np.load(target, allow_pickle=False) as data:
        if int(data["version"]) != VISION_VERSION:
            raise ValueError(f"{target} holds version {int(data['version'])}: {fix}")
        if str(data["weights_sha256"]) != WEIGHTS_SHA256:
            raise ValueError(f"{target} was measured with another network: {fix}")
        ids = tuple(str(i) for i in data["ids"])
        vision = PoolVision(
            ids=ids,
            pooled=np.asarray(data["pooled"], np.float32),
            local=np.asarray(data["local"], np.float32),
            colour=np.asarray(data["colour"], np.float32),
            negative_ids=tuple(str(i) for i in data["negative_ids"]),
            negatives=np.asarray(data["negatives"], np.float32),
            backend=str(data["backend"]),
        )
    expected: Sequence[str] = [ref.id for ref in load_reference_pool(folder)]
    if list(ids) != list(expected):
        raise ValueError(f"{target} does not describe this pool's references: {fix}")
    return vision
