"""Moved: guards are data in `sketch_env.picture.guards` (`Guard`, the reward's `GUARDS`) and
applied by `sketch_env.reward.guards`. This alias keeps old imports working."""

from __future__ import annotations

import warnings

from sketch_env.picture.guards import GUARD_NAMES, GUARDS, Guard, ramp
from sketch_env.reward.guards import guard_factors

__all__ = ["GUARDS", "GUARD_NAMES", "Guard", "guard_factors", "ramp"]

warnings.warn(
    "sketch_env.scoring.guards moved to sketch_env.picture.guards (the guards) and "
    "sketch_env.reward.guards (guard_factors); import from there",
    DeprecationWarning,
    stacklevel=2,
)
