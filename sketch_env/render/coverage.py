"""Moved: paint coverage is `sketch_env.picture.paint` (one definition of paper and paint for
the renderer, the reward and every embedded scorer) and the RGB conversion
`sketch_env.picture.pixels`. This alias keeps old imports working."""

from __future__ import annotations

import warnings

from sketch_env.picture.paint import PAINT_DELTA, paint_fraction
from sketch_env.picture.pixels import ImageLike, to_rgb_array

__all__ = ["PAINT_DELTA", "ImageLike", "paint_fraction", "to_rgb_array"]

warnings.warn(
    "sketch_env.render.coverage moved to sketch_env.picture.paint (paint_fraction) and "
    "sketch_env.picture.pixels (to_rgb_array, ImageLike); import from there",
    DeprecationWarning,
    stacklevel=2,
)
