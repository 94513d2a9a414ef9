"""Example rollouts: render and score a set of sketches or replies into a folder.

Three sources, each turned into `RolloutItem` objects:

- `items_from_pool`: the shipped reference pool (source, prompt and task id per sketch).
- `items_from_sketches`: every ``*.js`` file of a folder. The prompt of ``NAME.js`` is, in order:
  the ``prompt`` argument, a sidecar ``NAME.prompt.txt`` or ``NAME.txt``, the file's leading
  ``//`` comment, or the file name with ``_``/``-`` read as spaces.
- `items_from_replies`: a JSONL file of model replies, one object per line with ``reply`` or
  ``completion`` (text or chat messages), ``prompt`` (text or chat messages) and optionally
  ``prompt_text``, ``task_id``, ``seed`` and ``id``. A conversation is replayed as an episode
  (`sketch_env.evaluation.replies.episode_replies`): every ``render`` tool call, or else every
  assistant reply, is one turn, rendered with the same seed as the others.

`run_rollouts` evaluates them through `sketch_env.evaluation.Evaluator` in chunks (so a
progress bar moves), and writes into the output folder:

- ``images/<n>-<id>-s<seed>.png``: every picture that rendered;
- ``sketches/<n>-<id>.js``: the sketch that was run (what the gate extracted from the reply);
- ``results.jsonl``: one line per rollout, `Rollout.to_dict` plus ``id``, ``task_id``,
  ``origin``, ``status``, ``image`` and ``sketch`` (paths relative to the folder); turns of an
  episode also carry ``episode`` and ``turn``, and the last turn ``revision``
  (`sketch_env.evaluation.rollout.revision_summary`: first and last reward, improvement);
- ``index.html``: the gallery (`sketch_env.rollout.gallery`).
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sketch_env.evaluation import Evaluator, Rollout
from sketch_env.evaluation.replies import episode_replies, resolve_prompt
from sketch_env.evaluation.rollout import revision_summary
from sketch_env.evaluation.runs import (
    RESULTS_FILE,
    prepare_run_folder,
    write_rollout,
)
from sketch_env.render.base import check_seed

__all__ = [
    "RolloutItem",
    "RolloutRun",
    "items_from_pool",
    "items_from_replies",
    "items_from_sketches",
    "iter_jobs",
    "record_rollout",
    "run_rollouts",
]


@dataclass(frozen=True)
class RolloutItem:
    """One reply (or bare sketch) to evaluate, with what it is scored against.

    Args:
        id: A short name, used in file names and the gallery.
        reply: The model reply or sketch source.
        prompt: The scene the picture is scored against.
        task_id: The task, when known.
        seed: A fixed render seed; ``None`` uses the run's seeds.
        origin: Where it came from (a file path, ``FILE:LINE``, a reference id).
        metadata: Anything else worth keeping in ``results.jsonl``.
        episode: The episode this reply is a turn of (``None`` for a single reply).
        turn: Its turn in the episode, from 0.
    """

    id: str
    reply: str
    prompt: str
    task_id: str | None = None
    seed: int | None = None
    origin: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)
    episode: str | None = None
    turn: int = 0


@dataclass
class RolloutRun:
    """What `run_rollouts` wrote.

    Args:
        out_dir: The output folder.
        results_path: ``results.jsonl``.
        gallery_path: ``index.html``.
        records: The result records, as written.
        seconds: Wall time of the run.
    """

    out_dir: Path
    results_path: Path
    gallery_path: Path
    records: list[dict[str, Any]]
    seconds: float

    def status_counts(self) -> dict[str, int]:
        """How many rollouts ended in each status."""
        return dict(Counter(r["status"] for r in self.records))

    def mean_reward(self) -> float | None:
        """Mean reward over rollouts that have one (``None`` when none has)."""
        values = [r["reward"] for r in self.records if r.get("reward") is not None]
        return sum(values) / len(values) if values else None

    def revisions(self) -> list[dict[str, Any]]:
        """The revision summary of every replayed episode (one per episode and seed)."""
        return [r["revision"] for r in self.records if r.get("revision") is not None]


def items_from_pool() -> list[RolloutItem]:
    """The reference pool as rollout items.

    Returns:
        One item per reference sketch.

    Raises:
        ImportError: If this installation has no reference pool module.
    """
    from sketch_env.catalog.references import load_reference_pool

    items = []
    for ref in load_reference_pool():
        items.append(
            RolloutItem(
                id=str(ref.id),
                reply=ref.source,
                prompt=ref.prompt,
                task_id=getattr(ref, "task_id", None),
                origin=f"reference_pool/{ref.id}",
                metadata={"tier": getattr(ref, "tier", None), **dict(ref.metadata or {})},
            )
        )
    return items


def _leading_comment(source: str) -> str:
    lines = []
    for line in source.splitlines():
        stripped = line.strip()
        if not stripped.startswith("//"):
            break
        lines.append(stripped.lstrip("/").strip())
    return " ".join(line for line in lines if line).strip()


def items_from_sketches(folder: str | Path, prompt: str | None = None) -> list[RolloutItem]:
    """Every ``*.js`` file of a folder (not recursive), in name order.

    Args:
        folder: The folder.
        prompt: One prompt for every sketch; otherwise each sketch's own (see module doc).

    Returns:
        The items.

    Raises:
        FileNotFoundError: If the folder does not exist or holds no ``.js`` file.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"no such folder: {folder}")
    files = sorted(folder.glob("*.js"))
    if not files:
        raise FileNotFoundError(f"no .js files in {folder}")
    items = []
    for path in files:
        source = path.read_text("utf-8", errors="replace")
        scene = prompt
        for sidecar in (path.with_suffix(".prompt.txt"), path.with_suffix(".txt")):
            if scene is None and sidecar.is_file():
                scene = sidecar.read_text("utf-8").strip() or None
        scene = scene or _leading_comment(source) or re.sub(r"[_-]+", " ", path.stem)
        items.append(RolloutItem(id=path.stem, reply=source, prompt=scene, origin=str(path)))
    return items


def items_from_replies(path: str | Path) -> list[RolloutItem]:
    """Model replies from a JSONL file (see the module docstring for the fields).

    Args:
        path: The file.

    Returns:
        One item per non-empty line.

    Raises:
        ValueError: For a line that is not a JSON object, lacks ``reply``/``completion``, has
            a bad seed, or has nothing to score against (the message names the line); for a
            file with no reply at all.
        FileNotFoundError: If the file does not exist.
    """
    path = Path(path)
    items = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{where}: not JSON ({exc})") from exc
            if not isinstance(row, dict):
                raise ValueError(f"{where}: expected a JSON object")
            reply = row.get("reply", row.get("completion"))
            if reply is None:
                raise ValueError(f"{where}: needs a 'reply' or 'completion' field")
            try:
                scene = resolve_prompt(
                    prompt_text=row.get("prompt_text"),
                    task_id=row.get("task_id"),
                    chat_prompt=row.get("prompt"),
                )
            except ValueError as exc:
                raise ValueError(f"{where}: {exc}") from exc
            seed = row.get("seed")
            try:
                seed = check_seed(seed) if seed is not None else None
            except ValueError as exc:
                raise ValueError(f"{where}: {exc}") from exc
            known = {"reply", "completion", "prompt", "prompt_text", "task_id", "seed", "id"}
            name = str(row.get("id") or f"line{number}")
            turns = episode_replies(reply)
            for turn, text in enumerate(turns):
                items.append(
                    RolloutItem(
                        id=name if len(turns) == 1 else f"{name}-t{turn}",
                        reply=text,
                        prompt=scene,
                        task_id=row.get("task_id"),
                        seed=seed,
                        origin=where,
                        metadata={k: v for k, v in row.items() if k not in known},
                        episode=name if len(turns) > 1 else None,
                        turn=turn,
                    )
                )
    if not items:
        raise ValueError(f"{path}: no replies in the file (it is empty or holds only blank lines)")
    return items


def record_rollout(n: int, item: RolloutItem, rollout: Rollout, out_dir: Path) -> dict[str, Any]:
    """Writes one rollout's picture and sketch into a run folder and returns its record.

    Args:
        n: The rollout's number in the folder (file names start with it).
        item: What was evaluated (its id names the files).
        rollout: The outcome.
        out_dir: A run folder (`sketch_env.evaluation.runs.prepare_run_folder`).

    Returns:
        The ``results.jsonl`` record (paths relative to ``out_dir``).
    """
    return write_rollout(
        out_dir,
        n,
        item.id,
        rollout,
        task_id=item.task_id,
        origin=item.origin,
        metadata=item.metadata,
        episode=item.episode,
        turn=item.turn,
    )


def run_rollouts(
    items: Sequence[RolloutItem],
    out_dir: str | Path,
    evaluator: Evaluator,
    *,
    seeds: int | Sequence[int] = 1,
    chunk_size: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    title: str | None = None,
) -> RolloutRun:
    """Evaluates the items and writes pictures, ``results.jsonl`` and the gallery.

    Args:
        items: What to evaluate.
        out_dir: The output folder (created; an existing ``results.jsonl`` is replaced).
        evaluator: The evaluator (its renderer and scorer decide how pictures are made).
        seeds: A count ``N`` (seeds ``0..N-1`` for every item) or explicit seeds. An item with
            its own seed is evaluated once, with that seed.
        chunk_size: Rollouts per `Evaluator.evaluate` call; twice the renderer's pool size
            when ``None``, so every browser has work while progress updates often.
        progress: Called with ``(done, total)`` after each chunk (and once with 0 at start).
        title: The gallery's title.

    Returns:
        The `RolloutRun`.

    Raises:
        ValueError: If there is nothing to evaluate or ``seeds`` is empty.
    """
    seed_list = list(range(seeds)) if isinstance(seeds, int) else list(seeds)
    if not seed_list:
        raise ValueError("seeds must name at least one seed")
    jobs = list(iter_jobs(items, seed_list))
    if not jobs:
        raise ValueError("nothing to evaluate: no items")
    out = prepare_run_folder(out_dir)
    if chunk_size is None:
        chunk_size = max(1, 2 * evaluator.renderer.pool_size)
    results_path = out / RESULTS_FILE
    records: list[dict[str, Any]] = []
    rollouts_by_record: list[Rollout] = []
    start = time.perf_counter()
    if progress is not None:
        progress(0, len(jobs))
    # Written line by line as chunks finish, so an interrupted run keeps what it did.
    with results_path.open("w", encoding="utf-8") as results:
        for begin in range(0, len(jobs), chunk_size):
            chunk = jobs[begin : begin + chunk_size]
            rollouts = evaluator.evaluate_sync(
                [item.reply for item, _ in chunk],
                [item.prompt for item, _ in chunk],
                [seed for _, seed in chunk],
            )
            for offset, ((item, _), rollout) in enumerate(zip(chunk, rollouts, strict=True)):
                record = record_rollout(begin + offset, item, rollout, out)
                records.append(record)
                rollouts_by_record.append(rollout)
                results.write(json.dumps(record, ensure_ascii=False) + "\n")
            results.flush()
            if progress is not None:
                progress(len(records), len(jobs))
    if _add_revisions(jobs, records, rollouts_by_record):
        # Revisions are known only once an episode's last turn is in, so the lines written as
        # chunks finished are written again with them.
        results_path.write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), "utf-8"
        )
    from sketch_env.rollout.gallery import write_gallery

    seconds = time.perf_counter() - start
    gallery = write_gallery(out, records, title=title, info=_run_info(evaluator, seconds))
    return RolloutRun(out, results_path, gallery, records, seconds)


def _add_revisions(
    jobs: Sequence[tuple[RolloutItem, int]],
    records: list[dict[str, Any]],
    rollouts: Sequence[Rollout],
) -> bool:
    # An episode is replayed once per seed: (episode, seed) is one sequence of turns.
    episodes: dict[tuple[str, int], list[int]] = {}
    for index, (item, seed) in enumerate(jobs):
        if item.episode is not None:
            episodes.setdefault((item.episode, seed), []).append(index)
    for indices in episodes.values():
        indices.sort(key=lambda i: jobs[i][0].turn)
        records[indices[-1]]["revision"] = revision_summary([rollouts[i] for i in indices])
    return bool(episodes)


def _run_info(evaluator: Evaluator, seconds: float) -> dict[str, str]:
    renderer = evaluator.renderer
    info = {"scorer": evaluator.scorer.name, "seconds": f"{seconds:.1f}"}
    try:
        info["backend"] = renderer.backend
        # SketchRenderer has it; RayRenderer and the Renderer protocol do not.
        webgl = getattr(renderer, "webgl_renderer", None)
        if webgl is not None:
            info["webgl"] = webgl
    except Exception:  # The renderer may not expose these before a start; they are optional.
        pass
    return info


def iter_jobs(
    items: Iterable[RolloutItem], seeds: Sequence[int]
) -> Iterable[tuple[RolloutItem, int]]:
    """The ``(item, seed)`` pairs a run evaluates, in order (for callers that plan ahead)."""
    for item in items:
        for seed in [item.seed] if item.seed is not None else seeds:
            yield item, seed
