"""Guards: degeneracy detectors on a picture's measurements, as data.

A scorer is asked how good a painting is; some pictures are not paintings at all, and no scorer
should be trusted to say so. HPSv3 is publicly reported to score a messy picture above 15, and
a judge reads painted words ("10/10") as text. A `Guard` says, from the measurement pass
(`sketch_env.picture.measures`) alone, how far a picture is from being one: a factor in
``[floor, 1]``, 1 when it has nothing to say. Each guard is a name, the measurements it reads,
its thresholds and why it exists, with a JSON form, so that the reward's configuration holds
guards (`sketch_env.reward.RewardConfig.guards`, each threshold tunable) and the breakdown
reports each factor. The heuristic scorer holds its own instances with its first, stricter
thresholds (`sketch_env.scoring.heuristic`).

A guard is one or more `Condition`: a ramp on one measurement from ``start`` (nothing) to
``full`` (in full); ``full`` below ``start`` fires as the measurement falls (too little paint),
above it as it rises (too many hues). A guard with several conditions fires as far as all of
them together (their strengths multiply): ``flat_mass`` needs both the two commonest colours
to cover the canvas and the second of them to be large.

`GUARDS` is the reward's set, every threshold measured on this project's pictures; none fires
on any of the 96 reference paintings (``tests/pool/test_reference_pool.py`` checks every one; the
thresholds set on the first 28 touched 26 of the 96, mostly ink hatching as "noise" and flat
watercolours as "one mass"):

- ``near_blank``: 1 from 2 % of the canvas painted, 0 at 0.5 % or less (the reward's blank
  outcome takes over below 1 %; the sparsest reference, an ink bottle, paints 2.8 %).
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
- ``patchwork``: many hues, few marks *and* strong colour: flat fills of saturated colours side
  by side. Twelve random-colour brush stripes measure 8.7-14.2 hue families (seeds 0-15), 4.8-10.8
  % of pixels on an edge and a colourfulness of 86-129; at 8.7-9.5 families (3 seeds of 16) they
  slipped under ``palette`` in part (-0.42 against the -0.75 floor on
  ``landscape/ink_hatching``, issue 29). The references' most colourful paintings, the
  sunset-ribbon and warm-cool pastels (6.9-8.5 families, colourfulness 83-107), are made of
  strokes: 37-44 % edge pixels; no other reference reaches 6 families. Translucent watercolour
  circles, whose overlaps mix many hues with soft edges (the abstract/watercolour probes: 6.6-6.8
  families, 1.5 % edge pixels), are pale: colourfulness 39-41. 1 from 8 families, 0 under 6;
  times 1 at 15 % edge pixels or less, 0 from 25 %; times 1 from a colourfulness of 80, 0 at 60.
- ``quilt``: more hues still, laid as washes, pale or strong: a quilt of random-colour patches.
  ``patchwork`` spares pale pictures, and a 6 x 6 grid of pale random-colour washes (the
  ``random_rect_grid`` hack, seed 0: 8.3 hue families, 4.7 % edge pixels, colourfulness 50)
  slipped under it and under ``palette``; the vision scorer paid it 7.14 under the
  abstract/watercolour prompt, over two of that task's references. Of the 96 references and
  the 48 painted probes at seed 0, every picture under 25 % edge pixels has 6.8 hue families at
  most (the translucent watercolour circles); the pastels with more (7.6 and 8.4) are strokes,
  37-42 % edge pixels. 0 up to 7.2 families, 1 from 8; times 1 at 15 % edge pixels or less,
  0 from 25 %.
- ``composition``: a picture that looks the same everywhere (noise, confetti, a checkerboard:
  0.02-0.11 against 0.26-0.94 for the references): 0 below 0.12, 1 above 0.20.
- ``marks``: a picture made with brushes has marks (the references: 1.0 % of pixels on an edge
  or more; one textured fill over the canvas has 0-0.3 %): 0 below 0.3 %, 1 above 0.8 %.
- ``lettering``: the share of the picture that reads as text (the vendored PP-OCRv4 reader): 1
  up to 0.5 %, 0 from 3 % (one short word in large letters covers about 5 %). A label is not a
  painting, and a judge that reads it may be swayed by it (prompt injection through pixels).

Adding a guard: one entry in `GUARDS` (plus a field of `PictureMeasures` if it reads a new
statistic) and one test; the reward applies it, reports it and lets a configuration tune it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sketch_env.picture.measures import MEASUREMENTS, PictureMeasures

__all__ = ["GUARDS", "GUARD_NAMES", "Condition", "Guard", "ramp"]


def ramp(x: float, lo: float, hi: float) -> float:
    """0 at or below ``lo``, 1 at or above ``hi``, linear in between."""
    if x <= lo:
        return 0.0
    if x >= hi:
        return 1.0
    return (x - lo) / (hi - lo)


def _number(where: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{where} must be a finite number, got {value!r}")
    return float(value)


@dataclass(frozen=True)
class Condition:
    """One measurement's part of a guard.

    Args:
        reads: The measurement (a name in `MEASUREMENTS`).
        start: Where the condition starts to hold (strength 0).
        full: Where it holds in full (strength 1); below ``start`` it holds as the measurement
            falls, above it as it rises.

    Raises:
        ValueError: On an unknown measurement, a non-finite threshold, or ``start == full``.

    Examples:
        >>> round(Condition("coverage", start=0.02, full=0.005).strength(0.0125), 6)
        0.5
    """

    reads: str
    start: float
    full: float

    def __post_init__(self) -> None:
        if self.reads not in MEASUREMENTS:
            raise ValueError(
                f"a guard condition reads an unknown measurement {self.reads!r}; known: "
                f"{', '.join(MEASUREMENTS)}"
            )
        object.__setattr__(self, "start", _number(f"{self.reads} start", self.start))
        object.__setattr__(self, "full", _number(f"{self.reads} full", self.full))
        if self.start == self.full:
            raise ValueError(f"a guard condition on {self.reads} needs start != full")

    @property
    def falling(self) -> bool:
        """Whether it holds as the measurement falls (``full < start``)."""
        return self.full < self.start

    def strength(self, value: float) -> float:
        """How far the condition holds for a measured value, in ``[0, 1]``."""
        if self.falling:
            return 1.0 - ramp(value, self.full, self.start)
        return ramp(value, self.start, self.full)

    def passing(self, value: float) -> float:
        """``1 - strength``, computed as the guards always computed it (bit for bit)."""
        if self.falling:
            return ramp(value, self.full, self.start)
        return 1.0 - ramp(value, self.start, self.full)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"reads": self.reads, "start": self.start, "full": self.full}


@dataclass(frozen=True)
class Guard:
    """A degeneracy detector: a factor in ``[floor, 1]`` of a picture's measurements.

    Args:
        name: Its name (reported in the breakdown's ``guards``).
        conditions: What it reads and where it fires (all of them together).
        why: What it answers, in words.
        floor: The factor when it fires in full (0 for the reward's guards: the reward is then
            pulled to `RewardConfig.guard_floor`).

    Raises:
        ValueError: On no condition, a bad condition or a floor outside ``[0, 1)``.

    Examples:
        >>> from sketch_env.picture.measures import measure_picture
        >>> import numpy as np
        >>> GUARDS["near_blank"].factor(measure_picture(np.full((64, 64, 3), 255, np.uint8)))
        0.0
    """

    name: str
    conditions: tuple[Condition, ...]
    why: str = ""
    floor: float = 0.0

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"a guard needs a name, got {self.name!r}")
        conditions = tuple(
            c if isinstance(c, Condition) else Condition(**c) for c in self.conditions
        )
        if not conditions:
            raise ValueError(f"guard {self.name!r} has no condition")
        object.__setattr__(self, "conditions", conditions)
        floor = _number(f"guard {self.name} floor", self.floor)
        if not 0.0 <= floor < 1.0:
            raise ValueError(f"guard {self.name!r}: floor must be in [0, 1), got {floor}")
        object.__setattr__(self, "floor", floor)

    @property
    def reads(self) -> tuple[str, ...]:
        """The measurements it reads."""
        return tuple(c.reads for c in self.conditions)

    def factor(self, measures: PictureMeasures) -> float:
        """The guard's factor for a picture: 1 when it has nothing to say, ``floor`` in full."""
        if len(self.conditions) == 1:
            (only,) = self.conditions
            passing = only.passing(float(getattr(measures, only.reads)))
        else:
            passing = 1.0 - math.prod(
                c.strength(float(getattr(measures, c.reads))) for c in self.conditions
            )
        return passing if self.floor == 0.0 else self.floor + (1.0 - self.floor) * passing

    def tuned(self, **thresholds: tuple[float, float] | float) -> Guard:
        """A copy with other thresholds (``measurement=(start, full)``) or another ``floor``.

        Examples:
            >>> GUARDS["noise"].tuned(neighbour_corr=(0.45, 0.15)).conditions[0].full
            0.15
        """
        floor = thresholds.pop("floor", self.floor)
        unknown = sorted(set(thresholds) - set(self.reads))
        if unknown:
            raise ValueError(f"guard {self.name!r} reads {list(self.reads)}, not {unknown}")
        conditions = []
        for c in self.conditions:
            given = thresholds.get(c.reads)
            if given is None:
                conditions.append(c)
            elif isinstance(given, tuple) and len(given) == 2:
                conditions.append(Condition(c.reads, given[0], given[1]))
            else:
                raise ValueError(f"guard {self.name!r}: give {c.reads}=(start, full)")
        return replace(self, conditions=tuple(conditions), floor=float(floor))  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: name, what it reads and where, its floor and why."""
        return {
            "name": self.name,
            "conditions": [c.to_dict() for c in self.conditions],
            "floor": self.floor,
            "why": self.why,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | str) -> Guard:
        """Reads `to_dict`'s output; a bare name, or a dict without ``conditions``, is that
        guard of `GUARDS` (with whatever the dict changes).

        Raises:
            ValueError: On an unknown name or key, or a bad value.
        """
        if isinstance(data, str):
            data = {"name": data}
        if not isinstance(data, Mapping):
            raise ValueError(f"a guard is a name or an object, got {data!r}")
        unknown = sorted(set(data) - {"name", "conditions", "floor", "why"})
        if unknown:
            raise ValueError(f"unknown guard keys {unknown}; known: name, conditions, floor, why")
        name = data.get("name")
        base = GUARDS.get(str(name))
        if "conditions" not in data:
            if base is None:
                raise ValueError(
                    f"unknown guard {name!r}; known: {', '.join(GUARDS)} (or give its conditions)"
                )
            return replace(base, **{k: v for k, v in data.items() if k != "name"})
        raw = data["conditions"]
        if not isinstance(raw, Sequence) or isinstance(raw, str):
            raise ValueError(f"guard {name!r}: conditions must be a list")
        conditions = []
        for item in raw:
            if not isinstance(item, Mapping) or set(item) != {"reads", "start", "full"}:
                raise ValueError(f"guard {name!r}: a condition is {{reads, start, full}}")
            conditions.append(Condition(str(item["reads"]), item["start"], item["full"]))
        why = data.get("why", base.why if base is not None else "")
        return cls(str(name), tuple(conditions), str(why), data.get("floor", 0.0))


def _guard(name: str, why: str, *conditions: tuple[str, float, float]) -> tuple[str, Guard]:
    return name, Guard(name, tuple(Condition(*c) for c in conditions), why)


#: The reward's guards, in order (the module docstring says where each threshold comes from).
GUARDS: Mapping[str, Guard] = dict(
    [
        _guard("near_blank", "almost nothing was painted", ("coverage", 0.02, 0.005)),
        _guard(
            "flat_mass",
            "one flat mass of colour on a ground",
            ("second_colour", 0.25, 0.40),
            ("top_two_colours", 0.965, 0.985),
        ),
        _guard("noise", "per-pixel noise", ("neighbour_corr", 0.20, 0.05)),
        _guard("palette", "colours drawn at random", ("hue_families", 9.0, 12.0)),
        _guard(
            "patchwork",
            "many hues laid down flat, not painted (stripes, a grid of colours)",
            ("hue_families", 6.0, 8.0),
            ("edge_density", 0.25, 0.15),
            ("colourfulness", 60.0, 80.0),
        ),
        _guard(
            "quilt",
            "many hues laid side by side as washes, pale or strong (a quilt of colours)",
            ("hue_families", 7.2, 8.0),
            ("edge_density", 0.25, 0.15),
        ),
        _guard(
            "composition",
            "the same everywhere (confetti, a checkerboard, noise)",
            ("composition", 0.20, 0.12),
        ),
        _guard("marks", "no brush marks", ("edge_density", 0.008, 0.003)),
        _guard("lettering", "writing, not painting", ("text_fraction", 0.005, 0.03)),
    ]
)
#: Every guard's name, in order.
GUARD_NAMES: tuple[str, ...] = tuple(GUARDS)
