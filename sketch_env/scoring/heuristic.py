"""A transparent, deterministic picture heuristic: the scorer that runs anywhere.

This is **not** a preference model and must never be described as one. No neural image scorer
can be installed with its weights on every machine (docs/design.md §4), so the default scorer is a
handful of image statistics, each documented below, that separate "a painting happened" from
the degenerate outputs a policy finds first: an empty canvas, a few stray marks, one flat mass
of colour, or per-pixel noise. It knows nothing about the prompt and nothing about taste.

The score is ``10 * base * near_blank * mass * noise * palette * composition * marks *
lettering``, a number in ``[0, 10]``:

``base`` is a weighted mean of four terms, each in ``[0, 1]``:

- **coverage** (weight 0.25): the fraction of pixels that differ from the picture's own
  background by more than a Euclidean RGB distance of 12 (`paint_fraction`), saturating at
  30 % of the canvas. The threshold is lower than the reward's default of 32 because p5.brush
  watercolour washes are pale: at 32 a wash over half the canvas measured a few percent.
- **colourfulness** (weight 0.20): Hasler and Süsstrunk's colourfulness statistic on the
  opponent channels ``R - G`` and ``(R + G) / 2 - B``, saturating at 40 (their "moderately
  colourful" is about 33). Grey pencil work loses only this term.
- **tonal contrast** (weight 0.15): the standard deviation of luminance (0-255), saturating at
  50.
- **edge/texture energy** (weight 0.40): the fraction of pixels whose luminance steps by more
  than 12 to a right or lower neighbour, saturating at 8 %. Brush strokes, hatching and
  watercolour edges produce it; flat fills and smooth gradients do not. It has the largest
  weight because texture is what p5.brush adds over bare p5 primitives.

Multiplicative factors, each in ``[0, 1]``, then pull degenerate pictures down:

- **blank / near-blank**: 0 when less than 0.5 % of the canvas carries paint (this includes a
  canvas of one uniform colour, the *blank* case), rising linearly to 1 at 3 %.
- **single-colour mass**: when the two commonest coarse colours (8 levels per channel) cover
  almost the whole canvas (85 % → 95 %) *and* the second one covers a large part of it
  (10 % → 25 %), the picture is one flat shape on a ground, e.g. a canvas drowned in a black
  blob or in fat black strokes. The factor falls to 0.1 at full strength.
- **noise**: the correlation between neighbouring pixels' luminance is about 0 for per-pixel
  noise and above 0.5 for paintings, even heavily textured ones. Below 0.15 the factor is 0.1;
  above 0.45 it is 1; linear in between.
- **palette**: the effective number of 20-degree hue families among the clearly coloured paint
  (``exp`` of the hue histogram's entropy). Painters work with a coherent palette; this
  project's 28 reference paintings use 0-4.0 families (0 for grey charcoal and ink), while
  colours drawn at random give 8-18 (a patchwork of random fills 8.3, 300 random-colour lines
  17.5). The factor is 1 up to 5 families and falls to 0.1 at 8.
- **composition**: the spread of the mean colours of a 6x6 grid of blocks over the spread of
  the pixels. A composition puts different things in different places; per-pixel noise, a
  confetti of tiny strokes or a checkerboard looks the same everywhere (0.02-0.11 measured,
  against 0.26-0.94 for the references). 0.1 below 0.12, 1 above 0.20.
- **marks**: a picture made with brushes has marks: ``edge_density`` (above) of at least
  1.2 %; the references have 2.2 % or more, while one textured fill over the whole canvas has
  none. 0.1 below 0.3 %, 1 above 1.2 %.
- **lettering**: the share of the picture that reads as text (`text_fraction`, read by the
  vendored PP-OCRv4 models, `sketch_env.scoring.reading`). A label is not a painting, and to
  every statistic above it looks like one: letters painted in charcoal have marks, contrast,
  composition and one hue (they earned 8.5 and beat 68 % of the references before this
  factor), and a big label over a painting raised its score in 93 % of cases. 1 up to 0.5 % of
  the picture, 0.1 from 3 % (one short word in large letters covers about 5 %).

What it cannot see: the prompt (a perfect rose scores the same for "a ship") and taste within
competent pictures (its order of the reference tiers is reported by ``sketch-env reward-check``,
not tuned to). Those need HPSv3 or a VLM judge (``docs/judge.md``). Symbols that are not
letters or digits, and text the reader misses (see its module docstring), pass as painting.

The statistics are computed on a copy reduced by an integer box filter to at most 320 pixels on
the longer side, which keeps them at a few milliseconds for a 600x600 picture and makes them
roughly independent of canvas size; reading text takes 0.15-0.4 s more on one core
(``bench/scorer_speed.py``; ``read_text=False`` skips it, and it is skipped for a near-blank
picture). Everything is deterministic (no randomness; the models run on one thread).

`dark_mass_fraction` is exported for the reward's dark-mass penalty (`RewardConfig`).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from PIL import Image

from sketch_env.render.coverage import ImageLike, paint_fraction, to_rgb_array
from sketch_env.scoring.base import Score
from sketch_env.scoring.reading import TextReader

__all__ = ["HeuristicScorer", "HeuristicWeights", "dark_mass_fraction", "heuristic_terms"]

#: Longest side of the working copy; see the module docstring.
_WORK_SIDE = 320
#: RGB distance from the background above which a pixel counts as paint, for this scorer only.
_COVERAGE_THRESHOLD = 12.0
#: Luminance step between neighbours that counts as an edge.
_EDGE_STEP = 12.0
#: Bits per channel kept when grouping colours into "the same colour".
_MASS_BITS = 3
#: A coarse colour bin whose centre has luminance below this is "dark".
_DARK_LUMA = 50.0
_LUMA = np.array([0.299, 0.587, 0.114], dtype=np.float32)
#: One reader for every heuristic score: it holds no state beyond its settings.
_READER = TextReader()


@dataclass(frozen=True, slots=True)
class HeuristicWeights:
    """Weights of the four ``base`` terms; they are normalised to sum to 1.

    Args:
        coverage: Weight of the coverage term.
        colourfulness: Weight of the colourfulness term.
        contrast: Weight of the tonal-contrast term.
        texture: Weight of the edge/texture-energy term.

    Raises:
        ValueError: If a weight is negative or all are zero.
    """

    coverage: float = 0.25
    colourfulness: float = 0.20
    contrast: float = 0.15
    texture: float = 0.40

    def __post_init__(self) -> None:
        values = (self.coverage, self.colourfulness, self.contrast, self.texture)
        if any(not math.isfinite(v) or v < 0 for v in values):
            raise ValueError(f"heuristic weights must be finite and >= 0, got {values}")
        if sum(values) <= 0:
            raise ValueError("at least one heuristic weight must be positive")


def _ramp(x: float, lo: float, hi: float) -> float:
    """0 at or below ``lo``, 1 at or above ``hi``, linear in between."""
    if x <= lo:
        return 0.0
    if x >= hi:
        return 1.0
    return (x - lo) / (hi - lo)


def _working_copy(image: ImageLike) -> np.ndarray:
    """Returns the picture as RGB uint8, box-reduced to at most ``_WORK_SIDE`` on a side."""
    return _reduced(to_rgb_array(image))


def _reduced(rgb: np.ndarray) -> np.ndarray:
    """Box-reduces RGB pixels to at most ``_WORK_SIDE`` on a side."""
    if rgb.size == 0:
        return rgb
    factor = math.ceil(max(rgb.shape[0], rgb.shape[1]) / _WORK_SIDE)
    if factor > 1:
        # Image.reduce is an exact integer box average: deterministic and cheap.
        rgb = np.asarray(Image.fromarray(rgb).reduce(factor))
    return rgb


def _bin_shares(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Returns (share of the canvas per coarse colour bin, centre luminance per bin)."""
    q = (rgb >> (8 - _MASS_BITS)).astype(np.int32)
    keys = (q[..., 0] << (2 * _MASS_BITS)) | (q[..., 1] << _MASS_BITS) | q[..., 2]
    levels = 1 << _MASS_BITS
    counts = np.bincount(keys.ravel(), minlength=levels**3).astype(np.float64)
    shares = counts / max(1, keys.size)
    step = 256 // levels
    centre = (np.arange(levels, dtype=np.float32) * step + step / 2).astype(np.float32)
    r, g, b = np.meshgrid(centre, centre, centre, indexing="ij")
    luma = (_LUMA[0] * r + _LUMA[1] * g + _LUMA[2] * b).ravel()
    return shares, luma


def dark_mass_fraction(image: ImageLike) -> float:
    """Share of the canvas taken by its single largest *dark* colour.

    Colours are grouped coarsely (8 levels per channel) and a group counts as dark when its
    centre's luminance is below 50 of 255. A black blob, fat black strokes or a near-black
    ``background()`` all give a large value; dark strokes scattered over light paper do not,
    because it is the single largest dark group that counts, not all dark pixels.

    Args:
        image: A PIL image, an RGB(A) uint8 array, or PNG bytes.

    Returns:
        A float in ``[0, 1]``; ``0.0`` for an empty image.

    Examples:
        >>> import numpy as np
        >>> canvas = np.full((100, 100, 3), 255, np.uint8)
        >>> canvas[:60] = 5
        >>> round(dark_mass_fraction(canvas), 2)
        0.6
    """
    rgb = _working_copy(image)
    if rgb.size == 0:
        return 0.0
    shares, luma = _bin_shares(rgb)
    dark = shares[luma < _DARK_LUMA]
    return float(dark.max()) if dark.size else 0.0


def heuristic_terms(
    image: ImageLike, weights: HeuristicWeights | None = None, *, read_text: bool = True
) -> dict[str, float]:
    """Computes every measurement, term and factor of the heuristic score for one picture.

    Args:
        image: A PIL image, an RGB(A) uint8 array, or PNG bytes.
        weights: Weights of the ``base`` terms; the defaults when ``None``.
        read_text: Read the picture for text (the ``lettering`` factor); ``False`` leaves
            ``text_fraction`` at 0 and the factor at 1.

    Returns:
        An ordered mapping. Raw measurements: ``coverage`` (paint fraction at RGB distance 12),
        ``colourfulness``, ``luma_std``, ``edge_density``, ``neighbour_corr``, ``top_colour``
        and ``second_colour`` (shares of the two commonest coarse colours), ``dark_mass``.
        Terms in ``[0, 1]``: ``coverage_term``, ``colour_term``, ``contrast_term``,
        ``texture_term``, ``base``. Factors in ``[0, 1]``: ``near_blank_factor``,
        ``mass_factor``, ``noise_factor``, ``palette_factor``, ``composition_factor``,
        ``marks_factor``, ``lettering_factor`` (with their measurements ``hue_families``,
        ``composition`` and ``text_fraction``). Flag ``blank`` (1.0 when no pixel differs from the
        background). And ``value``, the score in ``[0, 10]``.

    Examples:
        >>> import numpy as np
        >>> heuristic_terms(np.full((64, 64, 3), 255, np.uint8))["value"]
        0.0
    """
    w = weights or HeuristicWeights()
    # Decoded once: the statistics work on the reduced copy, the text reader on the full one.
    full = to_rgb_array(image)
    rgb = _reduced(full)
    if rgb.size == 0 or min(rgb.shape[0], rgb.shape[1]) < 2:
        # Too small to have neighbours: nothing was painted that we can judge.
        return _blank_terms()

    coverage = paint_fraction(rgb, threshold=_COVERAGE_THRESHOLD)
    f = rgb.astype(np.float32)
    luma = f @ _LUMA

    rg = f[..., 0] - f[..., 1]
    yb = 0.5 * (f[..., 0] + f[..., 1]) - f[..., 2]
    colourfulness = math.hypot(float(rg.std()), float(yb.std())) + 0.3 * math.hypot(
        float(rg.mean()), float(yb.mean())
    )

    luma_std = float(luma.std())

    dx = np.abs(np.diff(luma, axis=1))[:-1, :]
    dy = np.abs(np.diff(luma, axis=0))[:, :-1]
    edge_density = float(np.count_nonzero(np.maximum(dx, dy) > _EDGE_STEP)) / dx.size

    centred = luma - luma.mean()
    var = float(np.mean(centred * centred))
    if var < 1e-6:
        # A flat picture has no noise to speak of; the blank factor handles it.
        neighbour_corr = 1.0
    else:
        horizontal = float(np.mean(centred[:, 1:] * centred[:, :-1]))
        vertical = float(np.mean(centred[1:, :] * centred[:-1, :]))
        neighbour_corr = 0.5 * (horizontal + vertical) / var

    shares, bin_luma = _bin_shares(rgb)
    ordered = np.sort(shares)[::-1]
    top, second = float(ordered[0]), float(ordered[1])
    dark = shares[bin_luma < _DARK_LUMA]
    dark_mass = float(dark.max()) if dark.size else 0.0

    coverage_term = min(1.0, coverage / 0.30)
    colour_term = min(1.0, colourfulness / 40.0)
    contrast_term = min(1.0, luma_std / 50.0)
    texture_term = min(1.0, edge_density / 0.08)
    total = w.coverage + w.colourfulness + w.contrast + w.texture
    base = (
        w.coverage * coverage_term
        + w.colourfulness * colour_term
        + w.contrast * contrast_term
        + w.texture * texture_term
    ) / total

    near_blank_factor = _ramp(coverage, 0.005, 0.03)
    mass_factor = 1.0 - 0.9 * _ramp(second, 0.10, 0.25) * _ramp(top + second, 0.85, 0.95)
    noise_factor = 1.0 - 0.9 * (1.0 - _ramp(neighbour_corr, 0.15, 0.45))

    hue_families = _hue_families(f, luma)
    palette_factor = 1.0 - 0.9 * _ramp(hue_families, 5.0, 8.0)
    composition = _composition(f)
    composition_factor = 0.1 + 0.9 * _ramp(composition, 0.12, 0.20)
    marks_factor = 0.1 + 0.9 * _ramp(edge_density, 0.003, 0.012)
    # A near-blank picture scores 0 whatever it says: reading it would only cost time.
    text_fraction = _READER.text_fraction(full) if read_text and near_blank_factor > 0 else 0.0
    lettering_factor = 1.0 - 0.9 * _ramp(text_fraction, 0.005, 0.03)
    value = (
        10.0
        * base
        * near_blank_factor
        * mass_factor
        * noise_factor
        * palette_factor
        * composition_factor
        * marks_factor
        * lettering_factor
    )

    return {
        "coverage": coverage,
        "colourfulness": colourfulness,
        "luma_std": luma_std,
        "edge_density": edge_density,
        "neighbour_corr": neighbour_corr,
        "top_colour": top,
        "second_colour": second,
        "dark_mass": dark_mass,
        "coverage_term": coverage_term,
        "colour_term": colour_term,
        "contrast_term": contrast_term,
        "texture_term": texture_term,
        "base": base,
        "near_blank_factor": near_blank_factor,
        "mass_factor": mass_factor,
        "noise_factor": noise_factor,
        "hue_families": hue_families,
        "palette_factor": palette_factor,
        "composition": composition,
        "composition_factor": composition_factor,
        "marks_factor": marks_factor,
        "text_fraction": text_fraction,
        "lettering_factor": lettering_factor,
        "blank": 1.0 if coverage == 0.0 else 0.0,
        "value": float(min(10.0, max(0.0, value))),
    }


def _hue_families(f: np.ndarray, luma: np.ndarray) -> float:
    """Effective number of 20-degree hue families among the picture's saturated paint.

    ``exp(entropy)`` of the hue histogram of pixels that are clearly coloured (saturation above
    0.25, not near-black) and differ from the background: 1 for a one-hue painting, 18 for
    colours drawn uniformly at random. Grey pencil, ink and charcoal have no saturated paint and
    count 0.
    """
    high = f.max(axis=-1)
    low = f.min(axis=-1)
    saturation = (high - low) / np.maximum(high, 1.0)
    background = _background_colour(f)
    distance = np.sqrt(((f - background) ** 2).sum(axis=-1))
    coloured = (saturation > 0.25) & (high > 40.0) & (distance > 24.0)
    if np.count_nonzero(coloured) < 50:
        return 0.0
    r, g, b = f[..., 0][coloured], f[..., 1][coloured], f[..., 2][coloured]
    hue = (np.degrees(np.arctan2(math.sqrt(3.0) * (g - b), 2.0 * r - g - b)) + 360.0) % 360.0
    counts = np.bincount((hue // 20.0).astype(np.int64), minlength=18).astype(np.float64)
    share = counts[counts > 0] / counts.sum()
    return float(math.exp(-float((share * np.log(share)).sum())))


def _background_colour(f: np.ndarray) -> np.ndarray:
    """The mean colour of the commonest coarse colour bin (16 levels per channel)."""
    q = (f // 16.0).astype(np.int32)
    keys = (q[..., 0] << 8) | (q[..., 1] << 4) | q[..., 2]
    mode = int(np.bincount(keys.ravel()).argmax())
    background: np.ndarray = f[keys == mode].mean(axis=0)
    return background


def _composition(f: np.ndarray, blocks: int = 6) -> float:
    """How unlike each other the parts of the canvas are: block-mean colour spread over the
    pixel colour spread, on a ``blocks`` x ``blocks`` grid.

    Near 0 for pictures that look alike everywhere (per-pixel noise, confetti of tiny strokes,
    checkerboards, repeated patterns); 0.26-0.94 across this project's reference paintings.
    """
    h, w = f.shape[0] // blocks, f.shape[1] // blocks
    if h < 1 or w < 1:
        return 1.0
    grid = f[: h * blocks, : w * blocks].reshape(blocks, h, blocks, w, 3).mean(axis=(1, 3))
    block_spread = float(np.sqrt(((grid - grid.mean(axis=(0, 1))) ** 2).sum(axis=-1).mean()))
    pixel_spread = float(np.sqrt(((f - f.mean(axis=(0, 1))) ** 2).sum(axis=-1).mean()))
    return block_spread / pixel_spread if pixel_spread > 1e-6 else 1.0


def _blank_terms() -> dict[str, float]:
    names = (
        "coverage",
        "colourfulness",
        "luma_std",
        "edge_density",
        "neighbour_corr",
        "top_colour",
        "second_colour",
        "dark_mass",
        "coverage_term",
        "colour_term",
        "contrast_term",
        "texture_term",
        "base",
        "near_blank_factor",
        "mass_factor",
        "noise_factor",
        "hue_families",
        "palette_factor",
        "composition",
        "composition_factor",
        "marks_factor",
        "text_fraction",
        "lettering_factor",
    )
    terms = dict.fromkeys(names, 0.0)
    terms.update(
        mass_factor=1.0,
        noise_factor=1.0,
        neighbour_corr=1.0,
        palette_factor=1.0,
        composition_factor=1.0,
        marks_factor=1.0,
        lettering_factor=1.0,
        blank=1.0,
        value=0.0,
    )
    return terms


class HeuristicScorer:
    """The embedded default scorer: a transparent picture heuristic, not a preference model.

    It scores each picture from image statistics alone (see the module docstring for every
    term) and **ignores the prompt**: a perfect rose scores the same for "a rose" and for "a
    ship". Use it where HPSv3 is not available, for smoke tests, and as a floor that catches
    degenerate pictures; do not read its numbers as human preference.

    Scores are in ``[0, 10]``, have no uncertainty (``sigma`` is ``None``) and carry every
    term in ``Score.terms``.

    Args:
        weights: Weights of the four ``base`` terms; the documented defaults when ``None``.
        read_text: Read each picture for text and pull lettering down (the ``lettering``
            factor). ``False`` saves 0.15-0.4 s a picture and lets a painted label score as a
            painting; turn it off only for a policy that cannot write.

    Examples:
        >>> import numpy as np
        >>> from PIL import Image
        >>> from sketch_env.scoring.base import score_sync
        >>> blank = Image.new("RGB", (64, 64), "white")
        >>> score_sync(HeuristicScorer(), [blank], ["a rose"])[0].value
        0.0
    """

    name = "heuristic"

    def __init__(self, weights: HeuristicWeights | None = None, read_text: bool = True) -> None:
        self.weights = weights or HeuristicWeights()
        self.read_text = read_text

    def score_one(self, image: ImageLike) -> Score:
        """Scores one picture synchronously.

        Args:
            image: A PIL image, an RGB(A) uint8 array, or PNG bytes.

        Returns:
            The `Score`, with every term in ``terms``.
        """
        terms = heuristic_terms(image, self.weights, read_text=self.read_text)
        value = terms.pop("value")
        return Score(value=value, sigma=None, terms=tuple(terms.items()))

    async def score(self, images: Sequence[Image.Image], prompts: Sequence[str]) -> list[Score]:
        """Scores pictures; the prompts are checked for count and otherwise ignored.

        Each picture is scored in a worker thread of its own (the event loop's default
        executor), so a batch neither stalls the loop that drives the renderer nor queues
        behind one core: reading text costs 0.15-0.4 s a painting, and onnxruntime and numpy
        release the GIL while they work.

        Args:
            images: RGB pictures.
            prompts: One prompt per picture (unused beyond the length check).

        Returns:
            One `Score` per picture, in order.

        Raises:
            ValueError: If the two sequences differ in length.
        """
        if len(images) != len(prompts):
            raise ValueError(f"got {len(images)} images but {len(prompts)} prompts")
        if not images:
            return []
        return list(
            await asyncio.gather(*(asyncio.to_thread(self.score_one, image) for image in images))
        )

    def __repr__(self) -> str:
        return f"HeuristicScorer(weights={self.weights!r}, read_text={self.read_text})"
