"""What a render returns: the picture, how it ended, and everything needed to trust it."""

from __future__ import annotations

import enum
import io
import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from PIL import Image

from sketch_env.catalog.vocabulary import CANVAS_SIZE
from sketch_env.picture.pixels import to_rgb_array
from sketch_env.render.api_calls import (
    brush_draw_calls,
    brush_paint,
    primitive_calls,
    raw_graphics_calls,
)


class RenderStatus(enum.StrEnum):
    """How a render ended.

    ``OK``, ``FRAME_CAPPED`` and ``UNFINISHED`` carry a picture worth scoring; ``CRASHED`` is an
    infrastructure failure that is not the sketch's fault (its reward should be ``None``);
    every other status is the sketch's own failure.
    """

    #: Setup returned and, if the sketch has a ``draw``, the loop stopped after a frame.
    OK = "ok"
    #: ``draw`` never called ``noLoop()``; the picture was taken after the frame cap.
    FRAME_CAPPED = "frame_capped"
    #: The sketch threw after painting: the picture holds what it painted before the error.
    UNFINISHED = "unfinished"
    #: The deadline passed (e.g. an infinite loop). A picture is kept if one could be read.
    TIMEOUT = "timeout"
    #: The sketch threw (or failed to parse) before painting anything.
    JS_ERROR = "js_error"
    #: p5 never started (no global ``setup``/``draw``) or the sketch removed its canvas.
    NO_CANVAS = "no_canvas"
    #: Refused before running: too large, or not text.
    REJECTED = "rejected"
    #: The browser's process tree grew past ``RenderConfig.max_render_memory_mb`` during the
    #: render (ArrayBuffers, GPU textures, storage: memory the JavaScript heap cap does not
    #: bound); the memory watchdog killed the browser.
    MEMORY_EXCEEDED = "memory_exceeded"
    #: The picture was taken, but the sketch left work running (e.g. GPU draws queued after the
    #: picture) that did not drain within ``RenderConfig.drain_timeout_s``; the browser was
    #: replaced so the next sketch does not pay for it.
    LEFTOVER_WORK = "leftover_work"
    #: The browser failed twice (crash, lost connection): infrastructure, not the sketch.
    CRASHED = "crashed"
    #: The sketch interfered with the render harness (a forged or unreadable result, the
    #: harness's hooks run on an object of its own): nothing it reported is kept, and it is
    #: the sketch's fault.
    HARNESS_VIOLATION = "harness_violation"

    @property
    def has_picture(self) -> bool:
        """Whether renders with this status carry a picture of the sketch's own making."""
        return self in (RenderStatus.OK, RenderStatus.FRAME_CAPPED, RenderStatus.UNFINISHED)

    @property
    def is_finished(self) -> bool:
        """Whether the sketch ran to its end (``ok``, or ``frame_capped``: a ``draw`` that never
        stopped, captured after the frame cap); the run-time check applies to these."""
        return self in (RenderStatus.OK, RenderStatus.FRAME_CAPPED)

    @property
    def is_infrastructure_failure(self) -> bool:
        """Whether the failure is the environment's, not the policy's (reward ``None``)."""
        return self is RenderStatus.CRASHED

    @property
    def is_sketch_fault(self) -> bool:
        """Whether the render failed through the sketch's own doing (it threw, ran too long,
        held too much memory, left work running, interfered with the harness...). An
        ``unfinished`` render counts, even though what it painted first is kept."""
        return not (self.is_finished or self.is_infrastructure_failure)

    @property
    def advice(self) -> str | None:
        """What to tell a policy whose render ended this way (``None`` for a clean ``ok``)."""
        return _ADVICE.get(self)


#: What `RenderStatus.advice` says of a render that did not end cleanly: one line a policy can
#: act on (a test keeps every failure status explained).
_ADVICE: dict[RenderStatus, str] = {
    RenderStatus.CRASHED: "The browser failed (not your fault); render the same sketch again.",
    RenderStatus.TIMEOUT: (
        "The sketch did not finish in time: look for an endless loop or far too many brush strokes."
    ),
    RenderStatus.JS_ERROR: "The sketch threw before painting anything.",
    RenderStatus.NO_CANVAS: (
        "No canvas was painted: define a global setup() that calls "
        f"createCanvas({CANVAS_SIZE[0]}, {CANVAS_SIZE[1]}, WEBGL)."
    ),
    RenderStatus.REJECTED: "The renderer refused the sketch (too large, or not text).",
    RenderStatus.UNFINISHED: "The sketch threw part way: the picture holds only what came before.",
    RenderStatus.FRAME_CAPPED: (
        "draw() never called noLoop(): stop the loop once the picture is done."
    ),
    RenderStatus.MEMORY_EXCEEDED: (
        "The sketch held too much memory (huge arrays, canvases or textures): allocate less."
    ),
    RenderStatus.LEFTOVER_WORK: (
        "The sketch left GPU work running after its picture: stop every loop and timer "
        "once the picture is done."
    ),
    RenderStatus.HARNESS_VIOLATION: (
        "The sketch interfered with the render harness: do not override built-ins, "
        "p5 internals or the page's globals."
    ),
}


@dataclass(frozen=True, slots=True)
class Render:
    """The result of rendering one sketch.

    Args:
        status: How the render ended.
        png: The canvas as PNG bytes (RGBA, as the canvas holds it), or ``None`` when no
            picture could be read.
        paint_fraction: Share of the picture that carries paint, by the one definition the
            reward reads too (`sketch_env.picture.paint`); ``0.0`` without a picture.
        errors: JavaScript errors in the order they happened, plus ``harness:`` notes.
        elapsed_ms: Wall time from the call to the result, including retries: `queue_ms` (waiting
            for a free browser) plus `render_ms` (the render itself). Under load most of it
            can be queueing (measured: one sketch took 214 ms first in line and 2,928 ms behind
            a full batch), so quote `render_ms` for what the sketch cost.
        queue_ms: Time spent waiting for a free browser (every attempt's wait, summed).
        backend: The GL backend that rendered it (pictures are reproducible only within one).
        seed: The seed given to ``Math.random``, p5's ``random``/``noise`` and p5.brush.
        frames: ``draw`` frames that completed.
        width: Canvas width in pixels (0 without a canvas).
        height: Canvas height in pixels.
        attempts: Browser attempts used (2 means an infrastructure failure was retried).
        blocked_requests: URLs the sketch tried to reach outside the sandbox.
        api_calls: Drawing API name -> calls the sketch made, measured at run time where the
            sketch cannot tamper (see `sketch_env.render.api_calls`); ``None`` when nothing was
            measured (the sketch never ran, or its result was not trusted).
    """

    status: RenderStatus
    png: bytes | None = field(default=None, repr=False)
    paint_fraction: float = 0.0
    errors: tuple[str, ...] = ()
    elapsed_ms: float = 0.0
    backend: str = ""
    seed: int = 0
    frames: int = 0
    width: int = 0
    height: int = 0
    attempts: int = 1
    blocked_requests: tuple[str, ...] = ()
    queue_ms: float = 0.0
    api_calls: dict[str, int] | None = None

    @property
    def render_ms(self) -> float:
        """Time the render itself took: `elapsed_ms` less the time queued for a browser."""
        return max(0.0, self.elapsed_ms - self.queue_ms)

    @property
    def brush_draw_calls(self) -> int:
        """p5.brush drawing calls the sketch made (setters such as ``brush.set`` excluded)."""
        return brush_draw_calls(self.api_calls or {})

    @property
    def brush_paint(self) -> int:
        """Draws p5.brush itself made onto the canvas (0: no brush mark reached it, however
        many drawing calls were made)."""
        return brush_paint(self.api_calls or {})

    @property
    def primitive_calls(self) -> dict[str, int]:
        """Plain p5 drawing functions the sketch called (``ellipse``, ``text``…), with counts."""
        return primitive_calls(self.api_calls or {})

    @property
    def raw_graphics_calls(self) -> dict[str, int]:
        """Raw graphics the sketch used (``drawingContext``, ``loadPixels``…), with counts."""
        return raw_graphics_calls(self.api_calls or {})

    @property
    def ok(self) -> bool:
        """Whether the sketch finished cleanly (status ``OK``)."""
        return self.status is RenderStatus.OK

    @property
    def has_picture(self) -> bool:
        """Whether there is a picture of the sketch's own making to show a policy: a PNG and a
        status that carries one (`RenderStatus.has_picture`)."""
        return self.png is not None and self.status.has_picture

    def image(self, size: int | tuple[int, int] | None = None) -> Image.Image:
        """Returns the picture as an RGB PIL image, transparent pixels over white.

        Args:
            size: One side (a square) or ``(width, height)`` to resize to (bilinear); the
                picture's own size when ``None``. Every view of a picture that a policy gets
                (the gymnasium observation, the OpenEnv observation's PNG, the TRL tool's
                image) is resized by `resized`, so they agree pixel for pixel at one size.

        Raises:
            ValueError: If the render has no picture, or ``size`` is not positive.
        """
        if self.png is None:
            raise ValueError(f"this render has no picture (status {self.status.value})")
        return resized(Image.fromarray(self.array()), size)

    def png_at(self, size: int | tuple[int, int] | None = None) -> bytes:
        """The picture as PNG bytes: the renderer's own (RGBA) when ``size`` is ``None``, else
        `image` at ``size`` (RGB over white), encoded again.

        Raises:
            ValueError: If the render has no picture, or ``size`` is not positive.
        """
        if self.png is None:
            raise ValueError(f"this render has no picture (status {self.status.value})")
        if size is None:
            return self.png
        out = io.BytesIO()
        self.image(size).save(out, format="PNG", optimize=True)
        return out.getvalue()

    def array(self) -> np.ndarray:
        """Returns the picture as an ``(H, W, 3)`` uint8 array, transparent pixels over white.

        Raises:
            ValueError: If the render has no picture.
        """
        if self.png is None:
            raise ValueError(f"this render has no picture (status {self.status.value})")
        return to_rgb_array(Image.open(io.BytesIO(self.png)))

    def to_dict(self) -> dict[str, Any]:
        """Returns a JSON-serialisable view without the picture."""
        return {
            "status": self.status.value,
            "paint_fraction": self.paint_fraction,
            "errors": list(self.errors),
            "elapsed_ms": self.elapsed_ms,
            "queue_ms": self.queue_ms,
            "render_ms": self.render_ms,
            "backend": self.backend,
            "seed": self.seed,
            "frames": self.frames,
            "width": self.width,
            "height": self.height,
            "attempts": self.attempts,
            "blocked_requests": list(self.blocked_requests),
            "api_calls": dict(self.api_calls) if self.api_calls is not None else None,
            "brush_draw_calls": self.brush_draw_calls,
            "brush_paint": self.brush_paint,
            "has_png": self.png is not None,
        }

    def to_json(self) -> str:
        """Returns `to_dict` as a JSON string."""
        return json.dumps(self.to_dict())


def resized(image: Image.Image, size: int | tuple[int, int] | None) -> Image.Image:
    """A picture at the size a policy is shown (bilinear), or as it is.

    Args:
        image: The picture.
        size: One side (a square), ``(width, height)``, or ``None`` for its own size.

    Returns:
        The picture at that size (the same object when it already has it).

    Raises:
        ValueError: If a side is not positive.
    """
    if size is None:
        return image
    width, height = (size, size) if isinstance(size, int) else (int(v) for v in size)
    if width < 1 or height < 1:
        raise ValueError(f"size must be positive, got {size!r}")
    if image.size == (width, height):
        return image
    return image.resize((width, height), Image.Resampling.BILINEAR)
