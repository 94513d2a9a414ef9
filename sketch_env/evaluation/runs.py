"""The run-folder format: how rollouts are kept on disk, in one place.

A *run folder* holds evaluated rollouts as files a person can open and a program can read back:

- ``results.jsonl``: one JSON record per rollout (`Rollout.to_dict` plus where its files are:
  ``n``, ``id``, ``task_id``, ``origin``, ``image``, ``sketch``, ``metadata``; turns of an
  episode also carry ``episode`` and ``turn``);
- ``images/<n>-<id>-s<seed>.png``: every picture that rendered, as the renderer read it;
- ``sketches/<n>-<id>.js``: the sketch that ran (what the gate took out of the reply).

``sketch-env rollout`` writes one run folder (`sketch_env.rollout`); training-time artifacts
(`sketch_env.trl.ArtifactConfig`) write one per logged step, ``step-NNNNNN/``, inside the
folder of their *training run*: ``ARTIFACTS/run-YYYYmmdd-HHMMSS-xxxx/step-NNNNNN/``. Each
training run has a folder of its own, so two runs pointed at the same artifacts directory
never share a step folder or a group number (``sketch-env gallery ARTIFACTS`` shows them
apart). An artifacts directory written before training runs had folders holds its step folders
directly; `load_steps` on it reads them as one run. Everything goes through this module, and
so do the galleries and the tools that read results back (``sketch-env gallery``,
``sketch-env export``, ``sketch-env pool calibrate --from-results``).
"""

from __future__ import annotations

import datetime as _dt
import json
import re
import secrets
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from sketch_env.evaluation.rollout import Rollout

__all__ = [
    "IMAGES_DIR",
    "RESULTS_FILE",
    "SKETCHES_DIR",
    "STEP_DIR_PREFIX",
    "TRAINING_RUN_PREFIX",
    "append_records",
    "check_run_name",
    "file_slug",
    "list_runs",
    "load_records",
    "load_runs",
    "load_steps",
    "new_run_name",
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
#: The folder of one training run inside an artifacts directory, when it names itself:
#: ``run-20261202-051500-3f9a`` (start time, then four random hex digits, so two runs that
#: start in the same second, in one process or two, still get folders of their own).
TRAINING_RUN_PREFIX = "run-"
_RUN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
_STEP_NAME = re.compile(rf"{STEP_DIR_PREFIX}(\d+)")


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
    """Reads every step folder of one training run (or of an artifacts directory written
    before runs had folders of their own).

    A line that is not complete JSON (a step being written while this reads) is skipped.

    Args:
        directory: The folder holding ``step-NNNNNN/``.

    Returns:
        Step -> its records, in step order.
    """
    steps: dict[int, list[dict[str, Any]]] = {}
    for folder in Path(directory).glob(f"{STEP_DIR_PREFIX}*"):
        match = _STEP_NAME.fullmatch(folder.name)
        if match is None or not (folder / RESULTS_FILE).is_file():
            continue
        steps[int(match.group(1))] = load_records(folder, skip_partial=True)
    return dict(sorted(steps.items()))


def new_run_name(now: _dt.datetime | None = None) -> str:
    """A fresh training-run folder name: ``run-YYYYmmdd-HHMMSS-xxxx``.

    Args:
        now: The start time; the current local time when ``None``.

    Returns:
        The name (sorting by name sorts by start time).
    """
    stamp = (now or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S")
    return f"{TRAINING_RUN_PREFIX}{stamp}-{secrets.token_hex(2)}"


def check_run_name(name: str) -> str:
    """Checks that ``name`` can be a training run's folder inside an artifacts directory.

    Args:
        name: The run name.

    Returns:
        The name.

    Raises:
        ValueError: Unless it is 1-128 letters, digits, ``.``, ``_`` or ``-``, not starting
            with a dot or a dash, and not a step folder's name.
    """
    if not isinstance(name, str) or not _RUN_NAME.fullmatch(name) or _STEP_NAME.fullmatch(name):
        raise ValueError(
            f"a run name is a folder name (letters, digits, '.', '_', '-'; not step-NNNNNN), "
            f"got {name!r}"
        )
    return name


def _has_steps(folder: Path) -> bool:
    return any(
        _STEP_NAME.fullmatch(step.name) and (step / RESULTS_FILE).is_file()
        for step in folder.glob(f"{STEP_DIR_PREFIX}*")
    )


def list_runs(directory: str | Path) -> list[str]:
    """The training runs of an artifacts directory: its subfolders that hold step folders.

    Args:
        directory: The artifacts directory (`sketch_env.trl.ArtifactConfig.directory`).

    Returns:
        Their names, sorted (named runs sort by start time).
    """
    root = Path(directory)
    if not root.is_dir():
        return []
    return sorted(
        folder.name
        for folder in root.iterdir()
        if folder.is_dir() and not _STEP_NAME.fullmatch(folder.name) and _has_steps(folder)
    )


def load_runs(directory: str | Path) -> dict[str, dict[int, list[dict[str, Any]]]]:
    """Reads every training run of an artifacts directory.

    Args:
        directory: The artifacts directory.

    Returns:
        Run name -> step -> records (`load_steps` of each run folder), runs sorted by name.
    """
    root = Path(directory)
    return {name: load_steps(root / name) for name in list_runs(root)}
