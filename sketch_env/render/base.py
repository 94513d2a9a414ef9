"""What every renderer shares: its lifetime, input checks and a private event loop on a thread.

A Playwright browser (and, for the Ray renderer, the bookkeeping of in-flight actor calls) is
bound to the loop that created it. A renderer therefore owns one loop on a background thread,
and every public call hops onto it: plain sync code, code inside a running loop (Jupyter, an
async trainer) and several threads at once all reach the same browsers.

`RendererBase` is written once for `SketchRenderer` and `RayRenderer`: configuration, ``start``
and ``close`` (idempotent, thread-safe, bounded, refused after ``fork``), context managers, the
input checks every sketch goes through before any browser sees it, and the public
``render``/``render_many``/``*_sync`` API. A subclass supplies `RendererBase._launch`,
`RendererBase._shutdown` and `RendererBase._render_checked`.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import logging
import os
import threading
import time
import weakref
from collections.abc import Coroutine, Iterable, Sequence
from dataclasses import replace
from typing import Any, Self, TypeVar

from sketch_env.render.backends import BackendUnavailableError, BrowserNotFoundError
from sketch_env.render.config import RenderConfig
from sketch_env.render.page import encode_source
from sketch_env.render.result import Render, RenderStatus

logger = logging.getLogger(__name__)
T = TypeVar("T")

#: Bound on closing a renderer (browsers or actors, the loop thread), so exit never hangs.
CLOSE_TIMEOUT_S = 20.0

_live: weakref.WeakSet[RendererBase] = weakref.WeakSet()

#: The largest render seed. The page seeds its PRNGs with 32 bits, so a larger or negative seed
#: would have to be folded onto one of these, and two different seeds would paint one picture.
MAX_SEED = 2**32 - 1


def check_seed(seed: Any) -> int:
    """Validates a render seed: the one rule the renderer, the environments and the CLI apply.

    Args:
        seed: The seed. Integers (``int``, NumPy integers: anything with ``__index__``) in
            ``[0, 2**32)`` are accepted; booleans, floats (even ``1.0``) and strings are not,
            because accepting ``1.5`` or ``"3"`` means guessing what the caller meant.

    Returns:
        The seed as an ``int``.

    Raises:
        ValueError: Otherwise, with the same message everywhere.

    Examples:
        >>> check_seed(7)
        7
        >>> check_seed(np.uint32(7))  # doctest: +SKIP
        7
    """
    value: Any = seed
    if not isinstance(seed, bool) and hasattr(seed, "__index__"):
        number = int(seed.__index__())
        if 0 <= number <= MAX_SEED:
            return number
        value = number
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    raise ValueError(
        f"seed must be an integer in [0, {MAX_SEED}], got {shown} (other values are refused "
        "rather than folded into that range, where two different seeds would paint the same "
        "picture)"
    )


def seed_list(seeds: Sequence[int] | int | None, count: int) -> list[int]:
    """Expands a ``seeds`` argument to one seed per sketch.

    Args:
        seeds: One seed per sketch, one seed for all, or ``None`` for seed 0.
        count: Number of sketches.

    Returns:
        ``count`` seeds.

    Raises:
        ValueError: If a sequence of seeds has the wrong length, or a seed is not valid (see
            `check_seed`).
    """
    if seeds is None:
        return [0] * count
    if not isinstance(seeds, Iterable) or isinstance(seeds, str | bytes):
        return [check_seed(seeds)] * count
    checked = [check_seed(seed) for seed in seeds]
    if len(checked) != count:
        raise ValueError(f"got {count} sketches but {len(checked)} seeds")
    return checked


class RendererBase:
    """Base of `SketchRenderer` and `RayRenderer`: lifetime, input checks and the render API.

    Args:
        config: Limits and settings; ``overrides`` replace its fields.
        **overrides: `RenderConfig` fields.
    """

    _thread_name = "sketch-env-renderer"

    def __init__(self, config: RenderConfig | None = None, **overrides: Any) -> None:
        config = config or RenderConfig()
        self.config = replace(config, **overrides) if overrides else config
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._started = False
        self._closed = False
        self._pid = os.getpid()
        _live.add(self)

    # ------------------------------------------------------------------ to implement
    def _launch(self) -> None:
        """Brings the renderer up (browsers, actors); called once, under the lock, with the
        loop thread running. Blocking; raises what `start` documents."""
        raise NotImplementedError

    async def _shutdown(self) -> None:
        """Releases what `_launch` brought up; runs on the renderer's loop, bounded by `close`."""

    def _force_release(self) -> None:
        """Called by `close` when `_shutdown` failed or timed out: reclaim by force."""

    def _after_close(self) -> None:
        """Called by `close` after the loop thread stopped."""

    async def _render_checked(self, data: bytes, seed: int, backend: str) -> Render:
        """Renders a sketch that passed the input checks (``data`` is its UTF-8 source)."""
        raise NotImplementedError

    def _known_backend(self) -> str:
        """The backend name to report on results made before a browser saw the sketch."""
        return ""

    # ------------------------------------------------------------------ lifetime
    def start(self) -> Self:
        """Starts the renderer: the loop thread, then the browsers (or actors).

        Idempotent and thread-safe; called implicitly by the first render.

        Returns:
            ``self``.

        Raises:
            BrowserNotFoundError: If no Chromium is installed (the message says how to fix it).
            BackendUnavailableError: If no GL backend gives WebGL2.
            RuntimeError: If the renderer was closed, or is used in a forked child process.
        """
        with self._lock:
            if self._closed:
                raise RuntimeError(f"this {type(self).__name__} is closed; create a new one")
            if os.getpid() != self._pid:
                # Browsers and the loop thread belong to the parent; a fork copies neither.
                raise RuntimeError(
                    f"a {type(self).__name__} cannot be used in a forked child process; create "
                    "one in the child (shared_renderer() does this for you)"
                )
            if self._started:
                return self
            self._start_loop_thread()
            self._launch()
            self._started = True
        return self

    def close(self) -> None:
        """Releases every browser (or actor) and stops the loop thread.

        Safe to call more than once; bounded, so it never hangs: what does not close in time is
        killed.
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
            loop, thread = self._loop, self._thread
        if os.getpid() != self._pid:
            return
        if loop is not None and loop.is_running():
            future = asyncio.run_coroutine_threadsafe(self._shutdown(), loop)
            try:
                future.result(timeout=CLOSE_TIMEOUT_S + 5)
            except Exception as exc:  # Closing must not raise at exit.
                logger.warning("%s did not close cleanly: %s", type(self).__name__, exc)
                self._force_release()
            loop.call_soon_threadsafe(loop.stop)
        if thread is not None:
            thread.join(timeout=CLOSE_TIMEOUT_S)
        self._after_close()

    @property
    def closed(self) -> bool:
        """Whether `close` was called."""
        return self._closed

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> Self:
        await asyncio.to_thread(self.start)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await asyncio.to_thread(self.close)

    # ------------------------------------------------------------------ input checks
    async def _render(self, source: str | bytes, seed: int) -> Render:
        """Checks a sketch and its seed, then renders it; a bad input is a ``rejected`` result."""
        start = time.perf_counter()
        seed = check_seed(seed)
        problem = None
        data = b""
        if not isinstance(source, str | bytes | bytearray):
            # Refused before anything else: an arbitrary object may not even pickle (Ray).
            problem = f"harness: a sketch must be text, got {type(source).__name__}"
        else:
            data = encode_source(source)
            if len(data) > self.config.max_source_bytes:
                problem = (
                    f"harness: the sketch is {len(data)} bytes; the limit is "
                    f"{self.config.max_source_bytes}"
                )
        backend = self._known_backend()
        if problem is not None:
            return Render(RenderStatus.REJECTED, errors=(problem,), backend=backend, seed=seed)
        try:
            render = await self._render_checked(data, seed, backend)
        except (BrowserNotFoundError, BackendUnavailableError):
            raise  # Setup problems with a fix to print, not one render's outcome.
        except Exception as exc:
            # One render's failure must not take its batch with it (render_many gathers). What
            # the page sends is validated in `sketch_env.render.readback` and a bad result is
            # the sketch's `harness_violation`; what is left here is the renderer's own fault.
            logger.exception("render failed inside the renderer")
            render = Render(
                RenderStatus.CRASHED,
                errors=(f"harness: the renderer failed: {type(exc).__name__}: {exc}"[:500],),
                backend=backend,
                seed=seed,
            )
        return replace(render, elapsed_ms=(time.perf_counter() - start) * 1000.0)

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
            ValueError: If the seed is not valid (see `check_seed`).
        """
        return await self._call(self._render(source, check_seed(seed)))

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
            ValueError: If ``seeds`` has a different length than ``sources``, or a seed is not
                valid (see `check_seed`).
        """
        seeds = seed_list(seeds, len(sources))
        return await self._call(self._render_many(list(sources), seeds))

    def render_sync(self, source: str | bytes, seed: int = 0) -> Render:
        """Blocking `render`, for plain synchronous code (also works under a running loop).

        Raises:
            RuntimeError: If called on the renderer's own loop thread.
            ValueError: If the seed is not valid (see `check_seed`).
        """
        return self._call_sync(self._render(source, check_seed(seed)))

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


def live_renderers() -> list[RendererBase]:
    """Every renderer of this process that has not been garbage-collected (open or closed)."""
    return list(_live)


@atexit.register
def _close_all_renderers() -> None:
    for renderer in live_renderers():
        with contextlib.suppress(Exception):  # Exit must proceed.
            renderer.close()
