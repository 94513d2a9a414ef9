"""The formula's terms, as objects: what each reads, which settings it owns, what it adds.

For a picture that reached the formula (`sketch_env.reward.outcome`), the reward is the sum of
the terms' contributions, then pulled towards ``guard_floor`` by the guards
(`sketch_env.reward.combine`)::

    reward = gate_weight
           + coverage_weight   * coverage_term
           + preference_weight * preference_term
           + pairwise_weight   * pairwise_prob
           - dark_mass_weight  * ramp(dark_mass, dark_mass_start, dark_mass_full)

- ``preference_term`` is the scorer's value (on its `ScoreScale`: the embedded scorers' 0-10,
  HPSv3's ``mu``), or ``(value - preference_ref_mean) / preference_ref_std`` when both are set
  (e.g. measured on the reference pool), so that scorers on different scales mix alike.
- ``coverage_term`` is 0 below ``coverage_floor`` (0.5 % of the canvas) and
  ``min(1, paint_fraction / coverage_target)`` above it, so more paint stops paying once the
  canvas is reasonably covered; it is then scaled by ``ramp(preference_term, *coverage_quality)``
  (in shares of the scorer's full marks), so that covering the canvas pays only as much as the
  scorer likes what covers it (noise earns no coverage).
- ``pairwise_prob`` is the probability that the painting beats a reference painting, using the
  scorer's uncertainty: ``P = mean_r Phi((mu - mu_r) / sqrt(sigma^2 + sigma_r^2))`` over the
  reference scores (all of them, or a seeded sample of ``pairwise_samples``).
- the dark-mass penalty answers the hack of drowning the canvas in one black mass, which earns
  the cheap terms (docs/design.md §4): ``dark_mass`` is the share of the canvas in its single
  largest dark colour (`sketch_env.picture.measures.dark_mass_fraction`). A deliberately dark
  ground (a night sky) is penalised too; set ``dark_mass_weight=0`` for such tasks.

Each term is a `Term`: its contribution's name, what it reads, which `RewardConfig` fields it
owns, why, ``value(inputs)``, which returns its weighted contribution (``None``: the term is off
and adds no entry) and its observations (named numbers the breakdown reports), and ``bounds``,
the least and most it can add (the manifest's reward range sums them). The
breakdown is generic (`sketch_env.reward.breakdown`), so a new term is one `Term` here (its
settings as `RewardConfig` fields) and no change to any wire model.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from sketch_env.picture.guards import ramp
from sketch_env.reward.outcome import check_fraction
from sketch_env.scoring.base import EMBEDDED_SCALE, Score, ScoreScale

if TYPE_CHECKING:
    from sketch_env.picture.measures import PictureMeasures
    from sketch_env.reward.config import RewardConfig

__all__ = ["TERMS", "Term", "TermInputs", "TermValue", "pairwise_win_probability"]


@dataclass(frozen=True)
class TermInputs:
    """What the terms read of one picture that reached the formula.

    Args:
        config: The reward's configuration.
        paint_fraction: The picture's paint fraction (`sketch_env.picture.paint`).
        score: The scorer's `Score`, when it was asked.
        scale: The scorer's scale.
        measures: The picture's measurements, when the evaluator made them.
        dark_mass: The dark-mass fraction (from ``measures`` when not given).
        references: ``(mu, sigma)`` references for the pairwise term; the config's when
            ``None``.
        sample_seed: Seed for sampling ``pairwise_samples`` references.
    """

    config: RewardConfig
    paint_fraction: float
    score: Score | None = None
    scale: ScoreScale = EMBEDDED_SCALE
    measures: PictureMeasures | None = None
    dark_mass: float | None = None
    references: Sequence[tuple[float, float]] | None = None
    sample_seed: int | None = None

    @property
    def preference_term(self) -> float | None:
        """The scorer's value, normalised when the configuration says so."""
        if self.score is None:
            return None
        config = self.config
        if config.preference_ref_mean is not None and config.preference_ref_std is not None:
            return (self.score.value - config.preference_ref_mean) / config.preference_ref_std
        return self.score.value


@dataclass(frozen=True)
class TermValue:
    """What one term adds: its weighted contribution (``None``: no entry) and observations."""

    contribution: float | None
    observations: tuple[tuple[str, float | None], ...] = ()


class Term(Protocol):
    """One term of the formula (see the module docstring)."""

    #: The contribution's name in the breakdown (and the rubric's child).
    name: str
    #: What it reads: ``"paint_fraction"``, ``"score"``, ``"references"``, ``"measures.X"``.
    reads: tuple[str, ...]
    #: The `RewardConfig` fields it owns.
    params: tuple[str, ...]
    #: What it pays for, in words.
    why: str

    def value(self, inputs: TermInputs) -> TermValue:
        """Its contribution and observations for one picture."""
        ...

    def bounds(self, config: RewardConfig, scale: ScoreScale) -> tuple[float, float]:
        """The least and the most it can add (the manifest's reward range sums them)."""
        ...


def describe(term: Term, config: RewardConfig) -> dict[str, Any]:
    """A term's JSON form under a configuration: name, reads, its settings' values, why."""
    params = {name: getattr(config, name) for name in term.params}
    if "pairwise_references" in params:
        params["pairwise_references"] = [list(p) for p in params["pairwise_references"]]
    if isinstance(params.get("coverage_quality"), tuple):
        params["coverage_quality"] = list(params["coverage_quality"])
    return {"name": term.name, "reads": list(term.reads), "params": params, "why": term.why}


class _Gate:
    name: str = "gate"
    reads: tuple[str, ...] = ("gate",)
    params: tuple[str, ...] = ("gate_weight",)
    why: str = "a bonus for a sketch that passed the gate and rendered"

    def value(self, inputs: TermInputs) -> TermValue:
        weight = inputs.config.gate_weight
        return TermValue(weight if weight else None)

    def bounds(self, config: RewardConfig, scale: ScoreScale) -> tuple[float, float]:
        return config.gate_weight, config.gate_weight


class _Coverage:
    name: str = "coverage"
    reads: tuple[str, ...] = ("paint_fraction", "score")
    params: tuple[str, ...] = (
        "coverage_weight",
        "coverage_floor",
        "coverage_target",
        "coverage_quality",
    )
    why: str = "paint across the canvas, paid as far as the scorer likes what covers it"

    def value(self, inputs: TermInputs) -> TermValue:
        config = inputs.config
        coverage = inputs.paint_fraction
        term = (
            0.0 if coverage < config.coverage_floor else min(1.0, coverage / config.coverage_target)
        )
        preference = inputs.preference_term
        if preference is not None and config.coverage_quality is not None:
            low, full = config.coverage_quality
            if config.preference_ref_mean is None:
                # Shares of full marks on the scorer's own scale (0 and 5 on a 0-10 scorer).
                low, full = low * inputs.scale.full, full * inputs.scale.full
            term *= ramp(preference, low, full)
        observations = (("coverage", coverage), ("coverage_term", term))
        return TermValue(config.coverage_weight * term, observations)

    def bounds(self, config: RewardConfig, scale: ScoreScale) -> tuple[float, float]:
        return 0.0, config.coverage_weight


class _Preference:
    name: str = "preference"
    reads: tuple[str, ...] = ("score",)
    params: tuple[str, ...] = ("preference_weight", "preference_ref_mean", "preference_ref_std")
    why: str = "the scorer's opinion of the picture"

    def value(self, inputs: TermInputs) -> TermValue:
        preference = inputs.preference_term
        score = inputs.score
        observations: tuple[tuple[str, float | None], ...] = ()
        if score is not None:
            observations = (
                ("preference", score.value),
                ("preference_sigma", score.sigma),
                ("preference_term", preference),
            )
        weight = inputs.config.preference_weight
        if preference is None or not weight:
            return TermValue(None, observations)
        return TermValue(weight * preference, observations)

    def bounds(self, config: RewardConfig, scale: ScoreScale) -> tuple[float, float]:
        low, high = scale.low, scale.high
        if config.preference_ref_mean is not None and config.preference_ref_std is not None:
            low = (low - config.preference_ref_mean) / config.preference_ref_std
            high = (high - config.preference_ref_mean) / config.preference_ref_std
        return config.preference_weight * low, config.preference_weight * high


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


class _Pairwise:
    name: str = "pairwise"
    reads: tuple[str, ...] = ("score", "references")
    params: tuple[str, ...] = ("pairwise_weight", "pairwise_references", "pairwise_samples")
    why: str = "the chance the picture beats the reference paintings, with the scorer's uncertainty"

    def value(self, inputs: TermInputs) -> TermValue:
        config = inputs.config
        if config.pairwise_weight <= 0:
            return TermValue(None)
        score = inputs.score
        assert score is not None  # combine() refuses a missing score when this weight is on
        refs = list(config.pairwise_references if inputs.references is None else inputs.references)
        if not refs:
            raise ValueError("combine() needs pairwise references when pairwise_weight > 0")
        if 0 < config.pairwise_samples < len(refs):
            refs = random.Random(inputs.sample_seed).sample(refs, config.pairwise_samples)
        probability = pairwise_win_probability(score.value, score.sigma, refs)
        return TermValue(config.pairwise_weight * probability, (("pairwise_prob", probability),))

    def bounds(self, config: RewardConfig, scale: ScoreScale) -> tuple[float, float]:
        return 0.0, config.pairwise_weight


class _DarkMass:
    name: str = "dark_mass"
    reads: tuple[str, ...] = ("measures.dark_mass",)
    params: tuple[str, ...] = ("dark_mass_weight", "dark_mass_start", "dark_mass_full")
    why: str = "a penalty for drowning the canvas in one dark mass"

    def value(self, inputs: TermInputs) -> TermValue:
        config = inputs.config
        dark = inputs.dark_mass
        if dark is None and inputs.measures is not None:
            dark = inputs.measures.dark_mass
        observations: tuple[tuple[str, float | None], ...] = (("dark_mass", dark),)
        if config.dark_mass_weight <= 0:
            return TermValue(None, observations)
        fraction = check_fraction("dark_mass", dark)
        penalty = config.dark_mass_weight * ramp(
            fraction, config.dark_mass_start, config.dark_mass_full
        )
        return TermValue(-penalty, (*observations, ("dark_mass_penalty", penalty)))

    def bounds(self, config: RewardConfig, scale: ScoreScale) -> tuple[float, float]:
        return -config.dark_mass_weight, 0.0


#: The formula's terms, in the order their contributions are listed.
TERMS: tuple[Term, ...] = (_Gate(), _Coverage(), _Preference(), _Pairwise(), _DarkMass())
