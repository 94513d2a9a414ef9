"""A transparent, deterministic picture heuristic, kept for comparison and tests.

This is **not** a preference model and must never be described as one. It was the package's
first default scorer: a handful of image statistics, each documented below, that separate "a
painting happened" from the degenerate outputs a policy finds first (an empty canvas, a few
stray marks, one flat mass of colour, per-pixel noise). The default scorer is now ``vision``
(`sketch_env.scoring.vision.scorer`), because every term here saturates at "busy" and a blind
search reaches this scorer's maximum at once (docs/reward.md, "What search finds"). It knows
nothing about the prompt and nothing about taste.

The score is ``10 * base * near_blank * mass * noise * palette * composition * marks *
lettering``, a number in ``[0, 10]``:

``base`` is a weighted mean of four terms, each in ``[0, 1]``:

- **coverage** (weight 0.25): the paint fraction (`sketch_env.picture.paint`, the package's
  one definition of paint: further than 8 CIELAB units from the paper), saturating at 30 % of
  the canvas.
- **colourfulness** (weight 0.20): Hasler and Süsstrunk's colourfulness statistic on the
  opponent channels ``R - G`` and ``(R + G) / 2 - B``, saturating at 40 (their "moderately
  colourful" is about 33). Grey pencil work loses only this term.
- **tonal contrast** (weight 0.15): the standard deviation of luminance (0-255), saturating at
  50.
- **edge/texture energy** (weight 0.40): the fraction of pixels whose luminance steps by more
  than 12 to a right or lower neighbour, saturating at 8 %. Brush strokes, hatching and
  watercolour edges produce it; flat fills and smooth gradients do not. It has the largest
  weight because texture is what p5.brush adds over bare p5 primitives.

Multiplicative factors, each in ``[0.1, 1]``, then pull degenerate pictures down. They are the
reward's guards (`sketch_env.picture.guards.GUARDS`), the same `Guard` objects reading the same
measurements, tuned to the stricter thresholds first measured on 28 reference paintings and a
floor of 0.1 (the near-blank factor goes to 0): `HEURISTIC_GUARDS`. So the heuristic on its own
still ranks a degenerate picture low and its numbers, and its measured gap
(`sketch_env.rewardcheck.gaps`), hold. The reward's guards were loosened when the pool grew to
96 references, because these thresholds touch 26 of them (flat watercolours as one mass, dense
ink hatching as noise); under the heuristic those references pay for it, one more reason it is
kept for comparison only:

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
  vendored PP-OCRv4 models, `sketch_env.picture.reading`). A label is not a painting, and to
  every statistic above it looks like one: letters painted in charcoal have marks, contrast,
  composition and one hue (they earned 8.5 and beat 68 % of the references before this
  factor), and a big label over a painting raised its score in 93 % of cases. 1 up to 0.5 % of
  the picture, 0.1 from 3 % (one short word in large letters covers about 5 %).

What it cannot see: the prompt (a perfect rose scores the same for "a ship") and taste within
competent pictures (its order of the reference tiers is reported by ``sketch-env reward-check``,
not tuned to). Those need HPSv3 or a VLM judge (``docs/judge.md``). Symbols that are not
letters or digits, and text the reader misses (see its module docstring), pass as painting.

The measurements come from `sketch_env.picture.measures` (a few milliseconds for a 600x600
picture; reading text takes 0.15-0.4 s more on one core, ``bench/scorer_speed.py``;
``read_text=False`` skips it, and it is skipped for a near-blank picture). Under the evaluator
the picture is measured once and the heuristic scores from those measurements
(`HeuristicScorer.score_measured`). Everything is deterministic.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from sketch_env.picture.guards import GUARDS, Guard
from sketch_env.picture.measures import (
    Picture,
    PictureMeasures,
    dark_mass_fraction,
    measure_picture,
    reads_text,
)
from sketch_env.picture.pixels import ImageLike
from sketch_env.scoring.base import EMBEDDED_SCALE, Score, score_in_threads

__all__ = [
    "HEURISTIC_GUARDS",
    "HeuristicScorer",
    "HeuristicWeights",
    "dark_mass_fraction",
    "heuristic_terms",
]

#: The heuristic's own instances of the reward's guards: the thresholds of the module docstring
#: (the guards' first ones) and a floor of 0.1 but for near-blank.
HEURISTIC_GUARDS: tuple[Guard, ...] = (
    GUARDS["near_blank"].tuned(coverage=(0.03, 0.005)),
    GUARDS["flat_mass"].tuned(second_colour=(0.10, 0.25), top_two_colours=(0.85, 0.95), floor=0.1),
    GUARDS["noise"].tuned(neighbour_corr=(0.45, 0.15), floor=0.1),
    GUARDS["palette"].tuned(hue_families=(5.0, 8.0), floor=0.1),
    GUARDS["composition"].tuned(floor=0.1),
    GUARDS["marks"].tuned(edge_density=(0.012, 0.003), floor=0.1),
    GUARDS["lettering"].tuned(floor=0.1),
)
#: The name of each guard's factor among the heuristic's terms (its names since it had factors).
_FACTOR_TERMS = {"flat_mass": "mass_factor"}


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


def heuristic_terms(
    image: ImageLike | Picture | PictureMeasures,
    weights: HeuristicWeights | None = None,
    *,
    read_text: bool = True,
) -> dict[str, float]:
    """Computes every measurement, term and factor of the heuristic score for one picture.

    Args:
        image: A PIL image, an RGB(A) uint8 array, PNG bytes or a `Picture`, or its
            `PictureMeasures`.
        weights: Weights of the ``base`` terms; the defaults when ``None``.
        read_text: Read the picture for text (the ``lettering`` factor); ``False`` leaves
            ``text_fraction`` at 0 and the factor at 1. Ignored for measurements.

    Returns:
        An ordered mapping: the measurements (`PictureMeasures`' fields but ``text_read``),
        the terms in ``[0, 1]`` (``coverage_term``, ``colour_term``, ``contrast_term``,
        ``texture_term``, ``base``), the factors (``near_blank_factor``, ``mass_factor``,
        ``noise_factor``, ``palette_factor``, ``composition_factor``, ``marks_factor``,
        ``lettering_factor``), the flag ``blank`` (1.0 when no pixel differs from the
        background) and ``value``, the score in ``[0, 10]``.

    Examples:
        >>> import numpy as np
        >>> heuristic_terms(np.full((64, 64, 3), 255, np.uint8))["value"]
        0.0
    """
    w = weights or HeuristicWeights()
    m = image if isinstance(image, PictureMeasures) else measure_picture(image, read_text=read_text)
    terms: dict[str, float] = {k: v for k, v in m.as_terms() if k != "text_read"}
    terms["coverage_term"] = min(1.0, m.coverage / 0.30)
    terms["colour_term"] = min(1.0, m.colourfulness / 40.0)
    terms["contrast_term"] = min(1.0, m.luma_std / 50.0)
    terms["texture_term"] = min(1.0, m.edge_density / 0.08)
    total = w.coverage + w.colourfulness + w.contrast + w.texture
    base = (
        w.coverage * terms["coverage_term"]
        + w.colourfulness * terms["colour_term"]
        + w.contrast * terms["contrast_term"]
        + w.texture * terms["texture_term"]
    ) / total
    terms["base"] = base
    value = 10.0 * base
    for guard in HEURISTIC_GUARDS:
        factor = guard.factor(m)
        terms[_FACTOR_TERMS.get(guard.name, f"{guard.name}_factor")] = factor
        value *= factor
    terms["blank"] = 1.0 if m.coverage == 0.0 else 0.0
    terms["value"] = float(min(10.0, max(0.0, value)))
    return terms


class HeuristicScorer:
    """An embedded scorer kept for comparison: a transparent picture heuristic, not a preference
    model (the default scorer is `sketch_env.scoring.vision.scorer.VisionScorer`).

    It scores each picture from image statistics alone (see the module docstring for every
    term) and **ignores the prompt**: a perfect rose scores the same for "a rose" and for "a
    ship". Use it for smoke tests and comparisons; a blind search reaches its maximum, so do
    not train on it, and do not read its numbers as human preference.

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
    #: 0-10; full marks for a picture busy enough to saturate every term.
    scale = EMBEDDED_SCALE

    def __init__(self, weights: HeuristicWeights | None = None, read_text: bool = True) -> None:
        self.weights = weights or HeuristicWeights()
        self.read_text = read_text

    def score_one(self, image: ImageLike | Picture | PictureMeasures) -> Score:
        """Scores one picture synchronously.

        Args:
            image: A PIL image, an RGB(A) uint8 array, PNG bytes or a `Picture`, or its
                measurements.

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
        return await score_in_threads(self.score_one, images)

    async def score_measured(
        self,
        pictures: Sequence[Picture],
        measures: Sequence[PictureMeasures],
        prompts: Sequence[str],
    ) -> list[Score]:
        """Scores pictures from the evaluator's measurements (nothing is measured again).

        Args:
            pictures: The pictures (read only if they were measured with text reading set
                otherwise than this scorer reads).
            measures: One `PictureMeasures` per picture.
            prompts: One prompt per picture (unused beyond the length check).

        Returns:
            One `Score` per picture, in order (the same values as `score`).

        Raises:
            ValueError: If the sequences differ in length.
        """
        if not len(pictures) == len(measures) == len(prompts):
            raise ValueError(
                f"got {len(pictures)} pictures, {len(measures)} measurements, "
                f"{len(prompts)} prompts"
            )
        if any(m.text_read != reads_text(m, self.read_text) for m in measures):
            # Measured with reading set otherwise than this scorer reads: measure again.
            return await score_in_threads(self.score_one, pictures)
        return [self.score_one(m) for m in measures]

    def __repr__(self) -> str:
        return f"HeuristicScorer(weights={self.weights!r}, read_text={self.read_text})"
