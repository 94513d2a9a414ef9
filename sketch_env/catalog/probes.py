"""The reward probes shipped with the pool: hand-ordered ladders and free compositions.

A reward that no search can beat but that cannot rank paintings teaches nothing, so the pool
carries, beside the references, sketches that measure *resolution* (docs/reward.md,
"Resolution"). One folder per task, ``probes/<subject>-<medium>/``, holds the sketches and a
``probe.json``:

- **ladder**: one short prompt and six or more sketches of it, ordered by hand from crude (what
  a small instruction model writes early in training) to reference quality *before* any scorer
  saw them. Each rung says its ``kind`` (``crude``, ``line_drawing``, ``plain``, ``competent``,
  ``reference``) and whether it has the ``props`` the task's references lean on (the vase and
  table of the flower paintings); a competent rung without them shows whether a reward pays
  for the subject or for the references' furniture.
- **free**: competent paintings of the task composed unlike any of its references.
- **outcome**: a clean line drawing, one token stroke and an empty canvas, on the ladder's prompt.

Nothing fits on the probes: they only report (`sketch_env.rewardcheck.resolution`).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sketch_env.catalog.references import ReferencePoolError, find_pool_dir

__all__ = ["OUTCOMES", "RUNG_KINDS", "Probe", "ProbeSketch", "load_probes"]

#: A rung's kinds, crudest first.
RUNG_KINDS: tuple[str, ...] = ("crude", "line_drawing", "plain", "competent", "reference")
#: The outcome probes, in the order a reward must pay them (best first).
OUTCOMES: tuple[str, ...] = ("line_drawing", "token_stroke", "empty")


@dataclass(frozen=True)
class ProbeSketch:
    """One probe sketch.

    Args:
        id: Unique id (``<folder>-ladder-3``, ``<folder>-free-1``, ``<folder>-empty``).
        prompt: The prompt it is scored under.
        source: Its p5.js source.
        kind: A rung's kind, ``free``, or the outcome's name.
        props: Whether it has the props the task's references lean on (rungs only).
        note: What it paints, and for a rung why it is better than the one before.
    """

    id: str
    prompt: str
    source: str
    kind: str
    props: bool | None
    note: str


@dataclass(frozen=True)
class Probe:
    """One task's probes.

    Args:
        task_id: The task.
        ladder: The rungs, worst first.
        free: The free compositions.
        outcome: The outcome probes by name (`OUTCOMES`).
    """

    task_id: str
    ladder: tuple[ProbeSketch, ...]
    free: tuple[ProbeSketch, ...]
    outcome: dict[str, ProbeSketch]


def _sketch(
    folder: Path, raw: dict[str, Any], sketch_id: str, prompt: str, kind: str
) -> ProbeSketch:
    path = folder / str(raw["file"])
    try:
        source = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ReferencePoolError(f"probe {sketch_id}: cannot read {path}: {exc}") from exc
    props = raw.get("props")
    return ProbeSketch(
        sketch_id, prompt, source, kind, None if props is None else bool(props), str(raw["note"])
    )


def _parse(folder: Path) -> Probe:
    try:
        data = json.loads((folder / "probe.json").read_text(encoding="utf-8"))
        ladder = data["ladder"]
        rungs = tuple(
            _sketch(folder, rung, str(rung["id"]), str(ladder["prompt"]), str(rung["kind"]))
            for rung in ladder["rungs"]
        )
        free = tuple(
            _sketch(folder, item, str(item["id"]), str(item["prompt"]), "free")
            for item in data["free"]
        )
        outcome = {
            name: _sketch(
                folder,
                data["outcome"][name],
                f"{folder.name}-{name}",
                str(data["outcome"][name]["prompt"]),
                name,
            )
            for name in OUTCOMES
        }
        return Probe(str(data["task_id"]), rungs, free, outcome)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ReferencePoolError(f"{folder / 'probe.json'} is malformed: {exc!r}") from exc


def load_probes(path: str | os.PathLike[str] | None = None) -> tuple[Probe, ...]:
    """Reads every task's probes from the pool.

    Args:
        path: Pool folder; ``None`` finds the shipped pool.

    Returns:
        One `Probe` per folder under ``probes/``, in folder order (none when there is none).

    Raises:
        ReferencePoolError: If a ``probe.json`` is malformed or names a missing sketch.

    Examples:
        >>> probes = load_probes()
        >>> all(len(p.ladder) >= 6 for p in probes)
        True
    """
    root = find_pool_dir(path) / "probes"
    if not root.is_dir():
        return ()
    return tuple(_parse(folder) for folder in sorted(root.iterdir()) if folder.is_dir())
