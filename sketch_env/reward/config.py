"""`RewardConfig`: every weight, threshold, fixed reward and guard of the reward, as data.

The formula and the ladder it parameterises are in `sketch_env.reward.combine` and
`sketch_env.reward.outcome`; each term (`sketch_env.reward.terms`) reads its fields here, and
the guards are `Guard` objects (`sketch_env.picture.guards`) whose thresholds a configuration
sets. A saved configuration (``to_json``) holds every guard's thresholds, so it reproduces the
reward it was saved with.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from sketch_env.config import JsonConfig
from sketch_env.picture.guards import GUARDS, Guard

__all__ = ["DEFAULT_GUARDS", "RewardConfig"]

#: Every guard of `GUARDS`, in order: the default of ``RewardConfig.guards``.
DEFAULT_GUARDS: tuple[Guard, ...] = tuple(GUARDS.values())

#: Fields that moved to `GateConfig` with the run-time check, refused here with a pointer.
_MOVED_TO_GATE = (
    "require_brush_paint",
    "runtime_forbid_primitives",
    "runtime_forbid_raw_graphics",
    "canvas_size",
)
#: Fields that became ``coverage_quality``, in shares of the scorer's full marks.
_COVERAGE_QUALITY_OLD = ("coverage_quality_floor", "coverage_quality_full")


def _finite(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"RewardConfig.{name} must be a finite number, got {value!r}")
    return float(value)


def _guard(item: Any) -> Guard:
    if isinstance(item, Guard):
        return item
    if isinstance(item, str | Mapping):
        return Guard.from_dict(item)
    raise ValueError(f"RewardConfig.guards holds guards, their names or their JSON, got {item!r}")


@dataclass(frozen=True)
class RewardConfig(JsonConfig):
    """Weights and thresholds of the reward (`sketch_env.reward.combine` has the formula).

    Serialisable with `to_dict`/`from_dict`/`to_json`/`from_json`; validated on creation.

    Args:
        preference_weight: Weight of the preference term.
        coverage_weight: Weight of the coverage term (which lies in ``[0, 1]``).
        gate_weight: Bonus added when the gate passed and the sketch rendered.
        gate_fail_reward: The reward when the gate (or the run-time check) refuses.
        sketch_error_reward: The reward when the sketch threw or timed out; ``None`` scores
            what it painted with the formula instead. Equal to ``blank_reward`` by default:
            above it, a token stroke followed by an endless loop or a memory bomb out-earned an
            empty canvas and every guarded degenerate picture (OpenEnv's adversarial floor,
            issue 29: -0.5 against -0.75), so failing on purpose paid, and a timeout costs the
            trainer the most render time of any outcome; below it, painting nothing would be
            the safe way to avoid the error.
        blank_reward: The reward when the sketch ran but left the canvas (nearly) empty: paint
            on less than ``blank_below`` of it. ``None`` scores the blank picture with the
            formula.
        blank_below: Paint fraction below which a picture counts as blank.
        coverage_floor: Paint fraction below which the coverage term is 0.
        coverage_target: Paint fraction at which the coverage term reaches 1.
        coverage_quality: ``(floor, full)``: coverage pays nothing while the preference is at
            or below ``floor`` and in full from ``full``, in proportion between, so that covering
            the canvas with something the scorer rates as noise earns no coverage. In shares of
            the scorer's full marks (`sketch_env.scoring.ScoreScale.full`: 10 for the embedded
            scorers, so the default ``(0, 0.5)`` is 0 to 5); in reference standard deviations
            when the preference is normalised (``preference_ref_mean``). ``None`` turns it off.
        dark_mass_weight: Weight of the dark-mass penalty (0 turns it off).
        dark_mass_start: Dark-mass fraction where the penalty starts.
        dark_mass_full: Dark-mass fraction where the penalty is at full weight.
        preference_ref_mean: Reference mean for normalising the preference score.
        preference_ref_std: Reference standard deviation for normalising it (both or neither).
        pairwise_weight: Weight of the pairwise win probability (0 turns it off).
        pairwise_references: Reference ``(mu, sigma)`` pairs, e.g. HPSv3 scores of the
            reference pool for the same prompt.
        pairwise_samples: How many references to sample per reward (0: use them all).
        guards: The guards applied to every scored picture, whatever the scorer: `Guard`
            objects (their thresholds are the configuration's), or names of `GUARDS`, or
            their JSON. All of `GUARDS` by default; ``()`` for none.
        guard_floor: Where a guarded picture's reward is pulled to: a guard that fires in full
            gives exactly this. The default equals ``blank_reward``: a picture that is not a
            painting is worth no more than an empty canvas.

    The run-time rules (``require_brush_paint``, ``runtime_forbid_primitives``,
    ``runtime_forbid_raw_graphics``, ``canvas_size``) are the gate's: `GateConfig`.

    Raises:
        ValueError: On a non-finite or negative weight, a threshold out of ``[0, 1]`` or out of
            order, half-given normalisation, a bad reference pair, pairwise weight without
            references, or a bad guard.

    Examples:
        >>> RewardConfig(coverage_floor=0.01).coverage_floor
        0.01
        >>> RewardConfig.from_json(RewardConfig().to_json()) == RewardConfig()
        True
        >>> noise = RewardConfig().guard("noise").tuned(neighbour_corr=(0.3, 0.1))
        >>> RewardConfig().with_guard(noise).guard("noise").conditions[0].start
        0.3
    """

    preference_weight: float = 1.0
    coverage_weight: float = 1.0
    gate_weight: float = 0.0
    gate_fail_reward: float = -1.0
    sketch_error_reward: float | None = -0.75
    blank_reward: float | None = -0.75
    blank_below: float = 0.01
    coverage_floor: float = 0.005
    coverage_target: float = 0.25
    coverage_quality: tuple[float, float] | None = (0.0, 0.5)
    dark_mass_weight: float = 1.0
    dark_mass_start: float = 0.25
    dark_mass_full: float = 0.5
    preference_ref_mean: float | None = None
    preference_ref_std: float | None = None
    pairwise_weight: float = 0.0
    pairwise_references: tuple[tuple[float, float], ...] = ()
    pairwise_samples: int = 0
    guards: tuple[Guard, ...] = DEFAULT_GUARDS
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
        self._check_quality()
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
        self._check_pairwise()
        self._check_guards()
        _finite("guard_floor", self.guard_floor)

    def _check_quality(self) -> None:
        quality = self.coverage_quality
        if quality is None:
            return
        if isinstance(quality, str) or not isinstance(quality, Sequence) or len(quality) != 2:
            raise ValueError(
                f"RewardConfig.coverage_quality must be a (floor, full) pair or None, "
                f"got {quality!r}"
            )
        low = _finite("coverage_quality[0]", quality[0])
        if _finite("coverage_quality[1]", quality[1]) <= low:
            raise ValueError(
                f"RewardConfig.coverage_quality: full must be greater than floor, got {quality}"
            )
        # JSON gives a list; a tuple keeps the config hashable and equal to itself.
        object.__setattr__(self, "coverage_quality", (low, float(quality[1])))

    def _check_pairwise(self) -> None:
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

    def _check_guards(self) -> None:
        if isinstance(self.guards, str | Mapping) or not isinstance(self.guards, Sequence):
            raise ValueError(f"RewardConfig.guards must be a list of guards, got {self.guards!r}")
        guards: dict[str, Guard] = {}
        for item in self.guards:
            guard = _guard(item)
            guards.setdefault(guard.name, guard)
        object.__setattr__(self, "guards", tuple(guards.values()))

    @property
    def guard_names(self) -> tuple[str, ...]:
        """The names of the guards applied, in order."""
        return tuple(g.name for g in self.guards)

    def guard(self, name: str) -> Guard:
        """The guard of this name.

        Raises:
            KeyError: If the configuration applies no guard of that name.
        """
        for guard in self.guards:
            if guard.name == name:
                return guard
        raise KeyError(f"no guard {name!r} in this RewardConfig; it has {list(self.guard_names)}")

    def with_guard(self, guard: Guard) -> RewardConfig:
        """A copy with ``guard`` in place of the guard of its name (or added at the end)."""
        replaced = [guard if g.name == guard.name else g for g in self.guards]
        if guard.name not in self.guard_names:
            replaced.append(guard)
        return replace(self, guards=tuple(replaced))

    def to_dict(self) -> dict[str, Any]:
        """Returns the fields as plain JSON-compatible values (guards as their JSON form)."""
        out = asdict(self)
        out["pairwise_references"] = [list(pair) for pair in self.pairwise_references]
        out["coverage_quality"] = (
            list(self.coverage_quality) if self.coverage_quality is not None else None
        )
        out["guards"] = [guard.to_dict() for guard in self.guards]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RewardConfig:
        """Builds a config from a mapping; missing keys take their defaults.

        Args:
            data: Field values (``pairwise_references`` may be a list of lists; ``guards`` a
                list of guard objects in JSON form, or of names).

        Returns:
            The config.

        Raises:
            ValueError: On an unknown key or a bad value (a run-time rule, which lives in
                `GateConfig` now, and the coverage quality's old fields are named as such).
        """
        moved = sorted(set(data) & set(_MOVED_TO_GATE))
        if moved:
            raise ValueError(
                f"RewardConfig no longer holds {moved}: the run-time rules are the gate's; put "
                "them in GateConfig (EvaluationConfig.gate)"
            )
        old = sorted(set(data) & set(_COVERAGE_QUALITY_OLD))
        if old:
            raise ValueError(
                f"RewardConfig no longer holds {old}: give coverage_quality = [floor, full] in "
                "shares of the scorer's full marks (the old 0 and 5 on a 0-10 scorer are "
                "[0, 0.5]), or in reference standard deviations for a normalised preference"
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
        if "guards" in values:
            guards = values["guards"]
            if isinstance(guards, str | Mapping) or not isinstance(guards, Sequence):
                raise ValueError("RewardConfig.guards must be a list of guards")
            values["guards"] = tuple(_guard(g) for g in guards)
        return cls(**values)
