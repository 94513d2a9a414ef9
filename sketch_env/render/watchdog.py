"""What a render may hold and leave behind: its browser's memory, GPU work and processes.

The JavaScript heap cap (`RenderConfig.js_heap_mb`) bounds one kind of memory in one process.
A sketch reaches others: ArrayBuffers and GPU textures (one ``ok`` render took a browser tree
from 1.2 to 5.3 GB), storage kept by the browser process, and work queued on the GPU process
after its picture was taken (which made the next three honest renders on that browser time out).
None of that is visible from the page, so it is measured from outside, on the browser's own
process tree:

* `MemoryWatch` samples the tree's resident memory while a render runs and kills the browser
  when it grows more than ``max_render_memory_mb`` above the browser's baseline;
* `drain_gpu` proves, after every render, that the GPU process answers a trivial readback
  within a bound kept in the browser's own time (`SketchClock`), not the machine's; if it does
  not, the browser (and its GPU process) is replaced;
* `ProcessTree` names the processes a render depends on (GPU process, renderers), so a crash
  can be told apart from the sketch's own failure (`sketch_env.render.renderer`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import psutil
from playwright.async_api import Browser, Page
from playwright.async_api import Error as PlaywrightError

from sketch_env.render.budget import SKETCH, SketchClock
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

#: How long a readback may take before `drain_gpu` starts a clock on it. A quiet GPU answers in
#: about 0.01 s, and starting the clock reads all of a browser's threads (111 measured, 4-8 ms
#: on an idle machine), so only a slow drain pays for it; the grace is not charged to anyone.
_DRAIN_GRACE_S = 0.25


def _descendant_pids(pid: int) -> list[int] | None:
    """Descendants of ``pid`` from Linux's ``/proc/<pid>/task/<tid>/children``; ``None`` if absent.

    psutil finds children by reading every process's status on the machine: 25 ms per call with
    a few browsers running, which a watchdog sampling ten times a second cannot afford. The
    kernel's per-thread child lists give the same tree in well under a millisecond.
    """
    if not os.path.exists(f"/proc/{pid}/task/{pid}/children"):
        return None
    found: list[int] = []
    pending = [pid]
    while pending:
        parent = pending.pop()
        try:
            threads = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for tid in threads:
            try:
                with open(f"/proc/{parent}/task/{tid}/children", encoding="ascii") as f:
                    children = [int(child) for child in f.read().split()]
            except (OSError, ValueError):
                continue
            found.extend(children)
            pending.extend(children)
    return found


def browser_tree(pid: int) -> list[psutil.Process]:
    """The browser process and all its descendants (GPU, renderers, utilities, zygotes).

    Args:
        pid: The browser's main process id.

    Returns:
        The processes; empty when the browser is gone.
    """
    try:
        root = psutil.Process(pid)
        descendants = _descendant_pids(pid)
        if descendants is None:
            return [root, *root.children(recursive=True)]
    except psutil.Error:
        return []
    tree = [root]
    for child in descendants:
        with contextlib.suppress(psutil.Error):
            tree.append(psutil.Process(child))
    return tree


def tree_memory_mb(pid: int) -> float:
    """Resident memory of a browser's process tree, in MiB (a fresh scan; see `ProcessTree`).

    Args:
        pid: The browser's main process id.

    Returns:
        The sum; ``0.0`` when the browser is gone.
    """
    return ProcessTree(pid).memory_mb()


class ProcessTree:
    """A browser's process tree, scanned now and then and measured cheaply in between.

    Finding the tree costs ~10 ms here (one ``/proc`` read per thread of each process); reading
    the resident size of known processes costs 0.1 ms. The watchdog measures often and rescans
    only when its list is older than ``max_age_s``, so a process a render starts (a renderer for
    a frame of its own) is counted within that time.

    Resident set sizes are summed: pages shared between processes count more than once, which
    raises the baseline but not the growth a render causes, which is what is capped.

    Args:
        pid: The browser's main process id.
    """

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._procs: list[psutil.Process] = []
        self._kinds: dict[int, str] = {}
        self._scanned = -math.inf
        #: Tree memory when the browser served its first render (the watchdog's zero).
        self.baseline_mb = 0.0
        #: Tree memory after the first render it finished: the level a browser returns to
        #: between renders, host page and GPU process included (``None`` until then).
        self.resting_mb: float | None = None

    def scan(self) -> None:
        """Finds the tree's processes again, and each one's ``--type``."""
        procs = browser_tree(self.pid)
        kinds: dict[int, str] = {}
        for proc in procs[1:]:
            kind = self._kinds.get(proc.pid)
            if kind is None:
                try:
                    switch = next((a for a in proc.cmdline() if a.startswith("--type=")), "")
                except psutil.Error:
                    continue
                kind = switch.removeprefix("--type=")
            kinds[proc.pid] = kind
        self._procs, self._kinds = procs, kinds
        self._scanned = time.monotonic()

    def memory_mb(self, max_age_s: float = 0.0) -> float:
        """Resident memory of the tree, in MiB; ``0.0`` when the browser is gone.

        Args:
            max_age_s: Rescan first when the process list is older than this.
        """
        if time.monotonic() - self._scanned >= max_age_s:
            self.scan()
        total = 0
        for proc in self._procs:
            with contextlib.suppress(psutil.Error):
                total += proc.memory_info().rss
        return total / _MB

    def members(self, max_age_s: float = 0.0) -> list[psutil.Process]:
        """The tree's processes, browser first.

        Args:
            max_age_s: Rescan first when the process list is older than this.
        """
        if time.monotonic() - self._scanned >= max_age_s:
            self.scan()
        return list(self._procs)

    def processes(self, kind: str) -> list[psutil.Process]:
        """The tree's live processes of one ``--type`` (``gpu-process``, ``renderer``).

        Rescans when a known process of that type has gone or none is known.

        Args:
            kind: The ``--type=`` value.

        Returns:
            The processes.
        """
        found = [p for p in self._procs if self._kinds.get(p.pid) == kind]
        if not found or not all(p.is_running() for p in found):
            self.scan()
            found = [p for p in self._procs if self._kinds.get(p.pid) == kind]
        return found


@dataclass
class MemoryWatch:
    """Watches one render's browser tree and kills the browser when it outgrows its cap.

    Args:
        tree: The browser's process tree.
        limit_mb: Resident memory of the tree above which the browser is killed.
        poll_s: Interval between measurements.
        rescan_s: Age after which the list of processes is scanned again.
    """

    tree: ProcessTree
    limit_mb: float
    poll_s: float
    rescan_s: float = 1.0
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
                used = await asyncio.to_thread(self.tree.memory_mb, self.rescan_s)
                self.peak_mb = max(self.peak_mb, used)
                if used > self.limit_mb:
                    self.exceeded = True
                    logger.warning(
                        "a render took browser %d to %.0f MB (cap %.0f MB): killing it",
                        self.tree.pid,
                        used,
                        self.limit_mb,
                    )
                    await asyncio.to_thread(kill_process_tree, self.tree.pid)
                    break
        except BaseException:
            task.cancel()
            raise
        if self.exceeded:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(task, timeout=10)
            return None
        return task.result()


async def drain_gpu(
    page: Page | None, browser: Browser, clock: Callable[[], SketchClock]
) -> str | None:
    """Waits for the browser's GPU process to answer a trivial readback, on the render's terms.

    The wait is kept in the browser's own time, like the render itself (`SketchClock`): the
    CPU its processes used over the cores, or the time no thread of theirs was held back by
    other load. A wall-clock bound blamed the machine's load on the sketch: with three
    CPU-heavy jobs on two cores a reference's readback missed a 5 s wall bound and the
    reference was charged ``leftover_work``. Work the sketch left running on the GPU keeps the
    GPU's threads busy, so it uses that time and is charged as promptly as before on a quiet
    machine; a browser the machine starves uses little of it and is waited for up to the wall
    cap.

    Args:
        page: A page of ``browser`` no sketch can reach (the host page, its sketch frame
            already removed); ``None`` for a throwaway page in a new context.
        browser: The browser.
        clock: Builds the clock (called only when the readback is not back within
            `_DRAIN_GRACE_S`: reading the tree's threads costs more than a quiet drain).

    Returns:
        ``None`` when the GPU is free for the next render; ``SKETCH`` when the browser used the
        clock's budget without answering (or went away); ``MACHINE`` when other load held it
        back until the wall cap, so the wait says nothing about the sketch.
    """
    opened: list[Page] = []

    async def readback() -> bool:
        target = page
        if target is None:
            target = await browser.new_page()
            opened.append(target)
        return bool(await target.evaluate(_DRAIN_JS))

    task = asyncio.ensure_future(readback())

    def stop() -> None:
        task.cancel()

    watch: asyncio.Future[None] | None = None
    timer: SketchClock | None = None
    try:
        await asyncio.wait((task,), timeout=_DRAIN_GRACE_S)
        if not task.done():
            timer = await asyncio.to_thread(clock)
            watch = asyncio.ensure_future(timer.run_out(stop))
            await asyncio.wait((task,))
    finally:
        task.cancel()
        if watch is not None:
            watch.cancel()
        for own in opened:
            with contextlib.suppress(TimeoutError, PlaywrightError):
                async with asyncio.timeout(2):
                    await own.context.close()
    if task.cancelled():
        return timer.verdict if timer is not None and timer.verdict is not None else SKETCH
    failure = task.exception()
    if isinstance(failure, (TimeoutError, PlaywrightError)):
        return SKETCH
    if failure is not None:
        raise failure
    return None if task.result() else SKETCH
