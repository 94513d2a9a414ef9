"""A fixed-size pool of Chromium browsers that survives anything a sketch does to one of them.

Concurrency comes from browsers, not pages: pages of one browser share its GPU process and
rasterise one after another there (docs/design.md §3.12). Each slot holds one browser and serves one
render at a time. A browser that crashed, lost its connection or would not close a context is
killed (by process id, found through a unique marker switch) and relaunched, so the pool keeps
its size whatever the sketches do.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import psutil
from playwright.async_api import Browser, Playwright
from playwright.async_api import Error as PlaywrightError

from sketch_env.render.backends import Backend, common_args
from sketch_env.render.config import RenderConfig
from sketch_env.render.page import BrowserFailure

logger = logging.getLogger(__name__)


@dataclass
class BrowserSlot:
    """One browser of the pool and what the pool knows about it.

    Args:
        index: Position in the pool.
        browser: The connected browser, or ``None`` while it is being (re)launched.
        marker: The unique switch on its command line.
        renders: Renders served by the current browser.
        launches: Times this slot launched a browser.
    """

    index: int
    browser: Browser | None = None
    marker: str = ""
    renders: int = 0
    launches: int = 0
    _pid: int | None = field(default=None, repr=False)

    def pid(self) -> int | None:
        """Returns the browser's main process id, or ``None`` if it is not running."""
        if self._pid is not None and psutil.pid_exists(self._pid):
            return self._pid
        self._pid = find_browser_pid(self.marker) if self.marker else None
        return self._pid


def find_browser_pid(marker: str) -> int | None:
    """Finds the main process of the browser launched with ``--sketch-env-browser=marker``.

    Playwright does not expose the pid of a browser it launched; the marker switch (which
    Chromium ignores) makes the process findable without racing other browsers on the machine.

    Args:
        marker: The slot's marker.

    Returns:
        The pid, or ``None``.
    """
    needle = f"--sketch-env-browser={marker}"
    for proc in psutil.process_iter(["cmdline"]):
        try:
            cmdline = proc.info["cmdline"] or []
        except (psutil.Error, KeyError):
            continue
        # Child processes (renderer, GPU, zygote) carry a --type= switch; the browser does not.
        if needle in cmdline and not any(arg.startswith("--type=") for arg in cmdline):
            return proc.pid
    return None


def kill_process_tree(pid: int) -> None:
    """Kills a process and all its descendants, ignoring those already gone.

    Args:
        pid: The root process id.
    """
    try:
        root = psutil.Process(pid)
        victims = [*root.children(recursive=True), root]
    except psutil.Error:
        return
    for proc in victims:
        with contextlib.suppress(psutil.Error):
            proc.kill()
    psutil.wait_procs(victims, timeout=5)


class BrowserPool:
    """Browsers on one event loop, handed out one render at a time.

    Args:
        playwright: A started Playwright on the loop this pool lives on.
        executable: Chromium executable.
        backend: How to launch it.
        config: Pool size and limits.
    """

    def __init__(
        self, playwright: Playwright, executable: str, backend: Backend, config: RenderConfig
    ) -> None:
        self._playwright = playwright
        self._executable = executable
        self._backend = backend
        self._config = config
        self.slots = [BrowserSlot(i) for i in range(config.resolved_pool_size)]
        self._idle: asyncio.Queue[BrowserSlot] = asyncio.Queue()
        self._closed = False

    @property
    def size(self) -> int:
        """Number of slots (browsers) in the pool."""
        return len(self.slots)

    async def start(self) -> None:
        """Launches every browser, concurrently.

        Raises:
            playwright.async_api.Error: If a browser fails to launch.
        """
        await asyncio.gather(*(self._launch(slot) for slot in self.slots))
        for slot in self.slots:
            self._idle.put_nowait(slot)

    async def _launch(self, slot: BrowserSlot) -> None:
        slot.marker = uuid.uuid4().hex
        slot._pid = None
        slot.browser = await self._playwright.chromium.launch(
            executable_path=self._executable,
            args=[*common_args(self._config.js_heap_mb, slot.marker), *self._backend.flags],
            env={**os.environ, **dict(self._backend.env)},
            timeout=self._config.launch_timeout_s * 1000,
        )
        slot.renders = 0
        slot.launches += 1

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[BrowserSlot]:
        """Holds one slot for the duration of a render.

        A slot whose browser is gone is relaunched before it is handed out.

        Yields:
            The `BrowserSlot`; its ``browser`` is connected.

        Raises:
            RuntimeError: If the pool is closed.
            BrowserFailure: If the browser cannot be relaunched.
        """
        if self._closed:
            raise RuntimeError("the browser pool is closed")
        slot = await self._idle.get()
        try:
            if slot.browser is None or not slot.browser.is_connected():
                try:
                    await self.replace(slot)
                except (TimeoutError, PlaywrightError) as exc:
                    raise BrowserFailure(f"could not relaunch a browser: {exc}") from exc
            yield slot
        finally:
            slot.renders += 1
            self._idle.put_nowait(slot)

    async def replace(self, slot: BrowserSlot, kill: bool = False) -> None:
        """Closes (or kills) a slot's browser and launches a new one in its place.

        Args:
            slot: A slot held by the caller.
            kill: Kill the process tree at once instead of asking the browser to close (its
                GPU process may be busy with a sketch's leftover work for minutes).
        """
        old, pid = slot.browser, slot.pid()
        slot.browser = None
        if kill and pid is not None:
            await asyncio.to_thread(kill_process_tree, pid)
        if old is not None:
            try:
                async with asyncio.timeout(5):
                    await old.close()
            except (TimeoutError, PlaywrightError):
                logger.warning("browser %s did not close; killing pid %s", slot.index, pid)
        if pid is not None and psutil.pid_exists(pid):
            await asyncio.to_thread(kill_process_tree, pid)
        if not self._closed:
            await self._launch(slot)

    async def close(self) -> None:
        """Closes every browser; kills those that do not close within a few seconds."""
        self._closed = True

        async def close_one(slot: BrowserSlot) -> None:
            pid = slot.pid()
            if slot.browser is not None:
                try:
                    async with asyncio.timeout(5):
                        await slot.browser.close()
                except (TimeoutError, PlaywrightError):
                    pass
            slot.browser = None
            if pid is not None and psutil.pid_exists(pid):
                await asyncio.to_thread(kill_process_tree, pid)

        await asyncio.gather(*(close_one(slot) for slot in self.slots), return_exceptions=True)

    def pids(self) -> list[int | None]:
        """Returns each slot's browser process id (for memory reports and fault tests)."""
        return [slot.pid() for slot in self.slots]
