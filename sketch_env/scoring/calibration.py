"""Moved: calibration (reference statistics to a `RewardConfig`) is
`sketch_env.reward.calibration`. This alias keeps old imports working."""

from __future__ import annotations

import warnings

from sketch_env.reward.calibration import *  # noqa: F403
from sketch_env.reward.calibration import __all__ as __all__

warnings.warn(
    "sketch_env.scoring.calibration moved to sketch_env.reward.calibration; import from there",
    DeprecationWarning,
    stacklevel=2,
)
