"""The renderer's contract: pictures, determinism, call paths, pool recovery and lifetimes."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import psutil
import pytest

from sketch_env import (
    BackendUnavailableError,
    BrowserNotFoundError,
    RenderConfig,
    RenderStatus,
    SketchRenderer,
    shared_renderer,
)
from sketch_env.render.backends import find_browser, probe_backend
from tests.conftest import GOOD_SKETCH, SEEDED_SKETCH, assert_good_render, require_chromium


def test_a_brush_sketch_really_paints(renderer):
    result = renderer.render_sync(GOOD_SKETCH, seed=0)
    assert result.status is RenderStatus.OK
    blank = renderer.render_sync(
        "function setup() { createCanvas(300, 300, WEBGL); background(245, 240, 228); }"
    )
    assert blank.status is RenderStatus.OK
    assert blank.paint_fraction == 0.0
    assert result.paint_fraction > 0.05
    # The watercolour fill landed where the sketch put it: the rect's centre is reddish.
    r, g, b = result.array()[120, 130].astype(int)
    assert r > g + 30 and r > b + 30, (r, g, b)


def test_result_is_immutable_and_serialisable(renderer):
    result = renderer.render_sync(GOOD_SKETCH, seed=5)
    with pytest.raises(AttributeError):
        result.status = RenderStatus.CRASHED  # type: ignore[misc]
    data = json.loads(result.to_json())
    assert data["status"] == "ok" and data["seed"] == 5 and data["has_png"] is True
    assert data["backend"] == renderer.backend
    assert "png" not in data
    assert result.png.startswith(b"\x89PNG")
    assert result.image().size == (600, 600)


def test_same_seed_same_pixels_different_seed_different_picture(renderer):
    results = renderer.render_many_sync([SEEDED_SKETCH] * 3, seeds=[11, 11, 11])
    assert all(r.status is RenderStatus.OK for r in results), [r.errors for r in results]
    arrays = [r.array() for r in results]
    if renderer.backend == "swiftshader":
        for other in arrays[1:]:
            assert np.mean(np.all(other == arrays[0], axis=-1)) >= 0.9999
    else:
        # llvmpipe (and GPUs) rendered bit-identical pixels for the same sketch and seed.
        assert all(np.array_equal(arrays[0], other) for other in arrays[1:])
    different = renderer.render_sync(SEEDED_SKETCH, seed=12).array()
    assert np.mean(np.any(different != arrays[0], axis=-1)) > 0.01


def test_library_randomness_is_seeded_too(renderer):
    # No random() in the sketch: only p5.brush's internal PRNG and noise vary the texture.
    source = GOOD_SKETCH.replace("noLoop();", "")
    a, b = renderer.render_many_sync([source, source], seeds=[1, 2])
    again = renderer.render_sync(source, seed=1)
    assert np.array_equal(a.array(), again.array()) or renderer.backend == "swiftshader"
    assert not np.array_equal(a.array(), b.array())


#: One stroke per entropy source the page offers, placed by the value it gives (sub-millisecond
#: digits where it is a time): each of these painted a different picture on every render of the
#: same sketch and seed until the harness put every clock on one virtual clock and crypto on a
#: seeded stream (docs/rendering.md, "Determinism").
_ONE_STROKE = """
let v = 0;
function setup() {
  createCanvas(600, 600, WEBGL);
  background(250);
  translate(-width / 2, -height / 2);
  %s
  brush.set('2B', '#203060', 3);
  brush.line(v, 0, 600 - v, 600);
}
"""
ENTROPY = {
    "crypto.getRandomValues": (
        "const a = new Uint32Array(1); crypto.getRandomValues(a); v = a[0] % 600;"
    ),
    "Date.now": "v = Date.now() % 600;",
    "new Date": "v = new Date().getTime() % 600;",
    "performance.now": "v = (performance.now() * 1000) % 600;",
    "millis": "v = (millis() * 1000) % 600;",
    "performance.timeOrigin": "v = (performance.timeOrigin * 1000) % 600;",
    "event.timeStamp": "v = (new Event('x').timeStamp * 1000) % 600;",
    "Temporal.Now": "v = Temporal.Now.instant().epochMilliseconds % 600;",
}
#: Animation frames: the timestamp a sketch's own callback gets, and p5's deltaTime.
_FRAMES = """
let v = null;
let frames = 0;
function setup() {
  createCanvas(600, 600, WEBGL);
  background(250);
  requestAnimationFrame((t) => { v = (t * 1000) % 600; });
}
function draw() {
  frames += 1;
  if (v === null && frames < 10) return;
  translate(-width / 2, -height / 2);
  brush.set('2B', '#203060', 3);
  brush.line(v, 0, 600 - v, 600);
  brush.line((deltaTime * 1000) % 600, 0, 300, 600);
  noLoop();
}
"""


@pytest.mark.parametrize("source", [*ENTROPY, "requestAnimationFrame"])
def test_every_entropy_source_paints_the_same_picture_every_time(renderer, source):
    sketch = _FRAMES if source == "requestAnimationFrame" else _ONE_STROKE % ENTROPY[source]
    results = renderer.render_many_sync([sketch] * 3, seeds=7)
    assert all(r.status is RenderStatus.OK for r in results), [r.errors for r in results]
    arrays = [r.array() for r in results]
    if renderer.backend == "swiftshader":
        for other in arrays[1:]:
            assert np.mean(np.all(other == arrays[0], axis=-1)) >= 0.9999
    else:
        assert all(np.array_equal(arrays[0], other) for other in arrays[1:]), source


def test_the_clock_moves_on_every_read_and_every_frame(renderer):
    # A fixed clock would hang a sketch that waits on millis(): each read moves it by 1 us, so
    # the wait ends after exactly a million reads. Frames move it by 1000/60 ms: p5's deltaTime
    # and frameRate() are those of a 60 Hz display. Dates count from 2026-01-01 in UTC (Date()'s
    # one-second resolution is checked here rather than in the pictures above).
    source = """
let waited = 0;
function setup() {
  createCanvas(600, 600, WEBGL);
  const start = millis();
  while (millis() - start < 1000) waited++;
}
function draw() {
  if (frameCount < 3) return;
  noLoop();
  brush.set('2B', '#203060', 3);
  brush.line(-100, -100, 100, 100);
  throw new Error(JSON.stringify({ waited, dt: deltaTime, fps: frameRate(), date: Date(),
    iso: new Date().toISOString(), zone: Intl.DateTimeFormat().resolvedOptions().timeZone }));
}
"""
    first, second = renderer.render_many_sync([source, source], seeds=0)
    assert first.errors == second.errors
    report = json.loads(first.errors[0].split("Error: ", 1)[1].rsplit(" (sketch.js", 1)[0])
    assert report["waited"] == 1_000_000
    assert report["dt"] == pytest.approx(1000 / 60) and report["fps"] == pytest.approx(60)
    assert report["date"].startswith("Thu Jan 01 2026 00:00:01 GMT+0000")
    assert report["iso"].startswith("2026-01-01T00:00:01") and report["zone"] == "UTC"


def test_async_render_and_render_many(renderer):
    async def main():
        single = await renderer.render(GOOD_SKETCH, seed=1)
        many = await renderer.render_many([GOOD_SKETCH, SEEDED_SKETCH] * 4, seeds=range(8))
        return single, many

    single, many = asyncio.run(main())
    assert single.status is RenderStatus.OK
    assert [r.seed for r in many] == list(range(8))
    assert all(r.status is RenderStatus.OK for r in many)


def test_render_many_checks_seed_count(renderer):
    with pytest.raises(ValueError, match="2 sketches but 3 seeds"):
        renderer.render_many_sync([GOOD_SKETCH] * 2, seeds=[1, 2, 3])


def test_sync_call_inside_a_running_loop(renderer):
    async def inside():
        # A notebook cell or an async trainer calling the sync API from its own loop.
        return renderer.render_sync(GOOD_SKETCH, seed=2)

    assert asyncio.run(inside()).status is RenderStatus.OK


def test_many_threads(renderer):
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda s: renderer.render_sync(GOOD_SKETCH, seed=s), range(6)))
    assert all(r.status is RenderStatus.OK for r in results)
    assert [r.seed for r in results] == list(range(6))


def test_render_sync_on_the_renderers_own_loop_is_refused(renderer):
    async def on_own_loop():
        return renderer.render_sync(GOOD_SKETCH)

    with pytest.raises(RuntimeError, match="own event loop"):
        renderer.run_coroutine(on_own_loop()).result(timeout=30)


def _slow_sketch(frames_ms: int = 150) -> str:
    return (
        "function setup() { createCanvas(200, 200, WEBGL); background(230); }\n"
        "function draw() { const t = performance.now(); while (performance.now() - t < "
        f"{frames_ms}) {{}} }}"
    )


def test_killing_the_browser_mid_render_is_retried_and_the_pool_recovers():
    require_chromium()
    with SketchRenderer(pool_size=1, deadline_s=20, max_frames=15) as r:
        (old_pid,) = r.browser_pids()
        assert old_pid is not None

        def kill_soon():
            time.sleep(1.0)
            psutil.Process(old_pid).kill()

        killer = threading.Thread(target=kill_soon)
        killer.start()
        # 1000 ms of the page's clock a frame: about 3 s on a quiet machine, so the kill lands
        # mid-render (150 ms a frame took 1.07 s, and the kill then landed while the GPU was
        # drained after the picture, which must be retried too).
        result = r.render_sync(_slow_sketch(1000), seed=4)
        killer.join()
        assert result.attempts == 2, result.errors
        assert result.status is RenderStatus.FRAME_CAPPED
        assert any(e.startswith("harness: attempt 1") for e in result.errors)
        (new_pid,) = r.browser_pids()
        assert new_pid is not None and new_pid != old_pid
        assert_good_render(r)


def test_repeated_browser_failure_is_reported_as_crashed():
    require_chromium()
    with SketchRenderer(pool_size=1, deadline_s=20, max_frames=15, retries=0) as r:
        (pid,) = r.browser_pids()
        threading.Timer(1.0, lambda: psutil.Process(pid).kill()).start()
        result = r.render_sync(_slow_sketch(1000), seed=4)
        assert result.status is RenderStatus.CRASHED
        assert result.status.is_infrastructure_failure
        assert result.png is None
        assert_good_render(r)  # the slot relaunched its browser


def test_close_is_idempotent_and_final():
    require_chromium()
    r = SketchRenderer(pool_size=1)
    assert r.render_sync(GOOD_SKETCH).ok
    pids = r.browser_pids()
    r.close()
    r.close()
    time.sleep(0.5)
    assert not any(pid and psutil.pid_exists(pid) for pid in pids)
    with pytest.raises(RuntimeError, match="closed"):
        r.render_sync(GOOD_SKETCH)


def test_async_context_manager():
    require_chromium()

    async def main():
        async with SketchRenderer(pool_size=1) as r:
            return await r.render(GOOD_SKETCH)

    assert asyncio.run(main()).ok


def test_shared_renderer_is_one_per_process():
    require_chromium()
    shared_renderer().close()  # whatever an earlier test left; a closed one is replaced
    shared = shared_renderer(pool_size=1)
    try:
        assert shared_renderer() is shared
        assert shared_renderer(pool_size=1) is shared
        with pytest.raises(ValueError, match="different configuration"):
            shared_renderer(pool_size=3)
        assert shared.render_sync(GOOD_SKETCH).ok
    finally:
        shared.close()
    assert shared_renderer() is not shared


def test_interpreter_exit_closes_browsers_without_hanging(tmp_path):
    require_chromium()
    script = (
        "from sketch_env import shared_renderer\n"
        "r = shared_renderer(pool_size=1)\n"
        f"print(r.render_sync({GOOD_SKETCH!r}).status.value)\n"
        "print(r.browser_pids()[0], flush=True)\n"
        # No close(): the atexit hook must shut the browsers down.
    )
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    status, pid = proc.stdout.split()
    assert status == "ok"
    assert time.perf_counter() - start < 60
    time.sleep(0.5)
    assert not psutil.pid_exists(int(pid)), "the browser outlived the interpreter"


def test_config_validation():
    with pytest.raises(ValueError, match="pool_size"):
        RenderConfig(pool_size=0)
    with pytest.raises(ValueError, match="backend"):
        RenderConfig(backend="opengl")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="deadline_s"):
        RenderConfig(deadline_s=0)
    assert RenderConfig().resolved_pool_size >= 1


def test_missing_browser_names_the_install_command():
    r = SketchRenderer(browser_path="/nonexistent/chromium", pool_size=1)
    with pytest.raises(BrowserNotFoundError, match="apt-get install -y chromium"):
        r.render_sync(GOOD_SKETCH)
    r.close()


def test_gpu_backend_without_a_gpu_says_what_is_missing():
    require_chromium()
    if shutil.which("nvidia-smi"):
        pytest.skip("an NVIDIA GPU is present here: examples/gpu_render_check.py measures it")
    r = SketchRenderer(backend="gpu", pool_size=1)
    with pytest.raises(BackendUnavailableError, match="needs an NVIDIA GPU") as info:
        r.render_sync(GOOD_SKETCH)
    assert "backend='auto'" in str(info.value)
    r.close()


def test_probing_a_backend_reports_its_webgl_renderer():
    require_chromium()

    async def probe():
        from playwright.async_api import async_playwright

        async with async_playwright() as pw:
            return await probe_backend(pw, find_browser(), "swiftshader")

    result = asyncio.run(probe())
    assert result.ok and "swiftshader" in result.renderer.lower()


def test_forced_swiftshader_backend_is_reported_and_nearly_deterministic():
    require_chromium()
    with SketchRenderer(pool_size=1, backend="swiftshader") as r:
        assert r.backend == "swiftshader"
        first, second, third = (r.render_sync(SEEDED_SKETCH, seed=11) for _ in range(3))
        assert first.backend == "swiftshader" and first.status is RenderStatus.OK
        for other in (second, third):
            same = np.mean(np.all(other.array() == first.array(), axis=-1))
            assert same >= 0.9999, same
