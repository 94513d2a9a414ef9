"""`SketchRenderer`: sketches in, `Render` results out, from any thread or event loop.

A Playwright browser is bound to the event loop that launched it. The renderer therefore owns
a private event loop on a background thread, and every public call hops onto it: plain sync
code, code inside a running loop (Jupyter, an async trainer) and several threads at once all
reach the same pool of browsers.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import os
import threading
import time
import weakref
from dataclasses import replace
from typing import Any, TypeVar

from playwright.async_api import Playwright, async_playwright

from sketch_env.render.backends import BrowserChoice, choose_backend
from sketch_env.render.config import RenderConfig
from sketch_env.render.frames import FrameSupply
from sketch_env.render.loop import LoopThreadRenderer
from sketch_env.render.page import (
    Attempt,
    InfrastructureError,
    encode_source,
    harness_script,
    run_attempt,
)
from sketch_env.render.pool import BrowserPool, BrowserSlot, kill_process_tree
from sketch_env.render.result import Render, RenderStatus

logger = logging.getLogger(__name__)
T = TypeVar("T")

#: Bound on closing a renderer (browsers, Playwright, the loop thread), so exit never hangs.
_CLOSE_TIMEOUT_S = 20.0

_live_renderers: weakref.WeakSet[SketchRenderer] = weakref.WeakSet()


class SketchRenderer(LoopThreadRenderer):
    """Renders p5.js + p5.brush sketches in a pool of headless Chromium browsers.

    Browsers start on first use (or on `start`). Each render runs in a fresh, sandboxed frame on
    an origin of its own (see `sketch_env.render.host`) under a hard wall-clock deadline; a page
    that hangs is closed, a browser that crashes or hangs is killed and replaced, and an
    infrastructure failure is retried once before it is reported as ``crashed``.

    Args:
        config: Limits and settings; keyword arguments override its fields.
        **overrides: Any `RenderConfig` field, e.g. ``pool_size=4, backend="swiftshader"``.

    Examples:
        >>> from sketch_env import SketchRenderer
        >>> with SketchRenderer(pool_size=2) as renderer:  # doctest: +SKIP
        ...     result = renderer.render_sync(source, seed=0)
        ...     result.status, result.paint_fraction, result.backend
        (<RenderStatus.OK: 'ok'>, 0.41, 'llvmpipe')

        From async code, ``await renderer.render(source, seed=0)`` and
        ``await renderer.render_many(sources, seeds)``.
    """

    def __init__(self, config: RenderConfig | None = None, **overrides: Any) -> None:
        config = config or RenderConfig()
        self.config = replace(config, **overrides) if overrides else config
        super().__init__()
        self._lock = threading.Lock()
        self._playwright: Playwright | None = None
        self._pool: BrowserPool | None = None
        self._choice: BrowserChoice | None = None
        self._frames: FrameSupply | None = None
        self._init_script = harness_script(self.config)
        self._pid = os.getpid()
        self._closed = False
        _live_renderers.add(self)

    # ------------------------------------------------------------------ lifetime
    def start(self) -> SketchRenderer:
        """Starts the loop thread, finds Chromium, chooses the backend and launches the pool.

        Idempotent and thread-safe. Called implicitly by the first render.

        Returns:
            ``self``.

        Raises:
            BrowserNotFoundError: If no Chromium is installed (the message says how to fix it).
            BackendUnavailableError: If no GL backend gives WebGL2.
            RuntimeError: If the renderer was closed, or is used in a forked child process.
        """
        with self._lock:
            self._check_usable()
            if self._pool is not None:
                return self
            self._start_loop_thread()
            future = asyncio.run_coroutine_threadsafe(self._start_pool(), self._loop)
            try:
                future.result(timeout=self.config.launch_timeout_s * 3)
            except BaseException:
                future.cancel()
                raise
        return self

    async def _start_pool(self) -> None:
        if self._playwright is None:
            self._playwright = await async_playwright().start()
        self._choice = await choose_backend(
            self._playwright, self.config.backend, self.config.browser_path
        )
        pool = BrowserPool(
            self._playwright, self._choice.executable, self._choice.backend, self.config
        )
        try:
            await pool.start()
        except BaseException:
            await pool.close()
            raise
        self._pool = pool
        self._started = True
        self._frames = FrameSupply(self.config, self._init_script)
        for slot in pool.slots:
            self._frames.refill(slot.index, slot.browser)
        logger.info(
            "sketch_env renderer: %d browsers on %s (%s)",
            pool.size,
            self._choice.backend.name,
            self._choice.renderer,
        )

    def _check_usable(self) -> None:
        if self._closed:
            raise RuntimeError("this SketchRenderer is closed; create a new one")
        if os.getpid() != self._pid:
            # Browsers and the loop thread belong to the parent; a fork copies neither.
            raise RuntimeError(
                "a SketchRenderer cannot be used in a forked child process; create one in the "
                "child (shared_renderer() does this for you)"
            )

    def close(self) -> None:
        """Closes every browser and stops the loop thread. Safe to call more than once.

        Bounded: browsers that do not close in time are killed, so this never hangs.
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
            loop, thread = self._loop, self._thread
        if loop is None or thread is None or os.getpid() != self._pid:
            return
        if loop.is_running():
            future = asyncio.run_coroutine_threadsafe(self._shutdown(), loop)
            try:
                future.result(timeout=_CLOSE_TIMEOUT_S)
            except Exception as exc:  # Closing must not raise at exit.
                logger.warning("renderer did not close cleanly: %s", exc)
                if self._pool is not None:
                    for pid in self._pool.pids():
                        if pid is not None:
                            kill_process_tree(pid)
            loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=_CLOSE_TIMEOUT_S)

    async def _shutdown(self) -> None:
        if self._frames is not None:
            try:
                async with asyncio.timeout(10):
                    await self._frames.close()
            except Exception as exc:  # The browsers' close below reclaims what is left.
                logger.warning("host pages did not close cleanly: %s", exc)
        if self._pool is not None:
            await self._pool.close()
        if self._playwright is not None:
            try:
                async with asyncio.timeout(10):
                    await self._playwright.stop()
            except Exception as exc:
                logger.warning("playwright did not stop cleanly: %s", exc)

    def __enter__(self) -> SketchRenderer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> SketchRenderer:
        await asyncio.to_thread(self.start)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await asyncio.to_thread(self.close)

    # ------------------------------------------------------------------ introspection
    @property
    def backend(self) -> str:
        """The GL backend the pool renders on (starts the renderer if needed)."""
        self.start()
        assert self._choice is not None
        return self._choice.backend.name

    @property
    def webgl_renderer(self) -> str:
        """The WebGL renderer string of the chosen backend (starts the renderer if needed)."""
        self.start()
        assert self._choice is not None
        return self._choice.renderer

    @property
    def executable(self) -> str:
        """The Chromium executable in use (starts the renderer if needed)."""
        self.start()
        assert self._choice is not None
        return self._choice.executable

    @property
    def pool_size(self) -> int:
        """Number of browsers in the pool."""
        return self.config.resolved_pool_size

    def browser_pids(self) -> list[int | None]:
        """Process ids of the pool's browsers (for memory reports and fault-injection tests)."""
        self.start()
        assert self._pool is not None
        return self._pool.pids()

    # ------------------------------------------------------------------ rendering
    async def _render(self, source: str | bytes, seed: int) -> Render:
        assert self._pool is not None and self._choice is not None
        start = time.perf_counter()
        backend = self._choice.backend.name
        seed = int(seed) & 0xFFFFFFFF
        if not isinstance(source, str | bytes | bytearray):
            return Render(
                RenderStatus.REJECTED,
                errors=(f"harness: a sketch must be text, got {type(source).__name__}",),
                backend=backend,
                seed=seed,
            )
        data = encode_source(source)
        if len(data) > self.config.max_source_bytes:
            return Render(
                RenderStatus.REJECTED,
                errors=(
                    f"harness: the sketch is {len(data)} bytes; the limit is "
                    f"{self.config.max_source_bytes}",
                ),
                backend=backend,
                seed=seed,
            )
        notes: list[str] = []
        attempts = 0
        for attempts in range(1, self.config.retries + 2):
            try:
                attempt = await self._attempt(data, seed, backend)
            except InfrastructureError as exc:
                notes.append(f"harness: attempt {attempts} failed in the browser: {exc}")
                logger.warning("render attempt %d failed: %s", attempts, exc)
                continue
            render = attempt.render
            return replace(
                render,
                errors=(*notes, *render.errors),
                elapsed_ms=(time.perf_counter() - start) * 1000.0,
                attempts=attempts,
            )
        return Render(
            RenderStatus.CRASHED,
            errors=tuple(notes),
            elapsed_ms=(time.perf_counter() - start) * 1000.0,
            backend=backend,
            seed=seed,
            attempts=attempts,
        )

    async def _attempt(self, data: bytes, seed: int, backend: str) -> Attempt:
        assert self._pool is not None and self._frames is not None
        async with self._pool.slot() as slot:
            assert slot.browser is not None
            try:
                frame = await self._frames.take(slot.index, slot.browser)
            except InfrastructureError:
                await self._replace_quietly(slot)
                raise
            try:
                attempt = await run_attempt(frame, data, seed, self.config, backend)
            except InfrastructureError:
                await self._frames.finish(slot.index, frame, clean=False)
                await self._replace_quietly(slot)
                raise
            except BaseException:
                # Cancelled mid-render: the sketch may still be running; its host goes.
                await self._frames.finish(slot.index, frame, clean=False)
                raise
            if not await self._frames.finish(slot.index, frame, attempt.clean):
                await self._replace_quietly(slot)
            return attempt

    async def _replace_quietly(self, slot: BrowserSlot) -> None:
        assert self._pool is not None and self._frames is not None
        self._frames.discard(slot.index)
        try:
            await self._pool.replace(slot)
        except Exception as exc:  # The next acquire of this slot will try again.
            logger.warning("could not relaunch browser %d: %s", slot.index, exc)
            return
        self._frames.refill(slot.index, slot.browser)


_shared: SketchRenderer | None = None
_shared_lock = threading.Lock()


def shared_renderer(config: RenderConfig | None = None, **overrides: Any) -> SketchRenderer:
    """Returns the process-wide renderer, creating it on first use.

    The environment, the TRL reward function and the CLI all render through this one pool
    unless given a renderer of their own. The first call's configuration wins; a later call that
    asks for a different one is an error rather than a silent surprise. A closed shared renderer
    (or one inherited through ``fork``) is replaced by a new one.

    Args:
        config: Configuration for the first creation.
        **overrides: `RenderConfig` fields.

    Returns:
        The shared `SketchRenderer` (not yet started: browsers launch on first render).

    Raises:
        ValueError: If the shared renderer already exists with a different configuration.
    """
    global _shared
    wanted = None
    if config is not None or overrides:
        base = config or RenderConfig()
        wanted = replace(base, **overrides) if overrides else base
    with _shared_lock:
        stale = _shared is None or _shared._closed or _shared._pid != os.getpid()
        if stale:
            _shared = SketchRenderer(wanted)
        elif wanted is not None and wanted != _shared.config:
            raise ValueError(
                "the shared renderer already runs with a different configuration "
                f"({_shared.config}); close it first or create a SketchRenderer of your own"
            )
        return _shared


@atexit.register
def _close_all_renderers() -> None:
    for renderer in list(_live_renderers):
        with contextlib.suppress(Exception):  # Exit must proceed.
            renderer.close()
