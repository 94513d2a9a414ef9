"""The embedded heuristic scorer.

Paintings and hacks are real p5.brush renders (tests/data/rendered, see its README); noise and
blank canvases are synthesised, since that is what they are.
"""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from sketch_env.scoring import (
    HeuristicScorer,
    Score,
    Scorer,
    dark_mass_fraction,
    heuristic_terms,
    score_sync,
)
from sketch_env.scoring.heuristic import HeuristicWeights

DATA = Path(__file__).resolve().parents[1] / "data" / "rendered"
PAINTINGS = ("flower", "garden", "landscape")
HACKS = ("darkblob", "fatstroke")


def rendered(name: str) -> Image.Image:
    with Image.open(DATA / f"{name}.png") as image:
        return image.convert("RGB")


def uniform_noise(seed: int = 0, grey: bool = False) -> Image.Image:
    rng = np.random.default_rng(seed)
    if grey:
        pixels = np.repeat(rng.integers(0, 256, (600, 600, 1), dtype=np.uint8), 3, axis=2)
    else:
        pixels = rng.integers(0, 256, (600, 600, 3), dtype=np.uint8)
    return Image.fromarray(pixels)


def score(image: Image.Image | np.ndarray | bytes) -> float:
    return HeuristicScorer().score_one(image).value


# ---------------------------------------------------------------------------------- ordering


def test_real_paintings_beat_blank_blob_strokes_and_noise() -> None:
    paintings = {name: score(rendered(name)) for name in PAINTINGS}
    white = Image.new("RGB", (600, 600), "white")
    near_blank = np.full((600, 600, 3), 255, np.uint8)
    near_blank[290:300, 290:300] = 0
    degenerate = {
        "blank": score(white),
        "near_blank": score(near_blank),
        "noise": score(uniform_noise()),
        "grey_noise": score(uniform_noise(grey=True)),
        **{name: score(rendered(name)) for name in HACKS},
    }
    assert min(paintings.values()) > max(degenerate.values()), (paintings, degenerate)
    # Not only ordered but well apart: a GRPO group should see the difference.
    assert min(paintings.values()) >= 4.0, paintings
    assert max(degenerate.values()) <= 2.0, degenerate


@pytest.mark.parametrize("colour", ["white", (30, 30, 30), (200, 40, 40)])
def test_blank_canvas_of_any_colour_scores_zero(colour: str | tuple[int, int, int]) -> None:
    terms = heuristic_terms(Image.new("RGB", (600, 600), colour))
    assert terms["value"] == 0.0
    assert terms["blank"] == 1.0


def test_transparent_canvas_is_blank() -> None:
    # A WebGL canvas that never called background() reads back transparent (coverage.py).
    assert score(Image.new("RGBA", (300, 300), (0, 0, 0, 0))) == 0.0


def test_near_blank_factor_ramps_with_paint() -> None:
    # 150 x 150: the side paint is measured at (`sketch_env.picture.paint`), so the blocks'
    # shares are exact: 0.25 %, 1 %, 2 %, 10 % of the canvas.
    canvas = np.full((150, 150, 3), 250, np.uint8)
    factors = []
    for rows, cols in ((7, 8), (15, 15), (15, 30), (15, 150)):
        canvas[:rows, :cols] = (40, 60, 160)
        factors.append(heuristic_terms(canvas)["near_blank_factor"])
    assert factors[0] == 0.0
    assert 0.0 < factors[1] < factors[2] < 1.0
    assert factors[3] == 1.0


def test_single_colour_mass_is_penalised() -> None:
    canvas = np.full((600, 600, 3), 245, np.uint8)
    canvas[100:500, 100:500] = 5  # one flat black square over 44 % of the canvas
    terms = heuristic_terms(canvas)
    assert terms["mass_factor"] <= 0.15
    assert terms["value"] < 1.0
    # The same real fat-stroke render: the mass factor is what pulls it down.
    fat = heuristic_terms(rendered("fatstroke"))
    assert fat["base"] > 0.6
    assert fat["mass_factor"] < 0.3


def test_noise_is_penalised_by_neighbour_correlation() -> None:
    terms = heuristic_terms(uniform_noise(seed=3))
    assert abs(terms["neighbour_corr"]) < 0.05
    assert terms["noise_factor"] == pytest.approx(0.1)
    for name in PAINTINGS:
        painting = heuristic_terms(rendered(name))
        assert painting["neighbour_corr"] > 0.45, name
        assert painting["noise_factor"] == 1.0, name


def test_texture_separates_brush_work_from_a_smooth_gradient() -> None:
    gradient = np.tile(np.linspace(0, 255, 600, dtype=np.float32)[None, :, None], (600, 1, 3))
    smooth = heuristic_terms(gradient.astype(np.uint8))
    assert smooth["texture_term"] == 0.0
    for name in PAINTINGS:
        assert heuristic_terms(rendered(name))["texture_term"] > 0.5, name


# ---------------------------------------------------------------------------------- contract


def test_scorer_protocol_terms_and_range() -> None:
    scorer = HeuristicScorer()
    assert isinstance(scorer, Scorer)
    assert scorer.name == "heuristic"
    images = [rendered(n) for n in (*PAINTINGS, *HACKS)] + [uniform_noise()]
    scores = score_sync(scorer, images, ["a prompt"] * len(images))
    assert len(scores) == len(images)
    for s in scores:
        assert isinstance(s, Score)
        assert 0.0 <= s.value <= 10.0
        assert s.sigma is None
        names = dict(s.terms)
        for term in (
            "coverage",
            "colourfulness",
            "luma_std",
            "edge_density",
            "coverage_term",
            "colour_term",
            "contrast_term",
            "texture_term",
            "near_blank_factor",
            "mass_factor",
            "noise_factor",
            "palette_factor",
            "composition_factor",
            "marks_factor",
            "lettering_factor",
            "text_fraction",
            "blank",
        ):
            assert term in names
        # The value is exactly the documented product.
        expected = (
            10
            * names["base"]
            * names["near_blank_factor"]
            * names["mass_factor"]
            * names["noise_factor"]
            * names["palette_factor"]
            * names["composition_factor"]
            * names["marks_factor"]
            * names["lettering_factor"]
        )
        assert s.value == pytest.approx(expected)


def test_prompt_is_ignored_and_scores_are_deterministic() -> None:
    image = rendered("garden")
    scorer = HeuristicScorer()
    first = score_sync(scorer, [image, image], ["a garden", "a battleship at night"])
    again = score_sync(scorer, [image], ["anything"])
    assert first[0] == first[1] == again[0]


def test_accepts_pil_array_and_png_bytes_alike() -> None:
    image = rendered("flower")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    values = {score(image), score(np.asarray(image)), score(buffer.getvalue())}
    assert len(values) == 1


def test_length_mismatch_and_empty_batch() -> None:
    scorer = HeuristicScorer()
    with pytest.raises(ValueError, match="2 images but 1 prompts"):
        asyncio.run(scorer.score([rendered("flower")] * 2, ["p"]))
    assert asyncio.run(scorer.score([], [])) == []


@pytest.mark.parametrize("shape", [(0, 0, 3), (1, 1, 3), (1, 50, 3)])
def test_degenerate_sizes_do_not_raise(shape: tuple[int, int, int]) -> None:
    assert score(np.zeros(shape, np.uint8)) == 0.0


def test_weights_are_validated_and_change_the_score() -> None:
    with pytest.raises(ValueError):
        HeuristicWeights(coverage=-1.0)
    with pytest.raises(ValueError):
        HeuristicWeights(0.0, 0.0, 0.0, 0.0)
    image = rendered("landscape")
    texture_only = HeuristicScorer(HeuristicWeights(0.0, 0.0, 0.0, 1.0)).score_one(image)
    colour_only = HeuristicScorer(HeuristicWeights(0.0, 1.0, 0.0, 0.0)).score_one(image)
    assert texture_only.value != colour_only.value


def test_dark_mass_fraction() -> None:
    assert dark_mass_fraction(rendered("darkblob")) == pytest.approx(0.49, abs=0.03)
    assert dark_mass_fraction(rendered("fatstroke")) > 0.35
    for name in PAINTINGS:
        assert dark_mass_fraction(rendered(name)) < 0.05, name
    assert dark_mass_fraction(Image.new("RGB", (50, 50), "white")) == 0.0
    # Scattered dark strokes are not one mass: only the largest dark colour counts.
    stripes = np.full((200, 200, 3), 255, np.uint8)
    stripes[::4] = (10, 10, 10)
    stripes[1::4] = (10, 10, 90)
    assert dark_mass_fraction(stripes) == pytest.approx(0.25, abs=0.01)


# ------------------------------------------------------------------- structure factors


def _random_colour_confetti(seed: int = 0) -> Image.Image:
    """Hundreds of small random-colour dabs on paper: the 'noise from brush strokes' hack."""
    rng = np.random.default_rng(seed)
    canvas = np.full((600, 600, 3), (250, 248, 240), np.uint8)
    for _ in range(1500):
        x, y = rng.integers(0, 594, 2)
        canvas[y : y + 6, x : x + 6] = rng.integers(0, 256, 3)
    return Image.fromarray(canvas)


def _random_colour_stripes(seed: int = 0) -> Image.Image:
    rng = np.random.default_rng(seed)
    canvas = np.zeros((600, 600, 3), np.uint8)
    for i in range(12):
        canvas[:, i * 50 : (i + 1) * 50] = rng.integers(0, 256, 3)
    return Image.fromarray(canvas)


def _flat_field() -> Image.Image:
    """A full canvas of one colour with a faint smooth gradient: coverage without marks."""
    ramp = np.linspace(0, 12, 600, dtype=np.float32)
    canvas = np.zeros((600, 600, 3), np.float32) + np.array([200, 80, 60], np.float32)
    canvas += ramp[None, :, None]
    return Image.fromarray(canvas.clip(0, 255).astype(np.uint8))


def test_random_colour_palettes_are_penalised_and_paintings_are_not() -> None:
    for name in PAINTINGS:
        assert heuristic_terms(rendered(name))["palette_factor"] == 1.0, name
    for image in (_random_colour_confetti(), _random_colour_stripes(), uniform_noise()):
        terms = heuristic_terms(image)
        assert terms["hue_families"] > 8.0
        assert terms["palette_factor"] == pytest.approx(0.1)


def test_pictures_that_look_alike_everywhere_lose_the_composition_factor() -> None:
    for name in PAINTINGS:
        assert heuristic_terms(rendered(name))["composition_factor"] == 1.0, name
    assert heuristic_terms(_random_colour_confetti())["composition_factor"] < 0.5
    assert heuristic_terms(uniform_noise())["composition_factor"] == pytest.approx(0.1)


def test_a_field_without_marks_loses_the_marks_factor() -> None:
    terms = heuristic_terms(_flat_field())
    assert terms["edge_density"] == 0.0
    assert terms["marks_factor"] == pytest.approx(0.1)
    for name in PAINTINGS:
        assert heuristic_terms(rendered(name))["marks_factor"] == 1.0, name


def test_structure_hacks_score_below_every_painting() -> None:
    floor = min(heuristic_terms(rendered(n))["value"] for n in PAINTINGS)
    for image in (_random_colour_confetti(), _random_colour_stripes(), _flat_field()):
        assert heuristic_terms(image)["value"] < floor / 2
