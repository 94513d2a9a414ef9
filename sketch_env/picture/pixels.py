"""Pixels: decoding a picture to RGB, box-reduced working copies, and CIELAB.

Every measurement of a picture starts here, so that a picture is read one way: transparent
pixels composited over white (a WebGL canvas that never called ``background()`` reads back as
transparent, and a person, or a preference model, sees the page behind it, which is white),
reduced by exact box averages (the statistics then describe the picture rather than its
resolution), and converted to CIELAB where a distance should be perceptual.
"""

from __future__ import annotations

import hashlib
import io
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeAlias, TypeVar

import numpy as np
from PIL import Image

__all__ = ["ImageLike", "PixelMemory", "lab", "reduced", "square", "to_rgb_array"]

ImageLike: TypeAlias = "Image.Image | np.ndarray | bytes"

#: Longest side of the reduced working copy (`reduced`).
WORK_SIDE = 320

_SRGB_TO_XYZ = np.array(
    [[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]],
    dtype=np.float64,
)
_WHITE = np.array([0.9505, 1.0, 1.089])


def to_rgb_array(image: ImageLike) -> np.ndarray:
    """Returns an ``(H, W, 3)`` uint8 RGB array, compositing any alpha over white.

    Args:
        image: A PIL image, an ``(H, W, 3|4)`` uint8 array, or encoded PNG/JPEG bytes.

    Returns:
        The RGB pixels.

    Raises:
        ValueError: If the array has an unsupported shape.

    Examples:
        >>> import numpy as np
        >>> to_rgb_array(np.zeros((1, 1, 4), np.uint8)).tolist()
        [[[255, 255, 255]]]
    """
    if isinstance(image, bytes | bytearray | memoryview):
        image = Image.open(io.BytesIO(bytes(image)))
    if isinstance(image, Image.Image):
        if image.mode in ("RGBA", "LA", "P", "PA"):
            image = image.convert("RGBA")
            white = Image.new("RGBA", image.size, (255, 255, 255, 255))
            image = Image.alpha_composite(white, image)
        return np.asarray(image.convert("RGB"))
    array = np.asarray(image)
    if array.ndim != 3 or array.shape[2] not in (3, 4):
        raise ValueError(f"expected an (H, W, 3) or (H, W, 4) array, got shape {array.shape}")
    if array.shape[2] == 4:
        alpha = array[..., 3:4].astype(np.float32) / 255.0
        rgb = array[..., :3].astype(np.float32) * alpha + 255.0 * (1.0 - alpha)
        composited: np.ndarray = np.clip(np.rint(rgb), 0, 255).astype(np.uint8)
        return composited
    return array.astype(np.uint8, copy=False)


def reduced(rgb: np.ndarray) -> np.ndarray:
    """Box-reduces RGB pixels to at most `WORK_SIDE` on a side (an exact integer box average).

    A few milliseconds for a 600x600 picture, roughly independent of canvas size: what the
    guards' statistics are measured on.
    """
    if rgb.size == 0:
        return rgb
    factor = math.ceil(max(rgb.shape[0], rgb.shape[1]) / WORK_SIDE)
    if factor > 1:
        rgb = np.asarray(Image.fromarray(rgb).reduce(factor))
    return rgb


def square(rgb: np.ndarray, side: int) -> np.ndarray:
    """Box-resizes RGB pixels to ``side`` x ``side`` (Pillow's BOX filter).

    The anchored scorer's working copies and the paint measurement use it: a square copy of
    fixed size makes every share a share of the canvas whatever its resolution.
    """
    return np.asarray(Image.fromarray(rgb).resize((side, side), Image.Resampling.BOX))


def lab(rgb: np.ndarray) -> np.ndarray:
    """sRGB (uint8, ``[..., 3]``) to CIELAB under D65, as float64."""
    c = rgb.astype(np.float64) / 255.0
    c = np.where(c > 0.04045, ((c + 0.055) / 1.055) ** 2.4, c / 12.92)
    xyz = c @ _SRGB_TO_XYZ.T / _WHITE
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16.0 / 116.0)
    return np.stack(
        [
            116.0 * f[..., 1] - 16.0,
            500.0 * (f[..., 0] - f[..., 1]),
            200.0 * (f[..., 1] - f[..., 2]),
        ],
        axis=-1,
    )


_T = TypeVar("_T")


class PixelMemory(Generic[_T]):
    """What was computed from the last ``size`` pictures, by their pixels (a BLAKE2b digest of
    the array and its shape): the same picture is computed once, thread-safely.

    Args:
        size: How many pictures to remember (least recently used forgotten first).
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[tuple[bytes, Hashable], _T] = OrderedDict()
        self._lock = threading.Lock()

    def recall(self, pixels: np.ndarray, compute: Callable[[], _T], variant: Hashable = None) -> _T:
        """The value remembered for these pixels (and ``variant``), or ``compute()``'s.

        Args:
            pixels: The picture's pixels.
            compute: Computes the value when it is not remembered.
            variant: What else the value depends on (e.g. whether text was read).

        Returns:
            The value.
        """
        data = np.ascontiguousarray(pixels)
        digest = hashlib.blake2b(data.data, digest_size=16)
        digest.update(repr(data.shape).encode())
        key = (digest.digest(), variant)
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
        value = compute()
        with self._lock:
            self._values[key] = value
            while len(self._values) > self.size:
                self._values.popitem(last=False)
        return value

    def clear(self) -> None:
        """Forgets every picture."""
        with self._lock:
            self._values.clear()
