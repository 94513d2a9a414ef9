"""`RewardBreakdown`: the reward and everything that went into it, in a shape no term changes.

A fixed core says how the rollout ended (the reward, the ladder's status, the gate's and the
run-time check's reasons, the sketch's or the infrastructure's failure). Everything else is a
name -> value map that the pipeline fills:

- ``contributions``: the weighted terms, which sum to the reward (a fixed outcome has one);
- ``guards``: each applied guard's factor;
- ``observations``: what the terms and guards measured on the way (``preference``,
  ``coverage``, ``coverage_term``, ``dark_mass_penalty``, ``guard_factor``...);
- ``scorer_terms``: the scorer's own named terms.

A new term or guard adds entries to those maps, never a field: the wire model
(`sketch_env.env.models.RewardComponents`) mirrors the core and the maps, not the terms.
The names the breakdown had as fields before it was generic (``coverage_term``,
``preference``...) read as properties, and `component_value` reads them off any record.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from sketch_env.reward.outcome import RewardStatus

__all__ = ["CORE", "MAPS", "RewardBreakdown", "component_value"]

#: The core fields, the same for every reward.
CORE = (
    "reward",
    "status",
    "gate_passed",
    "gate_reasons",
    "gate_codes",
    "runtime_reasons",
    "runtime_codes",
    "sketch_error",
    "infra_error",
)
#: The name -> value maps.
MAPS = ("contributions", "guards", "observations", "scorer_terms")


@dataclass(frozen=True, slots=True)
class RewardBreakdown:
    """The reward and every component that went into it.

    Args:
        reward: The scalar reward, or ``None`` for an infrastructure failure.
        status: Which rung of the ladder decided it (`RewardStatus`).
        gate_passed: Whether the gate passed.
        gate_reasons: The gate's reasons (empty when it passed).
        gate_codes: The gate's machine codes, parallel to ``gate_reasons``.
        runtime_reasons: Why the run-time check refused the render
            (`sketch_env.gate.runtime_check`).
        runtime_codes: Its machine codes, parallel to ``runtime_reasons``.
        sketch_error: The sketch's own run-time failure, if any.
        infra_error: The infrastructure failure, if any.
        contributions: ``(name, weighted value)`` pairs that sum to ``reward``.
        guards: Each applied guard's factor, ``(name, factor)``.
        observations: ``(name, value)`` the terms and guards measured.
        scorer_terms: The scorer's own named terms, for logging.

    Examples:
        >>> b = RewardBreakdown(1.0, RewardStatus.OK, True, observations=(("coverage", 0.3),))
        >>> b.coverage, b.observed("coverage_term")
        (0.3, None)
    """

    reward: float | None
    status: RewardStatus
    gate_passed: bool
    gate_reasons: tuple[str, ...] = ()
    gate_codes: tuple[str, ...] = ()
    runtime_reasons: tuple[str, ...] = ()
    runtime_codes: tuple[str, ...] = ()
    sketch_error: str | None = None
    infra_error: str | None = None
    contributions: tuple[tuple[str, float], ...] = ()
    guards: tuple[tuple[str, float], ...] = ()
    observations: tuple[tuple[str, float], ...] = ()
    scorer_terms: tuple[tuple[str, float], ...] = ()

    def observed(self, name: str) -> float | None:
        """An observation by name (``None`` when it was not measured)."""
        return dict(self.observations).get(name)

    def contribution(self, name: str) -> float | None:
        """A contribution by name (``None`` when the term added none)."""
        return dict(self.contributions).get(name)

    # The fields the breakdown had before it was generic, read from ``observations``.
    @property
    def preference(self) -> float | None:
        """The scorer's raw value."""
        return self.observed("preference")

    @property
    def preference_sigma(self) -> float | None:
        """The scorer's uncertainty, where it has one."""
        return self.observed("preference_sigma")

    @property
    def preference_term(self) -> float | None:
        """The preference term (normalised when configured)."""
        return self.observed("preference_term")

    @property
    def coverage(self) -> float | None:
        """The paint fraction."""
        return self.observed("coverage")

    @property
    def coverage_term(self) -> float | None:
        """The coverage term in ``[0, 1]``."""
        return self.observed("coverage_term")

    @property
    def dark_mass(self) -> float | None:
        """The dark-mass fraction."""
        return self.observed("dark_mass")

    @property
    def dark_mass_penalty(self) -> float | None:
        """The weighted dark-mass penalty subtracted (>= 0)."""
        return self.observed("dark_mass_penalty")

    @property
    def pairwise_prob(self) -> float | None:
        """The mean win probability against the references."""
        return self.observed("pairwise_prob")

    @property
    def guard_factor(self) -> float | None:
        """The product of the guards' factors (1: no guard had anything to say)."""
        return self.observed("guard_factor")

    def to_dict(self) -> dict[str, Any]:
        """Returns a JSON-serialisable view: the core, and each map as an object."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in MAPS:
                value = dict(value)
            elif isinstance(value, enum.Enum):
                value = value.value
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out


def component_value(components: Mapping[str, Any], name: str) -> Any:
    """Reads one value off a breakdown's ``to_dict()`` (a record's ``components``): a core
    field, else an observation; records written before the breakdown was generic held the
    observations as fields, and read the same.

    Examples:
        >>> component_value({"observations": {"coverage_term": 1.0}}, "coverage_term")
        1.0
        >>> component_value({"coverage_term": 0.5}, "coverage_term")
        0.5
    """
    if name in components:
        return components[name]
    return (components.get("observations") or {}).get(name)
