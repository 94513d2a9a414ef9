"""Each browser slot's host page, and its next frame loaded before the render asks for it.

A frame costs little next to the browser context it replaced (`sketch_env.render.host`), but it
still has to be created and load p5.js and p5.brush before a sketch can run: about 80–100 ms on
a 2-core machine. None of that depends on the sketch, so with ``RenderConfig.prewarm`` on, as
soon as a render ends its slot starts loading the next frame, and the next sketch is only
injected and run. Measured on one llvmpipe browser, trivial sketch: 195 ms per render with the
frame made on demand, 82 ms with it made in advance.

The next frame is prepared *after* the render ends, not while it runs: frames of one host share
its renderer's main thread, and loading p5 beside a running sketch made that sketch 60 ms slower
(141 ms against 82 ms) for no gain in throughput.

What stays true:

* **Isolation.** A prepared frame is a fresh document on a fresh origin that no sketch has
  touched; it serves exactly one render. A frame of a host that was condemned, or of a browser
  that was replaced, is thrown away, never used.
* **Determinism.** The harness loads the libraries under a fixed ``LIBRARY_SEED`` and
  ``run(seed)`` reseeds ``Math.random`` (and p5's presetup reseeds p5 and p5.brush), so the
  picture depends on (sketch, seed) only, not on how long the frame waited at ``ready``.

A frame that could not be prepared in advance is simply made when the render asks, so
pre-warming can make a render faster but never make it fail.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from playwright.async_api import Browser

from sketch_env.render.config import RenderConfig
from sketch_env.render.host import BrowserFailure, HostPage, SketchFrame

logger = logging.getLogger(__name__)


class FrameSupply:
    """Hands each render a fresh frame of its slot's host page, and takes it back.

    Lives on the renderer's event loop. Slots are identified by their index; a host page
    remembers its browser, so the page of a browser that has since been replaced is discarded.

    Args:
        config: The renderer's configuration (``prewarm``, ``renders_per_page``, limits).
        init_script: Builds the harness for a host's readback binding (`harness_script`).
    """

    def __init__(self, config: RenderConfig, init_script: Callable[[str], str]) -> None:
        self._config = config
        self._init_script = init_script
        self._hosts: dict[int, HostPage] = {}
        self._next: dict[int, asyncio.Task[SketchFrame | None]] = {}
        self._closed = False
        #: Renders that found their frame already loaded / had to wait for one to be made.
        self.hits = 0
        self.misses = 0
        #: Host pages opened (one per context), for reports and tests.
        self.hosts_opened = 0

    async def take(self, index: int, browser: Browser) -> SketchFrame:
        """Returns a fresh frame for a render in slot ``index``.

        Args:
            index: The slot, held by the caller.
            browser: The slot's current browser.

        Returns:
            A loaded, never-used frame of ``browser``.

        Raises:
            BrowserFailure: If no frame could be made.
        """
        task = self._next.pop(index, None)
        if task is not None:
            try:
                frame = await _wait_unless_disconnected(task, browser)
            except asyncio.CancelledError:
                # Our caller was cancelled, the preparation was not: keep it for the next one.
                self._next.setdefault(index, task)
                raise
            if frame is not None and frame.host.browser is browser and frame.host.usable:
                self.hits += 1
                return frame
        self.misses += 1
        host = await self._host_for(index, browser)
        return await host.new_frame()

    async def finish(self, index: int, frame: SketchFrame, clean: bool) -> bool:
        """Takes back a frame whose render ended, and starts preparing the next one.

        Args:
            index: The slot, held by the caller.
            frame: The frame the render ran in.
            clean: Whether the render ended cleanly (`Attempt.clean`); if not, the whole host
                page is closed.

        Returns:
            ``False`` when a host page would not close: its browser must be replaced.
        """
        host = frame.host
        if not clean:
            host.broken = True
        await host.remove_frame(frame)
        closed_ok = True
        if not host.usable:
            if self._hosts.get(index) is host:
                del self._hosts[index]
            closed_ok = await host.close()
        if closed_ok:
            self.refill(index, host.browser)
        return closed_ok

    def refill(self, index: int, browser: Browser | None) -> None:
        """Starts preparing slot ``index``'s next frame (when pre-warming is on).

        Args:
            index: The slot.
            browser: The slot's current browser; nothing happens when it is ``None`` or gone.
        """
        if (
            not self._config.prewarm
            or self._closed
            or browser is None
            or not browser.is_connected()
        ):
            return
        old = self._next.pop(index, None)
        if old is not None:
            old.cancel()
        self._next[index] = asyncio.ensure_future(self._prepare(index, browser))

    def discard(self, index: int) -> None:
        """Drops slot ``index``'s host page and next frame (its browser is being replaced)."""
        task = self._next.pop(index, None)
        if task is not None:
            task.cancel()
        host = self._hosts.pop(index, None)
        if host is not None:
            host.close_soon()

    async def close(self) -> None:
        """Cancels preparations and closes every host page."""
        self._closed = True
        tasks = list(self._next.values())
        self._next.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        hosts = list(self._hosts.values())
        self._hosts.clear()
        await asyncio.gather(*(host.close() for host in hosts), return_exceptions=True)

    async def _host_for(self, index: int, browser: Browser) -> HostPage:
        host = self._hosts.get(index)
        if host is not None and host.browser is browser and host.usable:
            return host
        if host is not None:
            del self._hosts[index]
            if not await host.close() and host.browser is browser:
                raise BrowserFailure("a host page of this browser would not close")
        host = await HostPage.open(browser, self._config, self._init_script)
        self.hosts_opened += 1
        if self._closed:
            await host.close()
            raise BrowserFailure("the renderer is closing")
        self._hosts[index] = host
        return host

    async def _prepare(self, index: int, browser: Browser) -> SketchFrame | None:
        try:
            host = await self._host_for(index, browser)
            return await host.new_frame()
        except BrowserFailure as exc:
            logger.info("preparing the next frame failed (the next render makes one): %s", exc)
            return None


async def _wait_unless_disconnected(
    task: asyncio.Task[SketchFrame | None], browser: Browser
) -> SketchFrame | None:
    """The task's frame, or ``None`` as soon as ``browser`` disconnects (the task is dropped).

    A browser killed while its next frame is being prepared can leave Playwright calls of that
    preparation pending; the render waiting for the frame must not wait with them.
    """
    gone: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def on_disconnected(_: Browser) -> None:
        if not gone.done():
            gone.set_result(None)

    if not browser.is_connected():
        on_disconnected(browser)
    browser.once("disconnected", on_disconnected)
    try:
        await asyncio.wait((task, gone), return_when=asyncio.FIRST_COMPLETED)
    finally:
        browser.remove_listener("disconnected", on_disconnected)
    if not task.done():
        task.cancel()
        return None
    if task.cancelled() or task.exception() is not None:
        return None
    return task.result()
