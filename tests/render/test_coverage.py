"""paint_fraction: coverage measured against the picture's own background."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from sketch_env import paint_fraction
from sketch_env.render.coverage import to_rgb_array


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
    rng = np.random.default_rng(0)
    paper = (240 + rng.integers(-8, 9, size=(60, 60, 3))).astype(np.uint8)
    assert paint_fraction(paper) == 0.0


def test_extreme_differences_do_not_overflow():
    # Squared differences of 255 would overflow int16 arithmetic (docs/design.md §3.13).
    canvas = np.zeros((30, 30, 3), np.uint8)
    canvas[:, :10] = 255
    assert paint_fraction(canvas) == pytest.approx(1 / 3)


def test_transparent_pixels_are_white_paper():
    rgba = np.zeros((20, 20, 4), np.uint8)  # fully transparent canvas
    rgba[:5, :, :] = (0, 0, 0, 255)  # an opaque black band
    assert to_rgb_array(rgba)[10, 10].tolist() == [255, 255, 255]
    assert paint_fraction(rgba) == pytest.approx(0.25)


def test_accepts_pil_images_and_png_bytes():
    canvas = np.full((20, 20, 3), 255, np.uint8)
    canvas[:, :5] = 0
    image = Image.fromarray(canvas)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    assert paint_fraction(image) == paint_fraction(buffer.getvalue()) == pytest.approx(0.25)


def test_threshold_is_respected():
    canvas = np.full((10, 10, 3), 200, np.uint8)
    canvas[:5] = 180  # 20 levels per channel: distance ~34.6
    assert paint_fraction(canvas, threshold=32) == pytest.approx(0.5)
    assert paint_fraction(canvas, threshold=40) == 0.0


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError, match="shape"):
        paint_fraction(np.zeros((10, 10), np.uint8))
