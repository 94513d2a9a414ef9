"""The host page: one long-lived page per browser, and a fresh, isolated frame for every render.

A render used to cost a new browser context, and with it a new renderer process, a new network
context and a new page: 0.15 s of wall time and 0.12 CPU-s of the browser process before any
script ran, then p5.js (1 MB) compiled from scratch (measured here: ``new_context`` +
``new_page`` + ``close``, ten times, on llvmpipe). On a 2-core machine that fixed cost, not
rasterisation, capped throughput near 1.5 renders/s. So each browser slot keeps one *host page*
in one context, and every sketch runs in a new ``<iframe>`` of it: a new document and JavaScript
realm in a renderer process that is already running, where V8 finds p5's compiled code in its
per-process cache. One browser went from 1.9 to 5.6 trivial renders/s, with pictures
byte-identical to the fresh-context design (same PNG hashes for a stroke and a watercolour).

What a fresh context gave, each frame keeps:

* **A new document.** Nothing of a previous sketch's globals, timers, canvases or p5 instance
  exists in a new frame, and the previous frame is removed from the host when its render ends.
* **A new origin.** Frame *n* of a host is served from ``http://r<n>.sketch-env.invalid``, an
  origin no earlier render used, so ``localStorage``, ``sessionStorage``, IndexedDB and friends
  start empty. Cookies can be scoped to a parent domain and would escape that, so the harness
  gives every document a private, in-memory cookie jar instead.
* **No way out.** The frame is cross-origin to the host and to its sibling (the next render's
  frame, being prepared), so a sketch can reach neither; its ``sandbox`` refuses top-level
  navigation, popups, modal dialogs and forms. Every request still goes through the same routing
  as before: nothing leaves the virtual origin.
* **A bounded life.** A render that times out, crashes its page, navigates away or leaves
  anything odd behind condemns the whole host page: its context is closed (which works even
  while a sketch spins in ``while (true) {}``, docs/design.md §3.10) and the next render gets a new
  one. Hosts are also replaced after ``RenderConfig.renders_per_page`` renders;
  ``renders_per_page=1`` is the old fresh-context-per-render design.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, cast
from urllib.parse import parse_qs, urlsplit

from playwright.async_api import (
    Browser,
    BrowserContext,
    CDPSession,
    Frame,
    Page,
    Route,
    WebSocketRoute,
)
from playwright.async_api import Error as PlaywrightError

from sketch_env.errors import InfrastructureError
from sketch_env.render.config import RenderConfig
from sketch_env.render.libraries import served_library
from sketch_env.render.readback import HarnessReport, ReadbackError, parse_message

logger = logging.getLogger(__name__)

#: The virtual domain. ``.invalid`` can never resolve, so nothing real is reachable by name.
DOMAIN = "sketch-env.invalid"
HOST_URL = f"http://{DOMAIN}/host.html"
SKETCH_PATH = "/sketch.js"
FRAME_PATH = "/index.html"
#: Where lockdown.js reports an attempt it refused (``?what=webrtc: RTCPeerConnection``).
REPORT_PATH = "/__sandbox/report"

_JS = "text/javascript; charset=utf-8"
_HTML = "text/html; charset=utf-8"
_HOST_HTML = b"""<!doctype html>
<html><head><meta charset="utf-8"><title>sketch_env host</title>
<style>html,body{margin:0;padding:0;overflow:hidden;background:#fff}
iframe{position:absolute;left:0;top:0;border:0;display:block}</style>
</head><body></body></html>
"""
_FRAME_HTML = b"""<!doctype html>
<html><head><meta charset="utf-8"><title>sketch</title>
<style>html,body{margin:0;padding:0;overflow:hidden;background:#fff}</style>
<script src="/lib/p5.min.js"></script>
<script src="/lib/p5.brush.js"></script>
<script src="/harness/attach.js"></script>
</head><body></body></html>
"""
_ATTACH_JS = b"window.__sketchenv.attach();\n"
#: The policy of every frame's document (and of any frame a sketch makes in it, which inherits
#: it). Scripts come only from the frame's own origin, where routing serves the libraries, the
#: harness and the sketch: no eval, no ``Function``, no string timers, no inline or
#: ``javascript:`` code, so no code can exist that the harness did not see loaded (and a
#: ``//# sourceURL`` cannot relabel any). Neither p5 nor p5.brush needs eval to paint (p5 builds
#: a ``Function`` only for its shader "strands", which the reward refuses anyway). No workers:
#: their ``Math.random`` and clocks are outside the harness's reach.
FRAME_CSP = "script-src 'self'; worker-src 'none'; object-src 'none'; base-uri 'none'"

#: A host holds one frame at a time: the next render's frame is made after the previous one is
#: removed (frames share the host's main thread; see `sketch_env.render.frames`). It fills the
#: viewport, fully visible: Chromium throttles rendering of cross-origin frames it considers
#: hidden, and a sketch's draw loop runs on it.
_CREATE_FRAME_JS = """(f) => {
  const el = document.createElement('iframe');
  el.setAttribute('sandbox', 'allow-scripts allow-same-origin');
  el.dataset.origin = f.origin;
  el.style.width = f.width + 'px';
  el.style.height = f.height + 'px';
  el.src = f.url;
  document.body.appendChild(el);
}"""
_REMOVE_FRAME_JS = """(origin) => {
  for (const el of document.querySelectorAll('iframe')) {
    if (el.dataset.origin === origin) el.remove();
  }
}"""


def binding_name() -> str:
    """A fresh secret name for a host page's readback binding."""
    return "__sketchenv_" + secrets.token_hex(12)


class BrowserFailure(InfrastructureError):
    """The browser failed in a way that is not the sketch's fault; the attempt is retried."""


@cache
def _static_files() -> dict[str, tuple[bytes, str]]:
    return {
        "/lib/p5.min.js": (served_library("p5"), _JS),
        "/lib/p5.brush.js": (served_library("brush"), _JS),
        "/harness/attach.js": (_ATTACH_JS, _JS),
    }


@cache
def _lockdown_template() -> str:
    return resources.files("sketch_env.render").joinpath("lockdown.js").read_text("utf-8")


def lockdown_script(config: RenderConfig) -> str:
    """Returns the init script that removes WebRTC and caps OffscreenCanvas in every document.

    Args:
        config: The renderer's limits (the canvas caps apply to OffscreenCanvas too).

    Returns:
        JavaScript source for ``BrowserContext.add_init_script``.
    """
    values = {
        "maxCanvasSide": config.max_canvas_side,
        "maxCanvasPixels": config.max_canvas_pixels,
        "reportUrl": f"http://{DOMAIN}{REPORT_PATH}",
    }
    return _lockdown_template().replace("__LOCKDOWN__", json.dumps(values))


def _is_ours(url: str) -> tuple[bool, str, str]:
    """Whether ``url`` is on the virtual domain, and its host name and path."""
    try:
        parts = urlsplit(url)
        hostname = parts.hostname or ""
    except ValueError:
        return False, "", ""
    ours = parts.scheme == "http" and (hostname == DOMAIN or hostname.endswith("." + DOMAIN))
    return ours, hostname, parts.path


@dataclass
class FrameSession:
    """What one render's frame did, as seen from request routing and page events.

    Args:
        origin_host: The frame's own host name (``r<n>.sketch-env.invalid``).
    """

    origin_host: str
    #: The sketch served at ``SKETCH_PATH`` of this frame's origin; set when a render claims
    #: the frame, so a frame can be loaded (pre-warmed) before its sketch is known.
    source: bytes = b""
    blocked: list[str] = field(default_factory=list)
    page_crashed: bool = False
    navigated_to: str | None = None
    #: The render's secret: only its harness (told in ``run()``) can put it in a message.
    token: str = field(default_factory=lambda: secrets.token_hex(16))
    #: Validated harness messages, in arrival order (see `sketch_env.render.readback`).
    reports: asyncio.Queue[HarnessReport] = field(default_factory=asyncio.Queue)
    #: Messages that failed validation while this render ran: the render is a violation.
    violations: list[str] = field(default_factory=list)
    #: The frame's main-world execution context, learnt from the harness's first message.
    context_id: int | None = None

    @property
    def origin(self) -> str:
        """The frame's origin, ``http://r<n>.sketch-env.invalid``."""
        return f"http://{self.origin_host}"


@dataclass
class SketchFrame:
    """A loaded, never-used frame of a host page, at the harness's ``ready`` phase.

    Args:
        host: The host page it lives in.
        frame: Playwright's handle on it.
        session: Its routing and event state.
    """

    host: HostPage
    frame: Frame
    session: FrameSession


class HostPage:
    """One browser context and page that serve many renders, one fresh frame each.

    Open with `HostPage.open`; a render takes a frame from `new_frame`, runs in it, and hands it
    back to `remove_frame`, or the whole host is closed if anything went wrong.

    Args:
        browser: The browser it belongs to.
        context: Its own context.
        config: Limits (viewport, timeouts).
    """

    def __init__(self, browser: Browser, context: BrowserContext, config: RenderConfig) -> None:
        self.browser = browser
        self.context = context
        self.page: Page | None = None
        #: The host page's own CDP session: the readback binding's events arrive on it.
        self.cdp: CDPSession | None = None
        #: The readback binding's secret name (see `sketch_env.render.readback`).
        self.binding = binding_name()
        self._config = config
        #: Frames created so far; frame *n* is served from origin ``r<n>``.
        self.frames_made = 0
        #: Renders run here (the host is replaced after ``config.renders_per_page``).
        self.renders = 0
        #: Set when something happened that a later render must not inherit.
        self.broken = False
        self.crashed = False
        #: The frame whose sketch is running, which owns blocked requests and page events.
        self.active: SketchFrame | None = None
        self._expected: set[str] = set()
        self._host_served = False
        self._attached: asyncio.Future[Frame] | None = None
        self._tasks: set[asyncio.Future[Any]] = set()
        #: DevTools session on the host page, to clear each finished frame's storage.
        self._cdp: CDPSession | None = None

    # ------------------------------------------------------------------ lifetime
    @classmethod
    async def open(
        cls, browser: Browser, config: RenderConfig, init_script: Callable[[str], str]
    ) -> HostPage:
        """Opens a context and its host page, routed to the virtual domain and loaded.

        Args:
            browser: A connected browser of the pool.
            config: Limits.
            init_script: Builds the harness (`harness_script`) for a readback binding name;
                it runs in every frame before any other script.

        Returns:
            The host page; the caller owns it and must `close` it.

        Raises:
            BrowserFailure: If the browser could not open or load it in time.
        """
        width, height = config.viewport
        try:
            async with asyncio.timeout(config.launch_timeout_s):
                context = await browser.new_context(
                    viewport={"width": width, "height": height},
                    device_scale_factor=1,
                    # p5 2.x turns WebGL antialiasing on by default when the user agent says
                    # "Safari", which Chrome's does; see RenderConfig.antialias for why not.
                    user_agent=(
                        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
                        f"HeadlessChrome/{browser.version} sketch-env"
                    ),
                    service_workers="block",
                    accept_downloads=False,
                    # The virtual clock's dates are UTC, and a date's local fields and
                    # strings must not change with the machine (docs/rendering.md).
                    timezone_id="UTC",
                    locale="en-US",
                )
        except (TimeoutError, PlaywrightError) as exc:
            raise BrowserFailure(f"could not open a browser context: {exc}") from exc
        host = cls(browser, context, config)
        try:
            async with asyncio.timeout(config.launch_timeout_s):
                await context.add_init_script(script=lockdown_script(config))
                await context.add_init_script(script=init_script(host.binding))
                await context.route("**/*", host._route)
                await context.route_web_socket(re.compile(r".*"), host._block_websocket)
                context.on("page", host._on_page)
                page = await context.new_page()
                host.page = page
                # The binding exists in a document only with the Runtime domain on (measured:
                # without it the init script found no function). Added before the first
                # document, so it is there when the harness takes it off the global object.
                host.cdp = await context.new_cdp_session(page)
                host.cdp.on("Runtime.bindingCalled", host._on_binding)
                await host.cdp.send("Runtime.enable")
                await host.cdp.send("Runtime.addBinding", {"name": host.binding})
                page.on("dialog", lambda dialog: host._spawn(dialog.dismiss()))
                page.on("crash", host._on_crash)
                page.on("frameattached", host._on_frame_attached)
                page.on("framenavigated", host._on_frame_navigated)
                await page.goto(HOST_URL, wait_until="load")
                host._cdp = await context.new_cdp_session(page)
        except (TimeoutError, PlaywrightError) as exc:
            await host.close()
            raise BrowserFailure(f"could not open the host page: {exc}") from exc
        return host

    @property
    def usable(self) -> bool:
        """Whether another render may run here."""
        return (
            not self.broken
            and not self.crashed
            and self.page is not None
            and not self.page.is_closed()
            and self.browser.is_connected()
            and self.renders < self._config.renders_per_page
        )

    async def close(self, timeout_s: float = 5.0) -> bool:
        """Closes the context (and with it every frame, running or not).

        Args:
            timeout_s: Bound on the close.

        Returns:
            Whether it closed in time; a context that will not close condemns its browser.
        """
        self.broken = True
        try:
            async with asyncio.timeout(timeout_s):
                await self.context.close()
            return True
        except (TimeoutError, PlaywrightError):
            return False

    def close_soon(self) -> None:
        """Marks the host broken and closes it in the background (from synchronous code)."""
        self.broken = True
        self._spawn(self.close())

    # ------------------------------------------------------------------ frames
    async def new_frame(self, timeout_s: float | None = None) -> SketchFrame:
        """Adds a fresh frame on a fresh origin and waits until its harness is ``ready``.

        Args:
            timeout_s: Bound on the whole preparation; ``config.launch_timeout_s`` when ``None``.

        Returns:
            The frame; the caller runs one render in it.

        Raises:
            BrowserFailure: If the frame did not become ready in time (the host is then
                marked broken).
        """
        assert self.page is not None
        bound = self._config.launch_timeout_s if timeout_s is None else timeout_s
        self.frames_made += 1
        session = FrameSession(f"r{self.frames_made}.{DOMAIN}")
        self._expected.add(session.origin_host)
        width, height = self._config.viewport
        loop = asyncio.get_running_loop()
        self._attached = loop.create_future()
        try:
            async with asyncio.timeout(bound):
                await self.page.evaluate(
                    _CREATE_FRAME_JS,
                    {
                        "origin": session.origin_host,
                        "url": session.origin + FRAME_PATH,
                        "width": width,
                        "height": height,
                    },
                )
                frame = await self._attached
                while True:
                    phase = await _frame_phase(frame)
                    if phase == "ready":
                        break
                    if phase not in ("loading", "none"):
                        raise BrowserFailure(f"a new frame left 'loading' as {phase!r}")
                    await asyncio.sleep(self._config.poll_interval_s)
        except (TimeoutError, PlaywrightError, BrowserFailure) as exc:
            self.broken = True
            raise BrowserFailure(f"could not prepare a frame: {exc}") from exc
        finally:
            self._attached = None
        return SketchFrame(self, frame, session)

    async def remove_frame(self, frame: SketchFrame, timeout_s: float = 2.0) -> None:
        """Removes a finished frame from the host; on failure the host is marked broken.

        Args:
            frame: A frame of this host whose render ended.
            timeout_s: Bound on the removal (a frame still busy with its sketch's timers keeps
                the host's thread too; then the host is replaced instead).
        """
        if self.active is frame:
            self.active = None
        if self.page is None or self.broken:
            return
        try:
            async with asyncio.timeout(timeout_s):
                await self.page.evaluate(_REMOVE_FRAME_JS, frame.session.origin_host)
                if self._cdp is not None:
                    # A fresh origin starts empty, but what an old one stored stays in the
                    # browser process until the context closes: IndexedDB grew the tree by
                    # 106 MB per render (429 MB in a variant). Cleared as soon as it is unused.
                    await self._cdp.send(
                        "Storage.clearDataForOrigin",
                        {"origin": frame.session.origin, "storageTypes": "all"},
                    )
        except (TimeoutError, PlaywrightError):
            self.broken = True

    # ------------------------------------------------------------------ routing and events
    async def _route(self, route: Route) -> None:
        request = route.request
        url = request.url
        ours, hostname, path = _is_ours(url)
        active = self.active.session if self.active is not None else None
        html = {"content-type": _HTML}
        try:
            if not ours:
                if active is not None:
                    active.blocked.append(url[:300])
                if request.is_navigation_request():
                    # 204 keeps the current document: an aborted navigation would replace it
                    # with an error page and take the painting with it.
                    await route.fulfill(status=204)
                else:
                    await route.abort("blockedbyclient")
            elif request.is_navigation_request():
                if hostname == DOMAIN and path == "/host.html" and not self._host_served:
                    self._host_served = True
                    await route.fulfill(status=200, body=_HOST_HTML, headers=html)
                elif hostname in self._expected and path == FRAME_PATH:
                    # Each frame's document is served once; a sketch reloading or navigating
                    # its frame gets 204 and keeps its document.
                    self._expected.discard(hostname)
                    headers = {**html, "content-security-policy": FRAME_CSP}
                    await route.fulfill(status=200, body=_FRAME_HTML, headers=headers)
                else:
                    await route.fulfill(status=204)
            elif hostname == DOMAIN and path == REPORT_PATH:
                if active is not None:
                    what = parse_qs(urlsplit(url).query).get("what", [""])[0]
                    active.blocked.append(what[:100] or "a refused call")
                await route.fulfill(status=204)
            elif path == SKETCH_PATH:
                if active is not None and hostname == active.origin_host:
                    headers = {"content-type": _JS}
                    await route.fulfill(status=200, body=active.source, headers=headers)
                else:
                    await route.fulfill(status=404, body=b"not found")
            elif (static := _static_files().get(path)) is not None:
                body, content_type = static
                await route.fulfill(status=200, body=body, headers={"content-type": content_type})
            else:
                await route.fulfill(status=404, body=b"not found")
        except PlaywrightError:
            pass  # The context is closing; nothing to answer.

    async def _block_websocket(self, ws: WebSocketRoute) -> None:
        if self.active is not None:
            self.active.session.blocked.append(ws.url[:300])
        with contextlib.suppress(PlaywrightError):
            await ws.close(code=1008, reason="blocked by the sketch sandbox")

    def _on_page(self, page: Page) -> None:
        if self.page is not None and page is not self.page:
            # The frame's sandbox refuses popups; this is the second line of defence.
            if self.active is not None:
                self.active.session.blocked.append("popup window")
            self._spawn(page.close())

    def _on_binding(self, event: dict[str, Any]) -> None:
        # Called by Playwright for every binding call of every frame of the host; it must
        # never raise. Only the running render's harness knows its token.
        try:
            if event.get("name") != self.binding:
                return
            active = self.active
            if active is None:
                return
            session = active.session
            try:
                report = parse_message(event.get("payload"), session.token, self._config)
            except ReadbackError as exc:
                session.violations.append(str(exc)[:300])
                return
            context_id = event.get("executionContextId")
            if session.context_id is None and report.kind == "start":
                session.context_id = context_id if isinstance(context_id, int) else None
            elif context_id != session.context_id:
                session.violations.append("a message came from another JavaScript context")
                return
            session.reports.put_nowait(report)
        except Exception as exc:  # A handler that raised would only be logged by Playwright.
            logger.warning("readback message dropped: %s", exc)
            if self.active is not None:
                self.active.session.violations.append(f"unreadable message: {exc}"[:300])

    def _on_crash(self, _: Page) -> None:
        self.crashed = True
        if self.active is not None:
            self.active.session.page_crashed = True

    def _on_frame_attached(self, frame: Frame) -> None:
        # Only the host creates frames directly under its main frame; a sketch's own iframes
        # are attached under the sketch's frame.
        if (
            self.page is not None
            and frame.parent_frame == self.page.main_frame
            and self._attached is not None
            and not self._attached.done()
        ):
            self._attached.set_result(frame)

    def _on_frame_navigated(self, frame: Frame) -> None:
        active = self.active
        if active is None or frame is not active.frame:
            return
        # The running sketch's frame now shows another document (about:blank or a javascript:
        # URL; requests elsewhere get a 204 and never commit): the painting is gone with it.
        if _is_ours(frame.url)[1] != active.session.origin_host:
            active.session.navigated_to = frame.url or "a new document"

    def _spawn(self, coro: Any) -> None:
        # Held until done: the loop keeps only weak references to tasks.
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


async def _frame_phase(frame: Frame) -> str:
    """The harness phase of a frame still loading (``none`` before its harness exists)."""
    try:
        return cast(
            str,
            await frame.evaluate(
                "() => window.__sketchenv ? window.__sketchenv.poll().phase : 'none'"
            ),
        )
    except PlaywrightError as exc:
        # Before the frame's first document commits, its execution context does not exist yet.
        if "detached" in str(exc).lower():
            raise
        return "none"
