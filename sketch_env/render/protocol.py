"""`Renderer`: what the evaluation layer needs of a renderer, whichever one it is.

`SketchRenderer` (browsers on this machine) and `RayRenderer` (render actors on a cluster) both
satisfy it, through their shared base `sketch_env.render.base.RendererBase`; so may a renderer
of your own. Every parameter that takes a renderer is typed with this protocol.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Coroutine, Sequence
from typing import Any, Protocol, TypeVar

from sketch_env.render.result import Render

__all__ = ["Renderer"]

T = TypeVar("T")


class Renderer(Protocol):
    """What the evaluator, the environment and the TRL reward function need of a renderer.

    `SketchRenderer` and `RayRenderer` both satisfy it. Deliberately not runtime-checkable:
    ``isinstance`` would read ``pool_size``, which starts a `RayRenderer`.
    """

    @property
    def pool_size(self) -> int:
        """Browsers rendering at once."""
        ...

    @property
    def backend(self) -> str:
        """The GL backend pictures are rendered on."""
        ...

    def start(self) -> Any:
        """Starts the renderer (idempotent)."""
        ...

    def close(self) -> None:
        """Releases every browser."""
        ...

    async def render(self, source: str | bytes, seed: int = 0) -> Render:
        """Renders one sketch."""
        ...

    async def render_many(
        self, sources: Sequence[str | bytes], seeds: Sequence[int] | int | None = None
    ) -> list[Render]:
        """Renders a batch, in order."""
        ...

    def render_sync(self, source: str | bytes, seed: int = 0) -> Render:
        """Blocking `render`."""
        ...

    def render_many_sync(
        self, sources: Sequence[str | bytes], seeds: Sequence[int] | int | None = None
    ) -> list[Render]:
        """Blocking `render_many`."""
        ...

    def run_coroutine(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Runs a coroutine on the renderer's own loop (used by the `Evaluator`; front ends
        call the evaluator instead)."""
        ...

    def on_own_loop(self) -> bool:
        """Whether the caller runs on the renderer's own loop."""
        ...
