"""The run-time gate (`sketch_env.gate.runtime`): what a finished render drew with and the size
of the canvas read back, refused or let through, and its switches in `GateConfig`."""

from __future__ import annotations

import pytest

from sketch_env.catalog.vocabulary import CANVAS_SIZE
from sketch_env.gate import GateConfig
from sketch_env.gate.runtime import runtime_check
from sketch_env.render.result import Render, RenderStatus


def runtime_gate(
    config: GateConfig,
    status: str,
    api_calls: dict[str, int] | None,
    size: tuple[int, int] | None = None,
) -> list[tuple[str, str]]:
    """The run-time check's refusals of a render with this status, accounting and size."""
    width, height = size or (0, 0)
    render = Render(RenderStatus(status), api_calls=api_calls, width=width, height=height)
    return [(issue.code, issue.message) for issue in runtime_check(render, config)]


def test_runtime_gate_switches_and_what_it_leaves_alone() -> None:
    calls = {"ellipse": 4, "drawingContext": 1, "brush.line": 1, "brush:paint": 1}
    assert runtime_gate(GateConfig(), "ok", calls) != []
    lenient = GateConfig(runtime_forbid_primitives=False, runtime_forbid_raw_graphics=False)
    assert runtime_gate(lenient, "ok", calls) == []
    # No brush drawing call: refused when it finished, left to the error branch when it threw.
    assert [c for c, _ in runtime_gate(GateConfig(), "ok", {})] == ["runtime_no_brush_paint"]
    assert runtime_gate(GateConfig(), "js_error", {}) == []
    assert runtime_gate(GateConfig(require_brush_paint=False), "frame_capped", {}) == []
    # A drawing call that put no paint on the canvas (a zero-length stroke) is refused alike,
    # with its own reason; the paint p5.brush made is what the harness measured.
    ((code, reason),) = runtime_gate(GateConfig(), "ok", {"brush.line": 1})
    assert code == "runtime_no_brush_paint" and "zero-length" in reason
    assert runtime_gate(GateConfig(), "ok", {"brush.line": 1, "brush:paint": 1}) == []
    # The rule is a drawing call *and* paint: p5.brush paint reached without any drawing call
    # (through one of its objects' methods the accounting does not count) is refused as well.
    ((code, reason),) = runtime_gate(GateConfig(), "ok", {"brush:paint": 3})
    assert code == "runtime_no_brush_paint" and "no p5.brush drawing call" in reason
    assert runtime_gate(GateConfig(require_brush_paint=False), "ok", {"brush.line": 1}) == []
    # Nothing measured (e.g. a render made before the accounting existed): no refusal, except
    # a harness violation, which always is one.
    assert runtime_gate(GateConfig(), "ok", None) == []
    assert runtime_gate(lenient, "harness_violation", None)[0][0] == "harness_violation"
    with pytest.raises(ValueError, match="bool"):
        GateConfig(require_brush_paint="yes")  # type: ignore[arg-type]
    custom = GateConfig(require_brush_paint=False)
    assert GateConfig.from_json(custom.to_json()) == custom


def test_the_canvas_size_is_checked_on_the_picture_read_back() -> None:
    brush = {"brush.line": 2, "brush:paint": 2}
    assert runtime_gate(GateConfig(), "ok", brush, CANVAS_SIZE) == []
    for size in ((64, 64), (1200, 1200), (600, 300)):
        ((code, reason),) = runtime_gate(GateConfig(), "ok", brush, size)
        assert code == "runtime_canvas_size"
        assert f"{size[0]}x{size[1]}" in reason and "createCanvas(600, 600, WEBGL)" in reason
    # A render that did not finish is the error branch's; no size, no check; None turns it off.
    assert runtime_gate(GateConfig(), "js_error", brush, (64, 64)) == []
    assert runtime_gate(GateConfig(), "frame_capped", brush, (64, 64)) != []
    assert runtime_gate(GateConfig(), "ok", brush, None) == []
    assert runtime_gate(GateConfig(canvas_size=None), "ok", brush, (64, 64)) == []
    assert runtime_gate(GateConfig(canvas_size=(300, 200)), "ok", brush, (300, 200)) == []
    # It also refuses alongside the call accounting, and without any accounting.
    codes = [c for c, _ in runtime_gate(GateConfig(), "ok", {"ellipse": 1}, (64, 64))]
    assert codes == ["runtime_canvas_size", "runtime_primitives", "runtime_no_brush_paint"]
    assert runtime_gate(GateConfig(), "ok", None, (64, 64))[0][0] == "runtime_canvas_size"


@pytest.mark.parametrize("size", [(600,), (0, 600), (600.0, 600), "600x600", (True, 600)])
def test_a_bad_canvas_size_is_refused(size: object) -> None:
    with pytest.raises(ValueError, match="canvas_size"):
        GateConfig(canvas_size=size)  # type: ignore[arg-type]


def test_the_canvas_size_round_trips_through_json() -> None:
    assert GateConfig().canvas_size == CANVAS_SIZE == (600, 600)
    for config in (
        GateConfig(),
        GateConfig(canvas_size=None),
        GateConfig(canvas_size=[8, 9]),  # type: ignore[arg-type]
    ):
        again = GateConfig.from_json(config.to_json())
        assert again == config and hash(again) == hash(config)
    assert GateConfig(canvas_size=[8, 9]).canvas_size == (8, 9)  # type: ignore[arg-type]
