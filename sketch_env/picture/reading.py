"""Reading text in a picture: how the lettering guard tells lettering from painting.

Prompt-blind image statistics cannot tell a label from a drawing: letters painted with legal
brush strokes have marks, contrast, composition and one hue, and the bolder they are the more
the heuristic paid (measured before this module: the subject's name lettered in charcoal
earned 8.5 of 10 and beat 68 % of the reference paintings; a big text label over a painting
raised its score in 93 % of cases). Reading needs a model that reads, small enough for every
machine: PP-OCRv4 (PaddleOCR), in the ONNX export RapidOCR publishes inside its PyPI wheel,
vendored byte for byte (``vendor/VENDORED.json``, checked by ``tests/catalog/test_vendor.py``): a DB
text detector (4.7 MB) and a CTC recogniser (10.9 MB, its alphabet stored in the model). They
run on the CPU through onnxruntime with one thread, which keeps the result deterministic and
leaves the cores to the browsers.

The pipeline, with the detector's published defaults where it has them:

1. The detector maps the picture, resized to ``detector_side`` on its longer side, to a
   per-pixel probability of "text here".
2. Regions are the 8-connected parts of that map above 0.3; a region counts when its mean
   probability is at least 0.5 and it is at least 3 pixels thick.
3. Each region is cut out of the full-resolution picture along its principal axis, so slanted
   lettering is straightened, and grown back by the detector's unclip rule (DB shrinks text
   regions; the margin is ``area * 1.6 / perimeter``).
4. The recogniser reads several views of each cut-out and the best reading counts: both ways
   up; turned a quarter both ways when it is short (a lone glyph's principal axis is its
   height); and, for a long region near vertical, cut at a few pitches into glyphs set upright
   side by side (letters stacked in a column), a reading that then needs two different
   characters (a birch trunk cut into pieces reads "IIII").
5. A region *reads as text* when its reading has at least ``min_characters`` letters or
   digits at a mean confidence of at least ``min_confidence``. A single character alone does
   not count (at a 480-pixel detector a charcoal pine tree read as "M" at 0.98), but
   ``min_glyphs`` characters read at ``glyph_confidence`` or more across the picture do:
   letters painted apart are one region each.

Measured on this project's pictures (``sketch-env reward-check --out``, 600x600): the 28
reference paintings give no reading of two or more characters above 0.73 (the pines' "MM";
the harbour's waves read "VVV" at 0.59) and no single character above 0.89, although the
detector alone fires on some of them (29 % of a charcoal gesture); every "A PAINTING" label
read at 0.95-0.99, the charcoal lettering "FLOWERS" as "FLOVERS" at 0.95 in a row and 0.98 in
a column, and the scattered letters gave "O" and "R" at 0.98. A 600x600 painting takes
0.15-0.4 s on one core (`bench/scorer_speed.py`): about 0.1-0.2 s for the detector and a few
recogniser passes per region; the lettering hacks, with many regions, 0.7 s.

Its work is bounded (issue 20: 24 columns of stacked brush letters took 14.7 s on one core,
against 0.22 s for a reference painting). Recogniser input is counted in *units*: a view's
width over its height, at least the recogniser's trained 320/48, at most 32; a view costs about
7 ms of one core per unit. Regions are read largest first until `_READ_BUDGET` units (600,
about 4 s) are spent; the regions left over are not read and count as text at their detected
area (``TextRegion.read`` is ``False``): it fails closed, since a picture that needs more
reading than that is made of text-like columns. Measured on the 96 reference paintings and the
test pictures: the most any painting needed is 213 units (a pastel cherry tree of sticks,
1.6 s), the painted column 97.

What it does not catch: letters painted so thick that they merge into blobs (which a person
cannot read either), letters slanted against their own line, scattered letters of which fewer
than two read confidently, and text too small for the detector at ``detector_side`` (which
also earns little, being small).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import numpy as np
from PIL import Image

from sketch_env.catalog.assets import vendor_path
from sketch_env.install import REINSTALL
from sketch_env.picture.pixels import ImageLike, to_rgb_array

if TYPE_CHECKING:
    import onnxruntime

__all__ = ["TextReader", "TextRegion"]

#: The vendored models (``vendor/pp-ocrv4``).
_DETECTOR = "pp-ocrv4/ch_PP-OCRv4_det_infer.onnx"
_RECOGNISER = "pp-ocrv4/ch_PP-OCRv4_rec_infer.onnx"
#: DB post-processing defaults published with the detector.
_PIXEL_THRESHOLD = 0.3
_REGION_THRESHOLD = 0.5
_UNCLIP_RATIO = 1.6
_MIN_THICKNESS = 3.0
#: The recogniser's input height and the narrowest input it was trained on (320 / 48).
_REC_HEIGHT = 48
_REC_MIN_RATIO = 320 / 48
#: Longest cut-out, as width over height, read at full length; longer ones are squeezed.
_REC_MAX_RATIO = 32.0
_REC_BATCH = 8
#: A cut-out shorter than this many times its thickness may be one glyph (read turned too).
_GLYPH_ASPECT = 2.5
#: Most glyphs re-flowed from one region.
_MAX_GLYPHS = 24
#: Pitches, in multiples of a column's width, at which a column is cut into glyphs.
_COLUMN_PITCHES = (0.7, 0.85, 1.0, 1.2, 1.4)
#: A long region within 30 degrees of vertical may be a column of letters.
_COLUMN_COS = math.cos(math.radians(60))
#: Regions smaller than this share of the picture are not read: they cost a recogniser pass
#: each (fine hatching gives dozens) and, being tiny, could not carry a label that pays.
_MIN_REGION_AREA = 0.0002
#: Regions read per picture, the largest first: a picture the detector sees as hundreds of
#: tiny "texts" (fine hatching) must not cost seconds; the largest regions decide the score.
_MAX_REGIONS = 24
#: Recogniser units (views' width over height, clipped to [320/48, 32]) one picture may cost;
#: see the module docstring for what happens past it.
_READ_BUDGET = 600.0

_sessions_lock = threading.Lock()


@dataclass(frozen=True, slots=True)
class TextRegion:
    """One region of a picture that reads as text.

    Args:
        text: What the recogniser read.
        confidence: Its mean per-character confidence, in ``[0, 1]``.
        area: The region's share of the picture, in ``[0, 1]``.
        centre: The region's centre, as fractions ``(x, y)`` of the picture's width and height.
        angle: The region's slant in degrees (0 for horizontal text).
        read: ``False`` for a region left unread when the reading budget ran out: it counts as
            text (see the module docstring), with no ``text`` and a ``confidence`` of 0.
    """

    text: str
    confidence: float
    area: float
    centre: tuple[float, float]
    angle: float
    read: bool = True


@cache
def _session(relative: str) -> onnxruntime.InferenceSession:
    try:
        import onnxruntime
    except ImportError as error:  # A core dependency; a broken environment still says what to do.
        raise ImportError(
            "reading text in pictures needs onnxruntime: pip install 'onnxruntime>=1.17'"
        ) from error
    try:
        path = vendor_path(relative)
    except FileNotFoundError as error:
        raise FileNotFoundError(
            f"{error}. The text-reading models ship inside sketch_env: "
            f"{REINSTALL}; or, if $SKETCH_ENV_VENDOR_DIR points at your own p5.js folder, copy "
            "the package's pp-ocrv4/ folder into it"
        ) from error
    options = onnxruntime.SessionOptions()
    # One thread: deterministic sums, and the cores stay with the browsers that render.
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


@cache
def _alphabet() -> tuple[str, ...]:
    """The recogniser's classes: CTC blank, the alphabet stored in the model, then a space."""
    metadata = _loaded(_RECOGNISER).get_modelmeta().custom_metadata_map
    return ("", *metadata["character"].splitlines(), " ")


def _loaded(relative: str) -> onnxruntime.InferenceSession:
    with _sessions_lock:  # Two threads scoring the first pictures load each model once.
        return _session(relative)


def _normalised(rgb: np.ndarray) -> np.ndarray:
    """``(H, W, 3)`` RGB uint8 to the models' ``(3, H, W)`` input: BGR, scaled to ``[-1, 1]``.

    The models were trained on OpenCV's BGR order.
    """
    bgr = rgb[..., ::-1].astype(np.float32)
    return np.ascontiguousarray(((bgr / 255.0 - 0.5) / 0.5).transpose(2, 0, 1))


def _runs(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The horizontal runs of a boolean mask and the 8-connected region each belongs to.

    Returns:
        ``(rows, starts, stops, labels)``: one entry per run, ``stops`` exclusive, ``labels``
        numbered from 0 per region.
    """
    height, width = mask.shape
    padded = np.zeros((height, width + 2), dtype=np.int8)
    padded[:, 1:-1] = mask
    steps = np.diff(padded, axis=1)
    rows, starts = np.nonzero(steps == 1)
    _, stops = np.nonzero(steps == -1)
    parent = list(range(len(starts)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first = np.searchsorted(rows, np.arange(height + 1))
    for row in range(1, height):
        i, i_end = int(first[row - 1]), int(first[row])
        j, j_end = int(first[row]), int(first[row + 1])
        while i < i_end and j < j_end:
            # Runs [a, b) and [c, d) on adjacent rows touch, diagonally included, when
            # a <= d and c <= b.
            if starts[i] <= stops[j] and starts[j] <= stops[i]:
                parent[find(i)] = find(j)
            if stops[i] < stops[j]:
                i += 1
            else:
                j += 1
    roots = np.array([find(i) for i in range(len(starts))], dtype=np.int64)
    _, labels = np.unique(roots, return_inverse=True)
    return rows, starts, stops, labels.reshape(-1)


@dataclass(frozen=True, slots=True)
class _Box:
    """A region's rotated rectangle, in detector pixels, grown by the unclip margin."""

    cx: float
    cy: float
    length: float
    thickness: float
    angle: float  # radians, of the long side from the x axis (y pointing down)


def _boxes(probability: np.ndarray) -> list[_Box]:
    """The detector's text regions as rotated rectangles, the largest first."""
    min_area = _MIN_REGION_AREA * probability.size
    mask = probability > _PIXEL_THRESHOLD
    if not mask.any():
        return []
    rows, starts, stops, labels = _runs(mask)
    count = int(labels.max()) + 1
    r = rows.astype(np.float64)
    a = starts.astype(np.float64)
    b = stops.astype(np.float64)
    n = b - a

    def per_region(values: np.ndarray) -> np.ndarray:
        return np.bincount(labels, weights=values, minlength=count)

    # Moments from the runs in closed form (pixel centres at +0.5): no per-pixel loop.
    sum_x = n * (a + b) / 2.0
    last, before = b - 1.0, a - 1.0
    sum_xx = (last * (last + 1) * (2 * last + 1) - before * (before + 1) * (2 * before + 1)) / 6.0
    sum_xx += sum_x + n / 4.0  # (x + 0.5)^2 = x^2 + x + 0.25
    sum_x += n / 2.0
    yc = r + 0.5
    pixels = per_region(n)
    mean_x = per_region(sum_x) / pixels
    mean_y = per_region(n * yc) / pixels
    cov_xx = per_region(sum_xx) / pixels - mean_x**2
    cov_yy = per_region(n * yc * yc) / pixels - mean_y**2
    cov_xy = per_region(yc * sum_x) / pixels - mean_x * mean_y
    cumulative = np.zeros((probability.shape[0], probability.shape[1] + 1), dtype=np.float64)
    np.cumsum(probability, axis=1, out=cumulative[:, 1:])
    rows_i = rows.astype(np.int64)
    mass = cumulative[rows_i, stops] - cumulative[rows_i, starts]
    mean_probability = per_region(mass) / pixels

    # Extents along the principal axes from the runs' corner points.
    corners_x = np.concatenate([a, b, a, b])
    corners_y = np.concatenate([r, r, r + 1, r + 1])
    corner_labels = np.tile(labels, 4)
    boxes = []
    for region in range(count):
        if mean_probability[region] < _REGION_THRESHOLD:
            continue
        angle = 0.5 * math.atan2(2 * cov_xy[region], cov_xx[region] - cov_yy[region])
        ux, uy = math.cos(angle), math.sin(angle)
        chosen = corner_labels == region
        xs, ys = corners_x[chosen], corners_y[chosen]
        along = xs * ux + ys * uy
        across = -xs * uy + ys * ux
        length = float(along.max() - along.min())
        thickness = float(across.max() - across.min())
        if min(length, thickness) < _MIN_THICKNESS or length * thickness < min_area:
            continue
        mid_along = float(along.max() + along.min()) / 2
        mid_across = float(across.max() + across.min()) / 2
        margin = length * thickness * _UNCLIP_RATIO / (2 * (length + thickness))
        boxes.append(
            _Box(
                cx=mid_along * ux - mid_across * uy,
                cy=mid_along * uy + mid_across * ux,
                length=length + 2 * margin,
                thickness=thickness + 2 * margin,
                angle=angle,
            )
        )
    boxes.sort(key=lambda box: box.length * box.thickness, reverse=True)
    return boxes[:_MAX_REGIONS]


def _cut_out(image: Image.Image, box: _Box, scale: float) -> Image.Image:
    """The box's content, straightened, at full resolution."""
    length = max(1, round(box.length * scale))
    thickness = max(1, round(box.thickness * scale))
    ux, uy = math.cos(box.angle), math.sin(box.angle)
    cx, cy = box.cx * scale, box.cy * scale
    # Output pixel (x, y) samples the input at centre + (x - L/2) u + (y - T/2) v, v = (-uy, ux).
    data = (
        ux,
        -uy,
        cx - length / 2 * ux + thickness / 2 * uy,
        uy,
        ux,
        cy - length / 2 * uy - thickness / 2 * ux,
    )
    return image.transform(
        (length, thickness), Image.Transform.AFFINE, data, Image.Resampling.BILINEAR
    )


def _column_spans(cut: Image.Image) -> list[list[tuple[int, int]]]:
    """Ways to cut a long cut-out into glyphs: equal pieces at a few pitches.

    Letters painted in a column touch through charcoal dust and brush spread, so no gap in the
    ink marks where one ends (measured on the painted column: gaps held 6-29 inked pixels of
    78, letters' own thin parts 21-27); letters are painted at an even pitch, though, and one
    of a few pitches around the column's width cuts them apart.
    """
    length, thickness = cut.size
    cuts = []
    for ratio in _COLUMN_PITCHES:
        count = max(2, round(length / (thickness * ratio)))
        if count > _MAX_GLYPHS:
            continue
        pitch = length / count
        cuts.append([(round(i * pitch), round((i + 1) * pitch)) for i in range(count)])
    return cuts


def _reflowed(
    cut: Image.Image, spans: Sequence[tuple[int, int]], turn: Image.Transpose
) -> Image.Image:
    """The glyphs of a cut-out, each turned a quarter and set side by side on one line."""
    glyphs = [cut.crop((a, 0, b, cut.height)).transpose(turn) for a, b in spans]
    gap = max(2, cut.height // 8)
    line_height = max(g.height for g in glyphs) + 2 * gap
    line_width = sum(g.width for g in glyphs) + gap * (len(glyphs) + 1)
    rgb = np.asarray(cut)
    edge = max(1, cut.height // 12)
    border = np.concatenate([rgb[:edge].reshape(-1, 3), rgb[-edge:].reshape(-1, 3)])
    paper = tuple(int(v) for v in np.median(border, axis=0))
    line = Image.new("RGB", (line_width, line_height), paper)
    left = gap
    for glyph in glyphs:
        line.paste(glyph, (left, (line_height - glyph.height) // 2))
        left += glyph.width + gap
    return line


def _views(cut: Image.Image, angle: float) -> tuple[list[Image.Image], int]:
    """The ways one region may hold text, each to be read and the best reading kept.

    The straightened cut-out both ways up (a line of text, however slanted); turned a quarter
    both ways when it is short, since a lone glyph's principal axis is its height (a scattered
    "O" straightened lies on its side); and, for a long region standing near vertical, its
    glyphs turned upright and set side by side, since letters stacked in a column make one
    region whose straightened cut-out shows each letter on its side (measured before these
    views: "FLOWERS" painted as a column earned 6.2 and scattered letters 8.3, neither read).

    Returns:
        The views, and how many of them (the last ones) are re-flowed columns.
    """
    views = [cut, cut.transpose(Image.Transpose.ROTATE_180)]
    columns: list[Image.Image] = []
    if cut.width < _GLYPH_ASPECT * cut.height:
        views += [
            cut.transpose(Image.Transpose.ROTATE_90),
            cut.transpose(Image.Transpose.ROTATE_270),
        ]
    elif abs(math.cos(angle)) < _COLUMN_COS:
        # The straightened axis points down the picture for a positive angle, up for a negative
        # one; either way one of the two turns sets the glyphs upright and in reading order.
        for spans in _column_spans(cut):
            columns.append(_reflowed(cut, spans, Image.Transpose.ROTATE_270))
            columns.append(_reflowed(cut, spans[::-1], Image.Transpose.ROTATE_90))
    return views + columns, len(columns)


def _recogniser_batch(cut_outs: Sequence[Image.Image]) -> np.ndarray:
    """Resizes cut-outs to the recogniser's height and pads them to one width, as trained."""
    ratios = [min(_REC_MAX_RATIO, c.width / c.height) for c in cut_outs]
    width = math.ceil(_REC_HEIGHT * max(_REC_MIN_RATIO, *ratios))
    batch = np.zeros((len(cut_outs), 3, _REC_HEIGHT, width), dtype=np.float32)
    for index, (cut, ratio) in enumerate(zip(cut_outs, ratios, strict=True)):
        resized_width = max(1, min(width, math.ceil(_REC_HEIGHT * ratio)))
        resized = cut.resize((resized_width, _REC_HEIGHT), Image.Resampling.BILINEAR)
        batch[index, :, :, :resized_width] = _normalised(np.asarray(resized))
    return batch


def _recognise(cut_outs: Sequence[Image.Image]) -> list[tuple[str, float]]:
    """Reads cut-outs in batches of similar shape: one batch is padded to its widest member,
    so mixing a long thin stroke with a short word multiplies the work (measured: 1.4 s for a
    birch painting read in one batch)."""
    recogniser = _loaded(_RECOGNISER)
    name = recogniser.get_inputs()[0].name
    order = sorted(range(len(cut_outs)), key=lambda i: cut_outs[i].width / cut_outs[i].height)
    readings: list[tuple[str, float]] = [("", 0.0)] * len(cut_outs)
    for begin in range(0, len(order), _REC_BATCH):
        chunk = order[begin : begin + _REC_BATCH]
        batch = _recogniser_batch([cut_outs[i] for i in chunk])
        outputs = np.asarray(recogniser.run(None, {name: batch})[0])
        for i, output in zip(chunk, outputs, strict=True):
            readings[i] = _decode(output)
    return readings


def _decode(probabilities: np.ndarray) -> tuple[str, float]:
    """Greedy CTC decoding of one ``(steps, classes)`` output: the text and its confidence."""
    classes = probabilities.argmax(axis=1)
    best = probabilities.max(axis=1)
    keep = classes != 0
    keep[1:] &= classes[1:] != classes[:-1]
    if not keep.any():
        return "", 0.0
    alphabet = _alphabet()
    text = "".join(alphabet[int(c)] if int(c) < len(alphabet) else "" for c in classes[keep])
    return text, float(best[keep].mean())


def _alnum(text: str) -> int:
    return sum(character.isalnum() for character in text)


def _units(view: Image.Image) -> float:
    """What reading one view costs, in the budget's units (see the module docstring)."""
    return min(_REC_MAX_RATIO, max(_REC_MIN_RATIO, view.width / max(1, view.height)))


def _region(
    box: _Box, size: tuple[int, int], text: str, confidence: float, *, read: bool = True
) -> TextRegion:
    return TextRegion(
        text=text,
        confidence=confidence,
        area=min(1.0, box.length * box.thickness / (size[0] * size[1])),
        centre=(box.cx / size[0], box.cy / size[1]),
        angle=math.degrees(box.angle),
        read=read,
    )


class TextReader:
    """Finds the parts of a picture that read as text (see the module docstring).

    The models load once per process, on first use, and are shared by every reader.

    Args:
        detector_side: The longer side, in pixels, of the copy the detector sees (rounded to a
            multiple of 32). Smaller is faster and misses smaller text.
        min_characters: Letters or digits a reading needs to count as text (at least 1).
        min_confidence: Mean per-character confidence a reading needs to count as text.
        glyph_confidence: Confidence at which a region's characters count as glyphs: regions
            of fewer than ``min_characters`` count as text when the picture holds at least
            ``min_glyphs`` such characters in all (letters painted apart).
        min_glyphs: See ``glyph_confidence``.

    Raises:
        ValueError: On a side below 64, ``min_characters`` or ``min_glyphs`` below 1, or a
            confidence outside ``[0, 1]``.

    Examples:
        >>> from PIL import Image, ImageDraw, ImageFont
        >>> picture = Image.new("RGB", (600, 600), (245, 240, 228))
        >>> font = ImageFont.load_default(size=90)
        >>> ImageDraw.Draw(picture).text((40, 250), "ROSES", fill=(20, 20, 20), font=font)
        >>> [region.text for region in TextReader().read(picture)]
        ['ROSES']
    """

    def __init__(
        self,
        detector_side: int = 640,
        min_characters: int = 2,
        min_confidence: float = 0.85,
        glyph_confidence: float = 0.95,
        min_glyphs: int = 2,
    ) -> None:
        if detector_side < 64:
            raise ValueError(f"detector_side must be at least 64, got {detector_side}")
        for name, count in (("min_characters", min_characters), ("min_glyphs", min_glyphs)):
            if count < 1:
                raise ValueError(f"{name} must be at least 1, got {count}")
        for name, value in (
            ("min_confidence", min_confidence),
            ("glyph_confidence", glyph_confidence),
        ):
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {value}")
        self.detector_side = detector_side
        self.min_characters = min_characters
        self.min_confidence = min_confidence
        self.glyph_confidence = glyph_confidence
        self.min_glyphs = min_glyphs

    def read(self, image: ImageLike) -> list[TextRegion]:
        """Reads a picture.

        Args:
            image: A PIL image, an RGB(A) uint8 array, or PNG bytes.

        Returns:
            The regions that read as text, the largest first; empty for a picture without
            text.
        """
        rgb = to_rgb_array(image)
        if rgb.size == 0 or min(rgb.shape[:2]) < 8:
            return []
        picture = Image.fromarray(rgb)
        scale = max(picture.size) / self.detector_side
        width, height = (max(32, round(side / scale / 32) * 32) for side in picture.size)
        size = (width, height)
        detector = _loaded(_DETECTOR)
        small = picture.resize(size, Image.Resampling.BILINEAR)
        output = detector.run(
            None, {detector.get_inputs()[0].name: _normalised(np.asarray(small))[None]}
        )[0]
        boxes = _boxes(np.asarray(output, dtype=np.float64)[0, 0])
        if not boxes:
            return []
        sx, sy = picture.width / size[0], picture.height / size[1]
        views: list[tuple[list[Image.Image], int]] = []
        unread: list[_Box] = []
        spent = 0.0
        for count, box in enumerate(boxes):
            made = _views(_cut_out(picture, box, (sx + sy) / 2), box.angle)
            spent += sum(_units(view) for view in made[0])
            if spent > _READ_BUDGET:
                unread, boxes = boxes[count:], boxes[:count]
                break
            views.append(made)
        readings = iter(_recognise([view for region, _ in views for view in region]))
        best = []
        for region, columns in views:
            candidates = [next(readings) for _ in region]
            # A column cut into pieces reads one stroke as "IIII" (a birch trunk): a re-flowed
            # reading counts only with two different characters.
            candidates[len(candidates) - columns :] = [
                r if len({c for c in r[0] if c.isalnum()}) >= 2 else ("", 0.0)
                for r in candidates[len(candidates) - columns :]
            ]
            best.append(max(candidates, key=lambda r: (self._reads(*r), r[1])))
        # Letters painted apart are one glyph per region: each alone could be a stray shape
        # (a charcoal pine reads "M"), several confident ones are lettering.
        glyphs = sum(
            _alnum(text) for text, confidence in best if confidence >= self.glyph_confidence
        )
        found = []
        for box, (text, confidence) in zip(boxes, best, strict=True):
            lettering = glyphs >= self.min_glyphs and confidence >= self.glyph_confidence
            if not (self._reads(text, confidence) or (lettering and _alnum(text) >= 1)):
                continue
            found.append(_region(box, size, text, confidence))
        found += [_region(box, size, "", 0.0, read=False) for box in unread]
        return found

    def text_fraction(self, image: ImageLike) -> float:
        """The share of the picture covered by regions that read as text.

        Args:
            image: A PIL image, an RGB(A) uint8 array, or PNG bytes.

        Returns:
            A float in ``[0, 1]``; ``0.0`` for a picture without text.
        """
        return min(1.0, sum(region.area for region in self.read(image)))

    def _reads(self, text: str, confidence: float) -> bool:
        return _alnum(text) >= self.min_characters and confidence >= self.min_confidence

    def __repr__(self) -> str:
        return (
            f"TextReader(detector_side={self.detector_side}, "
            f"min_characters={self.min_characters}, min_confidence={self.min_confidence}, "
            f"glyph_confidence={self.glyph_confidence}, min_glyphs={self.min_glyphs})"
        )
