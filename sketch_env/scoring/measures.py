"""Moved: the measurement pass is `sketch_env.picture.measures` (one decode, one definition of
paper and paint for the renderer, the reward and every embedded scorer). This alias keeps old
imports working."""

from __future__ import annotations

import warnings

from sketch_env.picture.measures import *  # noqa: F403
from sketch_env.picture.measures import __all__ as _measures
from sketch_env.picture.pixels import reduced
from sketch_env.scoring.base import MeasuredScorer

__all__ = [*_measures, "MeasuredScorer", "reduced"]

warnings.warn(
    "sketch_env.scoring.measures moved to sketch_env.picture.measures (MeasuredScorer to "
    "sketch_env.scoring.base); import from there",
    DeprecationWarning,
    stacklevel=2,
)
