"""Degraded copies of a painting that a sound reward must rank below the original.

Each degradation is deterministic for a given seed. Picture-level ones work on the rendered
image (blank paper, noise, a flat dark mass, stripes, a checkerboard, a text label, heavy
blur); `remove_half_the_brush_calls` works on the source, and the result is rendered. The
prompt swap is not a picture at all: the same picture scored against another task's prompt.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from sketch_env.picture.paint import paper_mask

__all__ = ["PICTURE_DEGRADATIONS", "remove_half_the_brush_calls"]


def _background(image: Image.Image) -> tuple[int, int, int]:
    """The picture's paper colour (`sketch_env.picture.paint.paper_mask`), as RGB."""
    rgb = np.asarray(image.convert("RGB"), dtype=np.uint8)
    return tuple(int(v) for v in rgb[paper_mask(rgb)].mean(axis=0))  # type: ignore[return-value]


def blank_paper(image: Image.Image, seed: int) -> Image.Image:
    """The paper alone: the picture's background colour everywhere."""
    return Image.new("RGB", image.size, _background(image))


def colour_noise(image: Image.Image, seed: int) -> Image.Image:
    """Independent random colour per pixel."""
    rng = np.random.default_rng(seed)
    return Image.fromarray(rng.integers(0, 256, (image.height, image.width, 3), dtype=np.uint8))


def dark_mass(image: Image.Image, seed: int) -> Image.Image:
    """One flat near-black blob over most of the paper."""
    out = blank_paper(image, seed)
    w, h = out.size
    ImageDraw.Draw(out).ellipse((w * 0.08, h * 0.1, w * 0.92, h * 0.9), fill=(18, 16, 20))
    return out


def stripes(image: Image.Image, seed: int) -> Image.Image:
    """Random-colour vertical stripes over the whole canvas."""
    rng = random.Random(seed)
    out = Image.new("RGB", image.size)
    draw = ImageDraw.Draw(out)
    width = max(1, image.width // 12)
    for x in range(0, image.width, width):
        colour = tuple(rng.randrange(256) for _ in range(3))
        draw.rectangle((x, 0, x + width, image.height), fill=colour)
    return out


def checkerboard(image: Image.Image, seed: int) -> Image.Image:
    """A two-colour checkerboard."""
    rng = random.Random(seed)
    a = tuple(rng.randrange(256) for _ in range(3))
    b = tuple(rng.randrange(256) for _ in range(3))
    out = Image.new("RGB", image.size, a)
    draw = ImageDraw.Draw(out)
    cell = max(1, image.width // 10)
    for y in range(0, image.height, cell):
        for x in range(0, image.width, cell):
            if (x // cell + y // cell) % 2:
                draw.rectangle((x, y, x + cell, y + cell), fill=b)
    return out


def text_label(image: Image.Image, seed: int) -> Image.Image:
    """The painting with a large text label over its middle (the "label hack")."""
    out = image.convert("RGB").copy()
    draw = ImageDraw.Draw(out)
    w, h = out.size
    draw.rectangle((w * 0.05, h * 0.38, w * 0.95, h * 0.62), fill=(250, 250, 250))
    try:
        font: ImageFont.ImageFont | ImageFont.FreeTypeFont = ImageFont.load_default(size=h // 9)
    except TypeError:  # Pillow < 10.1 has no sized default font.
        font = ImageFont.load_default()
    draw.text((w * 0.08, h * 0.42), "A PAINTING", fill=(10, 10, 10), font=font)
    return out


def heavy_blur(image: Image.Image, seed: int) -> Image.Image:
    """The painting under a Gaussian blur of 4 % of its width."""
    return image.convert("RGB").filter(ImageFilter.GaussianBlur(radius=image.width * 0.04))


#: Picture-level degradations: name -> (make it, what it is).
PICTURE_DEGRADATIONS: dict[str, tuple[Callable[[Image.Image, int], Image.Image], str]] = {
    "blank_paper": (blank_paper, "the paper alone"),
    "colour_noise": (colour_noise, "random colour per pixel"),
    "dark_mass": (dark_mass, "one flat dark blob on the paper"),
    "stripes": (stripes, "random-colour stripes"),
    "checkerboard": (checkerboard, "a two-colour checkerboard"),
    "text_label": (text_label, "the painting with a big text label over it"),
    "heavy_blur": (heavy_blur, "the painting, heavily blurred"),
}

_BRUSH_CALL = re.compile(r"^(\s*)(brush\.[A-Za-z_]+\s*\(.*\)\s*;?\s*)$")


def remove_half_the_brush_calls(source: str, seed: int) -> str:
    """Comments out every other one-line ``brush.*(...)`` statement (setters kept).

    Args:
        source: The sketch.
        seed: Chooses whether the odd or the even calls go.

    Returns:
        The sketch with about half its drawing calls removed; the source is otherwise unchanged.
    """
    setters = ("set(", "fill(", "stroke(", "noStroke(", "noFill(", "fillTexture(", "fillBleed(")
    keep_parity = seed % 2
    count = 0
    out = []
    for line in source.splitlines():
        match = _BRUSH_CALL.match(line)
        if match and not match.group(2)[len("brush.") :].startswith(setters):
            count += 1
            if count % 2 != keep_parity:
                out.append(f"{match.group(1)}// removed: {match.group(2).strip()}")
                continue
        out.append(line)
    return "\n".join(out)
