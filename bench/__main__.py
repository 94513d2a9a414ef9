"""``python -m bench``: the renderer benchmark (see docs/performance.md)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "latest.json"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the benchmark's options to ``parser``."""
    parser.add_argument(
        "--quick", action="store_true", help="light workloads, one repetition: a smoke run"
    )
    parser.add_argument(
        "--reps", type=int, default=3, help="repetitions of (b) and (c); (a) runs 3x as many"
    )
    parser.add_argument(
        "--pool-sizes",
        type=lambda s: tuple(int(x) for x in s.split(",")),
        default=(1, 2, 4),
        help="pool sizes of the scaling run, comma-separated (default 1,2,4)",
    )
    parser.add_argument(
        "--no-scaling", action="store_true", help="skip the pool-size and paint-amount curves"
    )
    parser.add_argument(
        "--experiments",
        action="store_true",
        help="also try LP_NUM_THREADS=1, --renderer-process-limit=2, a small viewport",
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON results file")


def run(args: argparse.Namespace) -> int:
    """Runs the benchmark, prints the table and writes the JSON; returns the exit status."""
    from bench.report import print_report, write_json
    from bench.runner import Options, count_steps, run_benchmark

    if args.reps < 1:
        print("--reps must be at least 1", file=sys.stderr)
        return 2
    opts = Options(
        quick=args.quick,
        reps=args.reps,
        pool_sizes=args.pool_sizes,
        scaling=not args.no_scaling,
        experiments=args.experiments,
    )
    total = count_steps(opts)
    try:
        from rich.progress import Progress
    except ImportError:
        done = [0]

        def step(text: str) -> None:
            done[0] += 1
            print(f"[{done[0]}/{total}] {text}", file=sys.stderr, flush=True)

        results = asyncio.run(run_benchmark(opts, step))
    else:
        with Progress(transient=False) as bar:
            task = bar.add_task("benchmark", total=total)

            def step(text: str) -> None:
                bar.update(task, advance=1, description=text[:48])

            results = asyncio.run(run_benchmark(opts, step))
    print_report(results)
    path = write_json(results, args.out)
    print(f"results written to {path}")
    return 1 if results.get("failures") else 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m bench``."""
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
