"""Runs the side-by-side benchmark: our renderer against the baseline, interleaved, one process.

Each repetition renders the same workload on every configuration in turn (A B C A B C ...), so
drift in machine load — large on a shared 2-core box — hits all of them alike, and the report is
built from ratios of medians. Configurations:

* ``baseline`` — `bench.baseline.BaselineRenderer` (docs/design.md §8).
* ``ours`` — `SketchRenderer` with its defaults (auto backend, pool sized to the machine, one
  host page per browser with a fresh frame per render, the next frame pre-warmed).
* ``ours_cold`` — the same with ``prewarm=False``: what pre-warming alone buys.
* ``ours_fresh_context`` — the same with ``renders_per_page=1``: a new browser context for every
  render (the renderer's previous design, pre-warmed): what reusing host pages buys.

Before each timed render of (a) the machine is left idle for a moment (`SETTLE_S`), for every
configuration alike: a render's latency is measured with its pre-warmed frame ready and without
another configuration's background work still running. (a) back to back is reported separately.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import platform
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

from playwright.async_api import async_playwright

from bench.baseline import BaselineRenderer
from bench.procs import TreeMonitor, cpu_by_type
from bench.workloads import FILL_COUNTS, TRIVIAL, grpo_group, heavy_sketch, watercolour
from sketch_env import RenderConfig, SketchRenderer
from sketch_env.render.backends import common_args

#: Targets of docs/design.md §8 / issue 6, as ratios against the baseline.
TARGETS = {"a_trivial": 4.0, "b_heavy": 3.0, "c_group": 4.0}

#: Idle time before each timed render of (a), so preparation left over from the previous
#: render (ours pre-warms the next frame as soon as a render ends) is not billed to whichever
#: configuration happens to run next. A prepared frame takes ~0.1 s on 2 cores.
SETTLE_S = 0.3


@dataclasses.dataclass
class Options:
    """What to run.

    Args:
        quick: Light workloads and one repetition each: a smoke run of the harness.
        reps: Repetitions of (b) and (c); (a) runs ``max(3, 3 * reps)`` times.
        pool_sizes: Pool sizes of the scaling run.
        scaling: Whether to run the pool-size and paint-amount curves.
        experiments: Whether to try the extra Chromium/llvmpipe knobs.
    """

    quick: bool = False
    reps: int = 3
    pool_sizes: tuple[int, ...] = (1, 2, 4)
    scaling: bool = True
    experiments: bool = False


Progress = Callable[[str], None]


def summary(samples: list[float]) -> dict[str, Any]:
    """Median, min, max and the samples themselves (rounded)."""
    return {
        "median": round(statistics.median(samples), 4),
        "min": round(min(samples), 4),
        "max": round(max(samples), 4),
        "n": len(samples),
        "samples": [round(s, 4) for s in samples],
    }


def load_average() -> list[float]:
    """The 1, 5 and 15 minute load averages."""
    return [round(x, 2) for x in os.getloadavg()]


async def _start(renderer: SketchRenderer) -> SketchRenderer:
    await asyncio.to_thread(renderer.start)
    return renderer


async def _close(renderer: SketchRenderer) -> None:
    await asyncio.to_thread(renderer.close)


async def _timed(call: Callable[[], Awaitable[Any]]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = await call()
    return time.perf_counter() - start, result


def _check_ours(results: Any, what: str, failures: list[str]) -> None:
    for r in results if isinstance(results, list) else [results]:
        if not r.ok:
            failures.append(f"ours {what}: {r.status.value} {list(r.errors)[:2]}")


def _check_baseline(results: Any, what: str, failures: list[str]) -> None:
    for r in results if isinstance(results, list) else [results]:
        if not r.ok:
            failures.append(f"baseline {what}: {r.error}")


def count_steps(opts: Options) -> int:
    """Number of progress steps `run_benchmark` will report."""
    reps_a = 3 if opts.quick else max(3, 3 * opts.reps)
    reps = 1 if opts.quick else opts.reps
    steps = 4 * reps_a + 1 + 2 * reps + 3 * reps
    if opts.scaling:
        steps += len(opts.pool_sizes) * reps + len(FILL_COUNTS) * reps
    if opts.experiments:
        steps += len(EXPERIMENTS) * 2 * reps
    return steps


#: Knobs tried by ``--experiments``: name -> (Chromium flags, environment, RenderConfig fields).
EXPERIMENTS: dict[str, tuple[tuple[str, ...], tuple[tuple[str, str], ...], dict[str, Any]]] = {
    "default": ((), (), {}),
    "LP_NUM_THREADS=1": ((), (("LP_NUM_THREADS", "1"),), {}),
    "--renderer-process-limit=2": (("--renderer-process-limit=2",), (), {}),
    "viewport 300x300": ((), (), {"viewport": (300, 300)}),
}


async def run_benchmark(opts: Options, progress: Progress) -> dict[str, Any]:
    """Runs everything `opts` asks for and returns the JSON-ready results.

    Args:
        opts: What to run.
        progress: Called once per finished step with a short description.

    Returns:
        The results (see ``docs/performance.md`` for the fields).
    """
    reps_a = 3 if opts.quick else max(3, 3 * opts.reps)
    reps = 1 if opts.quick else opts.reps
    heavy = heavy_sketch(opts.quick)
    group = grpo_group(opts.quick)
    group_sources = [s.source for s in group]
    failures: list[str] = []
    out: dict[str, Any] = {
        "meta": {
            "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "quick": opts.quick,
            "reps": {"a_trivial": reps_a, "b_heavy": reps, "c_group": reps},
            "cpus": len(os.sched_getaffinity(0)),
            "platform": platform.platform(),
            "python": platform.python_version(),
            "load_average_start": load_average(),
            "heavy_sketch": heavy.name,
            "group": [s.name for s in group],
        },
    }

    async with async_playwright() as pw:
        baseline = await BaselineRenderer(pw).start()
        ours = await _start(SketchRenderer(RenderConfig(deadline_s=300)))
        cold = await _start(SketchRenderer(RenderConfig(deadline_s=300, prewarm=False)))
        fresh = await _start(SketchRenderer(RenderConfig(deadline_s=300, renders_per_page=1)))
        configs: dict[str, Any] = {
            "baseline": baseline,
            "ours": ours,
            "ours_cold": cold,
            "ours_fresh_context": fresh,
        }
        monitors = {name: TreeMonitor(r.browser_pids).start() for name, r in configs.items()}
        out["configs"] = {
            "baseline": {
                "backend": "swiftshader",
                "pool_size": 1,
                "page": "set_content, everything inlined",
                "group": "sequential",
            },
            "ours": {
                "backend": ours.backend,
                "webgl_renderer": ours.webgl_renderer,
                "pool_size": ours.pool_size,
                "prewarm": True,
                "launch_flags": [
                    *common_args(ours.config.js_heap_mb),
                    *(ours._choice.backend.flags if ours._choice else ()),
                ],
                "launch_env": dict(ours._choice.backend.env if ours._choice else ()),
            },
            "ours_cold": {"backend": cold.backend, "pool_size": cold.pool_size, "prewarm": False},
            "ours_fresh_context": {
                "backend": fresh.backend,
                "pool_size": fresh.pool_size,
                "prewarm": True,
                "renders_per_page": 1,
            },
        }
        try:
            # Warm-up (untimed): first renders pay for JIT and the GL shader caches.
            await baseline.render(TRIVIAL, 0)
            await ours.render(TRIVIAL, 0)
            await cold.render(TRIVIAL, 0)
            await fresh.render(TRIVIAL, 0)
            progress("warm-up")

            # (a) per-render overhead: one trivial render at a time, interleaved.
            a: dict[str, list[float]] = {k: [] for k in configs}
            for rep in range(reps_a):
                for name, r in configs.items():
                    await asyncio.sleep(SETTLE_S)
                    if name == "baseline":
                        t, res = await _timed(lambda r=r, rep=rep: r.render(TRIVIAL, rep))
                        _check_baseline(res, "trivial", failures)
                    else:
                        t, res = await _timed(lambda r=r, rep=rep: r.render(TRIVIAL, rep))
                        _check_ours(res, "trivial", failures)
                    a[name].append(t)
                    progress(f"(a) trivial {name} {t:.2f}s")
            # Back to back, no gap in which a warm page could be refilled at leisure.
            burst: list[float] = []
            for i in range(8):
                t, res = await _timed(lambda i=i: ours.render(TRIVIAL, i))
                _check_ours(res, "trivial burst", failures)
                burst.append(t)
            progress("(a) trivial back to back")
            out["a_trivial"] = _workload(
                "seconds per render (lower is better)", a, lower_is_better=True
            )
            out["a_trivial"]["ours_back_to_back"] = summary(burst)

            # (b) heavy watercolour: one render at a time; CPU per Chromium process type.
            b: dict[str, list[float]] = {"baseline": [], "ours": []}
            cpu: dict[str, list[dict[str, float]]] = {"baseline": [], "ours": []}
            for rep in range(reps):
                for name in ("baseline", "ours"):
                    r = configs[name]
                    before = monitors[name].cpu_snapshot()
                    t, res = await _timed(lambda r=r, rep=rep: r.render(heavy.source, rep))
                    cpu[name].append(cpu_by_type(before, monitors[name].cpu_snapshot()))
                    if name == "baseline":
                        _check_baseline(res, "heavy", failures)
                    else:
                        _check_ours(res, "heavy", failures)
                    b[name].append(t)
                    progress(f"(b) heavy {name} {t:.1f}s")
            out["b_heavy"] = _workload("seconds per render (lower is better)", b, True)
            out["b_heavy"]["cpu_seconds_by_process_type"] = {
                name: _mean_dicts(samples) for name, samples in cpu.items()
            }

            # (c) a GRPO group of 8: throughput in renders per second.
            c_names = ("baseline", "ours", "ours_fresh_context")
            c: dict[str, list[float]] = {name: [] for name in c_names}
            c_cpu: dict[str, list[dict[str, float]]] = {name: [] for name in c_names}
            seeds = list(range(len(group_sources)))
            for _rep in range(reps):
                for name in c_names:
                    r = configs[name]
                    before = monitors[name].cpu_snapshot()
                    if name == "baseline":
                        t, res = await _timed(lambda: baseline.render_group(group_sources, seeds))
                        _check_baseline(res, "group", failures)
                    else:
                        t, res = await _timed(lambda r=r: r.render_many(group_sources, seeds))
                        _check_ours(res, f"group {name}", failures)
                    c_cpu[name].append(cpu_by_type(before, monitors[name].cpu_snapshot()))
                    c[name].append(len(group_sources) / t)
                    progress(f"(c) group {name} {t:.1f}s")
            out["c_group"] = _workload("renders per second (higher is better)", c, False)
            out["c_group"]["cpu_seconds_by_process_type"] = {
                name: _mean_dicts(samples) for name, samples in c_cpu.items()
            }
        finally:
            for monitor in monitors.values():
                monitor.stop()
            out["memory_peak_rss_mb"] = {
                name: {
                    "pool_size": out.get("configs", {}).get(name, {}).get("pool_size"),
                    "peak_rss_mb": round(m.peak_rss / 2**20, 1),
                    "peak_pss_mb": round(m.peak_pss / 2**20, 1),
                    "peak_processes": m.peak_processes,
                }
                for name, m in monitors.items()
            }
            await _close(cold)
            await _close(fresh)
            await baseline.close()

        try:
            if opts.scaling:
                out["scaling"] = await _scaling(opts, reps, group_sources, ours, failures, progress)
            if opts.experiments:
                out["experiments"] = await _experiments(
                    reps, heavy.source, group_sources, failures, progress
                )
        finally:
            await _close(ours)

    out["targets"] = {
        key: {
            "target_ratio": target,
            "ratio": out[key]["ratios"]["ours"],
            "met": out[key]["ratios"]["ours"] >= target,
        }
        for key, target in TARGETS.items()
        if key in out
    }
    out["meta"]["load_average_end"] = load_average()
    out["failures"] = failures
    return out


def _workload(unit: str, samples: dict[str, list[float]], lower_is_better: bool) -> dict[str, Any]:
    stats = {name: summary(v) for name, v in samples.items()}
    base = stats["baseline"]["median"]
    ratios, paired = {}, {}
    for name, s in stats.items():
        if name == "baseline":
            continue
        # A ratio > 1 always means "better than the baseline by this factor".
        ratios[name] = round(base / s["median"] if lower_is_better else s["median"] / base, 2)
        # Ratios within one repetition (measured seconds apart) cancel slow load drift.
        pairs = [
            b / o if lower_is_better else o / b
            for b, o in zip(samples["baseline"], samples[name], strict=True)
        ]
        paired[name] = round(statistics.median(pairs), 2)
    return {"unit": unit, "results": stats, "ratios": ratios, "paired_ratio_median": paired}


def _mean_dicts(samples: list[dict[str, float]]) -> dict[str, float]:
    keys = sorted({k for s in samples for k in s})
    return {k: round(statistics.fmean(s.get(k, 0.0) for s in samples), 2) for k in keys}


async def _scaling(
    opts: Options,
    reps: int,
    group_sources: list[str],
    ours: SketchRenderer,
    failures: list[str],
    progress: Progress,
) -> dict[str, Any]:
    """Group throughput per pool size, and render time against the number of textured fills."""
    pools: dict[str, Any] = {}
    seeds = list(range(len(group_sources)))
    for size in opts.pool_sizes:
        r = await _start(SketchRenderer(RenderConfig(pool_size=size, deadline_s=300)))
        monitor = TreeMonitor(r.browser_pids).start()
        try:
            await r.render(TRIVIAL, 0)
            samples = []
            for _ in range(reps):
                t, res = await _timed(lambda r=r: r.render_many(group_sources, seeds))
                _check_ours(res, f"group pool={size}", failures)
                samples.append(len(group_sources) / t)
                progress(f"scaling pool={size} {t:.1f}s")
        finally:
            monitor.stop()
            await _close(r)
        pools[str(size)] = {
            "renders_per_s": summary(samples),
            "peak_rss_mb": round(monitor.peak_rss / 2**20, 1),
            "peak_pss_mb": round(monitor.peak_pss / 2**20, 1),
        }
    fills: dict[str, Any] = {}
    for n in FILL_COUNTS:
        source = watercolour(n)
        samples = []
        for rep in range(reps):
            t, res = await _timed(lambda source=source, rep=rep: ours.render(source, rep))
            _check_ours(res, f"fills={n}", failures)
            samples.append(t)
            progress(f"fills={n} {t:.1f}s")
        fills[str(n)] = summary(samples)
    return {"group_throughput_by_pool_size": pools, "seconds_by_textured_fills": fills}


async def _experiments(
    reps: int, heavy: str, group_sources: list[str], failures: list[str], progress: Progress
) -> dict[str, Any]:
    """Heavy-sketch time and group throughput under each knob of `EXPERIMENTS`."""
    results: dict[str, Any] = {}
    seeds = list(range(len(group_sources)))
    for name, (flags, env, fields) in EXPERIMENTS.items():
        config = RenderConfig(
            deadline_s=300, extra_browser_args=flags, extra_browser_env=env, **fields
        )
        r = await _start(SketchRenderer(config))
        monitor = TreeMonitor(r.browser_pids).start()
        try:
            await r.render(TRIVIAL, 0)
            heavy_s, group_rps = [], []
            for rep in range(reps):
                t, res = await _timed(lambda r=r, rep=rep: r.render(heavy, rep))
                _check_ours(res, f"experiment {name} heavy", failures)
                heavy_s.append(t)
                progress(f"experiment {name} heavy {t:.1f}s")
                t, res = await _timed(lambda r=r: r.render_many(group_sources, seeds))
                _check_ours(res, f"experiment {name} group", failures)
                group_rps.append(len(group_sources) / t)
                progress(f"experiment {name} group {t:.1f}s")
        finally:
            monitor.stop()
            await _close(r)
        results[name] = {
            "heavy_s": summary(heavy_s),
            "group_renders_per_s": summary(group_rps),
            "peak_rss_mb": round(monitor.peak_rss / 2**20, 1),
        }
    return results
