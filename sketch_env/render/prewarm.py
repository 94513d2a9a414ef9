"""Pre-warming: each browser keeps its next render's page already loaded.

A cold render pays for a new context, a new renderer process, parsing and running p5.js (1 MB)
and p5.brush, and the load event before the sketch can even be injected: 0.5–0.8 s of fixed cost
per render on a 2-core machine (DESIGN.md §3.12), more than a light sketch's own drawing. None of
that depends on the sketch, so while a render runs, the slot's *next* context is opened and its
page loaded to phase ``ready``. When the next sketch arrives it is only injected and run.

What stays true:

* **Isolation.** A warm page is a fresh context that no sketch has touched; it serves exactly one
  render and is closed at its end like a cold one. A render that times out or crashes closes its
  own context; the warm page lives in another context (another renderer process), so it is not
  affected, and a warm page of a browser that was replaced is thrown away, never used.
* **Determinism.** The harness loads the libraries under a fixed ``LIBRARY_SEED`` and ``run(seed)``
  reseeds ``Math.random`` (and p5's presetup reseeds p5 and p5.brush), so the picture depends on
  (sketch, seed) only, not on how long the page waited at ``ready``.

A warm page that is not ready in time, or that failed to load, is simply not used: the render
falls back to a cold page, so pre-warming can make a render faster but never make it fail.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from playwright.async_api import Browser
from playwright.async_api import Error as PlaywrightError

from sketch_env.render.config import RenderConfig
from sketch_env.render.page import INDEX_URL, InfrastructureError, OpenedPage, open_page

logger = logging.getLogger(__name__)

#: Opens the page's connection to the GPU process before any sketch runs. A renderer's first
#: WebGL context sets up its GPU channel and command buffer; doing that with a throwaway 8x8
#: canvas while the page waits cut the median warm trivial render from 0.64 s to 0.41 s here
#: (llvmpipe, 8 interleaved pairs on a loaded 2-core machine), with byte-identical pictures. The
#: canvas is never attached to the document, touches no PRNG, and its context is released.
WARM_GL_JS = """() => {
  const canvas = document.createElement('canvas');
  canvas.width = 8;
  canvas.height = 8;
  const gl = canvas.getContext('webgl2');
  if (!gl) return false;
  gl.clearColor(0, 0, 0, 1);
  gl.clear(gl.COLOR_BUFFER_BIT);
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
  const lose = gl.getExtension('WEBGL_lose_context');
  if (lose) lose.loseContext();
  return true;
}"""

#: Bound on closing an unused warm context; a close that takes longer is abandoned (the
#: browser's own close or kill reclaims it).
_CLOSE_TIMEOUT_S = 5.0


async def prepare_page(
    browser: Browser, config: RenderConfig, init_script: str, timeout_s: float | None = None
) -> OpenedPage:
    """Opens a fresh context, loads its page up to the harness's ``ready`` phase, warms WebGL.

    Args:
        browser: A connected browser.
        config: Limits (viewport, poll interval, launch timeout).
        init_script: `harness_script` output.
        timeout_s: Bound on the whole preparation; ``config.launch_timeout_s`` when ``None``.

    Returns:
        An `OpenedPage` with ``navigated=True``, owned by the caller.

    Raises:
        InfrastructureError: If the page could not be opened or did not become ready in time.
    """
    bound = config.launch_timeout_s if timeout_s is None else timeout_s
    try:
        async with asyncio.timeout(bound):
            opened = await open_page(browser, config, init_script)
    except TimeoutError as exc:
        raise InfrastructureError(f"could not open a page to pre-warm: {exc}") from exc
    try:
        async with asyncio.timeout(bound):
            await opened.page.goto(INDEX_URL, wait_until="commit", timeout=bound * 1000)
            while True:
                state = await opened.page.evaluate("() => window.__sketchenv.poll()")
                if state["phase"] == "ready":
                    break
                if state["phase"] != "loading":
                    raise InfrastructureError(f"a warm page left 'loading' as {state['phase']!r}")
                await asyncio.sleep(config.poll_interval_s)
            await opened.page.evaluate(WARM_GL_JS)
    except BaseException as exc:
        await _close_quietly(opened)
        if isinstance(exc, TimeoutError | PlaywrightError):
            raise InfrastructureError(f"could not pre-warm a page: {exc}") from exc
        raise
    opened.navigated = True
    return opened


async def _close_quietly(opened: OpenedPage) -> None:
    with contextlib.suppress(TimeoutError, PlaywrightError):
        async with asyncio.timeout(_CLOSE_TIMEOUT_S):
            await opened.context.close()


class PagePrewarmer:
    """Keeps one never-used, loaded page per browser slot.

    Lives on the renderer's event loop; slots are identified by their index and each warm page
    remembers its browser, so a page of a browser that has since been replaced is discarded.

    Args:
        config: The renderer's configuration.
        init_script: `harness_script` output.
    """

    def __init__(self, config: RenderConfig, init_script: str) -> None:
        self._config = config
        self._init_script = init_script
        self._pending: dict[int, asyncio.Task[OpenedPage | None]] = {}
        self._closed = False
        #: Renders that got a warm page / fell back to a cold one (for reports and tests).
        self.hits = 0
        self.misses = 0

    def refill(self, index: int, browser: Browser | None) -> None:
        """Starts preparing the next page of slot ``index`` (replacing any it had).

        Args:
            index: The slot.
            browser: The slot's current browser; nothing happens when it is ``None`` or gone.
        """
        if self._closed or browser is None or not browser.is_connected():
            return
        self.discard(index)
        self._pending[index] = asyncio.ensure_future(self._prepare(browser))

    async def _prepare(self, browser: Browser) -> OpenedPage | None:
        start = time.perf_counter()
        try:
            opened = await prepare_page(browser, self._config, self._init_script)
        except InfrastructureError as exc:
            logger.info("pre-warming a page failed (the next render opens one cold): %s", exc)
            return None
        logger.debug("pre-warmed a page in %.0f ms", (time.perf_counter() - start) * 1000)
        return opened

    async def take(self, index: int, browser: Browser) -> OpenedPage | None:
        """Hands over slot ``index``'s warm page and starts preparing the one after it.

        Waits for a page still being prepared: it is further along than a cold one would be.

        Args:
            index: The slot, held by the caller.
            browser: The slot's current browser.

        Returns:
            A loaded, never-used page of ``browser``, or ``None`` (render cold).
        """
        task = self._pending.pop(index, None)
        opened: OpenedPage | None = None
        if task is not None:
            try:
                opened = await _wait_unless_disconnected(task, browser)
            except asyncio.CancelledError:
                # Our caller was cancelled (the task itself was not): do not leak its page.
                task.add_done_callback(_close_result_later)
                raise
            except Exception as exc:  # A warm page is an optimisation; never fail a render.
                logger.warning("pre-warming a page failed unexpectedly: %r", exc)
        usable = (
            opened is not None
            and opened.browser is browser
            and browser.is_connected()
            and not opened.page.is_closed()
            and not opened.session.page_crashed
        )
        if not usable and opened is not None:
            await _close_quietly(opened)
        self.refill(index, browser)
        if usable:
            self.hits += 1
            return opened
        self.misses += 1
        return None

    def discard(self, index: int) -> None:
        """Drops slot ``index``'s warm page (its browser is being replaced or closed)."""
        task = self._pending.pop(index, None)
        if task is not None:
            task.add_done_callback(_close_result_later)
            task.cancel()

    async def close(self) -> None:
        """Cancels preparations and closes every warm context."""
        self._closed = True
        tasks = list(self._pending.values())
        self._pending.clear()
        for task in tasks:
            task.cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(
            *(_close_quietly(r) for r in results if isinstance(r, OpenedPage)),
            return_exceptions=True,
        )


async def _wait_unless_disconnected(
    task: asyncio.Task[OpenedPage | None], browser: Browser
) -> OpenedPage | None:
    """The task's page, or ``None`` as soon as ``browser`` disconnects (the task is dropped).

    A browser killed while its next page is being prepared can leave Playwright calls of that
    preparation pending; the render waiting for the page must not wait with them.
    """
    gone: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def on_disconnected(_: Browser) -> None:
        if not gone.done():
            gone.set_result(None)

    if not browser.is_connected():
        on_disconnected(browser)
    browser.once("disconnected", on_disconnected)
    try:
        await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        browser.remove_listener("disconnected", on_disconnected)
    if not task.done():
        task.add_done_callback(_close_result_later)
        task.cancel()
        return None
    return None if task.cancelled() else task.result()


#: Closing tasks scheduled from done-callbacks, held so the loop does not drop them.
_closing: set[asyncio.Task[None]] = set()


def _close_result_later(task: asyncio.Task[OpenedPage | None]) -> None:
    if task.cancelled() or task.exception() is not None:
        return
    opened = task.result()
    if opened is not None:
        closing = asyncio.ensure_future(_close_quietly(opened))
        _closing.add(closing)
        closing.add_done_callback(_closing.discard)
