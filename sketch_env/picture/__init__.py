"""The picture: one measurement pass, with one definition of paper and paint.

The ground floor of scoring: what is measured of a picture, whoever asks. `paint` defines the
paper and the paint (the renderer's paint fraction, the reward's blank rule and coverage term,
every embedded scorer's statistics all read it); `measures` is the measurement pass
(`Picture`, `measure_picture`, `PictureMeasures`); `guards` the degeneracy detectors on those
measurements, as data (`Guard`, the reward's `GUARDS`); `reading` the text reader the
lettering guard uses; `pixels` decoding and working copies. It imports nothing of the package
above the catalogue, so the renderer can use it.

The names below load on first use (the text reader needs onnxruntime).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sketch_env.picture.guards import GUARD_NAMES, GUARDS, Condition, Guard
    from sketch_env.picture.measures import (
        MEASUREMENTS,
        Picture,
        PictureMeasures,
        dark_mass_fraction,
        measure_picture,
    )
    from sketch_env.picture.paint import PAINT_DELTA, PAINT_SIDE, find_paint, paint_fraction
    from sketch_env.picture.pixels import ImageLike, to_rgb_array
    from sketch_env.picture.reading import TextReader

_HOME = {
    "GUARDS": "guards",
    "GUARD_NAMES": "guards",
    "Condition": "guards",
    "Guard": "guards",
    "MEASUREMENTS": "measures",
    "Picture": "measures",
    "PictureMeasures": "measures",
    "dark_mass_fraction": "measures",
    "measure_picture": "measures",
    "PAINT_DELTA": "paint",
    "PAINT_SIDE": "paint",
    "find_paint": "paint",
    "paint_fraction": "paint",
    "ImageLike": "pixels",
    "to_rgb_array": "pixels",
    "TextReader": "reading",
}

__all__ = [
    "GUARDS",
    "GUARD_NAMES",
    "MEASUREMENTS",
    "PAINT_DELTA",
    "PAINT_SIDE",
    "Condition",
    "Guard",
    "ImageLike",
    "Picture",
    "PictureMeasures",
    "TextReader",
    "dark_mass_fraction",
    "find_paint",
    "measure_picture",
    "paint_fraction",
    "to_rgb_array",
]


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


def __dir__() -> list[str]:
    return sorted(__all__)
