"""The anchored scorer: how typical a picture is of its task's own reference paintings.

Every statistic the heuristic scorer pays for saturates at "busy" (coverage at 30 %, colour at
40, contrast at 50, edges at 8 %), so a blind search of random rectangles reached its maximum in
two generations (docs/reward.md, "What search finds"). This scorer pays for nothing in absolute
terms. It describes a picture by seven groups of statistics (`PictureFeatures`) and measures how
far each group is from the task's reference paintings (``reference_pool/``, rendered with seed 0
and stored in ``features.json``), each group in units of its own spread among references of one
medium; the sum is the picture's *distance*. A picture no further from the references than the
line most of the task's references reach (``typical``) scores 10, and the score falls by a
factor ``e`` for each unit beyond it::

    score = 10 * exp(-max(0, distance - typical) / kappa)

The groups, and where each is compared (the task's four or more references, or the 24 of its
medium, for the statistics that belong to a medium rather than a picture):

============  =================================================================  ========
group         what it describes                                                  compared
============  =================================================================  ========
``paper``     the ground's colour (CIELAB mean of the commonest coarse colour)   task
``palette``   paint colours: a lightness x hue x chroma histogram of the paint,  task
              and the share of the canvas that is paint
``layout``    a 6x6 grid of mean colours relative to the paper: where light,     task
              dark and colour sit
``strokes``   the orientation histogram of lightness gradients, magnitude-       task
              weighted: which way the marks run
``marks``     where the marks are: a 6x6 grid of gradient magnitude, as shares   task
``texture``   the histogram of gradient magnitudes (washes, grain, hard edges)   medium
``tone``      lightness spread and paint chroma, as log ratios                   medium
============  =================================================================  ========

Two choices carry the design, both measured on the 96-reference pool against 56 junk pictures
and a search (docs/reward.md, "The anchored scorer"):

- **Leave the nearest out.** Each group is measured to the *second* nearest reference in its
  scope. A reference is then measured against the others (its nearest is itself), which is the
  leave-one-out the references need to earn a fair score; and a picture cannot score by copying
  one reference closely, since it must be near two. With the nearest, mutants of a reference
  reached 11.0.
- **Typical, not best.** Distance below the line most of the task's references reach (the
  third of four: `DEFAULT_TYPICAL_QUANTILE`) earns nothing more, so the score does not reward
  statistical mimicry past the point a real painting of the task reaches. At the median, a
  search that mutated the task's best reference out-earned the median reference by up to 7
  points while painting the same picture; a reference-quality painting now earns full marks.

The score is prompt-aware only through the task: the prompt of a task, or of a reference,
selects it exactly; another prompt selects by the subject and medium words it contains
(`resolve_anchor`), and a prompt that names neither is compared with the whole pool.

Examples:
    >>> from PIL import Image
    >>> from sketch_env.scoring.anchored import AnchoredScorer
    >>> from sketch_env.scoring.base import score_sync
    >>> scorer = AnchoredScorer()
    >>> blank = Image.new("RGB", (600, 600), (245, 238, 222))
    >>> score_sync(scorer, [blank], ["a vase of peach hibiscus in loose watercolour"])[0].value < 1
    True
"""

from __future__ import annotations

import json
import math
import os
import re
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from PIL import Image

from sketch_env.catalog.references import Reference, find_pool_dir, load_reference_pool
from sketch_env.catalog.tasks import Task, load_tasks
from sketch_env.picture.measures import Picture, PictureMeasures
from sketch_env.picture.pixels import lab, square
from sketch_env.scoring.base import EMBEDDED_SCALE, Score, score_in_threads

__all__ = [
    "FEATURES_FILE",
    "FEATURE_VERSION",
    "GROUPS",
    "AnchoredScorer",
    "PictureFeatures",
    "ReferenceFeatures",
    "load_reference_features",
    "picture_features",
    "resolve_anchor",
    "write_reference_features",
]

#: The file in the pool folder that holds every reference's features.
FEATURES_FILE = "features.json"
#: Bumped whenever `picture_features` changes what it computes: a stale file is refused.
FEATURE_VERSION = 1
#: Side of the gradient working copy: 300, where p5.brush grain still shows (at 150, the side
#: the colour statistics and the paint are measured on, `sketch_env.picture.paint`, a
#: watercolour wash and a flat fill measured the same magnitude histogram).
_GRADIENT_SIDE = 300
#: Gradient magnitude bin edges, CIELAB lightness units per pixel at 300 px.
_MAGNITUDE_EDGES = (1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
_GRID = 6
#: Score scale and the decay past typical, in summed group units (one unit: one group as far
#: as two references of one medium usually are). With 2 the blind search's pastel seascapes
#: reached 10.5, above the task's median reference (8.7); with 1 junk pictures score below 2.
DEFAULT_KAPPA = 1.0
#: Where the full-marks line sits among the task's references' own distances (0.5: the median;
#: 0.75: the third of four).
DEFAULT_TYPICAL_QUANTILE = 0.75
_TOP = 10.0

GROUPS: dict[str, str] = {
    "paper": "task",
    "palette": "task",
    "layout": "task",
    "strokes": "task",
    "marks": "task",
    "texture": "medium",
    "tone": "medium",
}


def _shares(counts: np.ndarray) -> np.ndarray:
    total = float(counts.sum())
    return counts / total if total > 0 else counts.astype(np.float64)


@dataclass(frozen=True, slots=True)
class PictureFeatures:
    """The statistics the anchored scorer compares (see the module docstring for the groups).

    Args:
        paper: CIELAB colour of the ground.
        paint_share: Share of the canvas further than 8 CIELAB units from the paper.
        palette: 96 shares: lightness (4) x hue (8) x chroma (3) over the paint.
        layout: 108 numbers: a 6x6 grid of mean CIELAB relative to the paper.
        magnitudes: 7 shares of gradient magnitude bins.
        orientations: 8 shares of gradient orientation, weighted by magnitude.
        marks: 36 shares of gradient magnitude per 6x6 block.
        chroma: Mean chroma of the paint (0 when nothing is painted).
        lightness_std: Standard deviation of lightness over the canvas.
    """

    paper: tuple[float, ...]
    paint_share: float
    palette: tuple[float, ...]
    layout: tuple[float, ...]
    magnitudes: tuple[float, ...]
    orientations: tuple[float, ...]
    marks: tuple[float, ...]
    chroma: float
    lightness_std: float

    def to_dict(self) -> dict[str, Any]:
        """A JSON view, rounded to 5 decimals (far below any distance that matters)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = (
                [round(float(v), 5) for v in value]
                if isinstance(value, tuple)
                else round(float(value), 5)
            )
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PictureFeatures:
        """Reads `to_dict`'s output.

        Raises:
            ValueError: If a field is missing or has the wrong shape.
        """
        sizes = {"paper": 3, "palette": 96, "layout": 108, "magnitudes": 7}
        sizes |= {"orientations": 8, "marks": _GRID * _GRID}
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in data:
                raise ValueError(f"features lack {f.name!r}")
            raw = data[f.name]
            if f.name in sizes:
                if not isinstance(raw, list) or len(raw) != sizes[f.name]:
                    raise ValueError(f"features {f.name!r} must be a list of {sizes[f.name]}")
                values[f.name] = tuple(float(v) for v in raw)
            else:
                values[f.name] = float(raw)
        return cls(**values)


def picture_features(image: Image.Image | Picture) -> PictureFeatures:
    """Measures one picture (about 15 ms for 600x600 on one core).

    Args:
        image: The picture, any size, or the evaluator's `Picture` of it (whose paper and paint
            are then not measured again). The statistics are taken on square box-resized
            working copies, so they describe the picture rather than its resolution.

    Returns:
        Its `PictureFeatures`.
    """
    picture = image if isinstance(image, Picture) else Picture(image.convert("RGB"))
    # The paper and the paint are the package's one definition (`sketch_env.picture.paint`),
    # measured on the same 150-pixel copy the colour statistics read.
    found = picture.paint
    lab_small, paper, paint = found.lab, found.paper, found.mask
    lightness, a, b = lab_small[..., 0], lab_small[..., 1], lab_small[..., 2]
    chroma = np.hypot(a, b)
    hue = np.arctan2(b, a)

    light_bin = np.clip((lightness / 25.0).astype(np.int64), 0, 3)
    hue_bin = ((hue + math.pi) / (2 * math.pi) * 8).astype(np.int64) % 8
    chroma_bin = np.digitize(chroma, [10.0, 30.0])
    hue_bin = np.where(chroma_bin == 0, 0, hue_bin)  # greys have no hue
    bins = (light_bin * 8 + hue_bin) * 3 + chroma_bin
    palette = _shares(np.bincount(bins[paint].ravel(), minlength=96).astype(np.float64))

    block = lab_small.shape[0] // _GRID
    layout = lab_small.reshape(_GRID, block, _GRID, block, 3).mean(axis=(1, 3)) - paper

    grey = lab(square(picture.rgb, _GRADIENT_SIDE))[..., 0]
    gx = np.diff(grey, axis=1)[:-1]
    gy = np.diff(grey, axis=0)[:, :-1]
    magnitude = np.hypot(gx, gy)
    magnitudes = _shares(
        np.bincount(np.digitize(magnitude, _MAGNITUDE_EDGES).ravel(), minlength=7).astype(
            np.float64
        )
    )
    angle = np.arctan2(gy, gx) % math.pi
    orientation_bin = (angle / math.pi * 8).astype(np.int64) % 8
    orientations = _shares(
        np.bincount(orientation_bin.ravel(), weights=magnitude.ravel(), minlength=8)
    )
    cell = (_GRADIENT_SIDE - 1) // _GRID
    span = cell * _GRID
    marks = _shares(magnitude[:span, :span].reshape(_GRID, cell, _GRID, cell).mean(axis=(1, 3)))

    return PictureFeatures(
        paper=tuple(float(v) for v in paper),
        paint_share=found.fraction,
        palette=tuple(float(v) for v in palette),
        layout=tuple(float(v) for v in layout.ravel()),
        magnitudes=tuple(float(v) for v in magnitudes),
        orientations=tuple(float(v) for v in orientations),
        marks=tuple(float(v) for v in marks.ravel()),
        chroma=float(chroma[paint].mean()) if paint.any() else 0.0,
        lightness_std=float(lightness.std()),
    )


def _hellinger(p: Sequence[float], q: Sequence[float]) -> float:
    return float(np.sqrt(0.5 * np.sum((np.sqrt(p) - np.sqrt(q)) ** 2)))


def _log_ratio(x: float, y: float, offset: float) -> float:
    return abs(math.log((x + offset) / (y + offset)))


def _group_distances(f: PictureFeatures, g: PictureFeatures) -> dict[str, float]:
    """Distances of the seven groups between two pictures (each on its own raw scale)."""
    layout = np.asarray(f.layout) - np.asarray(g.layout)
    return {
        "paper": float(np.linalg.norm(np.asarray(f.paper) - np.asarray(g.paper))),
        # The paint's share enters as a log ratio: 2 % against 40 % is as far as 40 % against
        # 80 % is not, which is how a painting with a few marks differs from one covered.
        "palette": _hellinger(f.palette, g.palette)
        + 0.3 * _log_ratio(f.paint_share, g.paint_share, 0.01),
        "layout": float(np.linalg.norm(layout) / math.sqrt(layout.size)),
        "strokes": _hellinger(f.orientations, g.orientations),
        "marks": _hellinger(f.marks, g.marks),
        "texture": _hellinger(f.magnitudes, g.magnitudes),
        "tone": _log_ratio(f.lightness_std, g.lightness_std, 1.0)
        + _log_ratio(f.chroma, g.chroma, 1.0),
    }


@dataclass(frozen=True, slots=True)
class ReferenceFeatures:
    """One reference painting's features, with what it paints.

    Args:
        id: Reference id.
        task_id: Its task.
        prompt: Its own prompt.
        features: Its `PictureFeatures` (seed 0).
    """

    id: str
    task_id: str
    prompt: str
    features: PictureFeatures

    @property
    def medium(self) -> str:
        """The medium part of the task id."""
        return self.task_id.split("/", 1)[-1]

    @property
    def subject(self) -> str:
        """The subject part of the task id."""
        return self.task_id.split("/", 1)[0]


def write_reference_features(
    features: Mapping[str, PictureFeatures],
    path: str | os.PathLike[str] | None = None,
    *,
    png_sha256: Mapping[str, str | None] | None = None,
) -> Path:
    """Writes (or updates) the pool's ``features.json``.

    Args:
        features: Features per reference id; entries for other ids already in the file stay.
        path: Pool folder; ``None`` finds the shipped pool.
        png_sha256: The hash of the picture each entry was measured on, stored beside it so a
            test can tell a stale entry from a fresh one.

    Returns:
        The file written.
    """
    folder = find_pool_dir(path).resolve()
    target = folder / FEATURES_FILE
    entries: dict[str, Any] = {}
    if target.is_file():
        old = json.loads(target.read_text(encoding="utf-8"))
        if old.get("feature_version") == FEATURE_VERSION:
            entries = dict(old.get("references", {}))
    for ref_id, feats in features.items():
        entry = feats.to_dict()
        entry["png_sha256"] = (png_sha256 or {}).get(ref_id)
        entries[ref_id] = entry
    known = {ref.id for ref in load_reference_pool(folder)}
    body = {
        "feature_version": FEATURE_VERSION,
        "seed": 0,
        "references": {k: entries[k] for k in sorted(entries) if k in known},
    }
    target.write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")
    return target


def load_reference_features(
    path: str | os.PathLike[str] | None = None,
) -> tuple[ReferenceFeatures, ...]:
    """Reads the pool's features, one entry per reference.

    Args:
        path: Pool folder; ``None`` finds the shipped pool.

    Returns:
        Every reference's `ReferenceFeatures`, in pool order.

    Raises:
        FileNotFoundError: If the pool has no ``features.json`` or it lacks a reference (the
            message names ``sketch-env pool refresh``, which writes it).
        ValueError: If the file was written by another feature version.
    """
    folder = find_pool_dir(path).resolve()
    target = folder / FEATURES_FILE
    fix = f"run `sketch-env pool refresh --pool-dir {folder}` to measure the references"
    if not target.is_file():
        raise FileNotFoundError(f"{target} is missing: {fix}")
    body = json.loads(target.read_text(encoding="utf-8"))
    if body.get("feature_version") != FEATURE_VERSION:
        raise ValueError(
            f"{target} holds feature version {body.get('feature_version')!r}, this scorer "
            f"reads {FEATURE_VERSION}: {fix}"
        )
    entries = body.get("references", {})
    refs: list[Reference] = list(load_reference_pool(folder))
    missing = [ref.id for ref in refs if ref.id not in entries]
    if missing:
        raise FileNotFoundError(f"{target} lacks {', '.join(missing)}: {fix}")
    return tuple(
        ReferenceFeatures(
            id=ref.id,
            task_id=ref.task_id,
            prompt=ref.prompt,
            features=PictureFeatures.from_dict(entries[ref.id]),
        )
        for ref in refs
    )


#: Words that name a medium in a free prompt (the task ids' media and their common spellings).
_MEDIUM_WORDS = {
    "watercolour": ("watercolour", "watercolor", "wash"),
    "charcoal": ("charcoal",),
    "ink_hatching": ("hatching", "hatched", "ink"),
    "pastel": ("pastel",),
}
# fmt: off
#: Words that name a subject in a free prompt (whole words, and their plurals).
_SUBJECT_WORDS: dict[str, tuple[str, ...]] = {
    "flowers": (
        "flower", "bloom", "bouquet", "rose", "tulip", "poppy", "poppies", "daisy", "daisies",
        "peony", "peonies", "sunflower", "lily", "lilies", "iris",
    ),
    "landscape": (
        "landscape", "hill", "valley", "mountain", "field", "meadow", "river", "lake", "waterfall",
        "gorge",
    ),
    "still_life": (
        "still life", "still-life", "teapot", "bowl", "fruit", "vase", "bottle", "jug", "skull",
        "candle", "pear", "apple",
    ),
    "seascape": (
        "sea", "ocean", "wave", "beach", "shore", "boat", "lighthouse", "harbour",
    ),
    "trees": (
        "tree", "forest", "wood", "grove", "oak", "pine", "birch",
    ),
    "abstract": (
        "abstract", "geometric", "gestural", "shapes",
    ),
}
# fmt: on


def _first_match(text: str, words: Mapping[str, Sequence[str]]) -> str | None:
    # The word the prompt names first decides, not the table's order: "a lone oak tree in an
    # open field" is a tree ("field" is a landscape word), "a sunset over a calm sea with a
    # boat" a seascape. The vision scorer's subject term costs a picture most of its score
    # when the subject is wrong, so the prompt's main noun, which comes first, must win.
    found = [
        (match.start(), name)
        for name, options in words.items()
        for word in options
        # Whole words and their plurals: "wood" is not "wooden", "sea" not "season".
        if (match := re.search(rf"\b{re.escape(word)}(?:s|es)?\b", text))
    ]
    return min(found)[1] if found else None


class PromptedReference(Protocol):
    """What `resolve_anchor` reads of a reference: its prompt names its task."""

    @property
    def prompt(self) -> str: ...

    @property
    def task_id(self) -> str: ...

    @property
    def subject(self) -> str: ...

    @property
    def medium(self) -> str: ...


@dataclass(frozen=True, slots=True)
class _Anchor:
    """Which references a prompt is compared with, per scope."""

    label: str
    task_refs: tuple[int, ...]
    medium_refs: tuple[int, ...]


def resolve_anchor(
    prompt: str, references: Sequence[PromptedReference], tasks: Sequence[Task]
) -> tuple[str, tuple[str | None, str | None]]:
    """Says what a prompt is compared with: ``(label, (subject, medium))``.

    The prompt of a task or of a reference names its task exactly; otherwise the first subject
    and medium words it contains decide (``None`` where it names none). The label is the task
    id, ``"medium/<m>"``, ``"subject/<s>"`` or ``"pool"``.

    Args:
        prompt: The prompt.
        references: The pool's references (their prompts name their tasks).
        tasks: The task set.

    Returns:
        The label and the subject and medium.

    Examples:
        >>> from sketch_env.catalog.tasks import load_tasks
        >>> resolve_anchor("a watercolor of a quiet harbour with boats", (), load_tasks())
        ('seascape/watercolour', ('seascape', 'watercolour'))
        >>> resolve_anchor("a portrait of my cat", (), load_tasks())
        ('pool', (None, None))
    """
    key = " ".join(prompt.lower().split())
    for task in tasks:
        if " ".join(task.prompt.lower().split()) == key:
            return task.id, (task.subject, task.medium)
    for ref in references:
        if " ".join(ref.prompt.lower().split()) == key:
            return ref.task_id, (ref.subject, ref.medium)
    # "Abstract" names the kind of picture, and whatever else the prompt names is its motif:
    # "three overlapping circles of rose, teal and gold, abstract watercolour" is no flower.
    subject = "abstract" if re.search(r"\babstract", key) else _first_match(key, _SUBJECT_WORDS)
    medium = _first_match(key, _MEDIUM_WORDS)
    if subject and medium:
        return f"{subject}/{medium}", (subject, medium)
    if medium:
        return f"medium/{medium}", (None, medium)
    if subject:
        return f"subject/{subject}", (subject, None)
    return "pool", (None, None)


class AnchoredScorer:
    """Scores a picture by how typical it is of its task's reference paintings (0-10).

    Runs on the CPU in about 20 ms a picture; needs only the pool's ``features.json``.

    Args:
        pool_dir: Pool folder; ``None`` finds the shipped pool (``$SKETCH_ENV_REFERENCE_POOL``
            first).
        kappa: Summed group units past typical that cost a factor ``e`` of the score.
        typical_quantile: Where the full-marks line sits among the references' own distances.
        exclude: Reference ids left out of the comparison (to measure a reference the way a
            new painting is measured, or to hold some out).

    Raises:
        FileNotFoundError: If the pool's ``features.json`` is missing or incomplete.

    Examples:
        >>> scorer = AnchoredScorer()
        >>> scorer.name
        'anchored'
    """

    name = "anchored"
    #: 0-10; a picture within the task's typical line earns full marks.
    scale = EMBEDDED_SCALE

    def __init__(
        self,
        pool_dir: str | os.PathLike[str] | None = None,
        *,
        kappa: float = DEFAULT_KAPPA,
        typical_quantile: float = DEFAULT_TYPICAL_QUANTILE,
        exclude: Iterable[str] = (),
    ) -> None:
        if not (kappa > 0 and math.isfinite(kappa)):
            raise ValueError(f"kappa must be a positive number, got {kappa}")
        if not 0 < typical_quantile <= 1:
            raise ValueError(f"typical_quantile must lie in (0, 1], got {typical_quantile}")
        self.kappa = kappa
        self.typical_quantile = typical_quantile
        self.pool_dir = pool_dir
        left_out = set(exclude)
        self.references = tuple(
            r for r in load_reference_features(pool_dir) if r.id not in left_out
        )
        if len(self.references) < 2:
            raise ValueError("the anchored scorer needs at least two reference paintings")
        self.tasks = load_tasks()
        self._scale = self._group_scales()
        self._typical: dict[str, float] = {}

    def _group_scales(self) -> dict[str, float]:
        """Each group's unit: its median distance between two references of one medium."""
        pairs: dict[str, list[float]] = {g: [] for g in GROUPS}
        refs = self.references
        for i, first in enumerate(refs):
            for second in refs[i + 1 :]:
                if first.medium != second.medium:
                    continue
                for group, d in _group_distances(first.features, second.features).items():
                    pairs[group].append(d)
        return {g: max(statistics.median(ds), 1e-6) if ds else 1.0 for g, ds in pairs.items()}

    def _anchor(self, prompt: str) -> _Anchor:
        label, (subject, medium) = resolve_anchor(prompt, self.references, self.tasks)
        everything = tuple(range(len(self.references)))

        def members(keep: Callable[[ReferenceFeatures], bool]) -> tuple[int, ...]:
            return tuple(i for i, r in enumerate(self.references) if keep(r))

        by_medium = members(lambda r: r.medium == medium) if medium else ()
        by_task = members(lambda r: r.subject == subject and r.medium == medium)
        by_subject = members(lambda r: r.subject == subject) if subject else ()
        # Leaving the nearest out needs three: with two, a picture is measured to one.
        medium_refs = by_medium if len(by_medium) >= 3 else everything
        if len(by_task) >= 3:
            task_refs = by_task
        elif len(by_subject) >= 3:
            task_refs = by_subject
        else:
            task_refs = medium_refs
        return _Anchor(label, task_refs, medium_refs)

    def _measure(self, feats: PictureFeatures, anchor: _Anchor) -> dict[str, float]:
        """Each group's distance to the second-nearest reference of its scope, in its unit."""
        # Only the references in scope: the rest of the pool would be measured for nothing.
        raw = {
            i: _group_distances(feats, self.references[i].features)
            for i in {*anchor.task_refs, *anchor.medium_refs}
        }
        out: dict[str, float] = {}
        for group, scope in GROUPS.items():
            members = anchor.task_refs if scope == "task" else anchor.medium_refs
            ranked = sorted(raw[i][group] for i in members)
            out[group] = ranked[1 if len(ranked) > 1 else 0] / self._scale[group]
        return out

    def typical(self, prompt: str) -> float:
        """The full-marks line: the references' own distances at ``typical_quantile``."""
        return self._typical_of(self._anchor(prompt))

    def _typical_of(self, anchor: _Anchor) -> float:
        if anchor.label not in self._typical:
            # A reference measured this way is left out of its own comparison: its nearest
            # reference is itself, at distance zero.
            distances = [
                sum(self._measure(self.references[i].features, anchor).values())
                for i in anchor.task_refs
            ]
            ranked = sorted(distances)
            at = max(0, math.ceil(self.typical_quantile * len(ranked)) - 1)
            self._typical[anchor.label] = ranked[at]
        return self._typical[anchor.label]

    def score_one(self, image: Image.Image | Picture, prompt: str) -> Score:
        """Scores one picture synchronously.

        Args:
            image: The picture, or the evaluator's `Picture` of it.
            prompt: Its prompt (selects the references).

        Returns:
            The `Score`; ``terms`` hold ``distance``, ``typical`` and each group's distance.
        """
        anchor = self._anchor(prompt)
        groups = self._measure(picture_features(image), anchor)
        distance = sum(groups.values())
        typical = self._typical_of(anchor)
        value = _TOP * math.exp(-max(0.0, distance - typical) / self.kappa)
        terms = [("distance", distance), ("typical", typical)]
        terms += [(f"{g}_distance", d) for g, d in groups.items()]
        return Score(value=value, terms=tuple(terms), meta=(("anchor", anchor.label),))

    async def score(self, images: Sequence[Image.Image], prompts: Sequence[str]) -> list[Score]:
        """Scores pictures, each in a worker thread (numpy releases the GIL while it works).

        Args:
            images: RGB pictures.
            prompts: One prompt per picture.

        Returns:
            One `Score` per picture, in order.

        Raises:
            ValueError: If the two sequences differ in length.
        """
        if len(images) != len(prompts):
            raise ValueError(f"got {len(images)} images but {len(prompts)} prompts")
        return await self._score_all(images, prompts)

    async def score_measured(
        self,
        pictures: Sequence[Picture],
        measures: Sequence[PictureMeasures],
        prompts: Sequence[str],
    ) -> list[Score]:
        """Scores the evaluator's pictures, reading the paper and paint it already found.

        Args:
            pictures: One `Picture` per picture.
            measures: Their measurements (unused: the features read the `Picture`).
            prompts: One prompt per picture.

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
        return await self._score_all(pictures, prompts)

    async def _score_all(
        self, images: Sequence[Image.Image | Picture], prompts: Sequence[str]
    ) -> list[Score]:
        for prompt in set(prompts):
            self.typical(prompt)  # filled once here, not raced for by the threads
        return await score_in_threads(self.score_one, images, prompts)
