"""Calibration: what a scorer says about the reference paintings, measured and kept in a file.

`sketch_env.pool.calibrate` scores every reference of the pool (through the evaluation layer,
with several seeds) and records here, per reference and per task, the mean and spread of the
scorer's value, plus which scorer, which versions and when. `Calibration.reward_config` turns
that into the
reward's reference statistics: the preference term becomes a z-score against the pool
(``preference_ref_mean``/``preference_ref_std``), the pairwise term compares against the
references' measured ``(mean, spread)``, and coverage pays in full only for pictures the scorer
rates at least as well as the average reference.

`Calibration.keep_contested` narrows the references to those a policy beats between 25 % and
75 % of the time (read from a ``results.jsonl`` of its rollouts), so the pairwise term keeps a
gradient as the policy improves.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from sketch_env.errors import SketchEnvError
from sketch_env.reward.config import RewardConfig
from sketch_env.reward.terms import pairwise_win_probability

__all__ = ["FORMAT_VERSION", "Calibration", "CalibrationError", "ReferenceStats"]

#: The file format's version; bumped when fields change meaning.
FORMAT_VERSION = 1


class CalibrationError(SketchEnvError, ValueError):
    """A calibration file that cannot be used (missing, malformed, or for nothing)."""


@dataclass(frozen=True)
class ReferenceStats:
    """One reference's measured scores.

    Args:
        id: The reference id.
        task_id: Its task.
        tier: Its tier.
        mean: Mean scorer value over seeds.
        std: Spread over seeds (population standard deviation; 0 for one seed).
        sigma: The scorer's own mean uncertainty, where it has one (HPSv3).
        values: Every value, in seed order.
    """

    id: str
    task_id: str
    tier: str
    mean: float
    std: float
    sigma: float | None
    values: tuple[float, ...]

    @property
    def spread(self) -> float:
        """The uncertainty used for pairwise comparisons: the scorer's own sigma combined
        with the spread over seeds."""
        return math.hypot(self.sigma or 0.0, self.std)


@dataclass(frozen=True)
class Calibration:
    """Measured reference statistics of one scorer.

    Args:
        scorer: The scorer's name (which model, which mode).
        seeds: Render seeds used.
        backend: GL backend of the renders.
        created: When (UTC, ISO 8601).
        versions: Package versions that produced it.
        references: Per-reference statistics.
    """

    scorer: str
    seeds: tuple[int, ...]
    backend: str
    created: str
    versions: Mapping[str, str]
    references: tuple[ReferenceStats, ...]
    format_version: int = FORMAT_VERSION
    tasks: Mapping[str, Mapping[str, float]] = field(default_factory=dict)

    @property
    def mean(self) -> float:
        """Mean over references of their mean value."""
        return statistics.fmean(r.mean for r in self.references)

    @property
    def std(self) -> float:
        """Spread of the references' means (at least a small positive floor)."""
        if len(self.references) < 2:
            return 1.0
        return max(statistics.pstdev(r.mean for r in self.references), 1e-6)

    def reward_config(self, base: RewardConfig | None = None, **overrides: Any) -> RewardConfig:
        """A reward configuration that uses these statistics.

        Args:
            base: The configuration to start from; the defaults when ``None``.
            **overrides: Fields to set on top (e.g. ``pairwise_weight=1.0``).

        Returns:
            ``base`` with ``preference_ref_mean``/``preference_ref_std`` (the preference term
            becomes a z-score against the pool), ``pairwise_references`` (each reference's
            ``(mean, spread)``), and coverage paying in full only from the pool's mean up
            (``coverage_quality=(-2, 0)``, in pool standard deviations).
        """
        config = replace(
            base or RewardConfig(),
            preference_ref_mean=self.mean,
            preference_ref_std=self.std,
            pairwise_references=tuple((r.mean, r.spread) for r in self.references),
            coverage_quality=(-2.0, 0.0),
        )
        return replace(config, **overrides) if overrides else config

    def keep_contested(
        self,
        policy_scores: Iterable[tuple[float, float | None]],
        low: float = 0.25,
        high: float = 0.75,
    ) -> Calibration:
        """Keeps the references a policy beats between ``low`` and ``high`` of the time.

        Args:
            policy_scores: ``(value, sigma)`` of the policy's pictures (e.g. `policy_scores`).
            low: Least win-rate to keep a reference.
            high: Most win-rate to keep a reference.

        Returns:
            A calibration with only those references (all of them when none qualifies, so the
            pairwise term never loses its references).
        """
        scores = list(policy_scores)
        if not scores:
            raise CalibrationError("no policy scores to compare the references with")
        kept = []
        for ref in self.references:
            wins = statistics.fmean(
                pairwise_win_probability(value, sigma, [(ref.mean, ref.spread)])
                for value, sigma in scores
            )
            if low <= wins <= high:
                kept.append(ref)
        return replace(self, references=tuple(kept) or self.references)

    # ------------------------------------------------------------------ files
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        data = asdict(self)
        data["references"] = [asdict(r) for r in self.references]
        data["versions"] = dict(self.versions)
        data["tasks"] = {k: dict(v) for k, v in self.tasks.items()}
        return data

    def save(self, path: str | Path) -> Path:
        """Writes the calibration as JSON and returns the path."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")
        return target

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        """Reads a file written by `save`.

        Raises:
            CalibrationError: If it is missing, not JSON, of another format version, or
                holds no reference.
        """
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise CalibrationError(f"cannot read calibration {path}: {exc}") from exc
        try:
            if data.get("format_version") != FORMAT_VERSION:
                raise CalibrationError(
                    f"calibration {path} has format {data.get('format_version')!r}; this "
                    f"version reads {FORMAT_VERSION}: run `sketch-env pool calibrate` again"
                )
            refs = tuple(
                ReferenceStats(
                    id=str(r["id"]),
                    task_id=str(r["task_id"]),
                    tier=str(r["tier"]),
                    mean=float(r["mean"]),
                    std=float(r["std"]),
                    sigma=None if r.get("sigma") is None else float(r["sigma"]),
                    values=tuple(float(v) for v in r["values"]),
                )
                for r in data["references"]
            )
            calibration = cls(
                scorer=str(data["scorer"]),
                seeds=tuple(int(s) for s in data["seeds"]),
                backend=str(data["backend"]),
                created=str(data["created"]),
                versions={str(k): str(v) for k, v in data["versions"].items()},
                references=refs,
                tasks={str(k): dict(v) for k, v in data.get("tasks", {}).items()},
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            if isinstance(exc, CalibrationError):
                raise
            raise CalibrationError(f"calibration {path} is malformed: {exc!r}") from exc
        if not refs:
            raise CalibrationError(f"calibration {path} holds no reference")
        return calibration
