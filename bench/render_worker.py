"""One renderer in a process of its own, for `bench.previous`: renders on request, reports times.

Run by path (``python bench/render_worker.py``) with ``PYTHONPATH`` pointing at the tree whose
``sketch_env`` it should use: today's checkout, or an earlier commit's tree. It therefore uses
only what every version of the renderer has had (``SketchRenderer(pool_size=...)``,
``render_sync``, ``browser_pids``) and imports nothing of ``bench``.

Protocol, one JSON object a line: the parent writes ``{"source": ..., "seed": ...}`` (or
``{"quit": true}``); the worker answers ``{"wall_s", "status", "renderer_cpu_s", "tree_cpu_s",
"api_calls"}``, after a first line ``{"ready": true, "sketch_env": <path>}``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

import psutil


def _cpu_s(proc: psutil.Process) -> float:
    """CPU-seconds of a process's live threads, to the nanosecond where Linux's schedstat is
    there (psutil's process times count whole clock ticks, 10 ms: a trivial render's share)."""
    total = 0.0
    try:
        tids = os.listdir(f"/proc/{proc.pid}/task")
    except OSError:
        times = proc.cpu_times()
        return float(times.user + times.system)
    for tid in tids:
        try:
            with open(f"/proc/{proc.pid}/task/{tid}/schedstat", encoding="ascii") as f:
                total += int(f.read().split()[0]) / 1e9
        except (OSError, ValueError, IndexError):
            continue
    return total


def _cpu_by_pid(roots: list[int | None]) -> dict[int, tuple[str, float]]:
    """CPU-seconds of every process under ``roots``, with its Chromium process type."""
    seen: dict[int, tuple[str, float]] = {}
    for root in roots:
        if root is None:
            continue
        try:
            procs = [psutil.Process(root), *psutil.Process(root).children(recursive=True)]
        except psutil.Error:
            continue
        for proc in procs:
            try:
                kind = "browser"
                for arg in proc.cmdline():
                    if arg.startswith("--type="):
                        kind = arg[len("--type=") :]
                seen[proc.pid] = (kind, _cpu_s(proc))
            except psutil.Error:
                continue
    return seen


def _delta(
    before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]]
) -> dict[str, float]:
    spent: dict[str, float] = {}
    for pid, (kind, cpu) in after.items():
        spent[kind] = spent.get(kind, 0.0) + cpu - before.get(pid, (kind, 0.0))[1]
    return spent


def main() -> int:
    """Serves render requests from stdin until told to quit or stdin closes."""
    import sketch_env
    from sketch_env.render import SketchRenderer

    renderer = SketchRenderer(pool_size=1)
    out = sys.stdout
    out.write(json.dumps({"ready": True, "sketch_env": sketch_env.__file__}) + "\n")
    out.flush()
    try:
        for line in sys.stdin:
            request: dict[str, Any] = json.loads(line)
            if request.get("quit"):
                break
            before = _cpu_by_pid(renderer.browser_pids())
            start = time.perf_counter()
            render = renderer.render_sync(request["source"], seed=int(request.get("seed", 0)))
            wall = time.perf_counter() - start
            spent = _delta(before, _cpu_by_pid(renderer.browser_pids()))
            answer = {
                "wall_s": wall,
                "status": str(render.status.value),
                "renderer_cpu_s": spent.get("renderer", 0.0),
                "tree_cpu_s": sum(spent.values()),
                "api_calls": dict(getattr(render, "api_calls", {}) or {}),
            }
            out.write(json.dumps(answer) + "\n")
            out.flush()
    finally:
        renderer.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
