"""The reward: gate, preference score, paint coverage and penalties, combined and itemised.

`combine` is a pure function of primitive inputs (the gate's verdict, the rendered picture's
paint fraction and dark-mass fraction, the scorer's `Score`, and whether the sketch or the
infrastructure failed), so it is trivially testable and independent of the renderer's types.
It returns a `RewardBreakdown` holding the scalar reward and every component.

For a sketch that passed the gate and rendered::

    reward = gate_weight
           + preference_weight * preference_term
           + coverage_weight   * coverage_term
           + pairwise_weight   * pairwise_prob
           - dark_mass_weight  * ramp(dark_mass, dark_mass_start, dark_mass_full)

- ``preference_term`` is the scorer's value (HPSv3's ``mu``, or the heuristic's 0-10), or
  ``(value - preference_ref_mean) / preference_ref_std`` when both reference statistics are
  set (e.g. measured on the reference pool), so that scorers on different scales mix alike.
- ``coverage_term`` is 0 below ``coverage_floor`` (default 0.5 % of the canvas: nothing was
  painted) and ``min(1, paint_fraction / coverage_target)`` above it, so more paint stops
  paying once the canvas is reasonably covered; it is then scaled by
  ``ramp(preference_term, coverage_quality_floor, coverage_quality_full)``, so that covering
  the canvas pays only as much as the scorer likes what covers it (noise earns no coverage).
- ``pairwise_prob`` is the probability that the painting beats a reference painting, using
  HPSv3's uncertainty: ``P = mean_r Phi((mu - mu_r) / sqrt(sigma^2 + sigma_r^2))`` over the
  reference scores (all of them, or a seeded sample of ``pairwise_samples``).
- the guards (`sketch_env.scoring.guards`: near-blank, one flat mass, noise, a random palette,
  no composition, no marks, lettering) are measured on every picture whatever the scorer; the
  product ``g`` of the factors ``RewardConfig.guards`` names pulls the sum towards
  ``guard_floor``: ``reward = floor + g * (sum - floor)`` (never raising a reward below the
  floor). A guard that fires in full sets the reward to the floor, as low as a blank canvas, so
  no scorer's opinion of a degenerate picture reaches the reward; the difference is reported as
  the ``guards`` contribution.
- the dark-mass penalty answers the hack of drowning the canvas in one black mass, which
  earns the cheap terms (docs/design.md §4): ``dark_mass`` is the share of the canvas in its single
  largest dark colour (`sketch_env.scoring.heuristic.dark_mass_fraction`). A deliberately dark
  ground (a night sky) is penalised too; set ``dark_mass_weight=0`` for such tasks.

Other outcomes do not use the formula:

- gate failed → ``gate_fail_reward`` (default -1), with the gate's reasons in the breakdown;
- the run-time check refused the render (`sketch_env.gate.runtime_check`: the renderer
  measured, where the sketch cannot tamper, that it painted with plain p5 primitives or raw
  graphics, or made no p5.brush drawing call at all, or it interfered with the render harness,
  or that its picture is not the ``canvas_size`` the instructions ask for) →
  ``gate_fail_reward`` too, with the check's reasons, which say what to use instead: aliasing
  (``const e = ellipse``) defeats the static gate but not this. `combine` receives these
  refusals; it never re-derives them;
- the sketch threw or timed out (its own fault) → ``sketch_error_reward`` (default -0.5), or,
  when that is ``None``, the formula applied to whatever it painted;
- the sketch ran but painted less than ``blank_below`` (1 %) of the canvas → ``blank_reward``
  (default -0.75);
- an infrastructure failure (browser crash, scorer down) → ``reward=None``, which TRL leaves
  out of the loss (docs/design.md §3.14), never a number the policy would learn from.

The defaults order the outcomes so that the policy learns to paint: a refused reply (-1) <
an empty canvas (-0.75) < a sketch that painted and then failed (-0.5) < any picture scored
by the formula (>= 0 unless the dark-mass penalty applies). Swallowing an error in
``try``/``catch`` does not turn a failure into a picture: the gate refuses ``try`` statements.
"""

from __future__ import annotations

import enum
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any, TypedDict

from sketch_env.config import JsonConfig
from sketch_env.gate.verdict import GateIssue, GateVerdict
from sketch_env.scoring.base import Score
from sketch_env.scoring.guards import GUARD_NAMES, GUARDS

__all__ = [
    "RewardBreakdown",
    "RewardConfig",
    "RewardStatus",
    "combine",
    "pairwise_win_probability",
]

#: Fields that moved to `GateConfig` with the run-time check, refused here with a pointer.
_MOVED_TO_GATE = (
    "require_brush_paint",
    "runtime_forbid_primitives",
    "runtime_forbid_raw_graphics",
    "canvas_size",
)


def _finite(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"RewardConfig.{name} must be a finite number, got {value!r}")
    return float(value)


@dataclass(frozen=True)
class RewardConfig(JsonConfig):
    """Weights and thresholds of the reward (see the module docstring for the formula).

    Serialisable with `to_dict`/`from_dict`/`to_json`/`from_json`; validated on creation.

    Args:
        preference_weight: Weight of the preference term.
        coverage_weight: Weight of the coverage term (which lies in ``[0, 1]``).
        gate_weight: Bonus added when the gate passed and the sketch rendered.
        gate_fail_reward: The reward when the gate fails.
        sketch_error_reward: The reward when the sketch threw or timed out; ``None`` scores
            what it painted with the formula instead.
        blank_reward: The reward when the sketch ran but left the canvas (nearly) empty: paint
            on less than ``blank_below`` of it. Below ``sketch_error_reward`` by default, so a
            policy never learns that painting nothing is safer than painting and failing.
            ``None`` scores the blank picture with the formula.
        blank_below: Paint fraction below which a picture counts as blank.
        coverage_floor: Paint fraction below which the coverage term is 0.
        coverage_target: Paint fraction at which the coverage term reaches 1.
        coverage_quality_floor: Preference term at or below which coverage pays nothing.
        coverage_quality_full: Preference term at or above which coverage pays in full; in
            between it pays in proportion, so covering the canvas with something the scorer
            rates as noise earns no coverage. Both ``None`` turn this off. In the units of the
            preference term: the heuristic's 0-10 by default; a calibrated (normalised) config
            sets them in reference standard deviations.
        dark_mass_weight: Weight of the dark-mass penalty (0 turns it off).
        dark_mass_start: Dark-mass fraction where the penalty starts.
        dark_mass_full: Dark-mass fraction where the penalty is at full weight.
        preference_ref_mean: Reference mean for normalising the preference score.
        preference_ref_std: Reference standard deviation for normalising it (both or neither).
        pairwise_weight: Weight of the pairwise win probability (0 turns it off).
        pairwise_references: Reference ``(mu, sigma)`` pairs, e.g. HPSv3 scores of the
            reference pool for the same prompt.
        pairwise_samples: How many references to sample per reward (0: use them all).
        guards: The guards applied to every scored picture, whatever the scorer (names of
            `sketch_env.scoring.guards.GUARDS`; all of them by default, ``()`` for none).
        guard_floor: Where a guarded picture's reward is pulled to: a guard that fires in full
            gives exactly this. The default equals ``blank_reward``: a picture that is not a
            painting is worth no more than an empty canvas.

    The run-time rules (``require_brush_paint``, ``runtime_forbid_primitives``,
    ``runtime_forbid_raw_graphics``, ``canvas_size``) are the gate's: `GateConfig`.

    Raises:
        ValueError: On a non-finite or negative weight, a threshold out of ``[0, 1]`` or out of
            order, half-given normalisation, a bad reference pair, or pairwise weight without
            references.

    Examples:
        >>> RewardConfig(coverage_floor=0.01).coverage_floor
        0.01
        >>> RewardConfig.from_json(RewardConfig().to_json()) == RewardConfig()
        True
    """

    preference_weight: float = 1.0
    coverage_weight: float = 1.0
    gate_weight: float = 0.0
    gate_fail_reward: float = -1.0
    sketch_error_reward: float | None = -0.5
    blank_reward: float | None = -0.75
    blank_below: float = 0.01
    coverage_floor: float = 0.005
    coverage_target: float = 0.25
    coverage_quality_floor: float | None = 0.0
    coverage_quality_full: float | None = 5.0
    dark_mass_weight: float = 1.0
    dark_mass_start: float = 0.25
    dark_mass_full: float = 0.5
    preference_ref_mean: float | None = None
    preference_ref_std: float | None = None
    pairwise_weight: float = 0.0
    pairwise_references: tuple[tuple[float, float], ...] = ()
    pairwise_samples: int = 0
    guards: tuple[str, ...] = GUARD_NAMES
    guard_floor: float = -0.75

    def __post_init__(self) -> None:
        for name in ("preference_weight", "coverage_weight", "gate_weight", "dark_mass_weight"):
            if _finite(name, getattr(self, name)) < 0:
                raise ValueError(f"RewardConfig.{name} must be >= 0, got {getattr(self, name)}")
        _finite("pairwise_weight", self.pairwise_weight)
        if self.pairwise_weight < 0:
            raise ValueError(
                f"RewardConfig.pairwise_weight must be >= 0, got {self.pairwise_weight}"
            )
        _finite("gate_fail_reward", self.gate_fail_reward)
        if self.sketch_error_reward is not None:
            _finite("sketch_error_reward", self.sketch_error_reward)
        if self.blank_reward is not None:
            _finite("blank_reward", self.blank_reward)
        if (self.coverage_quality_floor is None) != (self.coverage_quality_full is None):
            raise ValueError(
                "RewardConfig.coverage_quality_floor and coverage_quality_full must be given "
                "together"
            )
        if self.coverage_quality_floor is not None:
            low = _finite("coverage_quality_floor", self.coverage_quality_floor)
            if _finite("coverage_quality_full", self.coverage_quality_full) <= low:
                raise ValueError(
                    "RewardConfig.coverage_quality_full must be greater than "
                    f"coverage_quality_floor, got {self.coverage_quality_floor} and "
                    f"{self.coverage_quality_full}"
                )
        for name in (
            "coverage_floor",
            "coverage_target",
            "blank_below",
            "dark_mass_start",
            "dark_mass_full",
        ):
            value = _finite(name, getattr(self, name))
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"RewardConfig.{name} must be in [0, 1], got {value}")
        if self.coverage_target <= 0 or self.coverage_target < self.coverage_floor:
            raise ValueError(
                "RewardConfig.coverage_target must be > 0 and >= coverage_floor, got "
                f"target={self.coverage_target}, floor={self.coverage_floor}"
            )
        if self.dark_mass_full <= self.dark_mass_start:
            raise ValueError(
                "RewardConfig.dark_mass_full must be greater than dark_mass_start, got "
                f"start={self.dark_mass_start}, full={self.dark_mass_full}"
            )
        if (self.preference_ref_mean is None) != (self.preference_ref_std is None):
            raise ValueError(
                "RewardConfig.preference_ref_mean and preference_ref_std must be given together"
            )
        if self.preference_ref_mean is not None:
            _finite("preference_ref_mean", self.preference_ref_mean)
            if _finite("preference_ref_std", self.preference_ref_std) <= 0:
                raise ValueError(
                    f"RewardConfig.preference_ref_std must be > 0, got {self.preference_ref_std}"
                )
        refs = []
        for i, pair in enumerate(self.pairwise_references):
            if not isinstance(pair, Sequence) or isinstance(pair, str) or len(pair) != 2:
                raise ValueError(
                    f"RewardConfig.pairwise_references[{i}] must be a (mu, sigma) pair, "
                    f"got {pair!r}"
                )
            mu = _finite(f"pairwise_references[{i}][0]", pair[0])
            sigma = _finite(f"pairwise_references[{i}][1]", pair[1])
            if sigma < 0:
                raise ValueError(f"RewardConfig.pairwise_references[{i}] has sigma < 0: {sigma}")
            refs.append((mu, sigma))
        # JSON gives lists; store tuples so the config stays hashable and compares equal.
        object.__setattr__(self, "pairwise_references", tuple(refs))
        samples = self.pairwise_samples
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 0:
            raise ValueError(f"RewardConfig.pairwise_samples must be an int >= 0, got {samples!r}")
        if self.pairwise_weight > 0 and not refs:
            raise ValueError("RewardConfig.pairwise_weight > 0 needs pairwise_references")
        if isinstance(self.guards, str) or not isinstance(self.guards, Sequence):
            raise ValueError(
                f"RewardConfig.guards must be a list of guard names, got {self.guards!r}"
            )
        unknown = [g for g in self.guards if g not in GUARDS]
        if unknown:
            raise ValueError(
                f"RewardConfig.guards: unknown guard(s) {unknown}; known: {', '.join(GUARDS)}"
            )
        object.__setattr__(self, "guards", tuple(dict.fromkeys(self.guards)))
        _finite("guard_floor", self.guard_floor)

    def to_dict(self) -> dict[str, Any]:
        """Returns the fields as plain JSON-compatible values."""
        out = asdict(self)
        out["pairwise_references"] = [list(pair) for pair in self.pairwise_references]
        out["guards"] = list(self.guards)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RewardConfig:
        """Builds a config from a mapping; missing keys take their defaults.

        Args:
            data: Field values (``pairwise_references`` may be a list of lists).

        Returns:
            The config.

        Raises:
            ValueError: On an unknown key or a bad value (a run-time rule, which lives in
                `GateConfig` now, is named as such).
        """
        moved = sorted(set(data) & set(_MOVED_TO_GATE))
        if moved:
            raise ValueError(
                f"RewardConfig no longer holds {moved}: the run-time rules are the gate's; put "
                "them in GateConfig (EvaluationConfig.gate)"
            )
        cls.check_keys(data)
        values = dict(data)
        if "pairwise_references" in values:
            refs = values["pairwise_references"]
            if not isinstance(refs, Sequence) or isinstance(refs, str):
                raise ValueError("RewardConfig.pairwise_references must be a list of pairs")
            values["pairwise_references"] = tuple(
                tuple(p) if isinstance(p, list | tuple) else p for p in refs
            )
        return cls(**values)


class RewardStatus(enum.StrEnum):
    """Which branch of the reward applied (see the module docstring)."""

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


@dataclass(frozen=True, slots=True)
class RewardBreakdown:
    """The reward and every component that went into it.

    Args:
        reward: The scalar reward, or ``None`` for an infrastructure failure.
        status: Which branch of the reward applied (`RewardStatus`).
        gate_passed: Whether the gate passed.
        gate_reasons: The gate's reasons (empty when it passed).
        gate_codes: The gate's machine codes, parallel to ``gate_reasons``.
        runtime_reasons: Why the run-time check refused the render
            (`sketch_env.gate.runtime_check`).
        runtime_codes: Its machine codes, parallel to ``runtime_reasons``.
        preference: The scorer's raw value.
        preference_sigma: The scorer's uncertainty, where it has one.
        preference_term: The preference term (normalised when configured).
        coverage: The paint fraction.
        coverage_term: The coverage term in ``[0, 1]``.
        dark_mass: The dark-mass fraction.
        dark_mass_penalty: The weighted penalty subtracted (>= 0).
        pairwise_prob: The mean win probability against the references.
        guard_factor: The product of the guards' factors (1: no guard had anything to say).
        guards: Each applied guard's factor, ``(name, factor)``.
        sketch_error: The sketch's own run-time failure, if any.
        infra_error: The infrastructure failure, if any.
        contributions: ``(name, weighted value)`` pairs that sum to ``reward``.
        scorer_terms: The scorer's own named terms (e.g. the heuristic's), for logging.
    """

    reward: float | None
    status: RewardStatus
    gate_passed: bool
    gate_reasons: tuple[str, ...] = ()
    gate_codes: tuple[str, ...] = ()
    runtime_reasons: tuple[str, ...] = ()
    runtime_codes: tuple[str, ...] = ()
    preference: float | None = None
    preference_sigma: float | None = None
    preference_term: float | None = None
    coverage: float | None = None
    coverage_term: float | None = None
    dark_mass: float | None = None
    dark_mass_penalty: float | None = None
    pairwise_prob: float | None = None
    guard_factor: float | None = None
    guards: tuple[tuple[str, float], ...] = ()
    sketch_error: str | None = None
    infra_error: str | None = None
    contributions: tuple[tuple[str, float], ...] = ()
    scorer_terms: tuple[tuple[str, float], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Returns a JSON-serialisable view (tuples become lists, pairs become dicts)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("contributions", "scorer_terms", "guards"):
                value = dict(value)
            elif isinstance(value, enum.Enum):
                value = value.value
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out


def _phi(x: float) -> float:
    """Standard normal CDF."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def pairwise_win_probability(
    mu: float, sigma: float | None, references: Sequence[tuple[float, float]]
) -> float:
    """Mean probability that a painting scored ``(mu, sigma)`` beats each reference.

    ``P = mean_r Phi((mu - mu_r) / sqrt(sigma^2 + sigma_r^2))``: the two scores are treated as
    independent Gaussians. Where both sigmas are 0 the comparison is a step (a tie counts 1/2).

    Args:
        mu: The painting's score.
        sigma: Its uncertainty; ``None`` counts as 0.
        references: ``(mu_r, sigma_r)`` pairs.

    Returns:
        A probability in ``[0, 1]``.

    Raises:
        ValueError: If ``references`` is empty.

    Examples:
        >>> pairwise_win_probability(1.0, 0.0, [(1.0, 1.0)])
        0.5
        >>> round(pairwise_win_probability(2.0, 1.0, [(0.0, 1.0)]), 4)
        0.9214
    """
    if not references:
        raise ValueError("pairwise_win_probability needs at least one reference")
    s2 = (sigma or 0.0) ** 2
    total = 0.0
    for ref_mu, ref_sigma in references:
        scale = math.sqrt(s2 + ref_sigma**2)
        diff = mu - ref_mu
        if scale == 0.0:
            total += 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
        else:
            total += _phi(diff / scale)
    return total / len(references)


def _ramp(x: float, lo: float, hi: float) -> float:
    if x <= lo:
        return 0.0
    if x >= hi:
        return 1.0
    return (x - lo) / (hi - lo)


def _fraction(name: str, value: float | None) -> float:
    if value is None:
        raise ValueError(f"combine() needs {name} for a sketch that rendered")
    if isinstance(value, bool) or not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be a fraction in [0, 1], got {value!r}")
    return float(value)


class _GateFields(TypedDict):
    """The gate's part of a `RewardBreakdown`, the same in every outcome."""

    gate_passed: bool
    gate_reasons: tuple[str, ...]
    gate_codes: tuple[str, ...]


def combine(
    config: RewardConfig,
    gate: GateVerdict,
    *,
    paint_fraction: float | None = None,
    dark_mass: float | None = None,
    score: Score | None = None,
    sketch_error: str | None = None,
    infra_error: str | None = None,
    references: Sequence[tuple[float, float]] | None = None,
    sample_seed: int | None = None,
    runtime: Sequence[GateIssue] = (),
    guards: Mapping[str, float] | None = None,
) -> RewardBreakdown:
    """Combines one rollout's parts into its reward. Pure: no I/O, no global state.

    Precedence: a failed gate decides first (nothing was rendered), then an infrastructure
    failure (``reward=None``), then the sketch's own failure, then the formula.

    Args:
        config: Weights and thresholds.
        gate: The gate's verdict on the reply.
        paint_fraction: The picture's paint fraction (`sketch_env.render.coverage`); needed
            when the formula applies.
        dark_mass: The picture's dark-mass fraction (`dark_mass_fraction`); needed when the
            formula applies and ``dark_mass_weight > 0``.
        score: The scorer's `Score`; needed when the formula applies and the preference or
            pairwise weight is non-zero. A non-finite value is treated as a scorer failure.
        sketch_error: The sketch's own run-time failure (threw, timed out), if any.
        infra_error: An infrastructure failure (browser crash, scorer unavailable), if any.
        references: ``(mu, sigma)`` references for the pairwise term; the config's when
            ``None``.
        sample_seed: Seed for sampling ``config.pairwise_samples`` references (deterministic
            for a given seed).
        guards: The picture's guard factors (`sketch_env.scoring.guards.guard_factors`);
            needed when the formula applies and ``config.guards`` names any.
        runtime: The run-time check's refusals of the render
            (`sketch_env.gate.runtime_check`); any makes the reward ``gate_fail_reward``
            (after an infrastructure failure, before everything else).

    Returns:
        The `RewardBreakdown`.

    Raises:
        ValueError: If an input the formula needs is missing or out of range (a caller's bug,
            never the policy's).

    Examples:
        >>> from sketch_env.gate import GateVerdict
        >>> b = combine(RewardConfig(), GateVerdict(passed=True), paint_fraction=0.3,
        ...             dark_mass=0.0, score=Score(6.0))
        >>> b.reward, b.coverage_term
        (7.0, 1.0)
        >>> combine(RewardConfig(), GateVerdict(passed=True), infra_error="browser died").reward
    """
    gate_fields: _GateFields = {
        "gate_passed": gate.passed,
        "gate_reasons": tuple(gate.reasons),
        "gate_codes": tuple(gate.codes),
    }
    if not gate.passed:
        reward = config.gate_fail_reward
        return RewardBreakdown(
            reward=reward,
            status=RewardStatus.GATE_FAILED,
            contributions=(("gate_fail", reward),),
            **gate_fields,
        )
    scorer_terms = tuple(score.terms) if score is not None else ()
    if infra_error is None and score is not None and not math.isfinite(score.value):
        infra_error = f"the scorer returned a non-finite score ({score.value})"
    if infra_error is not None:
        return RewardBreakdown(
            reward=None,
            status=RewardStatus.INFRA_ERROR,
            infra_error=infra_error,
            sketch_error=sketch_error,
            scorer_terms=scorer_terms,
            **gate_fields,
        )

    if runtime:
        reward = config.gate_fail_reward
        return RewardBreakdown(
            reward=reward,
            status=RewardStatus.RUNTIME_GATE_FAILED,
            runtime_codes=tuple(issue.code for issue in runtime),
            runtime_reasons=tuple(issue.message for issue in runtime),
            preference=score.value if score is not None else None,
            coverage=paint_fraction,
            sketch_error=sketch_error,
            contributions=(("runtime_gate_fail", reward),),
            scorer_terms=scorer_terms,
            **gate_fields,
        )

    observed: dict[str, Any] = {
        "preference": score.value if score is not None else None,
        "preference_sigma": score.sigma if score is not None else None,
        "coverage": paint_fraction,
        "dark_mass": dark_mass,
        "sketch_error": sketch_error,
        "scorer_terms": scorer_terms,
    }
    if sketch_error is not None and config.sketch_error_reward is not None:
        reward = config.sketch_error_reward
        return RewardBreakdown(
            reward=reward,
            status=RewardStatus.SKETCH_ERROR,
            contributions=(("sketch_error", reward),),
            **gate_fields,
            **observed,
        )

    coverage = _fraction("paint_fraction", paint_fraction)
    if config.blank_reward is not None and coverage < config.blank_below:
        reward = config.blank_reward
        return RewardBreakdown(
            reward=reward,
            status=RewardStatus.BLANK,
            contributions=(("blank", reward),),
            **gate_fields,
            **observed,
        )
    needs_score = config.preference_weight > 0 or config.pairwise_weight > 0
    if needs_score and score is None:
        raise ValueError("combine() needs a score when the preference or pairwise weight is > 0")
    preference_term = None
    if score is not None:
        preference_term = score.value
        if config.preference_ref_mean is not None and config.preference_ref_std is not None:
            preference_term = (score.value - config.preference_ref_mean) / config.preference_ref_std

    coverage_term = (
        0.0 if coverage < config.coverage_floor else min(1.0, coverage / config.coverage_target)
    )
    if (
        preference_term is not None
        and config.coverage_quality_floor is not None
        and config.coverage_quality_full is not None
    ):
        coverage_term *= _ramp(
            preference_term, config.coverage_quality_floor, config.coverage_quality_full
        )
    contributions: list[tuple[str, float]] = []
    if config.gate_weight:
        contributions.append(("gate", config.gate_weight))
    contributions.append(("coverage", config.coverage_weight * coverage_term))
    if preference_term is not None and config.preference_weight:
        contributions.append(("preference", config.preference_weight * preference_term))

    pairwise_prob = None
    if config.pairwise_weight > 0:
        assert score is not None
        refs = list(config.pairwise_references if references is None else references)
        if not refs:
            raise ValueError("combine() needs pairwise references when pairwise_weight > 0")
        if 0 < config.pairwise_samples < len(refs):
            refs = random.Random(sample_seed).sample(refs, config.pairwise_samples)
        pairwise_prob = pairwise_win_probability(score.value, score.sigma, refs)
        contributions.append(("pairwise", config.pairwise_weight * pairwise_prob))

    dark_penalty = None
    if config.dark_mass_weight > 0:
        dark = _fraction("dark_mass", dark_mass)
        dark_penalty = config.dark_mass_weight * _ramp(
            dark, config.dark_mass_start, config.dark_mass_full
        )
        contributions.append(("dark_mass", -dark_penalty))

    reward = math.fsum(value for _, value in contributions)
    guard_factor = None
    applied: tuple[tuple[str, float], ...] = ()
    if config.guards:
        if guards is None:
            raise ValueError("combine() needs the picture's guard factors when guards are on")
        missing = [name for name in config.guards if name not in guards]
        if missing:
            raise ValueError(f"combine() is missing guard factors {missing}")
        applied = tuple((name, _fraction(f"guard {name}", guards[name])) for name in config.guards)
        guard_factor = math.prod(factor for _, factor in applied)
        if guard_factor < 1.0 and reward > config.guard_floor:
            pulled = config.guard_floor + guard_factor * (reward - config.guard_floor)
            contributions.append(("guards", pulled - reward))
            reward = math.fsum(value for _, value in contributions)
    return RewardBreakdown(
        reward=reward,
        status=RewardStatus.OK,
        preference_term=preference_term,
        coverage_term=coverage_term,
        dark_mass_penalty=dark_penalty,
        pairwise_prob=pairwise_prob,
        guard_factor=guard_factor,
        guards=applied,
        contributions=tuple(contributions),
        **gate_fields,
        **observed,
    )
