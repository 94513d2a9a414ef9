"""Moved: the text reader is `sketch_env.picture.reading` (the measurement pass reads text for
the lettering guard, whatever the scorer). This alias keeps old imports working."""

from __future__ import annotations

import warnings

from sketch_env.picture.reading import *  # noqa: F403
from sketch_env.picture.reading import __all__ as __all__

warnings.warn(
    "sketch_env.scoring.reading moved to sketch_env.picture.reading; import from there",
    DeprecationWarning,
    stacklevel=2,
)
