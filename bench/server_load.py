"""The served environment under load, beside the renderer and the renderer's physical floor.

Run from a checkout (see docs/performance.md, "Serving under load")::

    python -m bench.server_load                       # levels 1,4,8,16; ~5 min on 2 cores
    python -m bench.server_load --levels 1,2 --steps 2 --floor-reps 4   # smoke run

Three things are measured in one run, on the GL backend the renderer chooses here, with the
same sketch and seeds:

* **floor**: a bare, warm page: one Chromium launched with the renderer's own switches for
  that backend, p5.js and p5.brush loaded once, and the sketch re-run in it (a new global-mode
  p5 instance each time, the picture read as a PNG inside the page). No fresh document, no
  isolation, no harness, no watchdog: the least a render of this sketch can cost on this
  machine. Run in ``pool_size`` such pages at once (a browser each) it gives the floor's
  throughput.
* **renderer**: `SketchRenderer` with the same pool size: one render at a time, and a batch
  across the pool.
* **server**: ``python -m sketch_env.server`` on a loopback port (the default heuristic
  scorer); at each concurrency level N, N sessions (`SketchEnvClient`) each play an episode of
  ``--steps`` steps at once. Per step: the client's latency (p50, p99) and the server's own
  render time; per level: steps per second.

Ratios printed: renderer / floor (one render), server step / renderer render (one session),
and floor throughput / server throughput (the busiest level). The JSON lands in
``bench/results/server_load.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import math
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import Browser, Playwright, async_playwright

from bench.workloads import watercolour
from sketch_env import RenderConfig, SketchRenderer
from sketch_env.catalog.assets import read_vendor_bytes
from sketch_env.render.backends import BrowserChoice, choose_backend, common_args

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "server_load.json"
#: Idle time before each timed single render, for floor and renderer alike (the renderer
#: prepares its next frame when a render ends; bench/runner.py's SETTLE_S, for the same reason).
SETTLE_S = 0.3

# A seeded Math.random per run, the picture taken after p5.brush's own post-setup/post-draw
# hooks (it is registered after p5.brush, so its hooks run after p5.brush has flushed), and
# p5.brush pointed at each new WEBGL canvas: the library binds itself to the first sketch's
# renderer and, re-run without this, painted later sketches onto the removed canvas (their
# PNGs came back as the bare background).
_FLOOR_SCRIPT = """
(() => {
  const floor = { resolve: null, instance: null, seed: 0 };
  window.__floor = floor;
  const seeded = (seed) => {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  };
  const grab = (inst) => {
    const canvas = inst.canvas || (inst._renderer && inst._renderer.canvas);
    const resolve = floor.resolve;
    floor.resolve = null;
    if (resolve) resolve(canvas ? canvas.toDataURL('image/png') : null);
  };
  p5.registerAddon((p5, fn, lifecycles) => {
    lifecycles.postsetup = function () { if (typeof window.draw !== 'function') grab(this); };
    lifecycles.postdraw = function () {
      if (!this.isLooping() || this.frameCount >= 60) { this.noLoop(); grab(this); }
    };
  });
  const createCanvas = p5.prototype.createCanvas;
  p5.prototype.createCanvas = function (...args) {
    const canvas = createCanvas.apply(this, args);
    if (this.webglVersion === 'webgl2') {
      brush.instance(this);
      brush.load();
      brush.seed(floor.seed);
    }
    return canvas;
  };
  window.__floorRun = (source, seed) => {
    floor.seed = seed;
    Math.random = seeded(seed);
    (0, eval)(source);
    return new Promise((resolve) => {
      floor.resolve = resolve;
      floor.instance = new p5();
    });
  };
  window.__floorClear = async () => {
    if (floor.instance) await floor.instance.remove();
    floor.instance = null;
    window.setup = undefined;
    window.draw = undefined;
  };
})();
"""


class BarePage:
    """One Chromium on the renderer's backend, one page, p5.js and p5.brush loaded once.

    Args:
        playwright: A started Playwright.
        choice: The renderer's backend choice (executable, switches, environment).
        deadline_s: Bound on one run.
    """

    def __init__(self, playwright: Playwright, choice: BrowserChoice, deadline_s: float = 120):
        self._playwright = playwright
        self._choice = choice
        self._deadline_s = deadline_s
        self._browser: Browser | None = None
        self._page: Any = None

    async def start(self) -> BarePage:
        """Launches the browser and loads the libraries into a blank page."""
        backend = self._choice.backend
        self._browser = await self._playwright.chromium.launch(
            executable_path=self._choice.executable,
            args=[*common_args(RenderConfig().js_heap_mb), *backend.flags],
            env={**os.environ, **dict(backend.env)},
        )
        self._page = await self._browser.new_page(viewport={"width": 600, "height": 600})
        await self._page.set_content(
            '<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>'
        )
        for library in ("p5/p5.min.js", "p5.brush/p5.brush.js"):
            await self._page.add_script_tag(content=read_vendor_bytes(library).decode("utf-8"))
        await self._page.add_script_tag(content=_FLOOR_SCRIPT)
        return self

    async def run(self, source: str, seed: int) -> tuple[float, bytes]:
        """Runs the sketch once: seconds from starting it to holding its PNG, and the PNG."""
        started = time.perf_counter()
        data = await asyncio.wait_for(
            self._page.evaluate("([s, k]) => window.__floorRun(s, k)", [source, seed]),
            self._deadline_s,
        )
        seconds = time.perf_counter() - started
        await self._page.evaluate("() => window.__floorClear()")
        if not isinstance(data, str) or not data.startswith("data:image/png;base64,"):
            raise RuntimeError(f"the floor page returned no picture: {str(data)[:200]}")
        return seconds, base64.b64decode(data.split(",", 1)[1])

    async def close(self) -> None:
        """Closes the browser."""
        if self._browser is not None:
            await self._browser.close()
            self._browser = None


def summary(samples: Sequence[float]) -> dict[str, Any]:
    """Median, 99th percentile (nearest rank), min, max and the count."""
    ordered = sorted(samples)
    rank = max(0, math.ceil(0.99 * len(ordered)) - 1)
    return {
        "p50": round(statistics.median(ordered), 4),
        "p99": round(ordered[rank], 4),
        "min": round(ordered[0], 4),
        "max": round(ordered[-1], 4),
        "n": len(ordered),
    }


async def measure_floor_and_renderer(
    source: str, pool_size: int, reps: int, batch: int
) -> dict[str, Any]:
    """Single renders alternating floor and renderer (same seeds), then throughput of each.

    Args:
        source: The sketch.
        pool_size: Browsers of the renderer, and bare pages run at once for throughput.
        reps: Single renders of each.
        batch: Renders of the throughput runs.

    Returns:
        ``floor`` and ``renderer`` summaries (seconds per render, renders per second), the
        backend and its WebGL renderer string.
    """
    renderer = SketchRenderer(RenderConfig(pool_size=pool_size))
    await asyncio.to_thread(renderer.start)
    try:
        async with async_playwright() as playwright:
            choice = await choose_backend(playwright, renderer.backend)
            pages = [await BarePage(playwright, choice).start() for _ in range(pool_size)]
            try:
                # Warm both: the first run of each pays for shader compilation.
                await pages[0].run(source, 0)
                await renderer.render(source, seed=0)
                floor_s: list[float] = []
                render_s: list[float] = []
                for rep in range(reps):
                    await asyncio.sleep(SETTLE_S)
                    seconds, _ = await pages[0].run(source, rep + 1)
                    floor_s.append(seconds)
                    await asyncio.sleep(SETTLE_S)
                    started = time.perf_counter()
                    picture = await renderer.render(source, seed=rep + 1)
                    render_s.append(time.perf_counter() - started)
                    if picture.status.value != "ok":
                        raise RuntimeError(f"the renderer failed: {picture.errors[:2]}")
                floor_rate = await _floor_throughput(pages, source, batch)
                started = time.perf_counter()
                await renderer.render_many([source] * batch, list(range(batch)))
                render_rate = batch / (time.perf_counter() - started)
            finally:
                for page in pages:
                    await page.close()
    finally:
        await asyncio.to_thread(renderer.close)
    return {
        "backend": choice.backend.name,
        "webgl_renderer": choice.renderer,
        "floor": {"seconds": summary(floor_s), "renders_per_s": round(floor_rate, 3)},
        "renderer": {"seconds": summary(render_s), "renders_per_s": round(render_rate, 3)},
    }


async def _floor_throughput(pages: list[BarePage], source: str, batch: int) -> float:
    queue: asyncio.Queue[int] = asyncio.Queue()
    for seed in range(batch):
        queue.put_nowait(seed)

    async def drain(page: BarePage) -> None:
        while not queue.empty():
            await page.run(source, queue.get_nowait())

    started = time.perf_counter()
    await asyncio.gather(*(drain(page) for page in pages))
    return batch / (time.perf_counter() - started)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def measure_server(
    source: str,
    pool_size: int,
    levels: Sequence[int],
    steps: int,
    log: Path,
    capacity: int | None = None,
) -> dict[str, Any]:
    """Step latency and throughput of the real server at each concurrency level.

    Args:
        source: The sketch every step sends.
        pool_size: The server's browsers.
        levels: Sessions stepping at once.
        steps: Steps of each session's episode.
        log: Where the server's output goes.
        capacity: The server's ``--max-concurrent-steps`` (its default when ``None``).

    Returns:
        Per level: client latency and server render time summaries, steps per second, and
        the server's step-queue counters after the level.
    """
    from sketch_env.server.client import SketchEnvClient

    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    command = [
        sys.executable,
        "-m",
        "sketch_env.server",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--pool-size",
        str(pool_size),
        "--max-sessions",
        str(max(levels)),
        "--max-steps",
        str(steps),
        "--log-level",
        "warning",
    ]
    if capacity is not None:
        command += ["--max-concurrent-steps", str(capacity)]
    with log.open("wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        await _until_healthy(url, proc)

        async def episode(seed: int) -> list[tuple[float, float]]:
            timings = []
            async with SketchEnvClient(base_url=url, message_timeout_s=300) as client:
                await client.reset(seed=seed, max_steps=steps)
                for _ in range(steps):
                    started = time.perf_counter()
                    result = await client.step(source)
                    seconds = time.perf_counter() - started
                    observation = result.observation
                    if observation.render_status != "ok":
                        raise RuntimeError(f"a step failed: {observation.feedback[:300]}")
                    timings.append((seconds, (observation.render_ms or 0.0) / 1000))
            return timings

        await episode(0)  # launches the browsers and warms the scorer
        results: dict[str, Any] = {}
        for level in levels:
            started = time.perf_counter()
            per_session = await asyncio.gather(*(episode(1 + i) for i in range(level)))
            wall_s = time.perf_counter() - started
            timings = [t for session in per_session for t in session]
            async with httpx.AsyncClient(timeout=30) as http:
                health = (await http.get(url + "/health")).json()
            results[str(level)] = {
                "sessions": level,
                "steps": len(timings),
                "step_s": summary([t[0] for t in timings]),
                "render_s": summary([t[1] for t in timings]),
                "steps_per_s": round(len(timings) / wall_s, 3),
                "queue": health["steps"],
            }
        return results
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


async def _until_healthy(url: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 180
    async with httpx.AsyncClient(timeout=2) as http:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited with status {proc.returncode}")
            try:
                if (await http.get(url + "/health")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not become healthy within 180 s")
            await asyncio.sleep(0.5)


def ratios(results: dict[str, Any]) -> dict[str, float]:
    """The ratios the report prints: each layer against the one below it."""
    floor, rendered = results["floor"], results["renderer"]
    server = results["server"]
    one = server[min(server, key=int)]
    busiest = server[max(server, key=int)]
    return {
        "renderer_over_floor": round(rendered["seconds"]["p50"] / floor["seconds"]["p50"], 2),
        "step_over_render": round(one["step_s"]["p50"] / rendered["seconds"]["p50"], 2),
        "floor_over_server_throughput": round(floor["renders_per_s"] / busiest["steps_per_s"], 2),
        "floor_over_renderer_throughput": round(
            floor["renders_per_s"] / rendered["renders_per_s"], 2
        ),
    }


def report(results: dict[str, Any]) -> str:
    """The results as plain text."""
    floor, rendered = results["floor"], results["renderer"]
    lines = [
        f"backend {results['backend']} ({results['webgl_renderer']}), pool {results['pool_size']}"
        f", step capacity {results['max_concurrent_steps'] or 'default'}"
        f", sketch {results['sketch']}",
        f"load average {results['meta']['load_average_start']} -> "
        f"{results['meta']['load_average_end']}",
        "",
        f"{'':<28}{'p50 s':>9}{'p99 s':>9}{'renders/s':>11}",
        f"{'floor (bare warm page)':<28}{floor['seconds']['p50']:>9.3f}"
        f"{floor['seconds']['p99']:>9.3f}{floor['renders_per_s']:>11.2f}",
        f"{'renderer (SketchRenderer)':<28}{rendered['seconds']['p50']:>9.3f}"
        f"{rendered['seconds']['p99']:>9.3f}{rendered['renders_per_s']:>11.2f}",
        "",
        f"{'sessions':>8}{'steps':>7}{'step p50':>10}{'step p99':>10}{'render p50':>12}"
        f"{'steps/s':>9}{'refused':>9}",
    ]
    for level in results["server"].values():
        lines.append(
            f"{level['sessions']:>8}{level['steps']:>7}{level['step_s']['p50']:>10.3f}"
            f"{level['step_s']['p99']:>10.3f}{level['render_s']['p50']:>12.3f}"
            f"{level['steps_per_s']:>9.2f}{level['queue']['refused']:>9}"
        )
    r = results["ratios"]
    lines += [
        "",
        f"renderer / floor, one render (p50):        {r['renderer_over_floor']:.2f}x",
        f"server step / renderer render, 1 session:  {r['step_over_render']:.2f}x",
        f"floor / renderer throughput:               {r['floor_over_renderer_throughput']:.2f}x",
        f"floor / server throughput, busiest level:  {r['floor_over_server_throughput']:.2f}x",
    ]
    return "\n".join(lines)


async def run_all(args: argparse.Namespace) -> dict[str, Any]:
    """Every measurement, in order: floor and renderer side by side, then the server."""
    source = watercolour(args.fills)
    start_load = [round(x, 2) for x in os.getloadavg()]
    rendering = await measure_floor_and_renderer(
        source, args.pool_size, args.floor_reps, args.batch
    )
    with tempfile.TemporaryDirectory() as tmp:
        server = await measure_server(
            source,
            args.pool_size,
            args.levels,
            args.steps,
            Path(tmp) / "server.log",
            args.max_concurrent_steps,
        )
    results: dict[str, Any] = {
        "meta": {
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "machine": f"{platform.node()} {platform.machine()}, {os.cpu_count()} CPUs",
            "python": platform.python_version(),
            "command": "python -m bench.server_load " + " ".join(sys.argv[1:]),
            "load_average_start": start_load,
            "load_average_end": [round(x, 2) for x in os.getloadavg()],
        },
        "sketch": f"bench.workloads.watercolour({args.fills})",
        "pool_size": args.pool_size,
        "max_concurrent_steps": args.max_concurrent_steps,
        **rendering,
        "server": server,
    }
    results["ratios"] = ratios(results)
    return results


def main(argv: list[str] | None = None) -> int:
    """Runs the benchmark, prints the report and writes the JSON."""
    parser = argparse.ArgumentParser(prog="python -m bench.server_load", description=__doc__)
    parser.add_argument(
        "--levels",
        type=lambda s: tuple(int(x) for x in s.split(",")),
        default=(1, 4, 8, 16),
        help="sessions stepping at once, comma-separated (default 1,4,8,16)",
    )
    parser.add_argument("--steps", type=int, default=4, help="steps per session (default 4)")
    parser.add_argument("--pool-size", type=int, default=2, help="browsers (default 2)")
    parser.add_argument(
        "--floor-reps", type=int, default=10, help="single renders of floor and renderer"
    )
    parser.add_argument("--batch", type=int, default=16, help="renders of the throughput runs")
    parser.add_argument(
        "--fills", type=int, default=2, help="textured fills of the watercolour sketch"
    )
    parser.add_argument(
        "--max-concurrent-steps",
        type=int,
        default=None,
        help="the server's step capacity (default: its own, twice the pool size)",
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON results file")
    args = parser.parse_args(argv)
    if min(args.levels) < 1 or args.steps < 1 or args.floor_reps < 1 or args.batch < 1:
        parser.error("levels, --steps, --floor-reps and --batch must be at least 1")
    results = asyncio.run(run_all(args))
    print(report(results))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"results written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
