"""`SketchRenderer`: sketches in, `Render` results out, from any thread or event loop.

A Playwright browser is bound to the event loop that launched it. The renderer therefore owns
a private event loop on a background thread, and every public call hops onto it: plain sync
code, code inside a running loop (Jupyter, an async trainer) and several threads at once all
reach the same pool of browsers.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import threading
import time
from dataclasses import replace
from typing import Any

from playwright.async_api import Playwright, async_playwright

from sketch_env.errors import SketchEnvError
from sketch_env.render.backends import BrowserChoice, choose_backend
from sketch_env.render.base import RendererBase
from sketch_env.render.budget import MACHINE, SKETCH, SketchClock
from sketch_env.render.config import RenderConfig
from sketch_env.render.frames import FrameSupply
from sketch_env.render.page import Attempt, BrowserFailure, harness_script, run_attempt
from sketch_env.render.pool import BrowserPool, BrowserSlot, kill_process_tree
from sketch_env.render.result import Render, RenderStatus
from sketch_env.render.watchdog import MemoryWatch, ProcessTree, drain_gpu

logger = logging.getLogger(__name__)


class SketchRenderer(RendererBase):
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
        super().__init__(config, **overrides)
        self._playwright: Playwright | None = None
        self._pool: BrowserPool | None = None
        self._choice: BrowserChoice | None = None
        self._frames: FrameSupply | None = None
        self._init_script = functools.partial(harness_script, self.config)
        #: Each slot's browser process tree, with its memory baseline (the watchdog's zero).
        self._trees: dict[int, ProcessTree] = {}

    # ------------------------------------------------------------------ lifetime
    def _launch(self) -> None:
        # Finds Chromium, chooses the backend and launches the pool, on the loop thread.
        assert self._loop is not None
        future = asyncio.run_coroutine_threadsafe(self._start_pool(), self._loop)
        try:
            future.result(timeout=self.config.launch_timeout_s * 3)
        except BaseException:
            future.cancel()
            raise

    async def _start_pool(self) -> None:
        if self._playwright is None:
            self._playwright = await async_playwright().start()
        choice = await choose_backend(
            self._playwright, self.config.backend, self.config.browser_path
        )
        if self.config.extra_browser_args or self.config.extra_browser_env:
            recipe = choice.backend
            choice = replace(
                choice,
                backend=replace(
                    recipe,
                    flags=(*recipe.flags, *self.config.extra_browser_args),
                    env=(*recipe.env, *self.config.extra_browser_env),
                ),
            )
        self._choice = choice
        pool = BrowserPool(
            self._playwright, self._choice.executable, self._choice.backend, self.config
        )
        try:
            await pool.start()
        except BaseException:
            await pool.close()
            raise
        self._pool = pool
        self._frames = FrameSupply(self.config, self._init_script)
        for slot in pool.slots:
            self._frames.refill(slot.index, slot.browser)
        logger.info(
            "sketch_env renderer: %d browsers on %s (%s)",
            pool.size,
            self._choice.backend.name,
            self._choice.renderer,
        )

    def _force_release(self) -> None:
        if self._pool is not None:
            for pid in self._pool.pids():
                if pid is not None:
                    kill_process_tree(pid)

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
    def _known_backend(self) -> str:
        return self._choice.backend.name if self._choice is not None else ""

    async def _render_checked(self, data: bytes, seed: int, backend: str) -> Render:
        assert self._pool is not None
        notes: list[str] = []
        waits: list[float] = []
        crashes: list[Render] = []
        attempts = 0
        for attempts in range(1, self.config.retries + 2):
            try:
                attempt = await self._attempt(data, seed, backend, waits)
            except _CrashDuringRender as exc:
                notes.append(f"harness: attempt {attempts}: {exc}; retried in a fresh process")
                logger.warning("render attempt %d: %s", attempts, exc)
                crashes.append(exc.render)
                continue
            except BrowserFailure as exc:
                notes.append(f"harness: attempt {attempts} failed in the browser: {exc}")
                logger.warning("render attempt %d failed: %s", attempts, exc)
                continue
            render = attempt.render
            return replace(
                render,
                errors=(*notes, *render.errors),
                attempts=attempts,
                queue_ms=sum(waits) * 1000.0,
            )
        if len(crashes) == attempts and attempts > 1:
            # The same sketch crashed a fresh process in every attempt: that is the sketch's
            # doing (a memory bomb, a GPU hang), not bad luck. Its picture is never scored: a
            # crash leaves a blank or partial canvas that would read as the sketch's work.
            last = crashes[-1]
            return replace(
                last,
                status=RenderStatus.JS_ERROR,
                png=None,
                paint_fraction=0.0,
                errors=(*notes, *last.errors),
                attempts=attempts,
                queue_ms=sum(waits) * 1000.0,
            )
        return Render(
            RenderStatus.CRASHED,
            errors=tuple(notes),
            backend=backend,
            seed=seed,
            attempts=attempts,
            queue_ms=sum(waits) * 1000.0,
        )

    async def _attempt(self, data: bytes, seed: int, backend: str, waits: list[float]) -> Attempt:
        assert self._pool is not None and self._frames is not None
        asked = time.perf_counter()
        async with self._pool.slot() as slot:
            # Time queued behind other renders (and relaunching a dead browser): not the
            # sketch's cost, reported as `Render.queue_ms`.
            waits.append(time.perf_counter() - asked)
            assert slot.browser is not None
            try:
                frame = await self._frames.take(slot.index, slot.browser)
            except BrowserFailure:
                await self._replace_quietly(slot)
                raise
            pid = slot.pid()
            if pid is None:
                await self._frames.finish(slot.index, frame, clean=False)
                await self._replace_quietly(slot)
                raise BrowserFailure("the browser's process could not be found")
            tree = await self._tree(slot.index, pid)
            baseline = tree.baseline_mb
            gpus = await asyncio.to_thread(tree.processes, "gpu-process")
            watch = MemoryWatch(
                tree, baseline + self.config.max_render_memory_mb, self.config.memory_poll_s
            )
            clock = await asyncio.to_thread(
                SketchClock,
                functools.partial(tree.members, 1.0),
                self.config.deadline_s,
                self.config.max_wall_factor,
            )
            start = time.perf_counter()
            try:
                attempt = await watch.guard(
                    run_attempt(frame, data, seed, self.config, backend, clock)
                )
            except BrowserFailure:
                await self._frames.finish(slot.index, frame, clean=False)
                await self._replace_quietly(slot)
                raise
            except BaseException:
                # Cancelled mid-render: the sketch may still be running; its host goes.
                await self._frames.finish(slot.index, frame, clean=False)
                raise
            if attempt is None:
                await self._replace_quietly(slot, kill=True)
                return Attempt(
                    Render(
                        RenderStatus.MEMORY_EXCEEDED,
                        errors=(
                            f"harness: the sketch took the browser's memory to "
                            f"{watch.peak_mb:.0f} MB, more than "
                            f"{self.config.max_render_memory_mb} MB above its baseline of "
                            f"{baseline:.0f} MB (ArrayBuffers, textures or storage the "
                            "JavaScript heap cap does not bound); the browser was killed",
                        ),
                        elapsed_ms=(time.perf_counter() - start) * 1000.0,
                        backend=backend,
                        seed=seed,
                        blocked_requests=tuple(dict.fromkeys(frame.session.blocked)),
                    ),
                    clean=False,
                )
            if not all(gpu.is_running() for gpu in gpus):
                # Chromium relaunches a dead GPU process and the page carries on, reading
                # back a fully transparent canvas as "ok" (3 of 3 when the process was
                # killed): the picture cannot be trusted, whoever killed it.
                await self._frames.finish(slot.index, frame, clean=False)
                await self._replace_quietly(slot, kill=True)
                raise _CrashDuringRender("the GPU process died during the render", attempt.render)
            if frame.session.page_crashed:
                # A sketch that exhausts its memory and a renderer killed from outside look
                # the same from here; a retry in a new renderer process tells them apart.
                await self._frames.finish(slot.index, frame, clean=False)
                raise _CrashDuringRender(
                    "the page's renderer process crashed during the render", attempt.render
                )
            # The render is not over until the work it started is: its frame goes first (its
            # timers stop queueing; a frame that will not go takes its host page with it),
            # then the GPU must answer a trivial readback in time.
            host = frame.host
            if attempt.clean:
                await host.remove_frame(frame)
            page = host.page
            # The drain's clock measures the browser's own time, like the render's.
            drain_clock = functools.partial(
                SketchClock,
                functools.partial(tree.members, 1.0),
                self.config.drain_timeout_s,
                self.config.max_wall_factor,
            )
            if not attempt.clean or host.broken or host.crashed or page is None or page.is_closed():
                closed = await self._frames.finish(slot.index, frame, clean=False)
                held = await drain_gpu(None, slot.browser, drain_clock) if closed else SKETCH
                finished = closed
            else:
                # The host page itself (even one retiring after `renders_per_page`): a new
                # context for the readback would cost more than the readback.
                held = await drain_gpu(page, slot.browser, drain_clock)
                finished = held is not None or await self._frames.finish(slot.index, frame, True)
            if held is not None:
                gone = not slot.browser.is_connected()
                await self._replace_quietly(slot, kill=True)
                if gone:
                    # The browser died after the picture, while its GPU was drained: killed
                    # from outside (the OOM killer, a test) or crashed by what the sketch left
                    # running. A retry in a fresh browser tells them apart (a sketch that kills
                    # every attempt is charged, `_render_checked`); charging leftover work here
                    # blamed the sketch for a browser killed from outside (a fast test killing
                    # the browser 1 s into a 1.07 s render saw it).
                    raise _CrashDuringRender(
                        "the browser died after the picture, while its GPU was drained",
                        attempt.render,
                    )
                if held == MACHINE:
                    # The picture was complete before the drain began; only the next render
                    # needed the drain, and it gets a fresh browser. Whether the sketch left
                    # work running cannot be told under this load, so it is not charged: it
                    # gains nothing from leftover work, and the load is not its doing.
                    return Attempt(_held_back(attempt.render, self.config), False)
                if finished:
                    return Attempt(_charge_leftover(attempt.render, self.config, start), False)
                return attempt
            if not finished:
                await self._replace_quietly(slot)
                return attempt
            used = await asyncio.to_thread(tree.memory_mb, 1.0)
            # Compared with the level after the browser's first finished render, not with its
            # launch baseline: a host page, its renderer and the GPU process's caches are part
            # of a working browser. Measured: a browser launched at 962 MB rested at 1126 MB
            # after its first render and at 1097-1141 MB after each of seven more (storage
            # cleared every time), so against the launch baseline a 200 MB margin replaced
            # healthy browsers at random.
            if tree.resting_mb is None:
                tree.resting_mb = used
            elif used > tree.resting_mb + self.config.max_render_memory_mb / 2:
                # What the render held outlived it (storage, caches the browser keeps): the
                # next sketch starts from a fresh browser, not from this one's leftovers.
                logger.info(
                    "browser %d stayed at %.0f MB after a render (resting %.0f MB): replacing",
                    pid,
                    used,
                    tree.resting_mb,
                )
                await self._replace_quietly(slot, kill=True)
            return attempt

    async def _tree(self, index: int, pid: int) -> ProcessTree:
        """Slot ``index``'s process tree, with its baseline measured when first used."""
        tree = self._trees.get(index)
        if tree is None or tree.pid != pid:
            tree = ProcessTree(pid)
            tree.baseline_mb = await asyncio.to_thread(tree.memory_mb)
            self._trees[index] = tree
        return tree

    async def _replace_quietly(self, slot: BrowserSlot, kill: bool = False) -> None:
        assert self._pool is not None and self._frames is not None
        self._frames.discard(slot.index)
        try:
            await self._pool.replace(slot, kill=kill)
        except Exception as exc:  # The next acquire of this slot will try again.
            logger.warning("could not relaunch browser %d: %s", slot.index, exc)
            return
        self._frames.refill(slot.index, slot.browser)


class _CrashDuringRender(SketchEnvError):
    """A process the render ran in died during it; retried before anyone is blamed.

    Args:
        reason: Which process died.
        render: What the attempt reported (kept if every attempt crashes the same way).
    """

    def __init__(self, reason: str, render: Render) -> None:
        super().__init__(reason)
        self.render = render


def _charge_leftover(render: Render, config: RenderConfig, start: float) -> Render:
    """The render of a sketch whose leftover work kept the GPU busy past the drain bound."""
    note = (
        "harness: the sketch left work running after its picture was taken (the GPU did not "
        f"answer within {config.drain_timeout_s:g} s of the browser's own time); the browser "
        "was replaced"
    )
    status = RenderStatus.LEFTOVER_WORK if render.status.has_picture else render.status
    elapsed = (time.perf_counter() - start) * 1000.0
    return replace(render, status=status, errors=(*render.errors, note), elapsed_ms=elapsed)


def _held_back(render: Render, config: RenderConfig) -> Render:
    """The render whose drain the machine's load held back to the wall cap: kept, not charged."""
    note = (
        "harness: the machine was too loaded to drain the GPU after the picture (no answer "
        f"at the wall cap of {config.drain_timeout_s * config.max_wall_factor:g} s, the "
        f"browser having used less than {config.drain_timeout_s:g} s of its own time); the "
        "browser was replaced, the render not charged"
    )
    return replace(render, errors=(*render.errors, note))


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
        if _shared is None or _shared.closed or _shared._pid != os.getpid():
            _shared = SketchRenderer(wanted)
        elif wanted is not None and wanted != _shared.config:
            raise ValueError(
                "the shared renderer already runs with a different configuration "
                f"({_shared.config}); close it first or create a SketchRenderer of your own"
            )
        return _shared
