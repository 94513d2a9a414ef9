"""What is logged per batch through TRL's ``log_metric`` / ``log_extra`` callbacks.

Beyond the reward's means, the batch metrics carry the signals that show a policy gaming the
reward before the mean does (docs/design.md §6): which gate rules it trips
(``sketch/gate/<code>``), pictures repeated within a group (``sketch/identical_pictures``: a
policy that found one safe painting paints it for every sample), the spread of coverage and
dark mass (a canvas flooded with paint, or a dark ground), and groups whose rewards are all
equal (``sketch/frac_groups_zero_std``: GRPO learns nothing from them), and how different the
pictures of one group are (``sketch/picture_diversity``: the mean RMS distance between two of a
group's pictures at 24 x 24 pixels, 0 for identical pictures). A fixed reward shape pushes every
sample toward the same statistics; a collapse shows here as diversity falling towards the
identical-pictures end while the reward still rises (docs/usage.md, "Diversity").
"""

from __future__ import annotations

import hashlib
import io
import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image

from sketch_env.evaluation.cache import SketchEvaluation
from sketch_env.evaluation.rollout import Rollout, RolloutStatus, revision_summary

__all__ = [
    "METRIC_PREFIX",
    "batch_metrics",
    "log_batch",
    "picture_diversity",
    "picture_hash",
    "revision_metrics",
]

#: Prefix of every metric logged through ``log_metric``.
METRIC_PREFIX = "sketch"

#: Rollout statuses counted as failures in the logged metrics (zeros included, so that every
#: logging step has the same columns).
_FAILURE_STATUSES = tuple(s for s in RolloutStatus if s.is_failure)


def log_batch(
    evaluation: SketchEvaluation,
    marker: Any,
    rollouts: Sequence[Rollout],
    log_metric: Callable[[str, float], None] | None,
    log_extra: Callable[[str, list[Any]], None] | None,
    groups: Sequence[Hashable] | None = None,
    columns: dict[str, list[Any]] | None = None,
) -> bool:
    """Logs a batch's metrics unless another reward function already logged this batch.

    Args:
        evaluation: The evaluation the reward functions share (it remembers logged batches).
        marker: Identifies the batch (training step and completions).
        rollouts: The batch.
        log_metric: TRL's ``log_metric`` callback, if given.
        log_extra: TRL's ``log_extra`` callback, if given: per-completion columns of TRL's
            completions table (status, reward, coverage, dark mass, picture hash).
        groups: Which GRPO group each rollout belongs to (see `batch_metrics`).
        columns: More completions-table columns (one value per rollout), e.g. the pictures'
            artifact paths.

    Returns:
        Whether it logged.
    """
    if not evaluation.first_time(marker):
        return False
    if log_metric is not None:
        for name, value in batch_metrics(rollouts, groups).items():
            log_metric(name, value)
    if log_extra is not None:

        def column(values: list[float | None]) -> list[float]:
            return [math.nan if v is None else v for v in values]

        log_extra(f"{METRIC_PREFIX}_status", [r.status.value for r in rollouts])
        log_extra(f"{METRIC_PREFIX}_reward", column([r.reward.reward for r in rollouts]))
        log_extra(f"{METRIC_PREFIX}_coverage", column([r.reward.coverage for r in rollouts]))
        log_extra(f"{METRIC_PREFIX}_dark_mass", column([r.reward.dark_mass for r in rollouts]))
        log_extra(
            f"{METRIC_PREFIX}_picture",
            [picture_hash(r.render.png) if r.render else "" for r in rollouts],
        )
        for name, values in (columns or {}).items():
            log_extra(name, values)
    return True


@lru_cache(maxsize=512)
def picture_hash(png: bytes | None) -> str:
    """A short hash of a picture's pixels (not of its PNG bytes), for spotting repeats.

    Args:
        png: The picture, or ``None``.

    Returns:
        12 hex digits; ``""`` without a picture.
    """
    # Cached: the metrics and the completions table both ask, and decoding a 600x600 PNG
    # takes a few milliseconds.
    if png is None:
        return ""
    with Image.open(io.BytesIO(png)) as image:
        pixels = image.convert("RGBA")
        digest = hashlib.blake2b(pixels.tobytes(), digest_size=6)
        digest.update(repr(pixels.size).encode())
    return digest.hexdigest()


@lru_cache(maxsize=4096)
def _thumbnail(png: bytes) -> tuple[float, ...]:
    # 24 x 24 keeps composition and palette and drops most of p5.brush's seeded texture
    # (measured on the pool: a reference's three seeds 0.02 apart at the median, one task's
    # four references 0.07-0.33, median 0.19).
    with Image.open(io.BytesIO(png)) as image:
        small = image.convert("RGB").resize((24, 24), Image.Resampling.BOX)
        return tuple(v / 255.0 for v in small.tobytes())


def picture_diversity(pngs: Sequence[bytes]) -> float | None:
    """The mean RMS distance between two of the pictures, at 24 x 24 pixels (0-1).

    Args:
        pngs: One group's pictures.

    Returns:
        The mean over every pair; ``None`` with fewer than two pictures.
    """
    if len(pngs) < 2:
        return None
    thumbs = [_thumbnail(png) for png in pngs]
    distances = [
        math.sqrt(math.fsum((x - y) ** 2 for x, y in zip(a, b, strict=True)) / len(a))
        for i, a in enumerate(thumbs)
        for b in thumbs[i + 1 :]
    ]
    return math.fsum(distances) / len(distances)


def _spread(name: str, values: list[float]) -> dict[str, float]:
    """Minimum, median and maximum of a per-completion value (the mean is logged apart)."""
    if not values:
        return {}
    return {
        f"{name}_min": min(values),
        f"{name}_median": statistics.median(values),
        f"{name}_max": max(values),
    }


def _group_metrics(rollouts: Sequence[Rollout], groups: Sequence[Hashable]) -> dict[str, float]:
    members: dict[Hashable, list[Rollout]] = defaultdict(list)
    for rollout, group in zip(rollouts, groups, strict=True):
        members[group].append(rollout)
    pictures = repeats = 0
    stds: list[float] = []
    diversity: list[float] = []
    for group_rollouts in members.values():
        pngs = [
            r.render.png
            for r in group_rollouts
            if r.render is not None and r.render.png is not None
        ]
        hashes = [picture_hash(png) for png in pngs]
        spread = picture_diversity(pngs)
        if spread is not None:
            diversity.append(spread)
        pictures += len(hashes)
        repeats += len(hashes) - len(set(hashes))
        rewards = [r.reward.reward for r in group_rollouts if r.reward.reward is not None]
        if len(rewards) >= 2:
            stds.append(statistics.pstdev(rewards))
    metrics: dict[str, float] = {}
    if pictures:
        metrics[f"{METRIC_PREFIX}/identical_pictures"] = repeats / pictures
    if diversity:
        metrics[f"{METRIC_PREFIX}/picture_diversity"] = math.fsum(diversity) / len(diversity)
    if stds:
        metrics[f"{METRIC_PREFIX}/frac_groups_zero_std"] = sum(s == 0 for s in stds) / len(stds)
        metrics[f"{METRIC_PREFIX}/group_reward_std"] = math.fsum(stds) / len(stds)
    return metrics


def batch_metrics(
    rollouts: Sequence[Rollout], groups: Sequence[Hashable] | None = None
) -> dict[str, float]:
    """The metrics logged for one batch.

    Args:
        rollouts: The batch.
        groups: One group id per rollout (the GRPO group: completions of one prompt); when
            ``None``, rollouts scored against the same prompt form a group. (Two groups of one
            task in the same batch then count as one, which only makes them larger.)

    Returns:
        ``sketch/reward`` (mean over scored completions), ``sketch/paint_fraction`` (mean
        share of the canvas painted, over rendered ones), ``sketch/coverage_term`` (mean
        coverage term of the reward, in ``[0, 1]``, over scored ones),
        ``sketch/gate_pass_rate``, ``sketch/preference`` (mean score over scored pictures),
        ``sketch/render_ms`` (mean render time, queueing excluded), ``sketch/queue_ms`` (mean
        time waiting for a free browser),
        ``sketch/infra_failures`` and ``sketch/failures/<status>`` (counts, zeros included so
        that every logging step has the same columns); the reward-hacking signals:
        ``sketch/gate/<code>`` (rollouts refused for each gate code present in the batch),
        ``sketch/paint_fraction_{min,median,max}`` and ``sketch/dark_mass`` with
        ``sketch/dark_mass_{min,median,max}`` (over rendered pictures),
        ``sketch/identical_pictures`` (share of pictures that repeat, pixel for pixel, another
        picture of their group), ``sketch/frac_groups_zero_std`` (share of groups of two or
        more scored completions whose rewards are all equal) and ``sketch/group_reward_std``
        (mean within-group standard deviation); ``sketch/painting`` (the vision scorer's mean
        probability that the pictures are paintings). Values over an empty set are omitted.
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
        f"{METRIC_PREFIX}/render_ms": mean([render.render_ms for render in rendered]),
        f"{METRIC_PREFIX}/queue_ms": mean([render.queue_ms for render in rendered]),
        f"{METRIC_PREFIX}/infra_failures": float(len(rollouts) - len(rewards)),
    }
    statuses = Counter(r.status for r in rollouts)
    for status in _FAILURE_STATUSES:
        metrics[f"{METRIC_PREFIX}/failures/{status.value}"] = float(statuses.get(status, 0))
    codes = Counter(code for r in rollouts if not r.gate.passed for code in set(r.gate.codes))
    for code, count in sorted(codes.items()):
        metrics[f"{METRIC_PREFIX}/gate/{code}"] = float(count)
    coverage = [render.paint_fraction for render in rendered]
    dark = [r.reward.dark_mass for r in rollouts if r.reward.dark_mass is not None]
    metrics[f"{METRIC_PREFIX}/dark_mass"] = mean(dark)
    # The vision scorer's discriminator: how sure it is that the batch's pictures are
    # paintings. With ``refit_every`` it learns the policy's recent pictures, so a fall here
    # while the reward holds is the reward model catching up with a shortcut.
    metrics[f"{METRIC_PREFIX}/painting"] = mean(
        [
            value
            for r in rollouts
            if r.score is not None
            for name, value in r.score.terms
            if name == "painting"
        ]
    )
    metrics.update(_spread(f"{METRIC_PREFIX}/paint_fraction", coverage))
    metrics.update(_spread(f"{METRIC_PREFIX}/dark_mass", dark))
    metrics.update(_group_metrics(rollouts, groups or [r.prompt for r in rollouts]))
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
