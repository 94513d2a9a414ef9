"""The scorer protocol: how a picture and its prompt become a preference score."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from PIL import Image

from sketch_env.errors import InfrastructureError


@dataclass(frozen=True, slots=True)
class Score:
    """One picture's score.

    Args:
        value: The score (for HPSv3, the mean ``mu``; for the heuristic scorer, a number in
            ``[0, 10]`` on a comparable scale). Higher is better.
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

    #: Short name reported with every score, e.g. ``"heuristic"`` or ``"hpsv3"``.
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
