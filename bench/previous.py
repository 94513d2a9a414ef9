"""``python -m bench.previous``: today's renderer against an earlier commit's, side by side.

The main benchmark (`bench.runner`) compares the renderer with a straightforward design, which
it beats by 8-50x: a renderer that got twice as slow still passes it. Issue 29 found exactly
that (heavy renders 2.1x slower after the round that attributed every drawing call by its stack
and measured p5.brush's paint). This benchmark compares the checkout's renderer with the
renderer of an earlier commit (`PREVIOUS`, the last one before that round, by default), so the
next regression in per-call overhead shows as a ratio.

How: the earlier tree is extracted with ``git archive`` into a temporary folder, and each
renderer runs in a process of its own (`bench/render_worker.py`, whose ``PYTHONPATH`` selects
the tree), one browser each. Renders are interleaved (previous, current; the order swaps every
repetition), each after an idle pause (`SETTLE_S`) so neither process's background work (the
next frame being prepared) is billed to the other's render. The first `WARMUP` renders of each
sketch per renderer are not counted. Reported per sketch: medians of the wall time and of the
CPU time of the renderer process (the page's JavaScript), current / previous as ratios of
medians and as the median of per-repetition ratios (paired), and the same for the part of the
heavy render the trivial one does not have (the paint-dependent, per-call part).

Speed is never asserted: the ratios are printed (and written as JSON) for a person to read.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import IO, Any

from bench.workloads import TRIVIAL, heavy_sketch

#: The renderer before issue 29's regression: the commit before stack-provenance attribution,
#: paint measurement and the fair-load clock were added.
PREVIOUS = "5fc95f1"
CHECKOUT = Path(__file__).resolve().parent.parent
WORKER = Path(__file__).resolve().parent / "render_worker.py"
DEFAULT_OUT = CHECKOUT / "bench" / "results" / "previous.json"
#: Idle time before each timed render (a prepared frame takes ~0.1 s on 2 quiet cores).
SETTLE_S = 0.5
#: Renders of each sketch per renderer before the counted ones (p5 compiled, shaders cached).
WARMUP = 1
#: The issue's bound on today's renderer against the previous one (heavy and trivial).
TARGET_RATIO = 1.15


def extract(commit: str, into: Path) -> Path:
    """Writes ``commit``'s tree (as ``git archive`` gives it) into ``into``.

    Args:
        commit: Any commit-ish of the checkout's repository.
        into: An empty folder.

    Returns:
        ``into``.

    Raises:
        RuntimeError: If the checkout is not a git repository or the commit is unknown.
    """
    archive = into / "tree.tar"
    with archive.open("wb") as out:
        proc = subprocess.run(
            ["git", "-C", str(CHECKOUT), "archive", "--format=tar", commit],
            stdout=out,
            stderr=subprocess.PIPE,
            check=False,
        )
    if proc.returncode != 0:
        raise RuntimeError(
            f"cannot extract {commit!r} from {CHECKOUT}: {proc.stderr.decode().strip()} "
            "(this benchmark needs a git checkout holding that commit)"
        )
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    archive.unlink()
    return into


class Worker:
    """A `render_worker.py` process rendering with the ``sketch_env`` of ``tree``.

    Args:
        label: Name in the report.
        tree: The folder whose ``sketch_env`` the worker imports.
    """

    def __init__(self, label: str, tree: Path) -> None:
        self.label = label
        env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
        self._proc = subprocess.Popen(
            [sys.executable, str(WORKER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=tree,
        )
        hello = self._read()
        self.module = str(hello.get("sketch_env", ""))
        if not self.module.startswith(str(tree)):
            raise RuntimeError(f"{label}: the worker imported {self.module}, not {tree}'s")

    def _read(self) -> dict[str, Any]:
        stdout: IO[str] | None = self._proc.stdout
        line = stdout.readline() if stdout is not None else ""
        if not line:
            raise RuntimeError(f"{self.label}: the render worker exited ({self._proc.wait()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def render(self, source: str, seed: int = 0) -> dict[str, Any]:
        """Renders ``source``; returns the worker's answer (``wall_s``, ``renderer_cpu_s``...)."""
        stdin = self._proc.stdin
        assert stdin is not None
        stdin.write(json.dumps({"source": source, "seed": seed}) + "\n")
        stdin.flush()
        return self._read()

    def close(self) -> None:
        """Asks the worker to close its renderer and waits for it."""
        try:
            stdin = self._proc.stdin
            if stdin is not None:
                stdin.write(json.dumps({"quit": True}) + "\n")
                stdin.close()
            self._proc.wait(timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            self._proc.kill()
            self._proc.wait()


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _ratios(current: list[float], previous: list[float]) -> dict[str, float]:
    paired = [c / p for c, p in zip(current, previous, strict=True) if p > 0]
    return {
        "of_medians": _median(current) / _median(previous),
        "paired": _median(paired),
    }


def compare(reps: int, warmup: int, commit: str, quick: bool) -> dict[str, Any]:
    """Runs the side-by-side comparison.

    Args:
        reps: Counted renders of each sketch per renderer.
        warmup: Uncounted renders of each sketch per renderer first.
        commit: The earlier renderer's commit.
        quick: A light heavy sketch (three fills), for a smoke run.

    Returns:
        The results: per sketch and renderer the samples, and the ratios.
    """
    sketches = {"heavy": heavy_sketch(quick).source, "trivial": TRIVIAL}
    scratch = Path(tempfile.mkdtemp(prefix="sketch-env-previous-"))
    workers: dict[str, Worker] = {}
    samples: dict[str, dict[str, list[dict[str, Any]]]] = {
        name: {"previous": [], "current": []} for name in sketches
    }
    load = [os.getloadavg()[0]]
    try:
        workers["previous"] = Worker("previous", extract(commit, scratch))
        workers["current"] = Worker("current", CHECKOUT)
        for rep in range(warmup + reps):
            order = ["previous", "current"] if rep % 2 == 0 else ["current", "previous"]
            for name, source in sketches.items():
                for who in order:
                    time.sleep(SETTLE_S)
                    answer = workers[who].render(source, seed=rep)
                    if answer["status"] not in ("ok", "frame_capped"):
                        raise RuntimeError(f"{who} {name}: {answer['status']}")
                    if rep >= warmup:
                        samples[name][who].append(answer)
            load.append(os.getloadavg()[0])
            print(f"repetition {rep + 1}/{warmup + reps} done", file=sys.stderr, flush=True)
    finally:
        for worker in workers.values():
            worker.close()
        shutil.rmtree(scratch, ignore_errors=True)
    return summarise(samples, commit, load)


def summarise(
    samples: dict[str, dict[str, list[dict[str, Any]]]], commit: str, load: list[float]
) -> dict[str, Any]:
    """Medians and ratios from the workers' answers (see `compare`)."""
    out: dict[str, Any] = {"previous_commit": commit, "load_average": [min(load), max(load)]}
    for metric in ("wall_s", "renderer_cpu_s"):
        block: dict[str, Any] = {}
        series: dict[str, dict[str, list[float]]] = {}
        for name, by in samples.items():
            series[name] = {who: [a[metric] for a in by[who]] for who in by}
            block[name] = {
                who: {"median": _median(v), "min": min(v), "max": max(v), "samples": v}
                for who, v in series[name].items()
            }
            block[name]["ratio"] = _ratios(series[name]["current"], series[name]["previous"])
        if "heavy" in series and "trivial" in series:
            # The heavy render less the trivial one, repetition by repetition: what grows with
            # the number of drawing calls.
            extra = {
                who: [
                    h - t for h, t in zip(series["heavy"][who], series["trivial"][who], strict=True)
                ]
                for who in ("previous", "current")
            }
            block["heavy_less_trivial"] = {
                "previous": {"median": _median(extra["previous"])},
                "current": {"median": _median(extra["current"])},
                "ratio": _ratios(extra["current"], extra["previous"]),
            }
        out[metric] = block
    heavy = samples.get("heavy", {}).get("current", [])
    if heavy:
        calls = heavy[-1].get("api_calls", {})
        out["heavy_api_calls"] = calls
    return out


def report(results: dict[str, Any]) -> str:
    """The comparison as a text table."""
    lines = [
        f"current renderer vs {results['previous_commit']} (interleaved, one browser each, "
        f"load average {results['load_average'][0]:.1f}-{results['load_average'][1]:.1f})",
        f"{'':28}{'previous':>12}{'current':>12}{'ratio':>9}{'paired':>9}",
    ]
    for metric, label in (("wall_s", "wall s"), ("renderer_cpu_s", "renderer CPU-s")):
        for name, row in results[metric].items():
            ratio = row["ratio"]
            lines.append(
                f"{name + ', ' + label:28}{row['previous']['median']:>12.3f}"
                f"{row['current']['median']:>12.3f}{ratio['of_medians']:>8.2f}x"
                f"{ratio['paired']:>8.2f}x"
            )
    worst = max(results["wall_s"][name]["ratio"]["of_medians"] for name in ("heavy", "trivial"))
    verdict = "within" if worst <= TARGET_RATIO else "OVER"
    lines.append(f"worst wall ratio {worst:.2f}x: {verdict} the {TARGET_RATIO:.2f}x bound")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m bench.previous``."""
    parser = argparse.ArgumentParser(prog="python -m bench.previous", description=__doc__)
    parser.add_argument("--commit", default=PREVIOUS, help=f"earlier renderer (default {PREVIOUS})")
    parser.add_argument("--reps", type=int, default=7, help="counted renders of each sketch")
    parser.add_argument("--warmup", type=int, default=WARMUP, help="uncounted renders first")
    parser.add_argument("--quick", action="store_true", help="a three-fill heavy sketch")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON results file")
    args = parser.parse_args(argv)
    if args.reps < 1 or args.warmup < 0:
        parser.error("--reps must be at least 1 and --warmup at least 0")
    results = compare(args.reps, args.warmup, args.commit, args.quick)
    print(report(results))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n", "utf-8")
    print(f"results written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
