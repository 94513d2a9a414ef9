"""The run-folder format: how rollouts are kept on disk, in one place.

A *run folder* holds evaluated rollouts as files a person can open and a program can read back:

- ``results.jsonl``: one JSON record per rollout (`Rollout.to_dict` plus where its files are:
  ``n``, ``id``, ``task_id``, ``origin``, ``image``, ``sketch``, ``metadata``; turns of an
  episode also carry ``episode`` and ``turn``);
- ``images/<n>-<id>-s<seed>.png``: every picture that rendered, as the renderer read it;
- ``sketches/<n>-<id>.js``: the sketch that ran (what the gate took out of the reply).

``sketch-env rollout`` writes one run folder (`sketch_env.rollout`); training-time artifacts
(`sketch_env.trl.ArtifactConfig`) write one per logged step, ``step-NNNNNN/``, inside a folder
of their own. Both go through this module, and so do the galleries and the tools that read
results back (``sketch-env gallery``, ``sketch-env pool calibrate --from-results``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from sketch_env.evaluation.rollout import Rollout

__all__ = [
    "IMAGES_DIR",
    "RESULTS_FILE",
    "SKETCHES_DIR",
    "STEP_DIR_PREFIX",
    "append_records",
    "file_slug",
    "load_records",
    "load_steps",
    "prepare_run_folder",
    "step_dir_name",
    "write_rollout",
]

#: One JSON record per rollout.
RESULTS_FILE = "results.jsonl"
#: The pictures.
IMAGES_DIR = "images"
#: The sketches that ran.
SKETCHES_DIR = "sketches"
#: Training-time artifacts keep one run folder per logged step: ``step-000012``.
STEP_DIR_PREFIX = "step-"


def file_slug(text: str, limit: int = 48) -> str:
    """A file-name-safe, lower-case version of ``text`` (at most ``limit`` characters).

    Examples:
        >>> file_slug("Trees / Pastel: blossom!")
        'trees-pastel-blossom'
    """
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-._")
    return (slug[:limit].rstrip("-._") or "item").lower()


def prepare_run_folder(folder: str | Path) -> Path:
    """Creates a run folder and its ``images/`` and ``sketches/``.

    Args:
        folder: The folder (created with its parents).

    Returns:
        The folder as a `Path`.

    Raises:
        OSError: If it cannot be created.
    """
    path = Path(folder)
    (path / IMAGES_DIR).mkdir(parents=True, exist_ok=True)
    (path / SKETCHES_DIR).mkdir(parents=True, exist_ok=True)
    return path


def write_rollout(
    folder: Path,
    n: int,
    name: str,
    rollout: Rollout,
    *,
    task_id: str | None = None,
    origin: str = "",
    metadata: Mapping[str, Any] | None = None,
    episode: str | None = None,
    turn: int = 0,
) -> dict[str, Any]:
    """Writes one rollout's picture and sketch into a run folder and returns its record.

    The record is not appended to ``results.jsonl`` here (callers write a chunk at a time);
    see `append_records`.

    Args:
        folder: A folder made by `prepare_run_folder`.
        n: The rollout's number in the folder (its file names start with it).
        name: A short name for its files and the gallery.
        rollout: The outcome.
        task_id: Its task, when known.
        origin: Where the reply came from (a file, ``FILE:LINE``, a training step).
        metadata: Anything else worth keeping with it.
        episode: The episode it is a turn of, if any.
        turn: Its turn in that episode, from 0.

    Returns:
        The ``results.jsonl`` record, with paths relative to ``folder``.
    """
    base = f"{n:04d}-{file_slug(name)}"
    sketch_rel = None
    if rollout.gate.source is not None:
        sketch_rel = f"{SKETCHES_DIR}/{base}.js"
        (folder / sketch_rel).write_text(rollout.gate.source, encoding="utf-8")
    image_rel = None
    render = rollout.render
    if render is not None and render.png is not None:
        image_rel = f"{IMAGES_DIR}/{base}-s{rollout.seed}.png"
        (folder / image_rel).write_bytes(render.png)
    return {
        "n": n,
        "id": name,
        "task_id": task_id,
        "origin": origin,
        "image": image_rel,
        "sketch": sketch_rel,
        **({"episode": episode, "turn": turn} if episode is not None else {}),
        **rollout.to_dict(),
        "metadata": dict(metadata or {}),
    }


def append_records(folder: Path, records: Iterable[Mapping[str, Any]]) -> None:
    """Appends records to a run folder's ``results.jsonl`` (one JSON object a line)."""
    with (folder / RESULTS_FILE).open("a", encoding="utf-8") as results:
        for record in records:
            results.write(json.dumps(record, ensure_ascii=False) + "\n")


def load_records(path: str | Path, *, skip_partial: bool = False) -> list[dict[str, Any]]:
    """Reads a run folder's ``results.jsonl`` back.

    Args:
        path: The file, or the run folder holding it.
        skip_partial: Skip lines that are not a complete JSON object (a folder being written
            while this reads) instead of raising.

    Returns:
        The records, in file order.

    Raises:
        OSError: If the file cannot be read.
        json.JSONDecodeError: On a malformed line, unless ``skip_partial``.
    """
    path = Path(path)
    if path.is_dir():
        path = path / RESULTS_FILE
    records = []
    for line in path.read_text("utf-8").splitlines():
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            if skip_partial:
                continue
            raise
        if isinstance(record, dict):
            records.append(record)
    return records


def step_dir_name(step: int) -> str:
    """The run folder of one training step's artifacts, e.g. ``step-000012``."""
    return f"{STEP_DIR_PREFIX}{step:06d}"


def load_steps(directory: str | Path) -> dict[int, list[dict[str, Any]]]:
    """Reads every step folder of an artifacts directory.

    A line that is not complete JSON (a step being written while this reads) is skipped.

    Args:
        directory: The artifacts directory (the one holding ``step-NNNNNN/``).

    Returns:
        Step -> its records, in step order.
    """
    steps: dict[int, list[dict[str, Any]]] = {}
    for folder in Path(directory).glob(f"{STEP_DIR_PREFIX}*"):
        match = re.fullmatch(rf"{STEP_DIR_PREFIX}(\d+)", folder.name)
        if match is None or not (folder / RESULTS_FILE).is_file():
            continue
        steps[int(match.group(1))] = load_records(folder, skip_partial=True)
    return dict(sorted(steps.items()))
