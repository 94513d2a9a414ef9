"""The straightforward renderer the benchmark compares against (docs/design.md §8).

Written here on purpose, sharing nothing with `sketch_env.render` but the vendored library files
and browser discovery: SwiftShader (Chromium's default software GL), the whole page — a seeded
``Math.random``, p5.min.js, p5.brush.js, a completion hook and the sketch — inlined into one HTML
document loaded with ``page.set_content``, a fresh page per sketch in one browser, and the
sketches of a group rendered one after another. This is what a first implementation looks like;
it is correct for the benchmark's sketches (none contains ``</script>``), only slow.
"""

from __future__ import annotations

import asyncio
import base64
import os
import time
import uuid
from dataclasses import dataclass

from playwright.async_api import Browser, Playwright
from playwright.async_api import Error as PlaywrightError

from sketch_env.catalog.assets import read_vendor_bytes
from sketch_env.render.backends import find_browser
from sketch_env.render.pool import find_browser_pid

#: Chromium's software GL path (docs/design.md §3.12).
SWIFTSHADER_FLAGS = ("--use-gl=angle", "--use-angle=swiftshader", "--enable-unsafe-swiftshader")

# A seeded Math.random (mulberry32) installed before the libraries, so p5.brush's PRNG seeds are
# reproducible, and a p5 addon registered after p5.brush so that its post-setup/post-draw hooks
# run after p5.brush has flushed the frame: the picture is read there, inside the frame, because
# a WebGL canvas without preserveDrawingBuffer may be blank by the time Python asks for it.
_PRNG = """<script>(() => {
  let a = %d >>> 0;
  Math.random = function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  window.__bl = { done: false, png: null, error: null };
  const fail = (e) => { window.__bl.error = String(e); window.__bl.done = true; };
  window.addEventListener('error', (e) => fail(e.message));
  window.addEventListener('unhandledrejection', (e) => fail(e.reason));
})();</script>"""
_HOOK = """<script>p5.registerAddon((p5, fn, lifecycles) => {
  const grab = (inst) => {
    const c = inst.canvas || (inst._renderer && inst._renderer.canvas);
    window.__bl.png = c ? c.toDataURL('image/png') : null;
    window.__bl.done = true;
  };
  lifecycles.postsetup = function () { if (typeof window.draw !== 'function') grab(this); };
  lifecycles.postdraw = function () {
    if (!this.isLooping() || this.frameCount >= %d) { this.noLoop(); grab(this); }
  };
});</script>"""


def inline_page(source: str, seed: int, max_frames: int = 60) -> str:
    """Builds the one-document page: PRNG, libraries, completion hook and sketch, all inline.

    Args:
        source: The sketch.
        seed: Seed of ``Math.random``.
        max_frames: Frames after which a looping sketch is captured.

    Returns:
        The HTML.
    """
    p5 = read_vendor_bytes("p5/p5.min.js").decode("utf-8")
    brush = read_vendor_bytes("p5.brush/p5.brush.js").decode("utf-8")
    return (
        '<!doctype html><html><head><meta charset="utf-8">'
        "<style>html,body{margin:0;overflow:hidden}</style>"
        + _PRNG % (seed & 0xFFFFFFFF)
        + f"<script>{p5}</script><script>{brush}</script>"
        + _HOOK % max_frames
        + f"<script>{source}</script></head><body></body></html>"
    )


@dataclass
class BaselineResult:
    """One baseline render.

    Args:
        png: The picture, when one was captured.
        seconds: Wall time of the render, page creation to closing.
        error: What went wrong, if anything.
    """

    png: bytes | None
    seconds: float
    error: str | None = None

    @property
    def ok(self) -> bool:
        """Whether a picture was captured without an error."""
        return self.png is not None and self.error is None


class BaselineRenderer:
    """One SwiftShader browser; a fresh page per sketch; groups rendered sequentially.

    Args:
        playwright: A started Playwright on the caller's loop.
        deadline_s: Bound on one render (set_content needs a generous one: it waits for every
            inline script, the sketch included).
        viewport: Page size.
    """

    def __init__(
        self,
        playwright: Playwright,
        deadline_s: float = 120.0,
        viewport: tuple[int, int] = (600, 600),
    ) -> None:
        self._playwright = playwright
        self._deadline_s = deadline_s
        self._viewport = viewport
        self._browser: Browser | None = None
        self._marker = uuid.uuid4().hex

    async def start(self) -> BaselineRenderer:
        """Launches the browser."""
        self._browser = await self._playwright.chromium.launch(
            executable_path=find_browser(None, self._playwright),
            args=[
                *SWIFTSHADER_FLAGS,
                "--disable-dev-shm-usage",
                f"--sketch-env-browser={self._marker}",
            ],
            env=dict(os.environ),
        )
        return self

    def browser_pids(self) -> list[int | None]:
        """The browser's process id (root of its process tree), for memory and CPU reports."""
        return [find_browser_pid(self._marker)]

    async def render(self, source: str, seed: int = 0) -> BaselineResult:
        """Renders one sketch in a fresh page.

        Args:
            source: The sketch.
            seed: Seed of ``Math.random``.

        Returns:
            The `BaselineResult`.
        """
        assert self._browser is not None, "call start() first"
        start = time.perf_counter()
        page = await self._browser.new_page(
            viewport={"width": self._viewport[0], "height": self._viewport[1]}
        )
        png: bytes | None = None
        error: str | None = None
        try:
            async with asyncio.timeout(self._deadline_s):
                await page.set_content(
                    inline_page(source, seed), wait_until="load", timeout=self._deadline_s * 1000
                )
                while True:
                    state = await page.evaluate(
                        "() => ({done: window.__bl.done, png: window.__bl.png, "
                        "error: window.__bl.error})"
                    )
                    if state["done"]:
                        break
                    await asyncio.sleep(0.02)
            error = state["error"]
            data = state["png"] or ""
            if data.startswith("data:image/png;base64,"):
                png = base64.b64decode(data.split(",", 1)[1])
        except (TimeoutError, PlaywrightError) as exc:
            error = f"{type(exc).__name__}: {exc}"[:300]
        finally:
            await page.close()
        return BaselineResult(png, time.perf_counter() - start, error)

    async def render_group(self, sources: list[str], seeds: list[int]) -> list[BaselineResult]:
        """Renders a group one sketch after another."""
        return [await self.render(s, k) for s, k in zip(sources, seeds, strict=True)]

    async def close(self) -> None:
        """Closes the browser."""
        if self._browser is not None:
            await self._browser.close()
            self._browser = None
