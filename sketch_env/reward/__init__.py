"""The reward as a declared pipeline: picture measurements in, one number out, every step data.

- `outcome`: the ladder (gate -> infrastructure -> run-time refusal -> sketch error -> blank ->
  formula), written once and read by the reward and by the evaluator;
- `terms`: the formula's terms as objects (coverage, preference, pairwise, dark mass, gate);
- `guards`: the guards' factors and their pull towards the floor (the guards themselves are
  data: `sketch_env.picture.guards`);
- `config`: `RewardConfig`, every weight, threshold and guard, with a JSON form;
- `breakdown`: `RewardBreakdown`, a fixed core and name -> value maps (contributions, guards,
  observations, scorer terms), so a new term changes no wire model;
- `combine`: the pipeline itself, and `reward_range`;
- `rubric`: the same pipeline as an OpenEnv rubric tree (the environment's ``rubric``);
- `calibration` and `options`: reference statistics and command-line options that make a
  `RewardConfig`.

The names below load on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sketch_env.reward.breakdown import RewardBreakdown, component_value
    from sketch_env.reward.calibration import Calibration, CalibrationError
    from sketch_env.reward.combine import combine, reward_range
    from sketch_env.reward.config import DEFAULT_GUARDS, RewardConfig
    from sketch_env.reward.guards import guard_factors
    from sketch_env.reward.outcome import LADDER, Facts, RewardStatus, outcome, reaches_formula
    from sketch_env.reward.rubric import reward_rubric
    from sketch_env.reward.terms import TERMS, pairwise_win_probability

_HOME = {
    "RewardBreakdown": "breakdown",
    "component_value": "breakdown",
    "Calibration": "calibration",
    "CalibrationError": "calibration",
    "combine": "combine",
    "reward_range": "combine",
    "DEFAULT_GUARDS": "config",
    "RewardConfig": "config",
    "guard_factors": "guards",
    "LADDER": "outcome",
    "Facts": "outcome",
    "RewardStatus": "outcome",
    "outcome": "outcome",
    "reaches_formula": "outcome",
    "reward_rubric": "rubric",
    "TERMS": "terms",
    "pairwise_win_probability": "terms",
}

__all__ = [
    "DEFAULT_GUARDS",
    "LADDER",
    "TERMS",
    "Calibration",
    "CalibrationError",
    "Facts",
    "RewardBreakdown",
    "RewardConfig",
    "RewardStatus",
    "combine",
    "component_value",
    "guard_factors",
    "outcome",
    "pairwise_win_probability",
    "reaches_formula",
    "reward_range",
    "reward_rubric",
]


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


def __dir__() -> list[str]:
    return sorted(__all__)
