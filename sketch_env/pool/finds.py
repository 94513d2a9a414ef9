"""Adding a search's find to the pool (`sketch-env pool find`), so that every later search
replays it (`sketch_env.catalog.finds`).

A find is kept as the sketch the search confirmed by a render, with the task it was found on,
the search and scorer that found it, and what it earned against the task's median reference
then: what a reviewer needs to judge, later, whether a scorer holds it.
"""

from __future__ import annotations

import datetime
import json
import os
import re
from pathlib import Path

from sketch_env.catalog.finds import Find, load_finds
from sketch_env.catalog.references import find_pool_dir
from sketch_env.rewardcheck.search import FINDS, load_search_report
from sketch_env.rewardcheck.search.results import best_first

__all__ = ["add_find"]


def add_find(
    report: str | os.PathLike[str],
    task_id: str,
    name: str,
    note: str = "",
    path: str | os.PathLike[str] | None = None,
) -> Find:
    """Adds the best picture a search found on one task to the pool's finds.

    The best is taken over the search's own runs, never over the finds it replayed.

    Args:
        report: A ``report.json`` of `sketch-env reward-check --search` (or its folder).
        task_id: The task whose best find to keep.
        name: A short slug saying what it paints (``grey-collage``): the find's id is
            ``<subject>-<medium>-<mode>-<name>``.
        note: What it paints, in words; what it earned is added.
        path: Pool folder; ``None`` finds the shipped pool.

    Returns:
        The `Find` written (its sketch under ``finds/``, its entry in ``finds.json``).

    Raises:
        ValueError: If the report did not search the task, kept no sketch of a candidate
            there, the name is not a slug, or the id or the sketch is already a find.
    """
    source_file = Path(report)
    if source_file.is_dir():
        source_file = source_file / "report.json"
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name):
        raise ValueError(f"the name must be a lowercase slug (grey-collage), got {name!r}")
    searched = load_search_report(source_file)
    task = next((t for t in searched.tasks if t.task.id == task_id), None)
    if task is None:
        asked = ", ".join(t.task.id for t in searched.tasks)
        raise ValueError(f"{source_file} did not search {task_id} (it searched: {asked})")
    # Candidates outside each run's best few come back from the report without their sketch.
    kept = [c for mode, run in task.runs.items() if mode != FINDS for c in run.candidates]
    ranked = [c for c in best_first(kept) if c.source]
    if not ranked:
        raise ValueError(f"{source_file} kept no sketch of a candidate on {task_id}")
    best = ranked[0]
    find_id = f"{task.task.subject}-{task.task.medium}-{best.mode}-{name}"
    pool = find_pool_dir(path)
    existing = load_finds(pool)
    if any(f.id == find_id for f in existing):
        raise ValueError(f"the pool already has a find {find_id}")
    twin = next((f.id for f in existing if f.source == best.source), None)
    if twin is not None:
        raise ValueError(f"that sketch is already the pool's find {twin}")
    median = task.reference_stats()["median"]
    earned = f"{best.reward:.2f} under {searched.scorer}" + (
        "" if median is None else f", against the task's median reference {median:.2f}"
    )
    modes = "/".join(m for m in searched.modes if m != FINDS)
    found = Find(
        find_id,
        task_id,
        best.source,
        f"reward-check --search {searched.budget} ({modes}, population {searched.population}, "
        f"seed {searched.seed}) against {searched.scorer} ({datetime.date.today().isoformat()})",
        f"{note}; {earned}" if note else earned,
    )
    folder = pool / "finds"
    folder.mkdir(exist_ok=True)
    index = folder / "finds.json"
    entries = json.loads(index.read_text("utf-8")) if index.is_file() else []
    (folder / f"{find_id}.js").write_text(best.source, encoding="utf-8")
    entries.append(
        {
            "id": found.id,
            "task_id": found.task_id,
            "file": f"{find_id}.js",
            "found_by": found.found_by,
            "note": found.note,
        }
    )
    index.write_text(json.dumps(entries, indent=2) + "\n", encoding="utf-8")
    return found
