"""The calling convention every renderer shares: a private event loop on a daemon thread.

A Playwright browser (and, for the Ray renderer, the bookkeeping of in-flight actor calls) is
bound to the loop that created it. A renderer therefore owns one loop on a background thread,
and every public call hops onto it: plain sync code, code inside a running loop (Jupyter, an
async trainer) and several threads at once all reach the same browsers. Subclasses provide
`start` and `_render`; this class provides the public rendering API on top of them.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Coroutine, Sequence
from typing import Any, TypeVar

from sketch_env.render.result import Render

T = TypeVar("T")


def seed_list(seeds: Sequence[int] | int | None, count: int) -> list[int]:
    """Expands a ``seeds`` argument to one seed per sketch.

    Args:
        seeds: One seed per sketch, one seed for all, or ``None`` for seed 0.
        count: Number of sketches.

    Returns:
        ``count`` seeds.

    Raises:
        ValueError: If a sequence of seeds has the wrong length.
    """
    if seeds is None:
        return [0] * count
    if isinstance(seeds, int):
        return [seeds] * count
    seeds = list(seeds)
    if len(seeds) != count:
        raise ValueError(f"got {count} sketches but {len(seeds)} seeds")
    return seeds


class LoopThreadRenderer:
    """Base of `SketchRenderer` and `RayRenderer`: the loop thread and the public render API.

    Subclasses call `_start_loop_thread` from their ``start()``, set `_started` once ready, and
    implement ``async _render(source, seed) -> Render``.
    """

    _thread_name = "sketch-env-renderer"

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._started = False

    # ------------------------------------------------------------------ to implement
    def start(self) -> LoopThreadRenderer:
        """Starts the renderer (idempotent, thread-safe)."""
        raise NotImplementedError

    async def _render(self, source: str | bytes, seed: int) -> Render:
        raise NotImplementedError

    # ------------------------------------------------------------------ loop thread
    def _start_loop_thread(self) -> None:
        """Starts the loop thread if it is not running; call with the subclass's lock held."""
        if self._thread is not None:
            return
        ready = threading.Event()
        self._thread = threading.Thread(
            target=self._run_loop, args=(ready,), name=self._thread_name, daemon=True
        )
        self._thread.start()
        ready.wait()

    def _run_loop(self, ready: threading.Event) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        ready.set()
        try:
            loop.run_forever()
        finally:
            loop.close()

    # ------------------------------------------------------------------ public API
    async def render(self, source: str | bytes, seed: int = 0) -> Render:
        """Renders one sketch.

        Safe from any event loop or thread. Never raises for anything the sketch does: the
        outcome is in the result's ``status`` and ``errors``.

        Args:
            source: The sketch (p5.js global mode using p5.brush).
            seed: Seed for ``Math.random``, p5's ``random``/``noise`` and p5.brush.

        Returns:
            The `Render`.

        Raises:
            BrowserNotFoundError: If no Chromium is installed.
            BackendUnavailableError: If no GL backend works.
        """
        return await self._call(self._render(source, seed))

    async def render_many(
        self, sources: Sequence[str | bytes], seeds: Sequence[int] | int | None = None
    ) -> list[Render]:
        """Renders a batch concurrently across the pool (e.g. one GRPO group).

        Args:
            sources: The sketches.
            seeds: One seed per sketch, one seed for all, or ``None`` for seed 0.

        Returns:
            One `Render` per sketch, in order.

        Raises:
            ValueError: If ``seeds`` has a different length than ``sources``.
        """
        seeds = seed_list(seeds, len(sources))
        return await self._call(self._render_many(list(sources), seeds))

    def render_sync(self, source: str | bytes, seed: int = 0) -> Render:
        """Blocking `render`, for plain synchronous code (also works under a running loop).

        Raises:
            RuntimeError: If called on the renderer's own loop thread.
        """
        return self._call_sync(self._render(source, seed))

    def render_many_sync(
        self, sources: Sequence[str | bytes], seeds: Sequence[int] | int | None = None
    ) -> list[Render]:
        """Blocking `render_many`.

        Raises:
            ValueError: If ``seeds`` has a different length than ``sources``.
            RuntimeError: If called on the renderer's own loop thread.
        """
        seeds = seed_list(seeds, len(sources))
        return self._call_sync(self._render_many(list(sources), seeds))

    def run_coroutine(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Schedules a coroutine on the renderer's loop (for code built on top of it).

        Args:
            coro: A coroutine that may await `render` directly.

        Returns:
            A concurrent future with its result.
        """
        try:
            self.start()
        except BaseException:
            coro.close()
            raise
        assert self._loop is not None
        return asyncio.run_coroutine_threadsafe(coro, self._loop)

    def on_own_loop(self) -> bool:
        """Whether the caller is running on the renderer's own loop."""
        try:
            return asyncio.get_running_loop() is self._loop
        except RuntimeError:
            return False

    # ------------------------------------------------------------------ plumbing
    async def _call(self, coro: Coroutine[Any, Any, T]) -> T:
        if self.on_own_loop():
            return await coro
        try:
            if not self._started:
                # Starting launches browsers (seconds): never on the caller's loop.
                await asyncio.to_thread(self.start)
        except BaseException:
            coro.close()
            raise
        return await asyncio.wrap_future(self.run_coroutine(coro))

    def _call_sync(self, coro: Coroutine[Any, Any, T]) -> T:
        if self.on_own_loop():
            coro.close()
            raise RuntimeError(
                "render_sync() was called on the renderer's own event loop; await render()"
            )
        return self.run_coroutine(coro).result()

    async def _render_many(self, sources: list[str | bytes], seeds: list[int]) -> list[Render]:
        return list(
            await asyncio.gather(*(self._render(s, k) for s, k in zip(sources, seeds, strict=True)))
        )
