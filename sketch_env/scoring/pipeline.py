"""Moved: the pipeline is now `sketch_env.evaluation`. This alias keeps old imports working."""

from __future__ import annotations

import warnings

from sketch_env.evaluation.evaluator import Evaluator
from sketch_env.evaluation.rollout import Rollout

__all__ = ["Evaluator", "Rollout"]

warnings.warn(
    "sketch_env.scoring.pipeline moved to sketch_env.evaluation; import Evaluator and Rollout "
    "from there",
    DeprecationWarning,
    stacklevel=2,
)
