"""Moved: the reward's command-line options are `sketch_env.reward.options`. This alias keeps
old imports working."""

from __future__ import annotations

import warnings

from sketch_env.reward.options import *  # noqa: F403
from sketch_env.reward.options import __all__ as __all__

warnings.warn(
    "sketch_env.scoring.options moved to sketch_env.reward.options; import from there",
    DeprecationWarning,
    stacklevel=2,
)
