"""Build the gallery of training artifacts, or rebuild a rollout folder's.

Examples:
  sketch-env gallery runs/grpo/pictures      # written by SketchReward(artifacts=...)
  sketch-env gallery runs/grpo/pictures --run run-20261202-051500-3f9a
  sketch-env gallery runs/rollout-20260101-120000

An artifacts directory holds one folder per training run (run-YYYYmmdd-HHMMSS-xxxx): each run
gets RUN/index.html across its steps (pick a step, see its groups side by side) and each step's
sortable table, and DIR/index.html lists the runs apart to choose one (--run: that run only).
A run's own folder, or a folder of step-NNNNNN folders, gets the steps page; a folder with a
results.jsonl gets its gallery rewritten. Safe to run while training writes: a step being
written shows what it has.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sketch_env.evaluation.runs import RESULTS_FILE, list_runs, load_records
from sketch_env.rollout.gallery import write_gallery, write_runs_gallery, write_steps_gallery

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the ``gallery`` arguments."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("directory", type=Path, help="an artifacts directory or a rollout folder")
    parser.add_argument("--title", help="the page title")
    parser.add_argument(
        "--run", metavar="NAME", help="only this training run of an artifacts directory"
    )


def run(args: argparse.Namespace) -> int:
    """Writes the gallery; prints its path.

    Returns:
        0 when written; 2 when the folder holds nothing to show (one ``error:`` line).
    """
    directory: Path = args.directory
    try:
        if not directory.is_dir():
            raise FileNotFoundError(f"no such folder: {directory}")
        results = directory / RESULTS_FILE
        runs = list_runs(directory)
        if args.run is not None and not runs:
            raise ValueError(
                f"--run needs an artifacts directory holding training runs; {directory} has "
                "none (drop --run to build the gallery of this folder)"
            )
        if results.is_file():
            path = write_gallery(directory, load_records(results), title=args.title)
        elif runs:
            path = write_runs_gallery(directory, title=args.title, run=args.run)
            for name in [args.run] if args.run is not None else runs:
                print(f"run {name}: {(directory / name / 'index.html').resolve()}")
        else:
            path = write_steps_gallery(directory, title=args.title)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"gallery: {path.resolve()}")
    return 0
