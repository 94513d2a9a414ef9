"""Measures workloads (b) and (c) on an NVIDIA GPU (``backend="gpu"``) against llvmpipe.

A prepared check for a machine with an NVIDIA GPU and its driver (headless EGL through ANGLE's
GL/EGL backend: Chromium's hardware GL path). Run from a checkout::

    python examples/gpu_render_check.py --out gpu_results.json

It prints and writes: the WebGL renderer string the GPU backend got (it must name the NVIDIA
device, not llvmpipe), the heavy watercolour sketch's render time (b) and a GRPO group's
throughput (c) on ``gpu`` and, for the same sketches in the same run, on ``llvmpipe``, plus
pool-size scaling on the GPU. Exit status 0 when the GPU backend worked, 2 when it did not (the
output says why: no driver, no EGL vendor file, Chromium refusing the GPU...).

Not run on the 2-core development machine (it has no GPU); see docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.workloads import TRIVIAL, grpo_group, heavy_sketch  # noqa: E402
from sketch_env import RenderConfig, SketchRenderer  # noqa: E402
from sketch_env.render.backends import BackendUnavailableError  # noqa: E402


def _nvidia_smi() -> str:
    if shutil.which("nvidia-smi") is None:
        return "nvidia-smi not found"
    proc = subprocess.run(
        ["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    return (proc.stdout or proc.stderr).strip()


def _stats(samples: list[float]) -> dict[str, Any]:
    return {
        "median": round(statistics.median(samples), 3),
        "min": round(min(samples), 3),
        "max": round(max(samples), 3),
        "samples": [round(s, 3) for s in samples],
    }


def measure(backend: str, pool_size: int | None, reps: int) -> dict[str, Any]:
    """Heavy-sketch seconds and group renders/s on one backend.

    Args:
        backend: ``gpu`` or ``llvmpipe``.
        pool_size: Browsers; ``None`` for the default (one per core, at most eight).
        reps: Repetitions.

    Returns:
        The figures, with the WebGL renderer string and any failed renders.
    """
    heavy = heavy_sketch().source
    group = [s.source for s in grpo_group()]
    failures: list[str] = []
    with SketchRenderer(RenderConfig(backend=backend, pool_size=pool_size, deadline_s=300)) as r:
        r.render_sync(TRIVIAL)  # warm-up: JIT, shader caches
        heavy_s, group_rps = [], []
        for rep in range(reps):
            start = time.perf_counter()
            result = r.render_sync(heavy, seed=rep)
            heavy_s.append(time.perf_counter() - start)
            if not result.ok:
                failures.append(f"heavy: {result.status.value} {result.errors[:2]}")
            start = time.perf_counter()
            results = r.render_many_sync(group, seeds=list(range(len(group))))
            group_rps.append(len(group) / (time.perf_counter() - start))
            failures += [f"group: {x.status.value} {x.errors[:2]}" for x in results if not x.ok]
        return {
            "backend": r.backend,
            "webgl_renderer": r.webgl_renderer,
            "pool_size": r.pool_size,
            "b_heavy_s": _stats(heavy_s),
            "c_group_renders_per_s": _stats(group_rps),
            "failures": failures,
        }


def main(argv: list[str] | None = None) -> int:
    """Runs the check; returns 0 when the GPU backend rendered everything."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--pool-sizes", default="1,2,4,8", help="GPU pool sizes to scale over")
    parser.add_argument("--skip-llvmpipe", action="store_true", help="GPU figures only")
    parser.add_argument("--out", type=Path, default=Path("gpu_render_check.json"))
    args = parser.parse_args(argv)

    report: dict[str, Any] = {"nvidia_smi": _nvidia_smi()}
    print(f"GPU: {report['nvidia_smi']}", flush=True)
    try:
        report["gpu"] = measure("gpu", None, args.reps)
    except BackendUnavailableError as exc:
        report["gpu_error"] = str(exc)
        print(f"the gpu backend is unavailable: {exc}", file=sys.stderr)
        args.out.write_text(json.dumps(report, indent=2) + "\n")
        return 2
    print(json.dumps(report["gpu"], indent=2), flush=True)
    report["gpu_scaling"] = {}
    for size in (int(x) for x in args.pool_sizes.split(",")):
        figures = measure("gpu", size, max(1, args.reps - 1))
        report["gpu_scaling"][str(size)] = figures["c_group_renders_per_s"]
        print(f"gpu pool {size}: {figures['c_group_renders_per_s']}", flush=True)
    if not args.skip_llvmpipe:
        report["llvmpipe"] = measure("llvmpipe", None, args.reps)
        gpu, cpu = report["gpu"], report["llvmpipe"]
        report["gpu_vs_llvmpipe"] = {
            "b_heavy_speedup": round(cpu["b_heavy_s"]["median"] / gpu["b_heavy_s"]["median"], 2),
            "c_group_throughput_ratio": round(
                gpu["c_group_renders_per_s"]["median"] / cpu["c_group_renders_per_s"]["median"], 2
            ),
        }
        print(json.dumps(report["gpu_vs_llvmpipe"]), flush=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"written to {args.out}")
    return 0 if not report["gpu"]["failures"] else 1


if __name__ == "__main__":
    sys.exit(main())
