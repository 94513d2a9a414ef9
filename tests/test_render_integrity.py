"""A sketch cannot forge its result, and what it draws with is measured where it cannot tamper.

Every attack here was measured against the old readback (main-world ``frame.evaluate``, whose
``eval``, ``Array.prototype.slice`` and ``.then`` lookups the sketch controlled; issue 12) and
is rendered on the real pool. After each, the next good render on the same renderer must still
be correct. The run-time accounting of drawing APIs (issue 13 §4) is checked the same way:
aliases of p5 primitives are counted, p5.brush's own use of p5 is not.
"""

from __future__ import annotations

import base64
import io
import json
import struct
import zlib

import pytest
from PIL import Image

from sketch_env import RenderStatus, SketchRenderer
from sketch_env.evaluation import Evaluator, RolloutStatus
from sketch_env.gate import GateConfig
from sketch_env.gate.runtime import runtime_check
from sketch_env.render.config import RenderConfig
from sketch_env.render.readback import ReadbackError, check_png, parse_message
from sketch_env.scoring.reward import RewardConfig, RewardStatus
from tests.conftest import GOOD_SKETCH, assert_good_render

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
    assert good.api_calls == {"brush.line": 1, "brush.rect": 1}
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
