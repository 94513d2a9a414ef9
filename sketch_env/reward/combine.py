"""`combine`: one rollout's parts to its reward, through the ladder, the terms and the guards.

`combine` is a pure function of primitive inputs (the gate's verdict, the run-time check's
refusals, the picture's paint fraction and measurements, the scorer's `Score` and scale, and
whether the sketch or the infrastructure failed), so it is trivially testable and independent
of the renderer's types. The pipeline, in order:

1. the outcome ladder (`sketch_env.reward.outcome`) decides whether a fixed reward applies
   (gate refused -1, infrastructure ``None``, run-time refusal -1, sketch error -0.75, blank
   -0.75) or the formula;
2. the formula sums the terms' contributions (`sketch_env.reward.terms`);
3. the guards (`sketch_env.reward.guards`) pull the sum towards ``guard_floor``.

The defaults order the outcomes so that the policy learns to paint: a refused reply (-1) < an
empty canvas = a sketch that failed (-0.75, neither a way out of the other: `RewardConfig`
says why) = a picture a guard floors in full < any picture scored by the formula (>= 0 unless
the dark-mass penalty applies). Swallowing an error in ``try``/``catch``
does not turn a failure into a picture: the gate refuses ``try`` statements.

The result is a `RewardBreakdown` whose contributions sum to the reward; `reward_range` says
how far the reward can go under a configuration and a scorer's scale.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from sketch_env.gate.verdict import GateIssue, GateVerdict
from sketch_env.picture.measures import PictureMeasures
from sketch_env.reward.breakdown import RewardBreakdown
from sketch_env.reward.config import RewardConfig
from sketch_env.reward.guards import guard_factors, pulled
from sketch_env.reward.outcome import LADDER, Facts, RewardStatus, check_fraction, outcome
from sketch_env.reward.terms import TERMS, TermInputs
from sketch_env.scoring.base import EMBEDDED_SCALE, Score, ScoreScale

__all__ = ["combine", "reward_range"]


def _pairs(items: Mapping[str, float | None]) -> tuple[tuple[str, float], ...]:
    """The measured ones, as ``(name, value)`` pairs (an unmeasured value is left out)."""
    return tuple((k, float(v)) for k, v in items.items() if v is not None)


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
    measures: PictureMeasures | None = None,
    scale: ScoreScale = EMBEDDED_SCALE,
) -> RewardBreakdown:
    """Combines one rollout's parts into its reward. Pure: no I/O, no global state.

    Args:
        config: Weights, thresholds, fixed rewards and guards.
        gate: The gate's verdict on the reply.
        paint_fraction: The picture's paint fraction (`sketch_env.picture.paint`); needed once
            the ladder reaches the blank rung.
        dark_mass: The picture's dark-mass fraction; from ``measures`` when not given; needed
            when the formula applies and ``dark_mass_weight > 0``.
        score: The scorer's `Score`; needed when the formula applies and the preference or
            pairwise weight is non-zero. A non-finite value is treated as a scorer failure.
        sketch_error: The sketch's own run-time failure (threw, timed out), if any.
        infra_error: An infrastructure failure (browser crash, scorer unavailable), if any.
        references: ``(mu, sigma)`` references for the pairwise term; the config's when
            ``None``.
        sample_seed: Seed for sampling ``config.pairwise_samples`` references (deterministic
            for a given seed).
        runtime: The run-time check's refusals of the render (`sketch_env.gate.runtime_check`).
        guards: The picture's guard factors by name; from ``measures`` and ``config.guards``
            when not given; needed when the formula applies and ``config.guards`` holds any.
        measures: The picture's measurements (`sketch_env.picture.measures`).
        scale: The scorer's scale (`Scorer.scale`), for the coverage quality ramp.

    Returns:
        The `RewardBreakdown`.

    Raises:
        ValueError: If an input the formula needs is missing or out of range (a caller's bug,
            never the policy's).

    Examples:
        >>> from sketch_env.gate import GateVerdict
        >>> b = combine(RewardConfig(guards=()), GateVerdict(passed=True), paint_fraction=0.3,
        ...             dark_mass=0.0, score=Score(6.0))
        >>> b.reward, b.coverage_term
        (7.0, 1.0)
        >>> combine(RewardConfig(), GateVerdict(passed=True), infra_error="browser died").reward
    """
    core: dict[str, Any] = {
        "gate_passed": gate.passed,
        "gate_reasons": tuple(gate.reasons),
        "gate_codes": tuple(gate.codes),
    }
    if gate.passed:
        core["scorer_terms"] = tuple(score.terms) if score is not None else ()
        core["sketch_error"] = sketch_error
    if infra_error is None and score is not None and not math.isfinite(score.value):
        infra_error = f"the scorer returned a non-finite score ({score.value})"
    facts = Facts(gate.passed, infra_error, bool(runtime), sketch_error, paint_fraction)
    rung = outcome(config, facts)
    if rung.status is RewardStatus.INFRA_ERROR:
        return RewardBreakdown(None, rung.status, infra_error=infra_error, **core)
    if rung.status is RewardStatus.RUNTIME_GATE_FAILED:
        core["runtime_codes"] = tuple(issue.code for issue in runtime)
        core["runtime_reasons"] = tuple(issue.message for issue in runtime)
    if rung.contribution is not None:
        reward = rung.reward(config)
        assert reward is not None  # a rung with a contribution pays a fixed reward
        raw: dict[str, float | None] = {}
        if gate.passed:
            if dark_mass is None and measures is not None:
                dark_mass = measures.dark_mass
            raw = {
                "preference": score.value if score is not None else None,
                "preference_sigma": score.sigma if score is not None else None,
                "coverage": paint_fraction,
                "dark_mass": dark_mass,
            }
        return RewardBreakdown(
            reward,
            rung.status,
            contributions=((rung.contribution, reward),),
            observations=_pairs(raw),
            **core,
        )
    return _formula(
        config,
        TermInputs(
            config,
            check_fraction("paint_fraction", paint_fraction),
            score,
            scale,
            measures,
            dark_mass,
            references,
            sample_seed,
        ),
        guards,
        core,
    )


def _formula(
    config: RewardConfig,
    inputs: TermInputs,
    guards: Mapping[str, float] | None,
    core: dict[str, Any],
) -> RewardBreakdown:
    if (config.preference_weight > 0 or config.pairwise_weight > 0) and inputs.score is None:
        raise ValueError("combine() needs a score when the preference or pairwise weight is > 0")
    contributions: list[tuple[str, float]] = []
    observed: dict[str, float | None] = {}
    for term in TERMS:
        value = term.value(inputs)
        observed.update(value.observations)
        if value.contribution is not None:
            contributions.append((term.name, value.contribution))
    reward = math.fsum(value for _, value in contributions)
    applied: tuple[tuple[str, float], ...] = ()
    if config.guards:
        if guards is None and inputs.measures is not None:
            guards = guard_factors(inputs.measures, config.guards)
        if guards is None:
            raise ValueError("combine() needs the picture's guard factors when guards are on")
        missing = [name for name in config.guard_names if name not in guards]
        if missing:
            raise ValueError(f"combine() is missing guard factors {missing}")
        applied = tuple(
            (name, check_fraction(f"guard {name}", guards[name])) for name in config.guard_names
        )
        factor = math.prod(value for _, value in applied)
        observed["guard_factor"] = factor
        target = pulled(reward, factor, config.guard_floor)
        if target is not None:
            contributions.append(("guards", target - reward))
            reward = math.fsum(value for _, value in contributions)
    return RewardBreakdown(
        reward,
        RewardStatus.OK,
        contributions=tuple(contributions),
        guards=applied,
        observations=_pairs(observed),
        **core,
    )


def reward_range(config: RewardConfig, scale: ScoreScale = EMBEDDED_SCALE) -> tuple[float, float]:
    """How low and how high the reward can go under a configuration and a scorer's scale.

    The fixed outcomes and the formula's extremes, each term's `Term.bounds` summed (preference
    at the scale's ends, normalised when configured; coverage and the pairwise probability in
    ``[0, 1]``; the dark-mass penalty in full). The guards only pull towards ``guard_floor``, so
    they add that one value.

    Examples:
        >>> reward_range(RewardConfig())
        (-1.0, 11.0)
    """
    bounds = [term.bounds(config, scale) for term in TERMS]
    formula_low = math.fsum(low for low, _ in bounds)
    formula_high = math.fsum(high for _, high in bounds)
    fixed = [rung.reward(config) for rung in LADDER if rung.contribution is not None]
    if config.guards:
        fixed.append(config.guard_floor)
    values = [v for v in fixed if v is not None]
    return (float(min(*values, formula_low)), float(max(*values, formula_high)))
