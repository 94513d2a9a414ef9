"""The scorer protocol: how a picture and its prompt become a preference score, on which scale.

A scorer states its scale (`ScoreScale`: its range and what full marks are), and everything
that needs to know it reads it there: the reward's coverage quality ramp (in shares of full
marks), the search's report of saturated terms and the manifest's reward range. A scorer
without a ``scale`` attribute is read on the embedded scorers' 0-10 (`scale_of`).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from PIL import Image

from sketch_env.errors import InfrastructureError

if TYPE_CHECKING:
    from sketch_env.picture.measures import Picture, PictureMeasures

__all__ = [
    "EMBEDDED_SCALE",
    "MeasuredScorer",
    "Score",
    "ScoreScale",
    "Scorer",
    "ScorerUnavailableError",
    "scale_of",
    "score_in_threads",
    "score_sync",
]


@dataclass(frozen=True)
class ScoreScale:
    """The scale a scorer scores on.

    Args:
        low: The lowest score it gives (or, unbounded, the lowest it is expected to give).
        high: The highest score it gives (or the highest expected).
        full: Full marks: what a picture as good as the scorer can tell earns. The reward's
            coverage quality ramp is set in shares of it.
        bounded: Whether ``low``/``high`` are hard limits (False for HPSv3's ``mu``).
        note: What the numbers are, for a reader.

    Raises:
        ValueError: If ``low < full <= high`` does not hold or a value is not finite.

    Examples:
        >>> EMBEDDED_SCALE.cap
        10.0
    """

    low: float
    high: float
    full: float
    bounded: bool = True
    note: str = ""

    def __post_init__(self) -> None:
        values = (self.low, self.high, self.full)
        if not all(isinstance(v, int | float) and math.isfinite(v) for v in values):
            raise ValueError(f"a score scale needs finite numbers, got {values}")
        if not self.low < self.full <= self.high:
            raise ValueError(f"a score scale needs low < full <= high, got {values}")

    @property
    def cap(self) -> float | None:
        """The most a score can be, when the scale has a hard top."""
        return float(self.high) if self.bounded else None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "low": self.low,
            "high": self.high,
            "full": self.full,
            "bounded": self.bounded,
            "note": self.note,
        }


#: The embedded scorers' scale (vision, anchored, heuristic): 0-10, full marks 10.
EMBEDDED_SCALE = ScoreScale(0.0, 10.0, 10.0, note="0-10; a reference-quality painting earns 10")


def scale_of(scorer: object) -> ScoreScale:
    """The scale a scorer states (``scorer.scale``), else `EMBEDDED_SCALE`.

    Examples:
        >>> scale_of(object()) is EMBEDDED_SCALE
        True
    """
    scale = getattr(scorer, "scale", None)
    return scale if isinstance(scale, ScoreScale) else EMBEDDED_SCALE


@dataclass(frozen=True, slots=True)
class Score:
    """One picture's score.

    Args:
        value: The score, on its scorer's `ScoreScale` (for HPSv3, the mean ``mu``; for the
            embedded scorers, a number in ``[0, 10]``). Higher is better.
        sigma: The model's own uncertainty (HPSv3's ``exp(log sigma)``), or ``None`` where the
            scorer has none.
        terms: Named parts of the score, for scorers that are sums of parts (logged, never
            needed to compute the reward).
        meta: How the score was obtained, as ``(name, JSON scalar)`` pairs (e.g. a judge's
            mode, model, number of comparisons and parse failures): logged with the score so
            results say what produced them, never needed to compute the reward.
    """

    value: float
    sigma: float | None = None
    terms: tuple[tuple[str, float], ...] = ()
    meta: tuple[tuple[str, str | int | float | bool | None], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Returns a JSON-serialisable view (``meta`` only when there is some)."""
        # A non-finite value (a judge that could not read its own answer) is no number: JSON
        # has no NaN, and the reward already treats it as an infrastructure failure.
        value = self.value if math.isfinite(self.value) else None
        out: dict[str, Any] = {"value": value, "sigma": self.sigma, "terms": dict(self.terms)}
        # Only scorers that record provenance add the key, so existing records keep their shape.
        if self.meta:
            out["meta"] = dict(self.meta)
        return out


class ScorerUnavailableError(InfrastructureError):
    """The scorer could not answer (service down, timed out, out of memory).

    This is an infrastructure failure, not the policy's fault: the environment turns it into a
    ``None`` reward, which TRL leaves out of the loss (docs/design.md §3.14).
    """


@runtime_checkable
class Scorer(Protocol):
    """Scores pictures against prompts, in batches.

    Implementations must be safe to call concurrently from one event loop.
    """

    #: Short name reported with every score, e.g. ``"anchored"`` or ``"hpsv3"``.
    name: str

    async def score(self, images: Sequence[Image.Image], prompts: Sequence[str]) -> list[Score]:
        """Scores ``images[i]`` against ``prompts[i]``.

        Args:
            images: RGB pictures.
            prompts: One prompt per picture.

        Returns:
            One `Score` per picture, in order.

        Raises:
            ValueError: If the two sequences differ in length.
            ScorerUnavailableError: If the scorer could not answer.
        """
        ...


@runtime_checkable
class MeasuredScorer(Protocol):
    """A scorer that reads the evaluator's measurement pass instead of measuring again
    (`sketch_env.picture.measures`: one decode, one paper, one paint per picture)."""

    name: str

    async def score_measured(
        self,
        pictures: Sequence[Picture],
        measures: Sequence[PictureMeasures],
        prompts: Sequence[str],
    ) -> list[Score]:
        """Scores ``pictures[i]``, measured as ``measures[i]``, against ``prompts[i]``."""
        ...


def score_sync(
    scorer: Scorer, images: Sequence[Image.Image], prompts: Sequence[str]
) -> list[Score]:
    """Calls ``scorer.score`` from synchronous code.

    Args:
        scorer: Any `Scorer`.
        images: RGB pictures.
        prompts: One prompt per picture.

    Returns:
        One `Score` per picture.

    Raises:
        RuntimeError: If called from inside a running event loop (use ``await scorer.score``).
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(scorer.score(images, prompts))
    raise RuntimeError("score_sync() was called inside a running event loop; await scorer.score()")


async def score_in_threads(score_one: Callable[..., Score], *columns: Sequence[Any]) -> list[Score]:
    """``score_one`` on each row of ``columns`` (a picture, and a prompt where it takes one), each
    call in a worker thread, the scores in order: the embedded scorers' batch call. Their work is
    numpy, which releases the GIL, so a batch spreads over the cores.

    Args:
        score_one: Scores one row.
        *columns: Equally long sequences, one per argument of ``score_one``.

    Returns:
        One `Score` per row.

    Raises:
        ValueError: If the columns differ in length.
    """
    rows = list(zip(*columns, strict=True))
    return list(await asyncio.gather(*(asyncio.to_thread(score_one, *row) for row in rows)))
