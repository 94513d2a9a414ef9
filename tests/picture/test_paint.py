"""paint_fraction: the one definition of paint, measured against the picture's own paper.

Paint is measured on a 150-pixel square copy (`sketch_env.picture.paint`): the canvases below
have sides that divide or are divided by 150 evenly, so that no box straddles an edge.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from sketch_env import paint_fraction
from sketch_env.picture.paint import PAINT_DELTA
from sketch_env.picture.pixels import lab, to_rgb_array


def test_blank_canvas_has_no_paint():
    assert paint_fraction(np.full((40, 40, 3), 237, np.uint8)) == 0.0


def test_half_painted():
    canvas = np.full((40, 40, 3), 250, np.uint8)
    canvas[:20] = (30, 60, 200)
    assert paint_fraction(canvas) == pytest.approx(0.5)


def test_background_need_not_be_white():
    canvas = np.full((50, 50, 3), (20, 24, 40), np.uint8)  # a night-sky ground
    canvas[:10, :10] = (240, 230, 120)  # a moon
    assert paint_fraction(canvas) == pytest.approx(0.04)


def test_paper_texture_below_threshold_is_not_paint():
    # Paper grain, as p5.brush lays it: lightness varying by 8 grey levels either way.
    rng = np.random.default_rng(0)
    grain = rng.integers(-8, 9, size=(75, 75, 1))
    paper = np.repeat(240 + grain, 3, axis=2).astype(np.uint8)
    assert paint_fraction(paper) == 0.0


def test_extreme_differences_do_not_overflow():
    # Squared differences of 255 would overflow int16 arithmetic (docs/design.md §3.13).
    canvas = np.zeros((30, 30, 3), np.uint8)
    canvas[:, :10] = 255
    assert paint_fraction(canvas) == pytest.approx(1 / 3)


def test_transparent_pixels_are_white_paper():
    rgba = np.zeros((30, 30, 4), np.uint8)  # fully transparent canvas
    rgba[:10, :, :] = (0, 0, 0, 255)  # an opaque black band
    assert to_rgb_array(rgba)[20, 20].tolist() == [255, 255, 255]
    assert paint_fraction(rgba) == pytest.approx(1 / 3)


def test_accepts_pil_images_and_png_bytes():
    canvas = np.full((30, 30, 3), 255, np.uint8)
    canvas[:, :10] = 0
    image = Image.fromarray(canvas)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    assert paint_fraction(image) == paint_fraction(buffer.getvalue()) == pytest.approx(1 / 3)


def test_paint_is_further_than_eight_cielab_units_from_the_paper():
    # Two greys 7 and 9 CIELAB lightness units below the paper: only the second is paint.
    paper = np.array([[[240, 240, 240]]], np.uint8)
    greys = {}
    for level in range(240, 200, -1):
        grey = np.array([[[level] * 3]], np.uint8)
        greys[level] = float(np.linalg.norm(lab(grey) - lab(paper)))
    faint = max(level for level, d in greys.items() if d > 6.5 and d < PAINT_DELTA)
    clear = min(level for level, d in greys.items() if PAINT_DELTA < d < 10)
    for level, painted in ((faint, 0.0), (clear, 0.5)):
        canvas = np.full((30, 30, 3), 240, np.uint8)
        canvas[:15] = level
        assert paint_fraction(canvas) == pytest.approx(painted), (level, greys[level])


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError, match="shape"):
        paint_fraction(np.zeros((10, 10), np.uint8))
