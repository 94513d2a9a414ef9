"""The outcome ladder: which way a rollout's reward is decided, written once.

Every rollout ends on one rung, the first whose condition holds, in this order:

1. ``gate_failed``: the gate refused the reply (nothing ran) -> ``gate_fail_reward``;
2. ``infra_error``: the browser or the scorer failed -> no reward (``None``), which TRL leaves
   out of the loss (docs/design.md §3.14), never a number the policy would learn from;
3. ``runtime_gate_failed``: the run-time check refused what the render measured
   (`sketch_env.gate.runtime_check`) -> ``gate_fail_reward``;
4. ``sketch_error``: the sketch threw or timed out, its own fault -> ``sketch_error_reward``
   (when that is ``None``, the ladder goes on with what it painted);
5. ``blank``: it painted less than ``blank_below`` of the canvas (the paint fraction,
   `sketch_env.picture.paint`) -> ``blank_reward`` (``None`` turns the rung off);
6. ``ok``: the formula (`sketch_env.reward.combine`).

The reward (`combine`) and the evaluator's "does this picture need a score?" read the same
ladder (`reaches_formula`), so a picture the reward will not score is never sent to the scorer,
and the two cannot disagree. The rubric view (`sketch_env.reward.rubric`) names its fixed
outcomes after the rungs' contributions.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sketch_env.reward.config import RewardConfig

__all__ = [
    "LADDER",
    "Facts",
    "RewardStatus",
    "Rung",
    "below_blank_line",
    "outcome",
    "reaches_formula",
]


class RewardStatus(enum.StrEnum):
    """Which rung of the ladder decided the reward (see the module docstring)."""

    #: The formula applied.
    OK = "ok"
    #: The gate refused the reply: ``gate_fail_reward``.
    GATE_FAILED = "gate_failed"
    #: The run-time check refused what the sketch did (`sketch_env.gate.runtime_check`):
    #: ``gate_fail_reward``.
    RUNTIME_GATE_FAILED = "runtime_gate_failed"
    #: The sketch failed by its own fault: ``sketch_error_reward``.
    SKETCH_ERROR = "sketch_error"
    #: The sketch ran but painted (next to) nothing: ``blank_reward``.
    BLANK = "blank"
    #: The infrastructure failed: no reward (``None``).
    INFRA_ERROR = "infra_error"


@dataclass(frozen=True)
class Facts:
    """What the ladder reads of one rollout.

    Args:
        gate_passed: Whether the gate let the reply run.
        infra_error: The infrastructure's failure (browser, scorer), if any.
        refused: Whether the run-time check refused the render.
        sketch_error: The sketch's own run-time failure, if any.
        paint_fraction: The picture's paint fraction; needed once the ladder reaches the blank
            rung.
    """

    gate_passed: bool
    infra_error: str | None = None
    refused: bool = False
    sketch_error: str | None = None
    paint_fraction: float | None = None


def check_fraction(name: str, value: float | None) -> float:
    """``value`` as a fraction in ``[0, 1]``.

    Raises:
        ValueError: If it is missing or out of range (a caller's bug, never the policy's).
    """
    if value is None:
        raise ValueError(f"combine() needs {name} for a sketch that rendered")
    if isinstance(value, bool) or not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be a fraction in [0, 1], got {value!r}")
    return float(value)


def below_blank_line(config: RewardConfig, paint_fraction: float | None) -> bool:
    """The blank rule: the picture painted less than ``blank_below`` of the canvas.

    The ladder's blank rung applies it (when ``blank_reward`` is set), and the critique a policy
    reads quotes it; nothing else decides what blank is.

    Raises:
        ValueError: If the paint fraction is missing or not a fraction.
    """
    return check_fraction("paint_fraction", paint_fraction) < config.blank_below


def _is_blank(config: RewardConfig, facts: Facts) -> bool:
    return config.blank_reward is not None and below_blank_line(config, facts.paint_fraction)


@dataclass(frozen=True)
class Rung:
    """One rung of the ladder.

    Args:
        status: The status a rollout ending here gets.
        contribution: The name of its one contribution when it pays a fixed reward (``None``
            for the formula and for ``infra_error``).
        applies: Whether a rollout ends here.
        reward: The fixed reward it pays (``None``: none, or the formula's).
        why: What it answers, in words.
    """

    status: RewardStatus
    contribution: str | None
    applies: Callable[[RewardConfig, Facts], bool]
    reward: Callable[[RewardConfig], float | None]
    why: str

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (without the callables)."""
        return {"status": self.status.value, "contribution": self.contribution, "why": self.why}


#: The ladder, first rung first (the module docstring says why in this order).
LADDER: tuple[Rung, ...] = (
    Rung(
        RewardStatus.GATE_FAILED,
        "gate_fail",
        lambda c, f: not f.gate_passed,
        lambda c: c.gate_fail_reward,
        "the gate refused the reply; nothing ran",
    ),
    Rung(
        RewardStatus.INFRA_ERROR,
        None,
        lambda c, f: f.infra_error is not None,
        lambda c: None,
        "the browser or the scorer failed: not the policy's fault, no reward",
    ),
    Rung(
        RewardStatus.RUNTIME_GATE_FAILED,
        "runtime_gate_fail",
        lambda c, f: f.refused,
        lambda c: c.gate_fail_reward,
        "the render showed what the gate could not (aliased primitives, no p5.brush, the size)",
    ),
    Rung(
        RewardStatus.SKETCH_ERROR,
        "sketch_error",
        lambda c, f: f.sketch_error is not None and c.sketch_error_reward is not None,
        lambda c: c.sketch_error_reward,
        "the sketch threw or timed out",
    ),
    Rung(
        RewardStatus.BLANK,
        "blank",
        _is_blank,
        lambda c: c.blank_reward,
        "the sketch painted next to nothing",
    ),
    Rung(
        RewardStatus.OK,
        None,
        lambda c, f: True,
        lambda c: None,
        "a picture: the formula",
    ),
)


def outcome(config: RewardConfig, facts: Facts) -> Rung:
    """The rung a rollout ends on.

    Args:
        config: The reward's configuration (the fixed rewards, the blank line).
        facts: What happened.

    Returns:
        The first rung of `LADDER` that applies.

    Raises:
        ValueError: If the blank rung needs the paint fraction and it is missing or bad.

    Examples:
        >>> from sketch_env.reward.config import RewardConfig
        >>> outcome(RewardConfig(), Facts(True, paint_fraction=0.004)).status.value
        'blank'
    """
    for rung in LADDER:
        if rung.applies(config, facts):
            return rung
    raise AssertionError("the formula's rung always applies")  # pragma: no cover


def reaches_formula(config: RewardConfig, facts: Facts) -> bool:
    """Whether the formula, and so the scorer, decides this rollout's reward.

    The evaluator asks before scoring: a refused, failed or blank render earns a fixed reward
    and is never sent to the scorer (a 2048x2048 picture the reward refuses must not cost the
    judge a request, nor the batch its answer).

    Examples:
        >>> from sketch_env.reward.config import RewardConfig
        >>> reaches_formula(RewardConfig(), Facts(True, sketch_error="timeout", paint_fraction=0.5))
        False
    """
    return outcome(config, facts).status is RewardStatus.OK
