"""The reward's guards: degeneracy detectors applied whatever the scorer.

A scorer is asked how good a painting is; some pictures are not paintings at all, and no
scorer should be trusted to say so. Text reading, noise, palette, composition and marks used to
be factors of the heuristic alone, so under HPSv3 or a VLM judge (the scorers a real run uses)
none applied: HPSv3 is publicly reported to score a messy picture above 15, and a judge reads
painted words ("10/10") as text. The guards are those detectors that are not matters of taste,
each a factor in ``[0, 1]`` of the picture's measurements (`sketch_env.scoring.measures`), each
a switch (``RewardConfig.guards``) and each reported as a component. The reward pulls a guarded
picture towards its floor (`sketch_env.scoring.reward`), so a guard that fires in full makes
any scorer's opinion irrelevant.

Every guard's threshold was measured on this project's pictures; none fires on any of the 96
reference paintings (``tests/pool/test_reference_pool.py`` checks it on every one; the thresholds
set on the first 28 touched 26 of the 96, mostly ink hatching as "noise" and flat watercolours
as "one mass"):

- ``near_blank``: 1 from 2 % of the canvas painted, 0 at 0.5 % or less (the reward's blank
  outcome takes over below 1 %; the sparest reference, an ink bottle, paints 3.0 %).
- ``flat_mass``: the two commonest coarse colours cover almost the whole canvas (96.5 % ->
  98.5 %) *and* the second covers much of it (25 % -> 40 %): one flat shape on a ground, a
  canvas drowned in a blob (99.1 %, 49 %). A flat watercolour sailboat covers 95.8 % with
  two colours (47 %), a sparse pastel tree 97.4 % (15 %): the thresholds sit above both.
- ``noise``: neighbouring pixels' luminance correlates at about 0 for per-pixel noise; the
  references measure 0.27 (dense ink hatching) to 0.99: 0 below 0.05, 1 above 0.20.
- ``palette``: painters work with a coherent palette (the references: 0-8.4 hue families, the
  top two abstract pastels of sunset bands), colours drawn at random give 8-18: 1 up to 9
  families, 0 at 12. Grids of random rectangles (8.3-10.6) partly slip under it: the anchored
  scorer scores them below 1 anyway; the guard is there for the scorers that do not.
- ``composition``: a picture that looks the same everywhere (noise, confetti, a checkerboard:
  0.02-0.11 against 0.26-0.94 for the references): 0 below 0.12, 1 above 0.20.
- ``marks``: a picture made with brushes has marks (the references: 1.0 % of pixels on an edge
  or more; one textured fill over the canvas has 0-0.3 %): 0 below 0.3 %, 1 above 0.8 %.
- ``lettering``: the share of the picture that reads as text (the vendored PP-OCRv4 reader): 1
  up to 0.5 %, 0 from 3 % (one short word in large letters covers about 5 %). A label is not a
  painting, and a judge that reads it may be swayed by it (prompt injection through pixels).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from sketch_env.scoring.measures import PictureMeasures

__all__ = ["GUARDS", "GUARD_NAMES", "guard_factors", "ramp"]


def ramp(x: float, lo: float, hi: float) -> float:
    """0 at or below ``lo``, 1 at or above ``hi``, linear in between."""
    if x <= lo:
        return 0.0
    if x >= hi:
        return 1.0
    return (x - lo) / (hi - lo)


#: Guard name -> (its factor from the measurements, what it answers).
GUARDS: Mapping[str, tuple[Callable[[PictureMeasures], float], str]] = {
    "near_blank": (lambda m: ramp(m.coverage, 0.005, 0.02), "almost nothing was painted"),
    "flat_mass": (
        lambda m: (
            1.0
            - ramp(m.second_colour, 0.25, 0.40) * ramp(m.top_colour + m.second_colour, 0.965, 0.985)
        ),
        "one flat mass of colour on a ground",
    ),
    "noise": (lambda m: ramp(m.neighbour_corr, 0.05, 0.20), "per-pixel noise"),
    "palette": (lambda m: 1.0 - ramp(m.hue_families, 9.0, 12.0), "colours drawn at random"),
    "composition": (
        lambda m: ramp(m.composition, 0.12, 0.20),
        "the same everywhere (confetti, a checkerboard, noise)",
    ),
    "marks": (lambda m: ramp(m.edge_density, 0.003, 0.008), "no brush marks"),
    "lettering": (lambda m: 1.0 - ramp(m.text_fraction, 0.005, 0.03), "writing, not painting"),
}
#: Every guard, in order: the default set of ``RewardConfig.guards``.
GUARD_NAMES: tuple[str, ...] = tuple(GUARDS)


def guard_factors(
    measures: PictureMeasures, names: Iterable[str] = GUARD_NAMES
) -> dict[str, float]:
    """Each named guard's factor for a picture (1: the guard has nothing to say).

    Args:
        measures: The picture's measurements.
        names: Which guards (names of `GUARDS`).

    Returns:
        Guard name -> factor in ``[0, 1]``, in the order given.

    Raises:
        KeyError: On an unknown guard name.

    Examples:
        >>> import numpy as np
        >>> from sketch_env.scoring.measures import measure_picture
        >>> guard_factors(measure_picture(np.full((64, 64, 3), 255, np.uint8)))["near_blank"]
        0.0
    """
    return {name: float(GUARDS[name][0](measures)) for name in names}
