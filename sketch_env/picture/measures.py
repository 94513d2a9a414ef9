"""The measurement pass: a picture decoded once, and every statistic the reward and the embedded
scorers read of it.

`Picture` holds one decoded picture and makes its working copies on first use: the paint
(`sketch_env.picture.paint`, on a 150-pixel square copy) and a copy box-reduced to at most 320
pixels a side for the other statistics. `measure_picture` returns `PictureMeasures`: what the
reward's guards (`sketch_env.picture.guards`), the coverage term and the heuristic scorer read.
The anchored scorer's features (`sketch_env.scoring.anchored.picture_features`) read the same
`Picture`, so under the evaluator a picture is decoded once and its paper found once, whatever
reads it. Reading text works on the full-resolution picture. Everything is deterministic.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from functools import cached_property

import numpy as np
from PIL import Image

from sketch_env.picture.paint import Paint, find_paint, paint_mask
from sketch_env.picture.pixels import ImageLike, PixelMemory, reduced, to_rgb_array
from sketch_env.picture.reading import TextReader

__all__ = [
    "MEASUREMENTS",
    "Picture",
    "PictureMeasures",
    "dark_mass_fraction",
    "forget_measurements",
    "measure_picture",
    "reads_text",
]

#: Luminance step between neighbours that counts as an edge.
_EDGE_STEP = 12.0
#: Bits per channel kept when grouping colours into "the same colour" (mass statistics).
_MASS_BITS = 3
#: A coarse colour bin whose centre has luminance below this is "dark".
_DARK_LUMA = 50.0
_LUMA = np.array([0.299, 0.587, 0.114], dtype=np.float32)
#: Below this paint fraction a picture is not read for text: the guards refuse it anyway.
_READ_FROM = 0.005
#: One reader for every measurement: it holds no state beyond its settings.
_READER = TextReader()
#: Measurements of the last pictures measured, by their pixels and whether text was read: the
#: same picture is measured once. Reading text is most of a measurement (0.15-0.4 s of a
#: picture's 0.2-0.45 s on one core, docs/reward.md), and the same pixels come back: a GRPO group
#: whose samples collapsed to one picture, a rollout scored again, the reference pool read by
#: several checks in one process (the slow test tier measured all 96 references three times).
_MEASURED: PixelMemory[PictureMeasures] = PixelMemory(256)


class Picture:
    """One picture, decoded once, with the working copies its measurements read.

    Args:
        image: A PIL image, an RGB(A) uint8 array, or PNG bytes (alpha over white).

    Examples:
        >>> import numpy as np
        >>> Picture(np.full((64, 64, 3), 255, np.uint8)).paint.fraction
        0.0
    """

    def __init__(self, image: ImageLike) -> None:
        self.rgb = to_rgb_array(image)

    @classmethod
    def of(cls, image: ImageLike | Picture) -> Picture:
        """``image`` itself when it is a `Picture`, else a new one."""
        return image if isinstance(image, Picture) else cls(image)

    @cached_property
    def paint(self) -> Paint:
        """Paper and paint on the picture's 150-pixel square copy (the one definition)."""
        return find_paint(self.rgb)

    @cached_property
    def work(self) -> np.ndarray:
        """The copy box-reduced to at most 320 pixels a side."""
        return reduced(self.rgb)

    def image(self) -> Image.Image:
        """The picture as an RGB PIL image."""
        return Image.fromarray(self.rgb)


@dataclass(frozen=True, slots=True)
class PictureMeasures:
    """Everything measured about one picture.

    Args:
        coverage: The paint fraction (`sketch_env.picture.paint`): the share of the canvas
            further than 8 CIELAB units from its paper.
        colourfulness: Hasler and Süsstrunk's statistic on the opponent channels.
        luma_std: Standard deviation of luminance (0-255).
        edge_density: Share of pixels whose luminance steps by more than 12 to a right or lower
            neighbour.
        neighbour_corr: Correlation of neighbouring pixels' luminance (about 0 for per-pixel
            noise, above 0.5 for paintings).
        top_colour: Share of the commonest coarse colour (8 levels a channel).
        second_colour: Share of the second commonest.
        dark_mass: Share of the single largest dark coarse colour (`dark_mass_fraction`).
        hue_families: Effective number of 20-degree hue families among the clearly coloured
            paint (0 for grey work).
        composition: Spread of a 6x6 grid's block colours over the spread of the pixels (near 0
            for pictures that look alike everywhere).
        text_fraction: Share of the picture that reads as text (``0`` when not read).
        text_read: Whether the picture was read for text.
    """

    coverage: float
    colourfulness: float
    luma_std: float
    edge_density: float
    neighbour_corr: float
    top_colour: float
    second_colour: float
    dark_mass: float
    hue_families: float
    composition: float
    text_fraction: float
    text_read: bool

    @property
    def top_two_colours(self) -> float:
        """Share of the two commonest coarse colours together."""
        return self.top_colour + self.second_colour

    def as_terms(self) -> tuple[tuple[str, float], ...]:
        """The measurements as ``(name, value)`` pairs (for `Score.terms` and logs)."""
        return tuple((k, float(v)) for k, v in asdict(self).items())


#: The measurements a guard or a term may read: `PictureMeasures`' numbers by name.
MEASUREMENTS: tuple[str, ...] = (
    *(f.name for f in fields(PictureMeasures) if f.name != "text_read"),
    "top_two_colours",
)


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


def dark_mass_fraction(image: ImageLike | Picture) -> float:
    """Share of the canvas taken by its single largest *dark* colour.

    Colours are grouped coarsely (8 levels per channel) and a group counts as dark when its
    centre's luminance is below 50 of 255. A black blob, fat black strokes or a near-black
    ``background()`` all give a large value; dark strokes scattered over light paper do not,
    because it is the single largest dark group that counts, not all dark pixels.

    Args:
        image: A PIL image, an RGB(A) uint8 array, PNG bytes, or a `Picture`.

    Returns:
        A float in ``[0, 1]``; ``0.0`` for an empty image.

    Examples:
        >>> import numpy as np
        >>> canvas = np.full((100, 100, 3), 255, np.uint8)
        >>> canvas[:60] = 5
        >>> round(dark_mass_fraction(canvas), 2)
        0.6
    """
    rgb = Picture.of(image).work
    return _dark_mass(rgb) if rgb.size else 0.0


def _dark_mass(rgb: np.ndarray) -> float:
    shares, luma = _bin_shares(rgb)
    dark = shares[luma < _DARK_LUMA]
    return float(dark.max()) if dark.size else 0.0


def measure_picture(image: ImageLike | Picture, *, read_text: bool = True) -> PictureMeasures:
    """Measures one picture (decoded once; see the module docstring). A picture with the same
    pixels as one of the last 256 measured (with the same ``read_text``) gets those
    measurements back without being measured again.

    Args:
        image: A PIL image, an RGB(A) uint8 array, PNG bytes, or a `Picture`.
        read_text: Read the picture for text (0.15-0.4 s on one core); skipped anyway for a
            near-blank picture (less than 0.5 % paint), which the guards refuse in any case.

    Returns:
        The `PictureMeasures`. A picture too small to have neighbours measures as blank.

    Examples:
        >>> import numpy as np
        >>> measure_picture(np.full((64, 64, 3), 255, np.uint8)).coverage
        0.0
    """
    picture = Picture.of(image)
    return _MEASURED.recall(picture.rgb, lambda: _measure(picture, read_text), read_text)


def forget_measurements() -> None:
    """Empties `measure_picture`'s memory of recent pictures (a benchmark timing the measurement
    itself calls it before each timed call)."""
    _MEASURED.clear()


def _measure(picture: Picture, read_text: bool) -> PictureMeasures:
    rgb = picture.work
    if rgb.size == 0 or min(rgb.shape[0], rgb.shape[1]) < 2:
        return PictureMeasures(0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, False)
    coverage = picture.paint.fraction
    f = rgb.astype(np.float32)
    luma = f @ _LUMA
    rg = f[..., 0] - f[..., 1]
    yb = 0.5 * (f[..., 0] + f[..., 1]) - f[..., 2]
    colourfulness = math.hypot(float(rg.std()), float(yb.std())) + 0.3 * math.hypot(
        float(rg.mean()), float(yb.mean())
    )
    dx = np.abs(np.diff(luma, axis=1))[:-1, :]
    dy = np.abs(np.diff(luma, axis=0))[:, :-1]
    edge_density = float(np.count_nonzero(np.maximum(dx, dy) > _EDGE_STEP)) / dx.size
    centred = luma - luma.mean()
    var = float(np.mean(centred * centred))
    if var < 1e-6:
        # A flat picture has no noise to speak of; the near-blank guard handles it.
        neighbour_corr = 1.0
    else:
        horizontal = float(np.mean(centred[:, 1:] * centred[:, :-1]))
        vertical = float(np.mean(centred[1:, :] * centred[:-1, :]))
        neighbour_corr = 0.5 * (horizontal + vertical) / var
    shares, _ = _bin_shares(rgb)
    ordered = np.sort(shares)[::-1]
    read = read_text and coverage > _READ_FROM
    return PictureMeasures(
        coverage=coverage,
        colourfulness=colourfulness,
        luma_std=float(luma.std()),
        edge_density=edge_density,
        neighbour_corr=neighbour_corr,
        top_colour=float(ordered[0]),
        second_colour=float(ordered[1]),
        dark_mass=_dark_mass(rgb),
        hue_families=_hue_families(f, paint_mask(rgb).mask),
        composition=_composition(f),
        text_fraction=_READER.text_fraction(picture.rgb) if read else 0.0,
        text_read=read,
    )


def reads_text(measures: PictureMeasures, read_text: bool) -> bool:
    """Whether a picture measured as ``measures`` should have been read for text by a reader
    set to ``read_text`` (`measure_picture` skips near-blank pictures)."""
    return read_text and measures.coverage > _READ_FROM


def _hue_families(f: np.ndarray, paint: np.ndarray) -> float:
    """Effective number of 20-degree hue families among the picture's saturated paint.

    ``exp(entropy)`` of the hue histogram of paint pixels (`sketch_env.picture.paint`) that are
    clearly coloured (saturation above 0.25, not near-black): 1 for a one-hue painting, 18 for
    colours drawn uniformly at random. Grey pencil, ink and charcoal have no saturated paint
    and count 0.
    """
    high = f.max(axis=-1)
    low = f.min(axis=-1)
    saturation = (high - low) / np.maximum(high, 1.0)
    coloured = (saturation > 0.25) & (high > 40.0) & paint
    if np.count_nonzero(coloured) < 50:
        return 0.0
    r, g, b = f[..., 0][coloured], f[..., 1][coloured], f[..., 2][coloured]
    hue = (np.degrees(np.arctan2(math.sqrt(3.0) * (g - b), 2.0 * r - g - b)) + 360.0) % 360.0
    counts = np.bincount((hue // 20.0).astype(np.int64), minlength=18).astype(np.float64)
    share = counts[counts > 0] / counts.sum()
    return float(math.exp(-float((share * np.log(share)).sum())))


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
