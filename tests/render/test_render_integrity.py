"""A sketch cannot forge its result, and what it draws with is measured where it cannot tamper.

Every attack here was measured against the old readback (main-world ``frame.evaluate``, whose
``eval``, ``Array.prototype.slice`` and ``.then`` lookups the sketch controlled; issue 12) and
is rendered on the real pool. After each, the next good render on the same renderer must still
be correct. The run-time accounting of drawing APIs (issue 13 §4) is checked the same way:
aliases of p5 primitives are counted, p5.brush's own use of p5 is not.
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import re
import struct
import zlib
from collections.abc import Awaitable, Callable, Iterator

import pytest
from PIL import Image

from sketch_env import RenderStatus, SketchRenderer
from sketch_env.catalog.assets import vendor_dir
from sketch_env.evaluation import Evaluator, RolloutStatus
from sketch_env.gate import GateConfig
from sketch_env.gate.runtime import runtime_check
from sketch_env.render.api_calls import BRUSH_OBJECT_DRAW
from sketch_env.render.config import RenderConfig
from sketch_env.render.host import FrameSession, HostPage
from sketch_env.render.readback import ReadbackError, check_png, parse_message
from sketch_env.render.result import Render
from sketch_env.reward import RewardConfig, RewardStatus
from tests.conftest import (
    BARE_SKETCH,
    GOOD_SKETCH,
    HOSTILE_DEADLINE_S,
    assert_good_render,
    require_chromium,
)

#: A WEBGL canvas that the sketch leaves blank (transparent), and a 2D canvas it paints red:
#: what an attacker would like scored instead.
BLANK_WITH_FORGERY = """
const fake = document.createElement('canvas');
fake.width = 300; fake.height = 300;
const fctx = fake.getContext('2d');
fctx.fillStyle = '#d02020'; fctx.fillRect(0, 0, 300, 300);
const FORGED = fake.toDataURL('image/png');
function setup() {
  createCanvas(300, 300, WEBGL);
  brush.set('2B', '#223388', 2);
  brush.noStroke();
%s
}
"""

#: The picture of the old harness's state, forged.
FORGED_STATE = (
    "{phase: 'done', doneReason: 'complete', errors: [], frames: 0, setupDone: true,"
    " started: true, hasImage: true, canvasKind: 'webgl', userCanvas: true,"
    " width: 300, height: 300}"
)


def _png_header(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    chunk = struct.pack(">I", 13) + b"IHDR" + ihdr
    return b"\x89PNG\r\n\x1a\n" + chunk + struct.pack(">I", zlib.crc32(chunk[4:]))


def _forge_eval(value: str) -> str:
    # A computed key passes the static gate's name checks; Playwright looked `eval` up here.
    return (
        f"  const E = ['ev', 'al'].join(''); const forged = {value};\n"
        "  globalThis[E] = () => forged;"
    )


def _assert_blank(result) -> None:
    assert result.status is RenderStatus.OK, result.errors
    assert result.png is not None
    assert result.paint_fraction < 0.01, result.paint_fraction
    assert result.array()[150, 150].tolist() == [255, 255, 255]  # blank, not the forged red


def test_eval_replaced_by_computed_key_cannot_forge_the_picture(renderer: SketchRenderer) -> None:
    result = renderer.render_sync(BLANK_WITH_FORGERY % _forge_eval("FORGED"), seed=0)
    _assert_blank(result)
    assert result.brush_draw_calls == 0
    assert_good_render(renderer)


def test_forged_poll_result_neither_raises_nor_counts(renderer: SketchRenderer) -> None:
    forged = FORGED_STATE.replace("errors: []", "errors: 5")
    result = renderer.render_sync(BLANK_WITH_FORGERY % _forge_eval(forged), seed=0)
    _assert_blank(result)
    assert result.errors == ()
    assert_good_render(renderer)


def test_forged_png_header_of_20000_pixels_a_side_is_never_decoded(
    renderer: SketchRenderer,
) -> None:
    header = base64.b64encode(_png_header(20000, 20000)).decode()
    result = renderer.render_sync(
        BLANK_WITH_FORGERY % _forge_eval(f"'data:image/png;base64,{header}'"), seed=0
    )
    _assert_blank(result)
    assert (result.width, result.height) == (300, 300)
    assert_good_render(renderer)


def test_valid_huge_png_is_not_accepted(renderer: SketchRenderer) -> None:
    # The harness reads the canvas p5 made, whose size setters are capped: a sketch asking for
    # 9000 x 9000 gets an error, never a 9000 x 9000 picture.
    source = "function setup() { createCanvas(9000, 9000, WEBGL); brush.line(0, 0, 10, 10); }"
    result = renderer.render_sync(source, seed=0)
    assert result.status is RenderStatus.JS_ERROR, result.errors
    assert any("sandbox cap" in e for e in result.errors), result.errors
    assert result.png is None or result.width * result.height <= 2048 * 2048
    assert_good_render(renderer)


def test_object_prototype_then_getter_does_not_hide_an_error(renderer: SketchRenderer) -> None:
    source = """
// Any result object with a phase becomes a thenable that resolves to a forged, clean state.
Object.defineProperty(Object.prototype, 'then', {
  get() {
    if (this === null || typeof this !== 'object' || !('phase' in this) || this.forged) return;
    return (resolve) => resolve({forged: true, phase: 'done', doneReason: 'complete', errors: []});
  },
  configurable: true,
});
function setup() {
  createCanvas(300, 300, WEBGL);
  throw new Error('the sketch failed');
}
"""
    result = renderer.render_sync(source, seed=0)
    assert result.status is RenderStatus.JS_ERROR, (result.status, result.errors)
    assert any("the sketch failed" in e for e in result.errors), result.errors
    assert_good_render(renderer)


def test_array_prototype_slice_override_is_a_sketch_error_not_a_crash(
    renderer: SketchRenderer,
) -> None:
    source = """
Array.prototype.slice = function () { throw new Error('no slicing'); };
function setup() {
  createCanvas(300, 300, WEBGL);
  undefinedFunction();
}
"""
    result = renderer.render_sync(source, seed=0)
    assert result.status is RenderStatus.JS_ERROR, (result.status, result.errors)
    assert result.attempts == 1
    assert any("undefinedFunction" in e for e in result.errors), result.errors
    assert_good_render(renderer)


def test_redefined_instance_canvas_does_not_change_the_picture(renderer: SketchRenderer) -> None:
    redefine = """
  for (const target of [p5.instance, p5.instance._renderer]) {
    Object.defineProperty(target, 'canvas', {get: () => fake, configurable: true});
  }
"""
    result = renderer.render_sync(BLANK_WITH_FORGERY % redefine, seed=0)
    _assert_blank(result)
    assert_good_render(renderer)


def test_hooks_run_on_an_object_of_the_sketch_are_a_harness_violation(
    renderer: SketchRenderer,
) -> None:
    # The sketch reaches the harness's lifecycle hooks through p5.lifecycleHooks and runs them
    # on an object of its own while p5 constructs the genuine instance.
    source = """
const fakeInstance = {randomSeed() {}, noiseSeed() {}, noLoop() {}, isLooping() { return false; }};
Object.defineProperty(p5.prototype, 'hitCriticalError', {
  configurable: true,
  set(value) {
    for (const hook of p5.lifecycleHooks.presetup) {
      try { hook.call(fakeInstance); } catch (e) {}
    }
  },
  get() { return false; },
});
function setup() { createCanvas(300, 300, WEBGL); brush.line(0, 0, 100, 100); }
"""
    result = renderer.render_sync(source, seed=0)
    assert result.status is RenderStatus.HARNESS_VIOLATION, (result.status, result.errors)
    assert result.png is None and result.api_calls is None
    assert runtime_check(result)[0].code == "harness_violation"
    assert_good_render(renderer)


def test_aliased_primitives_and_raw_graphics_are_counted(renderer: SketchRenderer) -> None:
    source = """
function setup() {
  createCanvas(300, 300, WEBGL);
  brush.set('2B', '#223388', 2);
  brush.line(-100, -100, 100, 100);
  const e = ellipse;
  e(0, 0, 20, 20);
  window['elli' + 'pse'](10, 10, 5, 5);
  const g = createGraphics(50, 50);
  g.ellipse(25, 25, 10, 10);
  g.text('hi', 5, 5);
  p5.instance._renderer.rect(0, 0, 4, 4);
  const gl = drawingContext;
  document.querySelector('canvas').getContext('webgl2');
  noStroke(); fill(200, 0, 0);
}
"""
    result = renderer.render_sync(source, seed=0)
    assert result.status is RenderStatus.OK, result.errors
    assert result.api_calls is not None
    assert result.primitive_calls == {"ellipse": 3, "rect": 1, "text": 1}, result.api_calls
    raw = result.raw_graphics_calls
    assert raw.get("createGraphics") == 1 and raw.get("drawingContext") == 1, raw
    assert raw.get("getContext") == 1, raw
    assert result.brush_draw_calls == 1
    codes = [issue.code for issue in runtime_check(result, GateConfig(canvas_size=None))]
    assert codes == ["runtime_primitives", "runtime_raw_graphics"]
    assert_good_render(renderer)


def test_brush_internals_are_not_counted_and_setters_are_not_paint(
    renderer: SketchRenderer,
) -> None:
    good = renderer.render_sync(GOOD_SKETCH, seed=3)
    assert good.api_calls is not None and good.api_calls.get("brush:paint", 0) > 0
    assert {k: v for k, v in good.api_calls.items() if k != "brush:paint"} == {
        "brush.line": 1,
        "brush.rect": 1,
    }
    assert runtime_check(good, GateConfig(canvas_size=None)) == ()
    setters_only = GOOD_SKETCH.replace("brush.line(20, 30, 280, 270);", "").replace(
        "brush.rect(60, 60, 160, 140);", ""
    )
    result = renderer.render_sync(setters_only, seed=3)
    assert result.status is RenderStatus.OK, result.errors
    assert result.brush_draw_calls == 0
    codes = [issue.code for issue in runtime_check(result, GateConfig(canvas_size=None))]
    assert codes == ["runtime_no_brush_paint"]
    lenient = GateConfig(require_brush_paint=False, canvas_size=None)
    assert runtime_check(result, lenient) == ()


def test_every_paint_method_of_brush_objects_is_counted() -> None:
    # The vendored build's own prototypes say which methods its Polygon and Plot objects paint
    # with; one left out of the list paints uncounted and the runtime gate calls the picture
    # unpainted (``mass`` was).
    library = (vendor_dir() / "p5.brush" / "p5.brush.js").read_text(encoding="utf-8")
    methods = set(re.findall(r"prototype\.([A-Za-z]+)=", library))
    assert methods, "no prototype method found: the vendored build changed shape"
    assert methods <= set(BRUSH_OBJECT_DRAW), methods - set(BRUSH_OBJECT_DRAW)


def test_a_polygon_painted_through_its_own_methods_passes_the_gate(
    renderer: SketchRenderer,
) -> None:
    source = """function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background(250, 248, 240);
  const poly = new brush.Polygon([[100, 100], [400, 120], [380, 420], [120, 400]]);
  brush.mass('charcoal', '#333333', {});
  poly.mass();
  brush.noMass();
}
"""
    result = renderer.render_sync(source, seed=0)
    assert result.status is RenderStatus.OK, result.errors
    assert result.paint_fraction > 0.1, result.paint_fraction
    assert result.api_calls is not None
    assert result.api_calls.get("brush.Polygon.mass") == 1, result.api_calls
    assert runtime_check(result, GateConfig(canvas_size=None)) == ()


def test_a_batch_with_hostile_members_keeps_its_honest_ones(renderer: SketchRenderer) -> None:
    forged = BLANK_WITH_FORGERY % _forge_eval(FORGED_STATE.replace("errors: []", "errors: 5"))
    slice_attack = (
        "Array.prototype.slice = null; function setup() { createCanvas(300, 300, WEBGL); nope(); }"
    )
    sources = [GOOD_SKETCH, forged, GOOD_SKETCH, slice_attack]
    results = renderer.render_many_sync(sources, seeds=3)
    assert [r.status for r in results] == [
        RenderStatus.OK,
        RenderStatus.OK,
        RenderStatus.OK,
        RenderStatus.JS_ERROR,
    ]
    assert results[0].png == results[2].png
    assert results[1].paint_fraction < 0.01


def test_the_reward_refuses_what_was_measured(renderer: SketchRenderer) -> None:
    aliased = (
        "function setup() { createCanvas(600, 600, WEBGL); brush.set('2B', '#223388', 2);"
        " brush.line(-100, -100, 100, 100); const paint = ellipse;"
        " for (let i = 0; i < 50; i++) paint(i * 4 - 100, 0, 30, 30); }"
    )
    # The static gate refuses bare primitives by default; a researcher who turns that rule off
    # (or a sketch that slips past it) still meets the run-time check in the reward.
    lenient_gate = GateConfig(max_bare_primitives=None)
    evaluator = Evaluator(renderer=renderer, scorer="heuristic", gate_config=lenient_gate)
    rollouts = evaluator.evaluate_sync(
        [GOOD_SKETCH, aliased, GOOD_SKETCH], ["a watercolour"] * 3, seeds=3
    )
    good, hack, good_again = rollouts
    assert good.status is RolloutStatus.OK and good.reward.reward is not None
    assert good.reward.reward > 0
    assert hack.status is RolloutStatus.RUNTIME_GATE_FAILED, hack.to_dict()
    assert hack.reward.status is RewardStatus.RUNTIME_GATE_FAILED
    assert hack.reward.reward == RewardConfig().gate_fail_reward
    assert "ellipse ×50" in hack.reward.runtime_reasons[0]
    assert "p5.brush" in hack.feedback()
    assert good_again.reward.reward == good.reward.reward


# ---------------------------------------------------------------- what painted the canvas
# Each of these passed the run-time check with `{brush.line: 1}` and earned the maximum reward
# (11.0) before the harness attributed calls by their stack (docs/rendering.md, "Run-time
# accounting"). They are written to reach the renderer: the static gate refuses most of them,
# and the run-time check must refuse them on its own.

#: The whole canvas painted by a filter shader, after one token stroke.
SHADER_FILTER = """
function setup() {
  createCanvas(600, 600, WEBGL);
  brush.set('2B', '#1f2f7a', 2);
  brush.line(-290, -290, -280, -284);
  const s = createFilterShader(`precision highp float; varying vec2 vTexCoord;
    void main() { gl_FragColor = vec4(vTexCoord.x, 0.4, vTexCoord.y, 1.0); }`);
  filter(s);
}
"""
#: Plain p5 rectangles painted from a valueOf that p5.brush calls inside brush.line.
VALUE_OF = """
function setup() {
  createCanvas(600, 600, WEBGL);
  background(245, 240, 228);
  noStroke();
  const x = { valueOf() {
    fill(200, 30, 30);
    for (let i = 0; i < 20; i++) rect(i * 30 - 300, -200, 25, 400);
    return -290;
  } };
  brush.set('2B', '#1f2f7a', 2);
  brush.line(x, -290, -280, -284);
}
"""
#: Plain p5 ellipses painted by a vector-field generator (official API: p5.brush calls it).
FIELD_GENERATOR = """
function setup() {
  createCanvas(600, 600, WEBGL);
  background(245, 240, 228);
  brush.addField('paint', (t, field) => {
    noStroke();
    fill(30, 120, 200);
    for (let i = 0; i < 10; i++) ellipse(0, 0, 500 - i * 40);
    return field;
  });
  brush.field('paint');
  brush.set('2B', '#1f2f7a', 2);
  brush.flowLine(-290, -290, 10, 0);
}
"""
#: A WebGL context taken inside a brush call, then scissored clears: stripes on the canvas.
RAW_CONTEXT = """
function setup() {
  createCanvas(600, 600, WEBGL);
  background(245, 240, 228);
  let gl = null;
  brush.set('2B', '#1f2f7a', 2);
  brush.line({ valueOf() { gl = drawingContext; return -290; } }, -290, -280, -284);
  gl.enable(gl.SCISSOR_TEST);
  for (let i = 0; i < 10; i++) {
    gl.scissor(i * 60, 0, 30, 600);
    gl.clearColor(i / 10, 0.3, 0.6, 1);
    gl.clear(gl.COLOR_BUFFER_BIT);
  }
  gl.disable(gl.SCISSOR_TEST);
}
"""
#: One zero-length stroke, the only brush mark, under a background.
ZERO_LENGTH = """
function setup() {
  createCanvas(600, 600, WEBGL);
  background(30, 90, 160);
  brush.set('2B', '#1f2f7a', 2);
  brush.line(0, 0, 0, 0);
}
"""
#: Lets every attack above reach the renderer: the run-time check must refuse it alone.
OPEN_GATE = GateConfig(
    forbid_escapes=False, forbid_raw_graphics=False, max_bare_primitives=None, forbid_text=False
)


def test_sketch_code_run_inside_a_brush_call_is_the_sketchs(renderer: SketchRenderer) -> None:
    by_value = renderer.render_sync(VALUE_OF, seed=0)
    assert by_value.status is RenderStatus.OK, by_value.errors
    assert by_value.primitive_calls.get("rect", 0) >= 20, by_value.api_calls
    by_field = renderer.render_sync(FIELD_GENERATOR, seed=0)
    assert by_field.status is RenderStatus.OK, by_field.errors
    assert by_field.primitive_calls.get("ellipse", 0) >= 10, by_field.api_calls
    # p5.brush's own use of p5 while it paints (rect and image in its composite pass,
    # drawingContext, tip buffers) is still its own.
    assert by_field.raw_graphics_calls == {}, by_field.api_calls


def test_p5_functions_handed_to_p5_brush_count_as_the_sketchs(renderer: SketchRenderer) -> None:
    # No sketch frame runs at all here: p5.brush itself calls the bound p5 functions (as a field
    # generator, and as a valueOf it coerces), at places of its source that name something
    # else; and p5's draw loop calls an ellipse as `draw`, a timer a rect.
    source = """
function setup() {
  createCanvas(600, 600, WEBGL);
  background(250);
  noStroke();
  fill(30, 120, 200);
  brush.addField('paint', ellipse.bind(null, 0, 0, 500, 500));
  brush.set('2B', '#1f2f7a', 2);
  brush.line({ valueOf: rect.bind(null, -300, -300, 100, 600) }, -290, -280, -284);
  brush.field('paint');
  setTimeout(rect.bind(null, 0, 0, 200, 200), 0);
  draw = square.bind(null, -200, 0, 80);
}
var draw = function () {};
"""
    result = renderer.render_sync(source, seed=0)
    assert result.status in (RenderStatus.OK, RenderStatus.FRAME_CAPPED), result.errors
    calls = result.primitive_calls
    assert calls.get("ellipse", 0) >= 1 and calls.get("rect", 0) >= 2, result.api_calls
    assert calls.get("square", 0) >= 1, result.api_calls


#: One honest stroke, then p5 painting for the sketch (`%s`).
ON_THE_SKETCHS_BEHALF = BARE_SKETCH.replace("noLoop();", "%s")


def test_what_p5_paints_for_the_sketch_is_the_sketchs(renderer: SketchRenderer) -> None:
    # The harness lets p5 work for itself inside an allowed call, and does not wrap p5's
    # internals. Neither is a way round the accounting: `background` given something image-like
    # draws it with p5's `image`, and p5's renderer called straight from the sketch clears the
    # canvas through WebGL; both are the sketch's calls, each refused by its own rule.
    inside_allowed, through_internals = renderer.render_many_sync(
        [
            ON_THE_SKETCHS_BEHALF % "background(createElement('canvas'));",
            ON_THE_SKETCHS_BEHALF % "p5.instance._renderer.clear(0.8, 0.1, 0.1, 1);",
        ],
        seeds=0,
    )
    for result in (inside_allowed, through_internals):
        assert result.status is RenderStatus.OK, result.errors
        assert result.brush_draw_calls == 1, result.api_calls
    assert inside_allowed.primitive_calls == {"image": 1}, inside_allowed.api_calls
    assert inside_allowed.raw_graphics_calls == {}, inside_allowed.api_calls
    assert through_internals.raw_graphics_calls == {"webgl.clear": 1}, through_internals.api_calls
    assert through_internals.primitive_calls == {}, through_internals.api_calls
    # The clear really painted: the paper is the sketch's red.
    assert through_internals.array()[10, 10].tolist() == [204, 26, 26]
    rules = GateConfig(canvas_size=None)
    assert [i.code for i in runtime_check(inside_allowed, rules)] == ["runtime_primitives"]
    assert [i.code for i in runtime_check(through_internals, rules)] == ["runtime_raw_graphics"]


def test_filters_and_shaders_are_raw_graphics(renderer: SketchRenderer) -> None:
    result = renderer.render_sync(SHADER_FILTER, seed=0)
    assert result.status is RenderStatus.OK, result.errors
    assert result.paint_fraction > 0.9
    raw = result.raw_graphics_calls
    assert raw.get("createFilterShader") == 1 and raw.get("filter") == 1, result.api_calls


def test_raw_context_methods_are_counted_wherever_the_context_came_from(
    renderer: SketchRenderer,
) -> None:
    result = renderer.render_sync(RAW_CONTEXT, seed=0)
    assert result.status is RenderStatus.OK, result.errors
    raw = result.raw_graphics_calls
    assert raw.get("drawingContext", 0) >= 1, result.api_calls
    assert raw.get("webgl.scissor") == 10 and raw.get("webgl.clear") == 10, result.api_calls
    # p5's private renderer field hands out the same context without any counted getter,
    # and a 2D context made inside a brush call writes canvas text: the methods count.
    source = """
function setup() {
  createCanvas(600, 600, WEBGL);
  background(245, 240, 228);
  brush.set('2B', '#1f2f7a', 2);
  brush.line(-290, -290, -280, -284);
  const gl = p5.instance._renderer.GL;
  gl.enable(gl.SCISSOR_TEST);
  gl.scissor(0, 0, 300, 600);
  gl.clearColor(0.9, 0.2, 0.1, 1);
  gl.clear(gl.COLOR_BUFFER_BIT);
  gl.disable(gl.SCISSOR_TEST);
  const paper = new OffscreenCanvas(200, 50);
  let ctx = null;
  brush.line({ valueOf() { ctx = paper.getContext('2d'); return 0; } }, 0, 5, 5);
  ctx.font = '40px serif';
  ctx.fillText('LILY', 0, 40);
  ctx.drawImage(paper, 0, 0);
}
"""
    result = renderer.render_sync(source, seed=0)
    assert result.status is RenderStatus.OK, result.errors
    raw = result.raw_graphics_calls
    assert raw.get("webgl.clear") == 1 and raw.get("webgl.scissor") == 1, result.api_calls
    assert raw.get("2d.fillText") == 1 and raw.get("2d.drawImage") == 1, result.api_calls
    assert raw.get("getContext", 0) >= 1, result.api_calls  # p5.brush reads x more than once
    # A frame of the sketch's own is another realm, with wrappers (and a harness) of its own:
    # its context methods, applied to the sketch's canvas, count in the sketch's render.
    other_realm = """
function setup() {
  createCanvas(600, 600, WEBGL);
  background(245, 240, 228);
  brush.set('2B', '#1f2f7a', 2);
  brush.line(-290, -290, -280, -284);
  const frame = document.createElement('iframe');
  document.body.appendChild(frame);
  const GL = frame.contentWindow.WebGL2RenderingContext.prototype;
  const gl = p5.instance._renderer.GL;
  GL.scissor.call(gl, 0, 0, 300, 600);
  GL.clear.call(gl, gl.COLOR_BUFFER_BIT);
}
"""
    result = renderer.render_sync(other_realm, seed=0)
    assert result.status is RenderStatus.OK, result.errors
    raw = result.raw_graphics_calls
    assert raw.get("webgl.clear") == 1 and raw.get("webgl.scissor") == 1, result.api_calls


def test_a_zero_length_stroke_puts_no_brush_paint_on_the_canvas(renderer: SketchRenderer) -> None:
    zero, bare = renderer.render_many_sync([ZERO_LENGTH, BARE_SKETCH], seeds=0)
    assert zero.status is RenderStatus.OK and zero.api_calls is not None, zero.errors
    assert zero.brush_draw_calls == 1 and zero.api_calls.get("brush:paint", 0) == 0
    assert [i.code for i in runtime_check(zero, GateConfig(canvas_size=None))] == [
        "runtime_no_brush_paint"
    ]
    # The shortest real stroke (4 px) is paint.
    assert bare.api_calls is not None and bare.api_calls.get("brush:paint", 0) >= 1
    assert runtime_check(bare, GateConfig(canvas_size=None)) == ()


def test_each_paint_attack_ends_runtime_gate_failed(renderer: SketchRenderer) -> None:
    attacks = [SHADER_FILTER, VALUE_OF, FIELD_GENERATOR, RAW_CONTEXT, ZERO_LENGTH]
    evaluator = Evaluator(renderer=renderer, scorer="heuristic", gate_config=OPEN_GATE)
    sources = [GOOD_SKETCH, *attacks]
    rollouts = evaluator.evaluate_sync(sources, ["a watercolour"] * len(sources), seeds=0)
    good, *refused = rollouts
    assert good.status is RolloutStatus.OK, good.to_dict()
    expected = ["runtime_raw_graphics", "runtime_primitives", "runtime_primitives"]
    expected += ["runtime_raw_graphics", "runtime_no_brush_paint"]
    for rollout, code in zip(refused, expected, strict=True):
        assert rollout.status is RolloutStatus.RUNTIME_GATE_FAILED, rollout.to_dict()
        assert rollout.reward.reward == RewardConfig().gate_fail_reward
        assert code in rollout.reward.runtime_codes, rollout.reward.runtime_codes


def test_the_stack_the_harness_reads_is_out_of_the_sketchs_reach(
    renderer: SketchRenderer,
) -> None:
    # Relabelling its own code as p5.brush (a sourceURL names what a stack prints, not the
    # script) or replacing prepareStackTrace (locked) hides nothing.
    relabel = """
Error.prepareStackTrace = () => [];
function setup() {
  createCanvas(600, 600, WEBGL);
  brush.set('2B', '#1f2f7a', 2);
  brush.line(-290, -290, -280, -284);
  noStroke();
  fill(200, 30, 30);
  rect(-300, -300, 300, 300);
  if (typeof new Error('x').stack !== 'string') throw new Error('the stack was replaced');
}
//# sourceURL=/lib/p5.brush.js
"""
    # Freezing stackTraceLimit at 0 blinds the harness, which then takes every call for the
    # sketch's: it refuses the sketch, never the other way round.
    blind = """
Object.defineProperty(Error, 'stackTraceLimit', { value: 0, writable: false });
function setup() {
  createCanvas(600, 600, WEBGL);
  brush.set('2B', '#1f2f7a', 2);
  brush.line(-290, -290, -280, -284);
}
"""
    relabelled, blinded = renderer.render_many_sync([relabel, blind], seeds=0)
    assert relabelled.status is RenderStatus.OK, relabelled.errors
    assert relabelled.primitive_calls == {"rect": 1}, relabelled.api_calls
    if blinded.status is RenderStatus.OK:
        assert runtime_check(blinded, GateConfig(canvas_size=None)) != ()
    else:
        assert blinded.png is None or blinded.status is not RenderStatus.FRAME_CAPPED
    assert_good_render(renderer)


def test_no_code_can_appear_that_the_harness_did_not_see_loaded(renderer: SketchRenderer) -> None:
    # The frame's Content-Security-Policy: no eval, no Function, no string timer, no inline
    # script (each could carry a sourceURL), no worker (its clock and Math.random are out of
    # the harness's reach; a blob worker's Math.random was unseeded).
    source = """
const out = [];
function setup() {
  createCanvas(600, 600, WEBGL);
  const probes = [
    ['eval', () => eval('1 + 1')],
    ['Function', () => Function('return 1')()],
    ['timer', () => { setTimeout('window.timerRan = true', 0); return 'scheduled'; }],
    ['inline', () => {
      const s = document.createElement('script');
      s.textContent = 'window.inlineRan = true';
      document.head.appendChild(s);
      return 'appended';
    }],
    ['worker', () => {
      const w = new Worker(URL.createObjectURL(new Blob(['postMessage(1)'])));
      w.onmessage = () => { window.workerRan = true; };
      return 'made';
    }],
  ];
  for (const [name, probe] of probes) {
    try { out.push(name + '=' + probe()); } catch (e) { out.push(name + ':' + e.name); }
  }
  brush.set('2B', '#1f2f7a', 2);
  brush.line(-290, -290, -280, -284);
}
function draw() {
  if (frameCount < 10) return;
  noLoop();
  const ran = [window.timerRan, window.inlineRan, window.workerRan].map(Boolean).join(',');
  throw new Error('probes ' + out.join(' ') + ' ran ' + ran);
}
"""
    result = renderer.render_sync(source, seed=0)
    message = next(e for e in result.errors if "probes" in e)
    assert "eval:EvalError" in message and "Function:EvalError" in message, message
    assert "ran false,false,false" in message, message


#: Honest p5.brush use the instructions describe (and a little more): none of it may count as
#: anything but p5.brush painting.
HONEST_USES = {
    "fields": """
function setup() {
  createCanvas(600, 600, WEBGL);
  background('#f3ead7');
  translate(-width / 2, -height / 2);
  brush.scaleBrushes(3);
  for (const f of ['waves', 'curved', 'zigzag', 'seabed', 'spiral', 'columns', 'hand']) {
    brush.field(f);
    brush.set('HB', '#2f4a2a', 1);
    for (let i = 0; i < 3; i++) brush.flowLine(random(20, 580), random(20, 580), 50, -HALF_PI);
  }
  brush.noField();
}
""",
    "hatch_wash_mass_strokes": """
function setup() {
  createCanvas(600, 600, WEBGL);
  background(250);
  translate(-width / 2, -height / 2);
  brush.noStroke();
  brush.wash('#b9cfe0', 180);
  brush.rect(0, 0, 600, 300);
  brush.noWash();
  brush.hatchStyle('pen', '#c0703a', 0.7);
  brush.hatch(5, PI / 4, { rand: 0.1, continuous: false, gradient: 0.2 });
  brush.circle(300, 300, 80);
  brush.polygon([[50, 500], [200, 420], [260, 560]]);
  brush.noHatch();
  brush.mass('charcoal', '#333333', { strength: 0.8 });
  brush.rect(400, 400, 120, 120);
  brush.noMass();
  brush.set('charcoal', '#222', 1.5);
  brush.arc(300, 300, 120, 0, PI);
  brush.spline([[20, 580], [200, 500, 0.5], [580, 560]], 0.5);
  brush.beginStroke('curve', 100, 100);
  brush.move(30, 50, 1);
  brush.endStroke(90, 1);
  brush.beginShape(0.3);
  brush.vertex(300, 50);
  brush.vertex(360, 120);
  brush.vertex(250, 140);
  brush.endShape(true);
}
""",
    "objects_and_p5_state": """
let frames = 0;
function setup() {
  createCanvas(600, 600, WEBGL);
  colorMode(HSB, 360, 100, 100);
  background(40, 10, 95);
  angleMode(DEGREES);
  textFont('serif');
  blendMode(BLEND);
  perspective();
  lights();
  noLights();
  describe('a green triangle, hatched');
  translate(-width / 2, -height / 2);
  const poly = new brush.Polygon([[100, 100], [300, 120], [200, 300]]);
  brush.fill(color(120, 40, 60), 150);
  poly.fill();
  brush.noFill();
  brush.hatchStyle('HB', '#303030', 1);
  brush.hatch(6, 30);
  brush.hatchArray([poly]);
  brush.noHatch();
  brush.add('soft', { type: 'spray', weight: 5, scatter: 2, sharpness: 0.3, grain: 0.5,
    opacity: 120, spacing: 0.6, pressure: [1.2, 0.8], rotate: 'natural' });
  brush.set('soft', '#406080', 2);
  brush.line(50, 50, 550, 500);
}
function draw() {
  translate(-width / 2, -height / 2);
  push();
  translate(300, 300);
  rotate(frames * 30);
  brush.set('cpencil', '#a03050', 1);
  brush.line(0, 0, 200, 0);
  pop();
  frames += 1;
  if (frames >= 3) noLoop();
}
""",
}


@pytest.fixture(scope="module")
def patient_renderer() -> Iterator[SketchRenderer]:
    """One browser with a deadline that textured fills and hatching meet on a busy machine."""
    with SketchRenderer(RenderConfig(pool_size=1, deadline_s=60)) as r:
        yield r


def test_honest_brush_use_is_brush_paint_and_nothing_else(
    patient_renderer: SketchRenderer,
) -> None:
    results = patient_renderer.render_many_sync(list(HONEST_USES.values()), seeds=0)
    for name, result in zip(HONEST_USES, results, strict=True):
        assert result.status is RenderStatus.OK, (name, result.errors)
        assert result.api_calls is not None, name
        assert result.primitive_calls == {} and result.raw_graphics_calls == {}, (
            name,
            result.api_calls,
        )
        assert result.api_calls.get("brush:paint", 0) > 0, (name, result.api_calls)
        assert runtime_check(result) == (), name


# ---------------------------------------------------------------- what crosses into Python
CONFIG = RenderConfig()


def _message(**fields: object) -> str:
    base: dict[str, object] = {"t": "secret", "k": "done", "phase": "done", "reason": "complete"}
    base.update(fields)
    return json.dumps(base)


def test_messages_without_the_token_or_with_forged_fields_are_refused() -> None:
    with pytest.raises(ReadbackError, match="token"):
        parse_message(_message(t="guess"), "secret", CONFIG)
    with pytest.raises(ReadbackError, match="errors"):
        parse_message(_message(errors=5), "secret", CONFIG)
    with pytest.raises(ReadbackError, match="errors"):
        parse_message(_message(errors=["x" * 10_000]), "secret", CONFIG)
    with pytest.raises(ReadbackError, match="unknown drawing API"):
        parse_message(_message(api={"brush.fake": 1}), "secret", CONFIG)
    with pytest.raises(ReadbackError, match="integer"):
        parse_message(_message(api={"ellipse": -1}), "secret", CONFIG)
    with pytest.raises(ReadbackError, match="not JSON"):
        parse_message('{"t": "secret", "frames": NaN}', "secret", CONFIG)
    with pytest.raises(ReadbackError, match="over the limit"):
        parse_message("x" * (200 * 1024 * 1024), "secret", CONFIG)
    with pytest.raises(ReadbackError, match="not text"):
        parse_message(None, "secret", CONFIG)


def test_png_size_is_checked_from_the_header_before_decoding() -> None:
    with pytest.raises(ReadbackError, match="20000x20000"):
        check_png(_png_header(20000, 20000), CONFIG)
    buffer = io.BytesIO()
    Image.new("1", (9000, 9000)).save(buffer, format="PNG")
    huge = buffer.getvalue()
    with pytest.raises(ReadbackError, match="9000x9000"):
        check_png(huge, CONFIG)
    url = "data:image/png;base64," + base64.b64encode(huge).decode()
    with pytest.raises(ReadbackError, match="9000x9000"):
        parse_message(_message(image=url, width=300, height=300), "secret", CONFIG)
    with pytest.raises(ReadbackError, match="not a PNG"):
        check_png(b"GIF89a" + b"\0" * 40, CONFIG)
    small = io.BytesIO()
    Image.new("RGBA", (30, 20)).save(small, format="PNG")
    assert check_png(small.getvalue(), CONFIG) == (30, 20)
    mismatch = "data:image/png;base64," + base64.b64encode(small.getvalue()).decode()
    with pytest.raises(ReadbackError, match="reported 300x300"):
        parse_message(_message(image=mismatch, width=300, height=300), "secret", CONFIG)
    report = parse_message(_message(image=mismatch, width=30, height=20), "secret", CONFIG)
    assert report.png == small.getvalue() and report.reason == "complete"


def test_the_readback_binding_is_out_of_reach(renderer: SketchRenderer) -> None:
    # The sketch looks for the binding in its own globals and in a child frame of its own (where
    # the init script also ran), and tries to start that frame's harness with a token it made.
    source = """
const found = [];
const child = document.createElement('iframe');
document.body.appendChild(child);
for (const w of [window, child.contentWindow]) {
  for (const name of Object.getOwnPropertyNames(w)) {
    if (name.startsWith('__sketchenv_')) found.push(name);
  }
}
const started = child.contentWindow.__sketchenv.run(0, 'a token of my own');
function setup() {
  createCanvas(300, 300, WEBGL);
  brush.set('2B', '#223388', 2);
  brush.line(-100, -100, 100, 100);
  if (found.length || started) throw new Error('reached: ' + found.join(',') + ' ' + started);
}
"""
    result = renderer.render_sync(source, seed=0)
    assert result.status is RenderStatus.OK, (result.status, result.errors)
    assert result.brush_draw_calls == 1
    assert_good_render(renderer)


#: One stroke, then empty frames until the deadline: still running when a forgery arrives.
STILL_RUNNING = BARE_SKETCH.replace("noLoop();", "") + "function draw() {}\n"


async def _call_binding(host: HostPage, context_id: int, payload: str) -> None:
    """Calls the host's readback binding from one JavaScript context, as an attacker who
    learnt its secret name would. The harness took the binding off every global object before
    any sketch code ran, so it is put back, in that context only."""
    assert host.cdp is not None
    await host.cdp.send("Runtime.removeBinding", {"name": host.binding})
    await host.cdp.send(
        "Runtime.addBinding", {"name": host.binding, "executionContextId": context_id}
    )
    call = f"globalThis[{json.dumps(host.binding)}]({json.dumps(payload)})"
    await host.cdp.send("Runtime.evaluate", {"expression": call, "contextId": context_id})


async def _render_forged(
    renderer: SketchRenderer, forge: Callable[[HostPage, FrameSession], Awaitable[None]]
) -> Render:
    """Renders `STILL_RUNNING` and, once its harness has reported its start, runs ``forge``
    on the frame's host page and session."""
    task = asyncio.ensure_future(renderer.render(STILL_RUNNING, seed=0))
    while True:
        assert not task.done(), task.result()
        assert renderer._frames is not None
        running = [
            host
            for host in renderer._frames._hosts.values()
            if host.active is not None and host.active.session.context_id is not None
        ]
        if running:
            break
        await asyncio.sleep(0.01)
    (host,) = running
    assert host.active is not None
    await forge(host, host.active.session)
    return await task


def test_a_leaked_readback_binding_still_cannot_report() -> None:
    # Defence in depth behind the binding's secrecy: a message that fails its checks, or a
    # well-formed result with the render's own token sent from another JavaScript context (an
    # isolated world of the sketch's frame), ends the render as a violation; nothing of it is
    # kept, and the forged red picture is never scored.
    red = io.BytesIO()
    Image.new("RGB", (600, 600), (200, 30, 30)).save(red, format="PNG")
    picture = "data:image/png;base64," + base64.b64encode(red.getvalue()).decode()

    async def garbage(host: HostPage, session: FrameSession) -> None:
        assert session.context_id is not None
        await _call_binding(host, session.context_id, "not a result")

    async def elsewhere(host: HostPage, session: FrameSession) -> None:
        assert host.cdp is not None
        tree = await host.cdp.send("Page.getFrameTree")
        (frame_id,) = [
            child["frame"]["id"]
            for child in tree["frameTree"].get("childFrames", [])
            if child["frame"]["url"].startswith(session.origin)
        ]
        world = await host.cdp.send(
            "Page.createIsolatedWorld", {"frameId": frame_id, "worldName": "leak"}
        )
        forged = _message(
            t=session.token,
            started=True,
            userCanvas=True,
            canvasKind="webgl",
            width=600,
            height=600,
            api={"brush.line": 1, "brush:paint": 1},
            image=picture,
        )
        await _call_binding(host, world["executionContextId"], forged)

    # A browser of its own whose frame cap the render never reaches.
    require_chromium()
    config = RenderConfig(pool_size=1, deadline_s=HOSTILE_DEADLINE_S, max_frames=1_000_000)
    with SketchRenderer(config) as leaky:
        for forge, problem in ((garbage, "not JSON"), (elsewhere, "another JavaScript context")):
            result = leaky.run_coroutine(_render_forged(leaky, forge)).result(120)
            assert result.status is RenderStatus.HARNESS_VIOLATION, (result.status, result.errors)
            assert any(problem in e for e in result.errors), result.errors
            assert result.png is None and result.api_calls is None
        assert_good_render(leaky)


def test_playwrights_own_binding_cannot_kill_the_driver(renderer: SketchRenderer) -> None:
    # Playwright puts `__playwright__binding__` in every document and its driver parsed the
    # payload outside any error handler: one malformed call from a sketch killed the Node driver
    # and with it the pool, and the render ended `crashed` (an infrastructure None). Now each
    # malformed call throws in the page, where it is the sketch's own business.
    source = """
function setup() {
  createCanvas(300, 300, WEBGL);
  const b = globalThis['__playwright__' + 'binding__'];
  const refused = [];
  for (const payload of ['garbage', 'null', '{"name": 1}', '[]', 'x'.repeat(70000)]) {
    try { b(payload); } catch (e) { refused.push(e.name); }
  }
  for (let i = 0; i < 2000; i++) {
    try { b('{"name":"none","seq":1,"serializedArgs":[]}'); } catch (e) { refused.push(e.name); }
  }
  brush.set('2B', '#223388', 2);
  brush.line(-100, -100, 100, 100);
  if (refused.length < 5 + 1000) throw new Error('reached the driver: ' + refused.length);
}
"""
    result = renderer.render_sync(source, seed=0)
    assert result.status is RenderStatus.OK, (result.status, result.errors)
    assert result.brush_draw_calls == 1
    assert_good_render(renderer)
