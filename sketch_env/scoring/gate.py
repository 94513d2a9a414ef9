"""Moved: the gate is now the `sketch_env.gate` package. This alias keeps old imports working."""

from __future__ import annotations

import warnings

from sketch_env.gate import *  # noqa: F403
from sketch_env.gate import __all__  # noqa: F401

warnings.warn(
    "sketch_env.scoring.gate moved to sketch_env.gate; import from there",
    DeprecationWarning,
    stacklevel=2,
)
