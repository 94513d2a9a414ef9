"""The run-time check: the gate's rules, applied again to what the render measured.

The static gate reads the source and cannot see through aliasing or data flow (docs/design.md
§4.4): ``const e = ellipse; e(...)`` or a drawing call that never runs. The renderer measures,
where the sketch cannot tamper (the harness's accounting, read through the secret readback
channel), which drawing APIs the sketch actually used and what size its picture is
(`sketch_env.render.Render.api_calls`, ``width``/``height``). `runtime_check` holds that
measurement to the same contract as the static gate, with switches in the same `GateConfig`
(``require_brush_paint``: a drawing call *and* paint p5.brush itself put on the canvas;
``runtime_forbid_primitives``, ``runtime_forbid_raw_graphics``, ``canvas_size``) and refusals
in the same `GateIssue` form, so the reward receives one list of refusals and never re-derives
them. A refused render is not scored at all.
"""

from __future__ import annotations

from collections.abc import Mapping

from sketch_env.gate.verdict import GateConfig, GateIssue
from sketch_env.render.api_calls import (
    brush_draw_calls,
    brush_paint,
    primitive_calls,
    raw_graphics_calls,
)
from sketch_env.render.result import Render, RenderStatus

__all__ = ["USE_BRUSH", "runtime_check"]

#: What to paint with instead, quoted in every refusal of a drawing API.
USE_BRUSH = (
    "paint with p5.brush instead: brush.set + brush.line/brush.spline/brush.flowLine for "
    "strokes, brush.fill + brush.rect/brush.circle/brush.polygon/brush.beginShape…endShape for "
    "shapes, brush.hatch for hatching; background() stays allowed"
)


def _named(calls: Mapping[str, int]) -> str:
    return ", ".join(f"{name} ×{count}" for name, count in list(calls.items())[:8])


def runtime_check(render: Render, config: GateConfig | None = None) -> tuple[GateIssue, ...]:
    """What the render's own measurements refuse under the gate's rules.

    Args:
        render: The render (its status, measured ``api_calls`` and picture size are read;
            the size was checked against the PNG header on arrival, so the sketch cannot
            misreport it).
        config: The rules; the defaults when ``None``.

    Returns:
        The refusals, as `GateIssue` (codes ``harness_violation``, ``runtime_canvas_size``,
        ``runtime_primitives``, ``runtime_raw_graphics``, ``runtime_no_brush_paint``); empty
        when the render may be scored.

    Examples:
        >>> from sketch_env.render import Render, RenderStatus
        >>> painted = {"brush.line": 3, "brush:paint": 3}
        >>> ok = Render(RenderStatus.OK, api_calls=painted, width=600, height=600)
        >>> runtime_check(ok)
        ()
        >>> bad = Render(RenderStatus.OK, api_calls={"ellipse": 4}, width=64, height=64)
        >>> [issue.code for issue in runtime_check(bad)]
        ['runtime_canvas_size', 'runtime_primitives', 'runtime_no_brush_paint']
    """
    config = config or GateConfig()
    if render.status is RenderStatus.HARNESS_VIOLATION:
        # Nothing the sketch reported is kept, so nothing else is measured.
        return (
            GateIssue(
                "harness_violation",
                "the sketch interfered with the render harness (forged or unreadable result); "
                "do not override built-ins, p5 internals or the page's globals",
            ),
        )
    found: list[GateIssue] = []
    finished = render.status.is_finished
    size = (render.width, render.height)
    # A width of 0 means no picture was read (nothing to measure), not a zero-sized canvas.
    if finished and render.width and config.canvas_size not in (None, size):
        width, height = config.canvas_size
        found.append(
            GateIssue(
                "runtime_canvas_size",
                f"the picture is {size[0]}x{size[1]} pixels, not {width}x{height}: create "
                f"the canvas with createCanvas({width}, {height}, WEBGL) and leave its "
                "size and pixel density as they are",
            )
        )
    calls = render.api_calls
    if calls is None:
        return tuple(found)
    primitives = primitive_calls(calls)
    if config.runtime_forbid_primitives and primitives:
        found.append(
            GateIssue(
                "runtime_primitives",
                f"the sketch painted with plain p5 functions ({_named(primitives)}); " + USE_BRUSH,
            )
        )
    raw = raw_graphics_calls(calls)
    if config.runtime_forbid_raw_graphics and raw:
        found.append(
            GateIssue(
                "runtime_raw_graphics",
                f"the sketch used raw graphics ({_named(raw)}); " + USE_BRUSH,
            )
        )
    if config.require_brush_paint and finished:
        if brush_draw_calls(calls) == 0:
            found.append(
                GateIssue(
                    "runtime_no_brush_paint",
                    "the sketch made no p5.brush drawing call (setters such as brush.set, "
                    "brush.fill or brush.noStroke paint nothing); " + USE_BRUSH,
                )
            )
        elif brush_paint(calls) == 0:
            # Measured by the harness on the draws p5.brush itself made onto the canvas: a
            # drawing call that leaves no mark (a zero-length stroke) is no paint.
            found.append(
                GateIssue(
                    "runtime_no_brush_paint",
                    "no p5.brush mark reached the canvas (a zero-length stroke or a shape "
                    "without size paints nothing); " + USE_BRUSH,
                )
            )
    return tuple(found)
