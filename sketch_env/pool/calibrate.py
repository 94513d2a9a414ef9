"""Calibrating a scorer on the reference pool (``sketch-env pool calibrate``).

Running the references through an `Evaluator` belongs above the evaluation layer; what the
measurement means for the reward (`Calibration`) lives with the reward in
`sketch_env.reward.calibration`.
"""

from __future__ import annotations

import json
import math
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

from sketch_env.catalog.references import Reference, load_reference_pool
from sketch_env.evaluation.evaluator import Evaluator
from sketch_env.evaluation.runs import RESULTS_FILE
from sketch_env.reward.calibration import Calibration, CalibrationError, ReferenceStats

__all__ = ["calibrate", "policy_scores"]


def policy_scores(results: str | Path) -> list[tuple[float, float | None]]:
    """The ``(value, sigma)`` of every scored picture in a ``results.jsonl`` of rollouts.

    Args:
        results: The file, or the run folder holding it.

    Returns:
        One pair per rollout that has a finite score.
    """
    path = Path(results)
    if path.is_dir():
        path = path / RESULTS_FILE
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        score = json.loads(line).get("score") or {}
        value = score.get("value")
        if isinstance(value, int | float) and math.isfinite(value):
            sigma = score.get("sigma")
            out.append((float(value), float(sigma) if isinstance(sigma, int | float) else None))
    return out


def _versions() -> dict[str, str]:
    from importlib import metadata

    versions = {}
    for name in ("openenv-sketch-env", "onnxruntime", "hpsv3", "transformers", "torch"):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return versions


def calibrate(
    evaluator: Evaluator,
    references: Sequence[Reference] | None = None,
    seeds: Sequence[int] = (0, 1, 2),
) -> Calibration:
    """Scores every reference with ``evaluator``'s scorer and returns the statistics.

    Args:
        evaluator: The evaluation whose renderer and scorer are calibrated.
        references: The references; the shipped pool when ``None``.
        seeds: Render seeds per reference.

    Returns:
        The `Calibration` (not saved: call `Calibration.save`).

    Raises:
        CalibrationError: If a reference fails to render or to be scored (a calibration
            made from partial data would mislead every reward computed from it).
    """
    refs = list(references) if references is not None else list(load_reference_pool())
    seed_list = list(seeds)
    if not refs or not seed_list:
        raise CalibrationError("calibration needs at least one reference and one seed")
    jobs = [(ref, seed) for ref in refs for seed in seed_list]
    rollouts = evaluator.evaluate_sync(
        [r.source for r, _ in jobs], [r.prompt for r, _ in jobs], [s for _, s in jobs]
    )
    by_ref: dict[str, list[tuple[float, float | None]]] = {}
    backend = ""
    for (ref, seed), rollout in zip(jobs, rollouts, strict=True):
        if rollout.score is None or not math.isfinite(rollout.score.value):
            problem = rollout.reward.infra_error or rollout.reward.sketch_error or rollout.status
            raise CalibrationError(f"reference {ref.id} (seed {seed}) was not scored: {problem}")
        backend = backend or (rollout.render.backend if rollout.render else "")
        by_ref.setdefault(ref.id, []).append((rollout.score.value, rollout.score.sigma))
    stats = []
    for ref in refs:
        values = [v for v, _ in by_ref[ref.id]]
        sigmas = [s for _, s in by_ref[ref.id] if s is not None]
        stats.append(
            ReferenceStats(
                id=ref.id,
                task_id=ref.task_id,
                tier=str(ref.tier),
                mean=statistics.fmean(values),
                std=statistics.pstdev(values) if len(values) > 1 else 0.0,
                sigma=statistics.fmean(sigmas) if sigmas else None,
                values=tuple(values),
            )
        )
    tasks: dict[str, dict[str, float]] = {}
    for task_id in sorted({s.task_id for s in stats}):
        means = [s.mean for s in stats if s.task_id == task_id]
        tasks[task_id] = {
            "mean": statistics.fmean(means),
            "std": statistics.pstdev(means) if len(means) > 1 else 0.0,
            "count": float(len(means)),
        }
    return Calibration(
        scorer=evaluator.scorer.name,
        seeds=tuple(seed_list),
        backend=backend,
        created=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        versions=_versions(),
        references=tuple(stats),
        tasks=tasks,
    )
