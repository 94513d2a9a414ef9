"""The render protocol: one sketch, one fresh frame of a host page, one bounded attempt.

Every rule here answers a measured failure (docs/design.md §3):

* The sketch is never inlined into HTML. A ``</script>`` anywhere in its text would end the
  script block; the frame's document, the libraries and the sketch are separate resources served
  from the virtual domain through request routing (`sketch_env.render.host`), and the sketch is
  served as UTF-8 JavaScript (decoded as Latin-1, p5's Unicode regular expressions fail to
  compile).
* Readiness is polled with explicit evaluations while the frame loads (Playwright's rAF-based
  waits stall on background pages). Once the sketch may run, nothing is read with a main-world
  evaluation again (the sketch controls what Playwright looks up there: ``eval``,
  ``Array.prototype.slice``, ``.then``): the harness pushes its report through a secret CDP
  binding, validated on arrival (`sketch_env.render.readback`).
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
import json
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from importlib import resources
from typing import Any

from playwright.async_api import Error as PlaywrightError

from sketch_env.picture.paint import paint_fraction
from sketch_env.render.api_calls import attributed_names, harness_table
from sketch_env.render.budget import MACHINE, SketchClock, WallClock
from sketch_env.render.config import RenderConfig
from sketch_env.render.host import (
    SKETCH_PATH,
    BrowserFailure,
    FrameSession,
    HostPage,
    SketchFrame,
)
from sketch_env.render.provenance import harness_provenance
from sketch_env.render.readback import MAX_ERROR_CHARS, MAX_ERRORS, HarnessReport
from sketch_env.render.result import Render, RenderStatus

__all__ = ["Attempt", "BrowserFailure", "encode_source", "harness_script", "run_attempt"]

#: Below this paint fraction an errored sketch "painted nothing" (11 pixels of the 150-pixel
#: copy paint is measured on, the area of about 180 pixels of a 600x600 canvas): js_error
#: rather than unfinished.
MIN_PAINT_FOR_UNFINISHED = 0.0005

#: Libraries load under this fixed seed; ``run(seed)`` reseeds before the sketch runs.
LIBRARY_SEED = 0x5EED

#: The virtual clock (docs/rendering.md, "Determinism"): dates count from this instant
#: (2026-01-01T00:00:00Z), ``performance.now()`` from ``CLOCK_START_MS`` when the sketch is
#: started, and every read of any clock moves it on by ``CLOCK_READ_STEP_MS`` (1 us: a sketch
#: that waits for ``millis() > 1000`` in a loop gets there after a million reads, 1.0 s measured
#: on a busy 2-core machine; one that waits for ever still meets the deadline).
CLOCK_EPOCH_MS = 1_767_225_600_000
CLOCK_START_MS = 0.0
CLOCK_READ_STEP_MS = 0.001
#: The fields of the legacy ``performance.timing`` record (all the epoch).
_TIMING_FIELDS = (
    "navigationStart",
    "unloadEventStart",
    "unloadEventEnd",
    "redirectStart",
    "redirectEnd",
    "fetchStart",
    "domainLookupStart",
    "domainLookupEnd",
    "connectStart",
    "connectEnd",
    "secureConnectionStart",
    "requestStart",
    "responseStart",
    "responseEnd",
    "domLoading",
    "domInteractive",
    "domContentLoadedEventStart",
    "domContentLoadedEventEnd",
    "domComplete",
    "loadEventStart",
    "loadEventEnd",
)

#: ``Error.stackTraceLimit`` in every frame, locked by the harness (it attributes calls from
#: stack frames, docs/rendering.md "Run-time accounting").
STACK_LIMIT = 32


@cache
def _harness_template() -> str:
    return resources.files("sketch_env.render").joinpath("harness.js").read_text("utf-8")


def harness_script(config: RenderConfig, binding: str) -> str:
    """Returns the init script for a host page's frames.

    Args:
        config: The renderer's limits, baked into the script.
        binding: The host's secret readback binding name (`sketch_env.render.readback`).

    Returns:
        JavaScript source for ``BrowserContext.add_init_script``.
    """
    values = {
        "librarySeed": LIBRARY_SEED,
        "antialias": config.antialias,
        "maxFrames": config.max_frames,
        "maxCanvasSide": config.max_canvas_side,
        "maxCanvasPixels": config.max_canvas_pixels,
        "maxErrors": MAX_ERRORS,
        "maxErrorChars": MAX_ERROR_CHARS,
        "startGraceMs": config.start_grace_ms,
        "sketchUrl": SKETCH_PATH,
        "binding": binding,
        "api": harness_table(),
        "provenance": harness_provenance(attributed_names()),
        "stackLimit": STACK_LIMIT,
        "clock": clock_config(config),
    }
    # The placeholder's declaration only: the header comment names it too, and a second copy
    # of the configuration (100 KB) there made every frame parse and hash it twice.
    return _harness_template().replace(
        "const CONFIG = __CONFIG__;", f"const CONFIG = {json.dumps(values)};"
    )


def clock_config(config: RenderConfig) -> dict[str, Any]:
    """The virtual clock every frame's clocks read (docs/rendering.md, "Determinism").

    Args:
        config: The renderer's limits (the heap cap is what ``performance.memory`` reports).

    Returns:
        The ``clock`` entry of the harness's configuration.
    """
    epoch = datetime.fromtimestamp(CLOCK_EPOCH_MS / 1000, tz=UTC)
    heap = config.js_heap_mb * 1024 * 1024
    return {
        "epochMs": CLOCK_EPOCH_MS,
        "startMs": CLOCK_START_MS,
        "readStepMs": CLOCK_READ_STEP_MS,
        "frameMs": 1000 / 60,
        "timingFields": list(_TIMING_FIELDS),
        "memory": {
            "jsHeapSizeLimit": heap,
            "totalJSHeapSize": heap // 8,
            "usedJSHeapSize": heap // 16,
        },
        "lastModified": epoch.strftime("%m/%d/%Y %H:%M:%S"),
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
    clock: SketchClock | WallClock | None = None,
) -> Attempt:
    """Renders one sketch in a fresh frame, bounded by ``config.deadline_s``.

    Args:
        sketch_frame: A never-used frame at phase ``ready`` (see `HostPage.new_frame`). It
            serves this render only; the caller removes it (or closes its host) afterwards.
        source_bytes: The sketch, UTF-8.
        seed: The render's seed.
        config: Limits.
        backend: Backend name, reported in the result.
        clock: Keeps the sketch's own time (`SketchClock`, from its browser's processes);
            ``None`` bounds the render by wall time alone.

    Returns:
        The `Attempt`.

    Raises:
        BrowserFailure: If the browser failed (retry on another or a relaunched browser).
    """
    start = time.perf_counter()
    host = sketch_frame.host
    sketch_frame.session.source = source_bytes
    host.active = sketch_frame
    host.renders += 1
    # Whether the host survives is the caller's call (`FrameSupply.finish`), from ``clean``.
    if clock is None:
        clock = WallClock(config.deadline_s)
    render, clean = await _drive(sketch_frame, seed, config, backend, start, clock)
    return Attempt(render, clean=clean)


async def _drive(
    sketch_frame: SketchFrame,
    seed: int,
    config: RenderConfig,
    backend: str,
    start: float,
    clock: SketchClock | WallClock,
) -> tuple[Render, bool]:
    """Starts the sketch and waits for its harness's report until its budget is spent.

    Returns:
        The render, and whether the frame ended cleanly (see `Attempt.clean`).
    """
    frame, session, host = sketch_frame.frame, sketch_frame.session, sketch_frame.host
    report: HarnessReport | None = None
    timed_out = False
    loop = asyncio.get_running_loop()
    watcher: asyncio.Future[None] | None = None
    try:
        async with asyncio.timeout(None) as bound:
            # The clock ends the render by moving this timeout to now (docs/rendering.md,
            # "Fair under load"): when the sketch has used its budget, or when the machine
            # held it back past the wall cap.
            watcher = asyncio.ensure_future(clock.run_out(lambda: bound.reschedule(loop.time())))
            # The frame is at `ready`: no sketch code exists in it yet, so this main-world
            # evaluation is the last one and cannot be tampered with. Everything after it
            # arrives through the readback binding (sketch_env.render.readback).
            while not await frame.evaluate(
                "([s, t]) => window.__sketchenv.run(s, t)", [seed, session.token]
            ):
                await asyncio.sleep(config.poll_interval_s)
            report = await _wait_for_report(session, host, config)
            if report is not None:
                await _confirm_document(sketch_frame)
            watcher.cancel()
    except TimeoutError:
        timed_out = True
        report = await _salvage(sketch_frame)
    except PlaywrightError as exc:
        if not host.browser.is_connected():
            raise BrowserFailure(f"the browser went away: {exc}") from exc
        if not session.page_crashed and session.navigated_to is None:
            raise BrowserFailure(f"the page failed: {exc}") from exc
    finally:
        if watcher is not None:
            watcher.cancel()
    if timed_out and clock.verdict == MACHINE:
        # Not the sketch's fault: it had not used its budget when the wall cap came.
        note = (
            "harness: the machine was too loaded to finish the render: at the wall cap of "
            f"{config.deadline_s * config.max_wall_factor:g} s the sketch had used "
            f"{clock.describe()}, less than its {config.deadline_s:g} s budget; not charged"
        )
        render = Render(
            RenderStatus.CRASHED,
            errors=(note,),
            elapsed_ms=(time.perf_counter() - start) * 1000.0,
            backend=backend,
            seed=seed,
            blocked_requests=tuple(dict.fromkeys(session.blocked)),
        )
        return render, False
    if session.violations:
        return _violation(session.violations, seed, backend, start, session), False
    if report is not None and report.violation:
        return _violation(report.errors, seed, backend, start, session), False
    errors = list(report.errors) if report is not None else []
    if session.page_crashed:
        errors.append(
            "harness: the page crashed; the sketch most likely ran out of memory "
            f"(the JavaScript heap is capped at {config.js_heap_mb} MB)"
        )
        return _finish(
            RenderStatus.JS_ERROR, None, errors, report, seed, backend, start, session
        ), False
    if session.navigated_to is not None:
        errors.append(
            f"harness: the sketch navigated the page away (to {session.navigated_to[:200]})"
        )
        return _finish(
            RenderStatus.JS_ERROR, None, errors, report, seed, backend, start, session
        ), False
    png = report.png if report is not None else None
    try:
        # PNG decoding and counting take ~10 ms for 600x600: off the loop that drives the pool.
        coverage = await asyncio.to_thread(paint_fraction, png) if png is not None else 0.0
    except Exception as exc:  # The header passed its checks; a body that does not decode.
        problem = f"the picture does not decode: {exc}"
        return _violation([problem], seed, backend, start, session), False
    reason = report.reason if report is not None else None
    if timed_out:
        errors.append(
            f"harness: the render did not finish within {config.deadline_s:g} s "
            f"(it used {clock.describe()}: an endless loop, or a sketch far too heavy)"
        )
        status = RenderStatus.TIMEOUT
    elif reason == "no_p5":
        errors.append(
            "harness: p5 never started: define `function setup()` (or `draw`) at the top "
            "level; `const setup = () => ...` is not seen by p5's global mode"
        )
        status, png, coverage = RenderStatus.NO_CANVAS, None, 0.0
    elif reason == "error":
        assert report is not None
        if report.canvas_kind == "2d" and report.user_canvas:
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
    render = _finish(status, png, errors, report, seed, backend, start, session, coverage)
    return render, not timed_out


async def _wait_for_report(
    session: FrameSession, host: HostPage, config: RenderConfig
) -> HarnessReport | None:
    """Waits (under the caller's deadline) for the harness's ``done`` report.

    Returns ``None`` early when the frame can no longer report: it navigated away, its page
    crashed, or a forged message arrived (the render is then a violation whatever follows).
    """
    while True:
        if session.violations or session.page_crashed or session.navigated_to is not None:
            return None
        if not host.browser.is_connected():
            raise BrowserFailure("the browser went away")
        try:
            report = await asyncio.wait_for(session.reports.get(), config.poll_interval_s * 5)
        except TimeoutError:
            continue
        if report.kind == "done":
            return report


async def _confirm_document(sketch_frame: SketchFrame) -> None:
    """Checks that the frame still shows the document that reported.

    A sketch that sets ``location.href = 'about:blank'`` as its last act reports ``done``
    before the navigation commits; one round trip to its JavaScript context (a CDP
    evaluation of a constant: nothing of the page is looked up) finds the context gone, and
    the picture with it.
    """
    session, cdp = sketch_frame.session, sketch_frame.host.cdp
    if cdp is None or session.context_id is None or session.navigated_to is not None:
        return
    try:
        async with asyncio.timeout(2.0):
            await cdp.send("Runtime.evaluate", {"expression": "0", "contextId": session.context_id})
    except TimeoutError:
        return  # Busy (a draw loop still running): the report stands.
    except PlaywrightError as exc:
        if "context" in str(exc).lower() and session.navigated_to is None:
            session.navigated_to = sketch_frame.frame.url or "a new document"


async def _salvage(sketch_frame: SketchFrame) -> HarnessReport | None:
    """Asks a frame past its deadline for its canvas, if it still answers at all.

    The request goes straight to the frame's main world over CDP (``Runtime.evaluate`` of a
    call on the frozen, non-configurable harness object: nothing the sketch defined is looked
    up on the way), and the answer comes back through the binding like any other report.
    """
    session, cdp = sketch_frame.session, sketch_frame.host.cdp
    if cdp is None or session.context_id is None:
        return None
    try:
        async with asyncio.timeout(1.0):
            await cdp.send(
                "Runtime.evaluate",
                {
                    "expression": "void window.__sketchenv.captureNow()",
                    "contextId": session.context_id,
                },
            )
            while True:
                report = await session.reports.get()
                if report.kind == "salvage":
                    return report
    except (TimeoutError, PlaywrightError):
        return None


def _violation(
    problems: Any, seed: int, backend: str, start: float, session: FrameSession
) -> Render:
    """A render whose result could not be trusted: nothing from the page is kept."""
    errors = [f"harness: the result failed its checks ({p})" for p in list(problems)[:5]]
    errors.append(
        "harness: the sketch interfered with the render harness; it is scored as its own fault"
    )
    return _finish(
        RenderStatus.HARNESS_VIOLATION, None, errors, None, seed, backend, start, session
    )


def _finish(
    status: RenderStatus,
    png: bytes | None,
    errors: list[str],
    report: HarnessReport | None,
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
        frames=report.frames if report is not None else 0,
        width=report.width if report is not None else 0,
        height=report.height if report is not None else 0,
        blocked_requests=tuple(dict.fromkeys(session.blocked)),
        api_calls=dict(report.api_calls) if report is not None else None,
    )
