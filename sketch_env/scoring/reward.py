"""Moved: the reward is `sketch_env.reward` (config, the outcome ladder, the terms, the guards,
the breakdown, `combine`, the rubric view). This alias keeps old imports working."""

from __future__ import annotations

import warnings

from sketch_env.reward.breakdown import RewardBreakdown
from sketch_env.reward.combine import combine
from sketch_env.reward.config import RewardConfig
from sketch_env.reward.outcome import RewardStatus
from sketch_env.reward.terms import pairwise_win_probability

__all__ = [
    "RewardBreakdown",
    "RewardConfig",
    "RewardStatus",
    "combine",
    "pairwise_win_probability",
]

warnings.warn(
    "sketch_env.scoring.reward moved to sketch_env.reward; import from there",
    DeprecationWarning,
    stacklevel=2,
)
