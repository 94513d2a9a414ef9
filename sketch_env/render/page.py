"""The render protocol: one sketch, one fresh frame of a host page, one bounded attempt.

Every rule here answers a measured failure (DESIGN.md §3):

* The sketch is never inlined into HTML. A ``</script>`` anywhere in its text would end the
  script block; the frame's document, the libraries and the sketch are separate resources served
  from the virtual domain through request routing (`sketch_env.render.host`), and the sketch is
  served as UTF-8 JavaScript (decoded as Latin-1, p5's Unicode regular expressions fail to
  compile).
* Readiness is polled with explicit evaluations: Playwright's rAF-based waits stall on
  background pages.
* Every wait is under one wall-clock deadline. ``while (true) {}`` in ``setup`` blocks the page's
  only thread and an evaluation never returns; closing the *context* returned in 0.03 s and left
  the browser healthy, so a timed-out attempt condemns its host page (whose context is closed),
  and a context that will not close condemns its browser.
* A fresh document on a fresh origin per render (see `sketch_env.render.host` for why a frame
  and not a whole browser context): storage, globals and timers cannot carry anything from one
  rollout into the next.
"""

from __future__ import annotations

import asyncio
import base64
import json
import time
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, cast

from playwright.async_api import Error as PlaywrightError

from sketch_env.render.config import RenderConfig
from sketch_env.render.coverage import paint_fraction
from sketch_env.render.host import SKETCH_PATH, FrameSession, InfrastructureError, SketchFrame
from sketch_env.render.result import Render, RenderStatus

__all__ = ["Attempt", "InfrastructureError", "encode_source", "harness_script", "run_attempt"]

#: Below this share of painted pixels an errored sketch "painted nothing" (about 180 pixels of a
#: 600x600 canvas): js_error rather than unfinished.
MIN_PAINT_FOR_UNFINISHED = 0.0005

#: Libraries load under this fixed seed; ``run(seed)`` reseeds before the sketch runs.
LIBRARY_SEED = 0x5EED


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
        clean: Whether the frame ended in a state a later render may share a host page with
            (finished, errored or frame-capped); a timeout, a crash or a navigation away
            condemns the host page.
    """

    render: Render
    clean: bool = True


async def run_attempt(
    sketch_frame: SketchFrame,
    source_bytes: bytes,
    seed: int,
    config: RenderConfig,
    backend: str,
) -> Attempt:
    """Renders one sketch in a fresh frame, bounded by ``config.deadline_s``.

    Args:
        sketch_frame: A never-used frame at phase ``ready`` (see `HostPage.new_frame`). It
            serves this render only; the caller removes it (or closes its host) afterwards.
        source_bytes: The sketch, UTF-8.
        seed: The render's seed.
        config: Limits.
        backend: Backend name, reported in the result.

    Returns:
        The `Attempt`.

    Raises:
        InfrastructureError: If the browser failed (retry on another or a relaunched browser).
    """
    start = time.perf_counter()
    host = sketch_frame.host
    sketch_frame.session.source = source_bytes
    host.active = sketch_frame
    host.renders += 1
    # Whether the host survives is the caller's call (`FrameSupply.finish`), from ``clean``.
    render, clean = await _drive(sketch_frame, seed, config, backend, start)
    return Attempt(render, clean=clean)


async def _drive(
    sketch_frame: SketchFrame, seed: int, config: RenderConfig, backend: str, start: float
) -> tuple[Render, bool]:
    """Starts the sketch and polls it until it is done or the deadline passes.

    Returns:
        The render, and whether the frame ended cleanly (see `Attempt.clean`).
    """
    frame, session, host = sketch_frame.frame, sketch_frame.session, sketch_frame.host
    state: dict[str, Any] = {}
    timed_out = False
    try:
        async with asyncio.timeout_at(asyncio.get_running_loop().time() + config.deadline_s):
            ran = False
            while True:
                state = await frame.evaluate("() => window.__sketchenv.poll()")
                if state["phase"] == "ready" and not ran:
                    ran = bool(await frame.evaluate("(s) => window.__sketchenv.run(s)", seed))
                if state["phase"] == "done":
                    break
                if session.navigated_to is not None:
                    break
                await asyncio.sleep(config.poll_interval_s)
            data_url = await frame.evaluate("() => window.__sketchenv.image()")
    except TimeoutError:
        timed_out = True
        data_url = await _salvage(sketch_frame)
    except PlaywrightError as exc:
        if not host.browser.is_connected():
            raise InfrastructureError(f"the browser went away: {exc}") from exc
        if session.page_crashed:
            render = _finish(
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
            return render, False
        if session.navigated_to is None and not frame.is_detached():
            # Only a new document destroys the frame's context or its harness: the sketch
            # navigated its frame away (about:blank and javascript: URLs never reach routing).
            url = frame.url
            if not url.startswith(session.origin + "/"):
                session.navigated_to = url or "a new document"
            elif "context was destroyed" in str(exc):
                session.navigated_to = "a new document"
        if session.navigated_to is None:
            raise InfrastructureError(f"the page failed: {exc}") from exc
        data_url = None
    if session.navigated_to is not None:
        render = _finish(
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
        return render, False
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
    render = _finish(status, png, errors, state, seed, backend, start, session, coverage)
    return render, not timed_out


async def _salvage(sketch_frame: SketchFrame) -> str | None:
    """Reads whatever the canvas holds after the deadline, if the frame still answers at all."""
    try:
        async with asyncio.timeout(1.0):
            return cast(
                "str | None",
                await sketch_frame.frame.evaluate("() => window.__sketchenv.captureNow()"),
            )
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
    session: FrameSession,
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
