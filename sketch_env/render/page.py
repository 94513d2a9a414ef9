"""The page protocol: one sketch, one fresh browser context, one bounded attempt.

Every rule here answers a measured failure (DESIGN.md §3):

* The sketch is never inlined into HTML. A ``</script>`` anywhere in its text would end the
  script block; the page, the libraries and the sketch are separate resources served from a
  virtual origin through request routing, and the sketch is served as UTF-8 JavaScript
  (decoded as Latin-1, p5's Unicode regular expressions fail to compile).
* Navigation waits only for ``commit`` and readiness is polled with explicit evaluations:
  ``set_content`` waits for inline scripts (30 s timeouts on heavy sketches) and Playwright's
  rAF-based waits stall on background pages.
* Every wait is under one wall-clock deadline. ``while (true) {}`` in ``setup`` blocks the page's
  only thread and an evaluation never returns; closing the *context* returned in 0.03 s and left
  the browser healthy, so a timed-out attempt closes its context, and a context that will not
  close condemns its browser.
* A fresh context per render: storage, caches and service workers cannot carry anything from
  one rollout into the next.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import re
import time
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from playwright.async_api import Browser, BrowserContext, Page, Route, WebSocketRoute
from playwright.async_api import Error as PlaywrightError

from sketch_env.render.assets import read_vendor_bytes
from sketch_env.render.config import RenderConfig
from sketch_env.render.coverage import paint_fraction
from sketch_env.render.result import Render, RenderStatus

#: The virtual origin. ``.invalid`` can never resolve, so nothing real is ever reachable by name.
ORIGIN = "http://sketch-env.invalid"
INDEX_URL = f"{ORIGIN}/index.html"
SKETCH_PATH = "/sketch.js"

#: Below this share of painted pixels an errored sketch "painted nothing" (about 180 pixels of a
#: 600x600 canvas): js_error rather than unfinished.
MIN_PAINT_FOR_UNFINISHED = 0.0005

#: Libraries load under this fixed seed; ``run(seed)`` reseeds before the sketch runs.
LIBRARY_SEED = 0x5EED

_JS = "text/javascript; charset=utf-8"
_INDEX_HTML = b"""<!doctype html>
<html><head><meta charset="utf-8"><title>sketch</title>
<style>html,body{margin:0;padding:0;overflow:hidden;background:#fff}</style>
<script src="/lib/p5.min.js"></script>
<script src="/lib/p5.brush.js"></script>
<script src="/harness/attach.js"></script>
</head><body></body></html>
"""
_ATTACH_JS = b"window.__sketchenv.attach();\n"


class InfrastructureError(RuntimeError):
    """The browser failed in a way that is not the sketch's fault; the attempt is retried."""


@cache
def _harness_template() -> str:
    return resources.files("sketch_env.render").joinpath("harness.js").read_text("utf-8")


def harness_script(config: RenderConfig) -> str:
    """Returns the init script for a renderer's pages.

    Args:
        config: The renderer's limits, baked into the script.

    Returns:
        JavaScript source for ``BrowserContext.add_init_script``.
    """
    values = {
        "librarySeed": LIBRARY_SEED,
        "antialias": config.antialias,
        "maxFrames": config.max_frames,
        "maxCanvasSide": config.max_canvas_side,
        "maxCanvasPixels": config.max_canvas_pixels,
        "maxErrors": 50,
        "maxErrorChars": 2000,
        "startGraceMs": config.start_grace_ms,
        "sketchUrl": SKETCH_PATH,
    }
    return _harness_template().replace("__CONFIG__", json.dumps(values))


def _static_files() -> dict[str, tuple[bytes, str]]:
    return {
        "/index.html": (_INDEX_HTML, "text/html; charset=utf-8"),
        "/lib/p5.min.js": (read_vendor_bytes("p5/p5.min.js"), _JS),
        "/lib/p5.brush.js": (read_vendor_bytes("p5.brush/p5.brush.js"), _JS),
        "/harness/attach.js": (_ATTACH_JS, _JS),
    }


def encode_source(source: str | bytes) -> bytes:
    """Encodes a sketch as the UTF-8 bytes served to the page.

    Args:
        source: Sketch text; bytes are decoded as UTF-8 with invalid sequences replaced, so a
            policy's broken bytes become a syntax error in the page rather than a crash here.

    Returns:
        UTF-8 bytes.
    """
    if isinstance(source, bytes | bytearray):
        source = bytes(source).decode("utf-8", errors="replace")
    # Lone surrogates cannot be encoded; the browser would show U+FFFD for them anyway.
    return source.encode("utf-8", errors="replace")


@dataclass
class Attempt:
    """One attempt's outcome, before it becomes a `Render`.

    Args:
        render: The result.
        browser_suspect: Whether the browser should be replaced before its next render (its
            context would not close, or it behaved oddly).
    """

    render: Render
    browser_suspect: bool = False


@dataclass
class _Session:
    """Per-attempt state shared with Playwright's event callbacks."""

    blocked: list[str] = field(default_factory=list)
    served_index: bool = False
    page_crashed: bool = False
    navigated_to: str | None = None
    main_page: Page | None = None
    #: The sketch served at ``SKETCH_PATH``; set when a render claims the page, so a page can
    #: be opened and loaded (pre-warmed) before its sketch is known.
    source: bytes = b""
    tasks: set[asyncio.Future[Any]] = field(default_factory=set)


@dataclass
class OpenedPage:
    """A fresh context with its one page, routed to the virtual origin, not yet navigated.

    Args:
        browser: The browser it belongs to.
        context: Its own context, used for this one render only.
        page: The page.
        session: Request and event state shared with the routing callbacks.
        navigated: Whether the page was already navigated to the index and loaded (pre-warmed).
    """

    browser: Browser
    context: BrowserContext
    page: Page
    session: _Session
    navigated: bool = False


async def _close_context(context: BrowserContext, timeout_s: float) -> bool:
    try:
        async with asyncio.timeout(timeout_s):
            await context.close()
        return True
    except (TimeoutError, PlaywrightError):
        return False


async def open_page(browser: Browser, config: RenderConfig, init_script: str) -> OpenedPage:
    """Opens a fresh context and page with the harness, routing and sandbox handlers in place.

    Args:
        browser: A connected browser of the pool.
        config: Limits.
        init_script: `harness_script` output.

    Returns:
        The `OpenedPage`; the caller owns its context and must close it.

    Raises:
        InfrastructureError: If the browser could not open it.
    """
    session = _Session()
    files = _static_files()
    try:
        context = await asyncio.wait_for(
            browser.new_context(
                viewport={"width": config.viewport[0], "height": config.viewport[1]},
                device_scale_factor=1,
                # p5 2.x turns WebGL antialiasing on by default when the user agent says
                # "Safari", which Chrome's does; see RenderConfig.antialias for why it is off.
                user_agent=(
                    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
                    f"HeadlessChrome/{browser.version} sketch-env"
                ),
                service_workers="block",
                accept_downloads=False,
            ),
            timeout=config.launch_timeout_s,
        )
    except (TimeoutError, PlaywrightError) as exc:
        raise InfrastructureError(f"could not open a browser context: {exc}") from exc

    async def handle_request(route: Route) -> None:
        request = route.request
        url = request.url
        path = url[len(ORIGIN) :].split("?", 1)[0].split("#", 1)[0]
        try:
            if not url.startswith(ORIGIN + "/"):
                session.blocked.append(url[:300])
                if request.is_navigation_request():
                    # 204 keeps the current document: an aborted navigation would replace it
                    # with an error page and take the painting with it.
                    await route.fulfill(status=204)
                else:
                    await route.abort("blockedbyclient")
            elif request.is_navigation_request() and session.served_index:
                await route.fulfill(status=204)
            elif path == SKETCH_PATH:
                await route.fulfill(status=200, body=session.source, headers={"content-type": _JS})
            elif path in files:
                body, content_type = files[path]
                if path == "/index.html":
                    session.served_index = True
                await route.fulfill(status=200, body=body, headers={"content-type": content_type})
            else:
                await route.fulfill(status=404, body=b"not found")
        except PlaywrightError:
            pass  # The context is closing; nothing to answer.

    async def handle_websocket(ws: WebSocketRoute) -> None:
        session.blocked.append(ws.url[:300])
        with contextlib.suppress(PlaywrightError):
            await ws.close(code=1008, reason="blocked by the sketch sandbox")

    def on_page(page: Page) -> None:
        if session.main_page is not None and page is not session.main_page:
            session.blocked.append("popup window")
            # Held until done: the loop keeps only weak references to tasks.
            task = asyncio.ensure_future(page.close())
            session.tasks.add(task)
            task.add_done_callback(session.tasks.discard)

    try:
        # Bounded: a browser that dies between these calls must not leave them pending forever.
        async with asyncio.timeout(config.launch_timeout_s):
            await context.add_init_script(script=init_script)
            await context.route("**/*", handle_request)
            await context.route_web_socket(re.compile(r".*"), handle_websocket)
            context.on("page", on_page)
            page = await context.new_page()
    except (TimeoutError, PlaywrightError) as exc:
        await _close_context(context, timeout_s=5.0)
        raise InfrastructureError(f"could not open a page: {exc}") from exc
    session.main_page = page
    page.on("dialog", lambda dialog: asyncio.ensure_future(dialog.dismiss()))

    def on_crash(_: Page) -> None:
        session.page_crashed = True

    def on_navigated(frame: Any) -> None:
        if frame == page.main_frame and not frame.url.startswith(ORIGIN + "/"):
            session.navigated_to = frame.url

    page.on("crash", on_crash)
    page.on("framenavigated", on_navigated)
    return OpenedPage(browser, context, page, session)


async def run_attempt(
    browser: Browser,
    source_bytes: bytes,
    seed: int,
    config: RenderConfig,
    backend: str,
    init_script: str,
    prepared: OpenedPage | None = None,
) -> Attempt:
    """Renders one sketch in a fresh context of ``browser``, bounded by ``config.deadline_s``.

    Args:
        browser: A connected browser of the pool.
        source_bytes: The sketch, UTF-8.
        seed: The render's seed.
        config: Limits.
        backend: Backend name, reported in the result.
        init_script: `harness_script` output.
        prepared: A never-used page of ``browser`` already loaded to phase ``ready`` (see
            `sketch_env.render.prewarm`); ``None`` opens and loads one now. Either way the
            context serves this render only and is closed at its end.

    Returns:
        The `Attempt`.

    Raises:
        InfrastructureError: If the browser failed (retry on another or a relaunched browser).
    """
    start = time.perf_counter()
    opened = prepared if prepared is not None else await open_page(browser, config, init_script)
    opened.session.source = source_bytes
    suspect = False
    try:
        render = await _drive(
            opened.page,
            opened.session,
            seed,
            config,
            backend,
            start,
            browser,
            navigate=not opened.navigated,
        )
    except InfrastructureError:
        suspect = True
        raise
    finally:
        closed = await _close_context(opened.context, timeout_s=5.0)
        suspect = suspect or not closed
    return Attempt(render, browser_suspect=suspect)


async def _drive(
    page: Page,
    session: _Session,
    seed: int,
    config: RenderConfig,
    backend: str,
    start: float,
    browser: Browser,
    navigate: bool = True,
) -> Render:
    """Loads the page, starts the sketch and polls it until it is done or the deadline passes.

    With ``navigate=False`` the page is already loaded (pre-warmed): the first poll finds it
    ``ready`` and the render costs only injecting and running the sketch.
    """
    state: dict[str, Any] = {}
    timed_out = False
    try:
        async with asyncio.timeout_at(asyncio.get_running_loop().time() + config.deadline_s):
            if navigate:
                await page.goto(INDEX_URL, wait_until="commit", timeout=config.deadline_s * 1000)
            ran = False
            while True:
                state = await page.evaluate("() => window.__sketchenv.poll()")
                if state["phase"] == "ready" and not ran:
                    ran = bool(await page.evaluate("(s) => window.__sketchenv.run(s)", seed))
                if state["phase"] == "done":
                    break
                if session.navigated_to is not None:
                    break
                await asyncio.sleep(config.poll_interval_s)
            data_url = await page.evaluate("() => window.__sketchenv.image()")
    except TimeoutError:
        timed_out = True
        data_url = await _salvage(page)
    except PlaywrightError as exc:
        if not browser.is_connected():
            raise InfrastructureError(f"the browser went away: {exc}") from exc
        if session.page_crashed:
            return _finish(
                RenderStatus.JS_ERROR,
                None,
                [
                    *state.get("errors", []),
                    "harness: the page crashed; the sketch most likely ran out of memory "
                    f"(the JavaScript heap is capped at {config.js_heap_mb} MB)",
                ],
                state,
                seed,
                backend,
                start,
                session,
            )
        if session.navigated_to is None and "context was destroyed" in str(exc):
            # Only a new document destroys the page's context: the sketch navigated away
            # (about:blank and javascript: URLs never reach request routing).
            url = page.url
            session.navigated_to = url if url and not url.startswith(ORIGIN) else "a new document"
        if session.navigated_to is None:
            raise InfrastructureError(f"the page failed: {exc}") from exc
        data_url = None
    if session.navigated_to is not None:
        return _finish(
            RenderStatus.JS_ERROR,
            None,
            [
                *state.get("errors", []),
                f"harness: the sketch navigated the page away (to {session.navigated_to[:200]})",
            ],
            state,
            seed,
            backend,
            start,
            session,
        )
    png = _decode_data_url(data_url)
    # PNG decoding and counting take ~10 ms for 600x600: off the loop that drives the pool.
    coverage = await asyncio.to_thread(paint_fraction, png) if png is not None else 0.0
    errors = list(state.get("errors", []))
    reason = state.get("doneReason")
    if timed_out:
        errors.append(
            f"harness: the render did not finish within {config.deadline_s:g} s "
            "(an endless loop, or a sketch far too heavy)"
        )
        status = RenderStatus.TIMEOUT
    elif reason == "no_p5":
        errors.append(
            "harness: p5 never started: define `function setup()` (or `draw`) at the top "
            "level; `const setup = () => ...` is not seen by p5's global mode"
        )
        status, png, coverage = RenderStatus.NO_CANVAS, None, 0.0
    elif reason == "error":
        if state.get("canvasKind") == "2d" and state.get("userCanvas"):
            errors.append("harness: the canvas is 2D; p5.brush needs createCanvas(w, h, WEBGL)")
        painted = png is not None and coverage > MIN_PAINT_FOR_UNFINISHED
        status = RenderStatus.UNFINISHED if painted else RenderStatus.JS_ERROR
    elif png is None:
        errors.append("harness: the sketch has no canvas to read (removed, or never created)")
        status = RenderStatus.NO_CANVAS
    elif reason == "frame_cap":
        status = RenderStatus.FRAME_CAPPED
    else:
        status = RenderStatus.OK
    return _finish(status, png, errors, state, seed, backend, start, session, coverage)


async def _salvage(page: Page) -> str | None:
    """Reads whatever the canvas holds after the deadline, if the page still answers at all."""
    try:
        async with asyncio.timeout(1.0):
            return await page.evaluate("() => window.__sketchenv.captureNow()")
    except (TimeoutError, PlaywrightError):
        return None


def _decode_data_url(data_url: Any) -> bytes | None:
    prefix = "data:image/png;base64,"
    if not isinstance(data_url, str) or not data_url.startswith(prefix):
        return None
    png = base64.b64decode(data_url[len(prefix) :])
    # An empty canvas (0 x 0) reads back as "data:," or as a header-only PNG; treat it as none.
    return png if len(png) > 67 else None


def _finish(
    status: RenderStatus,
    png: bytes | None,
    errors: list[str],
    state: dict[str, Any],
    seed: int,
    backend: str,
    start: float,
    session: _Session,
    coverage: float = 0.0,
) -> Render:
    return Render(
        status=status,
        png=png,
        paint_fraction=coverage,
        errors=tuple(errors),
        elapsed_ms=(time.perf_counter() - start) * 1000.0,
        backend=backend,
        seed=seed,
        frames=int(state.get("frames", 0) or 0),
        width=int(state.get("width", 0) or 0),
        height=int(state.get("height", 0) or 0),
        blocked_requests=tuple(dict.fromkeys(session.blocked)),
    )
