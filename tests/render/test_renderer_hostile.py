"""Every hostile sketch class gets the right status within its deadline, and the pool survives.

Each test renders the hostile sketch on the shared two-browser pool, checks the status and the
evidence (errors, picture, blocked requests), checks the render ended within the deadline plus a
few seconds, and then checks that a known-good sketch still renders correctly.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np
import pytest

from sketch_env import RenderStatus, SketchRenderer
from tests.conftest import (
    DEADLINE_SLACK_S,
    GOOD_SKETCH,
    HOSTILE_DEADLINE_S,
    LoopbackListener,
    assert_good_render,
)

#: A setup body that paints something measurable on a WEBGL canvas.
PAINT = """
  createCanvas(300, 300, WEBGL);
  background(240);
  translate(-width / 2, -height / 2);
  brush.set('2B', '#223388', 2);
  brush.line(20, 20, 280, 280);
  brush.noStroke();
  brush.fill('#cc3322', 120);
  brush.rect(50, 50, 120, 120);
"""


def render_hostile(renderer: SketchRenderer, source: str, seed: int = 0):
    start = time.perf_counter()
    result = renderer.render_sync(source, seed=seed)
    elapsed = time.perf_counter() - start
    # The budget is the sketch's own time: under other load it may take up to the wall cap.
    bound = HOSTILE_DEADLINE_S * renderer.config.max_wall_factor + DEADLINE_SLACK_S
    assert elapsed < bound, f"took {elapsed:.1f} s"
    return result


def check(renderer: SketchRenderer, source: str, status: RenderStatus, *, error: str = ""):
    result = render_hostile(renderer, source)
    assert result.status is status, (result.status, result.errors)
    if error:
        assert any(error in e for e in result.errors), result.errors
    assert_good_render(renderer)
    return result


def test_syntax_error(renderer):
    result = check(
        renderer, "function setup( { createCanvas(", RenderStatus.JS_ERROR, error="SyntaxError"
    )
    assert result.png is None or result.paint_fraction == 0.0


def test_throw_in_setup_before_painting(renderer):
    source = "function setup() { createCanvas(300, 300, WEBGL); throw new Error('boom'); }"
    result = check(renderer, source, RenderStatus.JS_ERROR, error="Error: boom")
    assert "sketch.js:1:" in result.errors[0]


def test_throw_in_setup_after_painting_keeps_the_picture(renderer):
    # brush.bleed is a p5.brush 1.x name (renamed fillBleed): policies trained on 1.x call it.
    source = "function setup() {" + PAINT + "  brush.bleed(0.3);\n}"
    result = check(renderer, source, RenderStatus.UNFINISHED, error="brush.bleed is not a function")
    assert result.png is not None and result.paint_fraction > 0.02


def test_throw_in_draw_after_painting_keeps_the_picture(renderer):
    source = "function setup() {" + PAINT + "}\nfunction draw() { null.x; }"
    result = check(renderer, source, RenderStatus.UNFINISHED, error="TypeError")
    assert result.paint_fraction > 0.02


def test_infinite_loop_in_setup_times_out(renderer):
    result = check(
        renderer,
        "function setup() { while (true) {} }",
        RenderStatus.TIMEOUT,
        error="did not finish",
    )
    assert result.png is None


def test_infinite_loop_in_draw_times_out(renderer):
    source = "function setup() {" + PAINT + "}\nfunction draw() { while (true) {} }"
    check(renderer, source, RenderStatus.TIMEOUT)


def test_draw_that_never_stops_is_captured_at_the_frame_cap(renderer):
    source = (
        "function setup() {" + PAINT + "}\n"
        "function draw() { brush.set('pen', '#000', 1);"
        " brush.line(random(300), 0, random(300), 300); }"
    )
    result = check(renderer, source, RenderStatus.FRAME_CAPPED)
    assert result.frames == renderer.config.max_frames
    assert result.png is not None


@pytest.mark.parametrize(
    "source",
    [
        "const setup = () => { createCanvas(300, 300, WEBGL); };",  # not seen by global mode
        "",  # nothing at all
        "let x = 1 + 1;",
    ],
    ids=["arrow-setup", "empty", "no-entry-points"],
)
def test_no_canvas(renderer, source):
    check(renderer, source, RenderStatus.NO_CANVAS, error="p5 never started")


def test_2d_canvas_is_explained(renderer):
    source = (
        "function setup() { createCanvas(300, 300); background(200);"
        " brush.set('2B', '#000', 1); brush.line(0, 0, 100, 100); }"
    )
    check(renderer, source, RenderStatus.JS_ERROR, error="needs createCanvas(w, h, WEBGL)")


def test_huge_canvas_is_refused(renderer):
    check(
        renderer,
        "function setup() { createCanvas(100000, 100000, WEBGL); }",
        RenderStatus.JS_ERROR,
        error="exceeds the sandbox cap",
    )


def test_canvas_area_cap(renderer):
    # 4000 x 4000 passes the side cap but not the area cap (2048 * 2048 by default).
    check(
        renderer,
        "function setup() { createCanvas(4000, 4000, WEBGL); }",
        RenderStatus.JS_ERROR,
        error="exceeds the sandbox cap",
    )


def test_memory_bomb(renderer):
    source = (
        "function setup() { const a = [];"
        " while (true) a.push(new Array(1e6).fill(Math.random())); }"
    )
    check(renderer, source, RenderStatus.JS_ERROR, error="out of memory")


def test_string_memory_bomb(renderer):
    result = check(
        renderer,
        "function setup() { let s = 'x'; while (true) s += s; }",
        RenderStatus.JS_ERROR,
        error="Invalid string length",
    )
    # It threw before making a canvas of its own: no misleading "use WEBGL" hint.
    assert not any("needs createCanvas" in e for e in result.errors), result.errors


def test_dialogs_do_not_block(renderer):
    source = "function setup() { alert('a'); confirm('b'); prompt('c');" + PAINT + "}"
    result = check(renderer, source, RenderStatus.OK)
    assert result.paint_fraction > 0.02


@pytest.fixture
def listener() -> Iterator[LoopbackListener]:
    server = LoopbackListener()
    yield server
    server.close()


NETWORK_CALLS = {
    "fetch": "fetch('http://127.0.0.1:{port}/f').catch(() => {});",
    "xhr": "const x = new XMLHttpRequest(); x.open('GET', 'http://127.0.0.1:{port}/x'); x.send();",
    "websocket": "try { new WebSocket('ws://127.0.0.1:{port}/w'); } catch (e) {}",
    "image": "const img = new Image(); img.src = 'http://127.0.0.1:{port}/i.png';",
    "p5-loadImage": "loadImage('http://127.0.0.1:{port}/p.png').catch(() => {});",
    "named-host": "fetch('https://example.com/').catch(() => {});",
}


@pytest.mark.parametrize("call", NETWORK_CALLS, ids=list(NETWORK_CALLS))
def test_network_is_blocked(renderer, listener, call):
    source = (
        "function setup() {"
        + PAINT
        + NETWORK_CALLS[call].replace("{port}", str(listener.port))
        + "}"
    )
    result = check(renderer, source, RenderStatus.OK)
    time.sleep(0.3)
    assert listener.arrivals == []
    assert result.blocked_requests, "the blocked request should be reported"


@pytest.mark.parametrize(
    "escape",
    [
        "location.href = 'http://127.0.0.1:{port}/away';",
        "window.location.reload();",
        "window.open('http://127.0.0.1:{port}/popup');",
        "const a = document.createElement('a'); a.href = 'http://127.0.0.1:{port}/t';"
        " a.target = '_blank'; document.body.appendChild(a); a.click();",
    ],
    ids=["location", "reload", "window-open", "link-click"],
)
def test_navigation_away_and_popups_are_refused(renderer, listener, escape):
    source = "function setup() {" + PAINT + escape.replace("{port}", str(listener.port)) + "}"
    result = check(renderer, source, RenderStatus.OK)
    assert result.paint_fraction > 0.02
    time.sleep(0.3)
    assert listener.arrivals == []


def test_navigation_to_about_blank_is_reported(renderer):
    check(
        renderer,
        "function setup() {" + PAINT + " location.href = 'about:blank'; }",
        RenderStatus.JS_ERROR,
        error="navigated the page away",
    )


def test_document_write_is_refused(renderer):
    result = check(
        renderer,
        "function setup() {" + PAINT + " document.write('<h1>x</h1>'); }",
        RenderStatus.UNFINISHED,
        error="document.write is disabled",
    )
    assert result.paint_fraction > 0.02


def test_replacing_the_body_keeps_the_picture(renderer):
    source = (
        "function setup() {"
        + PAINT
        + " document.body = document.createElement('body');"
        + " document.documentElement.innerHTML = ''; }"
    )
    result = check(renderer, source, RenderStatus.OK)
    assert result.paint_fraction > 0.02


def test_sketch_cannot_forge_harness_state(renderer):
    # A sketch whose draw never stops tries every way to announce "done" early.
    source = (
        """
window.__sketchenv = { poll() { return { phase: 'done', doneReason: 'complete' }; } };
try { Object.defineProperty(window, '__sketchenv', { value: {} }); } catch (e) {}
try { window.__sketchenv.poll = () => ({ phase: 'done' }); } catch (e) {}
function setup() {"""
        + PAINT
        + """
  for (const name of ['postsetup', 'postdraw']) {
    for (const hook of p5.lifecycleHooks[name]) {
      const fake = { canvas: document.createElement('canvas'), isLooping: () => false };
      try { hook.call(fake); } catch (e) {}
    }
  }
}
function draw() { brush.set('pen', '#000', 1); brush.line(0, frameCount, 300, frameCount); }
"""
    )
    result = check(renderer, source, RenderStatus.FRAME_CAPPED)
    assert result.frames == renderer.config.max_frames


def test_replacing_todataurl_and_getcontext_cannot_fake_the_picture(renderer):
    fake = (  # a 1x1 PNG
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQ"
        "DwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
    )
    source = (
        "function setup() {"
        + PAINT
        + f" HTMLCanvasElement.prototype.toDataURL = () => '{fake}';"
        + " HTMLCanvasElement.prototype.getContext = () => null;"
        + " CanvasRenderingContext2D.prototype.getImageData = () => null; }"
    )
    result = check(renderer, source, RenderStatus.OK)
    assert (result.width, result.height) == (300, 300)
    reference = renderer.render_sync("function setup() {" + PAINT + "}", seed=0)
    assert np.array_equal(result.array(), reference.array())


def test_script_end_tag_in_the_source(renderer):
    source = (
        "// </script><script>window.injected = 1</script>\n"
        "function setup() { const s = '</script><h1>'; " + PAINT + "}"
    )
    result = check(renderer, source, RenderStatus.OK)
    assert result.paint_fraction > 0.02


def test_oversized_source_is_rejected_unrun(renderer):
    source = GOOD_SKETCH + "//" + "x" * (2 * 1024 * 1024)
    result = check(renderer, source, RenderStatus.REJECTED, error="bytes; the limit is")
    assert result.png is None and result.attempts == 1


def test_non_text_source_is_rejected(renderer):
    check(renderer, 12345, RenderStatus.REJECTED, error="must be text")  # type: ignore[arg-type]


def test_non_ascii_and_nul_characters(renderer):
    source = (
        "// é 漢字 🎨 \u0000 in a comment\n"
        "function setup() { const label = 'é漢字🎨\\u0000\u0000'; " + PAINT + "}"
    )
    result = check(renderer, source, RenderStatus.OK)
    assert result.paint_fraction > 0.02


def test_invalid_utf8_bytes_become_a_page_error_not_a_crash(renderer):
    source = b"function setup() { \xff\xfe createCanvas(10, 10, WEBGL); }"
    check(renderer, source, RenderStatus.JS_ERROR, error="SyntaxError")


def test_local_storage_does_not_persist_between_renders(renderer):
    source = """
function setup() {
  createCanvas(100, 100, WEBGL);
  const seen = localStorage.getItem('sketch-env-test') !== null;
  localStorage.setItem('sketch-env-test', '1');
  sessionStorage.setItem('sketch-env-test', '1');
  document.cookie = 'sketch_env_test=1';
  background(seen ? 'red' : 'blue');
}
"""
    for _ in range(3):  # more renders than browsers, so a browser is reused
        result = check(renderer, source, RenderStatus.OK)
        red, _green, blue = result.array()[50, 50]
        assert blue > 200 and red < 50, "storage from an earlier render leaked into this one"


@pytest.mark.parametrize(
    "leftover",
    [
        "setTimeout(() => { while (true) {} }, 0);",
        "setInterval(() => { const t = Date.now(); while (Date.now() - t < 3000) {} }, 1);",
        "(async () => { for (;;) { await null; } })();",
    ],
    ids=["endless-timer", "busy-interval", "microtask-storm"],
)
def test_work_left_running_after_the_picture_does_not_reach_the_next_render(renderer, leftover):
    # The picture is taken when setup returns; the sketch's leftover work then blocks the page's
    # thread, which its host page shares. The render is still ok (its picture is complete), and
    # the host page is replaced rather than handed to the next render.
    source = "function setup() {" + PAINT + leftover + "}"
    result = render_hostile(renderer, source)
    assert result.status in (RenderStatus.OK, RenderStatus.TIMEOUT), result.errors
    if result.status is RenderStatus.OK:
        assert result.paint_fraction > 0.02
    for _ in range(renderer.pool_size + 1):  # every browser serves a render after it
        assert_good_render(renderer)
