"""What a render may hold and leave behind: its browser's memory, GPU work and processes.

The JavaScript heap cap (`RenderConfig.js_heap_mb`) bounds one kind of memory in one process.
A sketch reaches others: ArrayBuffers and GPU textures (one ``ok`` render took a browser tree
from 1.2 to 5.3 GB), storage kept by the browser process, and work queued on the GPU process
after its picture was taken (which made the next three honest renders on that browser time out).
None of that is visible from the page, so it is measured from outside, on the browser's own
process tree:

* `MemoryWatch` samples the tree's resident memory while a render runs and kills the browser
  when it grows more than ``max_render_memory_mb`` above the browser's baseline;
* `drain_gpu` proves, after every render, that the GPU process answers a trivial readback in a
  bounded time; if it does not, the browser (and its GPU process) is replaced;
* `gpu_pids` and `renderer_pids` name the processes a render depends on, so a crash can be
  told apart from the sketch's own failure (`sketch_env.render.renderer`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TypeVar

import psutil
from playwright.async_api import Browser
from playwright.async_api import Error as PlaywrightError

from sketch_env.render.host import HostPage
from sketch_env.render.pool import kill_process_tree

logger = logging.getLogger(__name__)
T = TypeVar("T")

_MB = 1024 * 1024

#: A 1x1 clear and readback on one WebGL context kept by the host page (contexts count against
#: Chromium's per-process limit, so it is made once). ``readPixels`` returns only after the GPU
#: process has executed everything queued before it, and the GPU process serves every context of
#: the browser on one thread: behind a sketch's leftover draws the readback did not return in 10 s
#: (six tries), on an idle GPU it takes about 0.01 s.
_DRAIN_JS = """() => {
  let gl = window.__sketchenvDrain;
  if (!gl || gl.isContextLost()) {
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    gl = canvas.getContext('webgl2') || canvas.getContext('webgl');
    if (!gl) return false;
    Object.defineProperty(window, '__sketchenvDrain', { value: gl, configurable: true });
  }
  gl.clearColor(1, 0, 0, 1);
  gl.clear(gl.COLOR_BUFFER_BIT);
  const pixel = new Uint8Array(4);
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
  return pixel[0] === 255;
}"""


def browser_tree(pid: int) -> list[psutil.Process]:
    """The browser process and all its descendants (GPU, renderers, utilities, zygotes).

    Args:
        pid: The browser's main process id.

    Returns:
        The processes; empty when the browser is gone.
    """
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.Error:
        return []


def tree_memory_mb(pid: int) -> float:
    """Resident memory of a browser's process tree, in MiB.

    Resident set sizes are summed: pages shared between processes count more than once, which
    raises the baseline but not the growth a render causes, which is what is capped.

    Args:
        pid: The browser's main process id.

    Returns:
        The sum; ``0.0`` when the browser is gone.
    """
    total = 0
    for proc in browser_tree(pid):
        with contextlib.suppress(psutil.Error):
            total += proc.memory_info().rss
    return total / _MB


def _pids_of_type(pid: int, kind: str) -> frozenset[int]:
    switch = f"--type={kind}"
    found = set()
    for proc in browser_tree(pid)[1:]:
        with contextlib.suppress(psutil.Error):
            if switch in proc.cmdline():
                found.add(proc.pid)
    return frozenset(found)


def gpu_pids(pid: int) -> frozenset[int]:
    """Process ids of a browser's GPU process (``--type=gpu-process``).

    Args:
        pid: The browser's main process id.

    Returns:
        The ids (normally one).
    """
    return _pids_of_type(pid, "gpu-process")


def renderer_pids(pid: int) -> frozenset[int]:
    """Process ids of a browser's renderer processes (``--type=renderer``).

    Args:
        pid: The browser's main process id.

    Returns:
        The ids.
    """
    return _pids_of_type(pid, "renderer")


@dataclass
class MemoryWatch:
    """Watches one render's browser tree and kills the browser when it outgrows its cap.

    Args:
        pid: The browser's main process id.
        limit_mb: Resident memory of the tree above which the browser is killed.
        poll_s: Interval between measurements.
    """

    pid: int
    limit_mb: float
    poll_s: float
    #: The largest measurement seen.
    peak_mb: float = 0.0
    #: Whether the cap was exceeded (and the browser killed).
    exceeded: bool = False

    async def guard(self, work: Awaitable[T]) -> T | None:
        """Runs ``work`` while measuring the tree; kills the browser if it exceeds the cap.

        Args:
            work: The render attempt.

        Returns:
            The work's result, or ``None`` when the cap was exceeded (whatever the work raised
            once its browser was killed is swallowed: the cause is known).
        """
        task = asyncio.ensure_future(work)
        try:
            while not task.done():
                await asyncio.wait((task,), timeout=self.poll_s)
                if task.done():
                    break
                used = await asyncio.to_thread(tree_memory_mb, self.pid)
                self.peak_mb = max(self.peak_mb, used)
                if used > self.limit_mb:
                    self.exceeded = True
                    logger.warning(
                        "a render took browser %d to %.0f MB (cap %.0f MB): killing it",
                        self.pid,
                        used,
                        self.limit_mb,
                    )
                    await asyncio.to_thread(kill_process_tree, self.pid)
                    break
        except BaseException:
            task.cancel()
            raise
        if self.exceeded:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(task, timeout=10)
            return None
        return task.result()


async def drain_gpu(host: HostPage | None, browser: Browser, timeout_s: float) -> bool:
    """Whether the browser's GPU process answers a trivial readback within ``timeout_s``.

    Runs in the host page when it is still usable (its sketch frame already removed), else in
    a throwaway page of the same browser.

    Args:
        host: The host page the render ran in.
        browser: Its browser.
        timeout_s: The bound.

    Returns:
        ``True`` when the GPU is free for the next render; ``False`` when the readback did not
        come back in time (or the browser is gone).
    """
    page = host.page if host is not None and host.usable else None
    own = page is None
    try:
        async with asyncio.timeout(timeout_s):
            if page is None:
                page = await browser.new_page()
            return bool(await page.evaluate(_DRAIN_JS))
    except (TimeoutError, PlaywrightError):
        return False
    finally:
        if own and page is not None:
            with contextlib.suppress(TimeoutError, PlaywrightError):
                async with asyncio.timeout(2):
                    await page.context.close()
