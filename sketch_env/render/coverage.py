"""Paint coverage: how much of a picture differs from its own background.

The background is not assumed to be white: sketches paint paper tones, dark grounds and
gradients. We quantise colours coarsely, take the most common bin as the background, and count
the pixels farther than ``threshold`` (Euclidean RGB) from that bin's mean colour. A threshold
of 32 separated light washes from paper texture on the reference pool (docs/design.md §3.13).
"""

from __future__ import annotations

import io
from typing import TypeAlias

import numpy as np
from PIL import Image

ImageLike: TypeAlias = "Image.Image | np.ndarray | bytes"

#: Euclidean RGB distance from the background colour above which a pixel counts as paint.
DEFAULT_THRESHOLD = 32.0
#: Bits kept per channel when looking for the background bin (16 levels per channel).
_QUANT_BITS = 4


def to_rgb_array(image: ImageLike) -> np.ndarray:
    """Returns an ``(H, W, 3)`` uint8 RGB array, compositing any alpha over white.

    A WebGL canvas that never called ``background()`` reads back as transparent pixels; a
    person (and a preference model) sees those as the page behind them, which is white.

    Args:
        image: A PIL image, an ``(H, W, 3|4)`` uint8 array, or encoded PNG/JPEG bytes.

    Returns:
        The RGB pixels.

    Raises:
        ValueError: If the array has an unsupported shape.
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


def background_color(rgb: np.ndarray) -> np.ndarray:
    """Returns the mean colour of the most common coarse colour bin, as float32 RGB.

    Args:
        rgb: An ``(H, W, 3)`` uint8 array.

    Returns:
        A length-3 float32 array.
    """
    flat = rgb.reshape(-1, 3)
    q = (flat >> (8 - _QUANT_BITS)).astype(np.int32)
    keys = (q[:, 0] << (2 * _QUANT_BITS)) | (q[:, 1] << _QUANT_BITS) | q[:, 2]
    counts = np.bincount(keys, minlength=1 << (3 * _QUANT_BITS))
    mode = int(np.argmax(counts))
    mean: np.ndarray = flat[keys == mode].astype(np.float32).mean(axis=0)
    return mean


def paint_fraction(image: ImageLike, threshold: float = DEFAULT_THRESHOLD) -> float:
    """Fraction of pixels that carry paint, measured against the picture's own background.

    Args:
        image: A PIL image, an RGB(A) uint8 array, or PNG bytes.
        threshold: Euclidean RGB distance from the background above which a pixel is paint.

    Returns:
        A float in ``[0, 1]``; ``0.0`` for an empty image.

    Examples:
        >>> import numpy as np
        >>> canvas = np.full((10, 10, 3), 255, np.uint8)
        >>> canvas[:5] = 0
        >>> paint_fraction(canvas)
        0.5
    """
    rgb = to_rgb_array(image)
    if rgb.size == 0:
        return 0.0
    bg = background_color(rgb)
    # float32: squared channel differences reach 3 * 255**2 and overflow int16
    # (docs/design.md §3.13).
    diff = rgb.reshape(-1, 3).astype(np.float32) - bg
    dist2 = np.einsum("ij,ij->i", diff, diff)
    return float(np.count_nonzero(dist2 > threshold * threshold)) / float(dist2.shape[0])
