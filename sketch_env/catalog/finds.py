"""What searches found before, shipped with the pool so that every later search meets it again.

A seeded search that finds nothing bounds nothing. On 2026-12-06 a collage that the composed
search had found against a variant of the vision scorer earned 8.16 under the shipped default on
still_life/ink_hatching, 1.05 over the task's median reference, where the default's own search
with the same seed had stayed 0.57 below it (docs/reward.md, "A collage the default's own search
missed"). So `sketch-env reward-check --search` also evaluates, for every task it searches, the
pool's finds of that task, outside its budget as the references are (`run_search`): a reward
must hold against what earlier searches found, against whatever scorer, as well as against what
its own search finds. The same idea as a fuzzer's corpus.

``finds/finds.json`` lists them: ``id``, ``task_id``, ``file`` (a sketch in the same folder),
``found_by`` (the search and the scorer it beat or came near) and ``note`` (what it paints and
what it earned then). Nothing is fitted on the finds: the painting discriminator's negatives
come from `sketch-env pool negatives`, so a find measures what the reward generalises to.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

from sketch_env.catalog.references import ReferencePoolError, find_pool_dir

__all__ = ["Find", "load_finds"]


@dataclass(frozen=True)
class Find:
    """One picture a search found, as the sketch that paints it.

    Args:
        id: Unique id (``<subject>-<medium>-<mode>-<what>``).
        task_id: The task it was found on; it is scored under that task's prompt.
        source: Its p5.js source.
        found_by: The search that found it and the scorer it was run against.
        note: What it paints and what it earned when found.
    """

    id: str
    task_id: str
    source: str
    found_by: str
    note: str


def load_finds(path: str | os.PathLike[str] | None = None) -> tuple[Find, ...]:
    """Reads the pool's finds.

    Args:
        path: Pool folder; ``None`` finds the shipped pool.

    Returns:
        Every find, in the order of ``finds.json`` (none when the pool has no ``finds/``).

    Raises:
        ReferencePoolError: If ``finds.json`` is malformed, names a missing sketch or repeats
            an id.

    Examples:
        >>> finds = load_finds()
        >>> any(f.task_id == "still_life/ink_hatching" for f in finds)
        True
    """
    folder = find_pool_dir(path) / "finds"
    index = folder / "finds.json"
    if not index.is_file():
        return ()
    try:
        entries = json.loads(index.read_text(encoding="utf-8"))
        finds = tuple(
            Find(
                str(e["id"]),
                str(e["task_id"]),
                (folder / str(e["file"])).read_text(encoding="utf-8"),
                str(e["found_by"]),
                str(e["note"]),
            )
            for e in entries
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ReferencePoolError(f"{index} is malformed: {type(exc).__name__}: {exc}") from exc
    ids = [f.id for f in finds]
    if len(set(ids)) != len(ids):
        raise ReferencePoolError(f"{index} repeats an id: {sorted(ids)}")
    return finds
