"""What is logged per batch through TRL's ``log_metric`` / ``log_extra`` callbacks."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from sketch_env.evaluation.cache import SketchEvaluation
from sketch_env.evaluation.rollout import Rollout, RolloutStatus, revision_summary

__all__ = ["METRIC_PREFIX", "batch_metrics", "log_batch", "revision_metrics"]

#: Prefix of every metric logged through ``log_metric``.
METRIC_PREFIX = "sketch"

#: Rollout statuses counted as failures in the logged metrics (zeros included, so that every
#: logging step has the same columns).
_FAILURE_STATUSES = tuple(
    s for s in RolloutStatus if s not in (RolloutStatus.OK, RolloutStatus.FRAME_CAPPED)
)


def log_batch(
    evaluation: SketchEvaluation,
    marker: Any,
    rollouts: Sequence[Rollout],
    log_metric: Callable[[str, float], None] | None,
    log_extra: Callable[[str, list[Any]], None] | None,
) -> bool:
    """Logs a batch's metrics unless another reward function already logged this batch.

    Args:
        evaluation: The evaluation the reward functions share (it remembers logged batches).
        marker: Identifies the batch (training step and completions).
        rollouts: The batch.
        log_metric: TRL's ``log_metric`` callback, if given.
        log_extra: TRL's ``log_extra`` callback, if given.

    Returns:
        Whether it logged.
    """
    if not evaluation.first_time(marker):
        return False
    if log_metric is not None:
        for name, value in batch_metrics(rollouts).items():
            log_metric(name, value)
    if log_extra is not None:
        log_extra(f"{METRIC_PREFIX}_status", [r.status.value for r in rollouts])
        rewards = [r.reward.reward for r in rollouts]
        log_extra(f"{METRIC_PREFIX}_reward", [math.nan if v is None else v for v in rewards])
    return True


def batch_metrics(rollouts: Sequence[Rollout]) -> dict[str, float]:
    """The metrics logged for one batch.

    Args:
        rollouts: The batch.

    Returns:
        ``sketch/reward`` (mean over scored completions), ``sketch/paint_fraction`` (mean
        share of the canvas painted, over rendered ones), ``sketch/coverage_term`` (mean
        coverage term of the reward, in ``[0, 1]``, over scored ones),
        ``sketch/gate_pass_rate``, ``sketch/preference`` (mean score over scored pictures),
        ``sketch/render_ms`` (mean render time),
        ``sketch/infra_failures`` and ``sketch/failures/<status>`` (counts, zeros included so
        that every logging step has the same columns). Means over an empty set are omitted.
    """

    def mean(values: list[float]) -> float | None:
        return math.fsum(values) / len(values) if values else None

    rendered = [r.render for r in rollouts if r.render is not None]
    rewards = [r.reward.reward for r in rollouts if r.reward.reward is not None]
    scores = [r.score.value for r in rollouts if r.score is not None]
    metrics: dict[str, float | None] = {
        f"{METRIC_PREFIX}/reward": mean(rewards),
        f"{METRIC_PREFIX}/paint_fraction": mean([render.paint_fraction for render in rendered]),
        f"{METRIC_PREFIX}/coverage_term": mean(
            [
                r.reward.coverage_term
                for r in rollouts
                if r.reward.reward is not None and r.reward.coverage_term is not None
            ]
        ),
        f"{METRIC_PREFIX}/gate_pass_rate": (
            sum(r.gate.passed for r in rollouts) / len(rollouts) if rollouts else None
        ),
        f"{METRIC_PREFIX}/preference": mean(scores),
        f"{METRIC_PREFIX}/render_ms": mean([render.elapsed_ms for render in rendered]),
        f"{METRIC_PREFIX}/infra_failures": float(len(rollouts) - len(rewards)),
    }
    statuses = Counter(r.status for r in rollouts)
    for status in _FAILURE_STATUSES:
        metrics[f"{METRIC_PREFIX}/failures/{status.value}"] = float(statuses.get(status, 0))
    return {name: value for name, value in metrics.items() if value is not None}


def revision_metrics(episodes: Sequence[Sequence[Rollout]]) -> dict[str, float]:
    """How much episodes that render several times improve from the first render to the last.

    Args:
        episodes: Each episode's renders, in order.

    Returns:
        ``sketch/revision/renders`` (mean renders per episode), ``sketch/revision/no_render``
        (episodes that rendered nothing), and over the episodes whose first and last renders
        were both scored: ``sketch/revision/first_reward``, ``sketch/revision/last_reward``,
        ``sketch/revision/improvement`` (mean of last minus first) and
        ``sketch/revision/improved_rate`` (share whose last render beat the first). Means
        over an empty set are omitted.
    """
    summaries = [revision_summary(episode) for episode in episodes]
    pairs = [
        (float(first), float(last))
        for s in summaries
        if isinstance(first := s["first_reward"], float)
        and isinstance(last := s["last_reward"], float)
    ]
    metrics: dict[str, float] = {
        f"{METRIC_PREFIX}/revision/no_render": float(sum(1 for e in episodes if not e)),
    }
    if episodes:
        metrics[f"{METRIC_PREFIX}/revision/renders"] = math.fsum(len(e) for e in episodes) / len(
            episodes
        )
    if pairs:
        firsts = [first for first, _ in pairs]
        lasts = [last for _, last in pairs]
        gains = [last - first for first, last in pairs]
        metrics[f"{METRIC_PREFIX}/revision/first_reward"] = math.fsum(firsts) / len(pairs)
        metrics[f"{METRIC_PREFIX}/revision/last_reward"] = math.fsum(lasts) / len(pairs)
        metrics[f"{METRIC_PREFIX}/revision/improvement"] = math.fsum(gains) / len(pairs)
        metrics[f"{METRIC_PREFIX}/revision/improved_rate"] = sum(g > 0 for g in gains) / len(pairs)
    return metrics
