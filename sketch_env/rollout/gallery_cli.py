"""Build the gallery of a training run's artifacts directory, or rebuild a rollout folder's.

Examples:
  sketch-env gallery runs/grpo/pictures      # written by SketchReward(artifacts=...)
  sketch-env gallery runs/rollout-20260101-120000

With step folders (``step-NNNNNN``) it writes DIR/index.html across steps (pick a step, see its
groups side by side) and each step's sortable table; with a ``results.jsonl`` it rewrites that
folder's gallery. Safe to run while training writes: a step being written shows what it has.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sketch_env.evaluation.runs import RESULTS_FILE, load_records
from sketch_env.rollout.gallery import write_gallery, write_steps_gallery

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the ``gallery`` arguments."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("directory", type=Path, help="an artifacts directory or a rollout folder")
    parser.add_argument("--title", help="the page title")


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
        if results.is_file():
            path = write_gallery(directory, load_records(results), title=args.title)
        else:
            path = write_steps_gallery(directory, title=args.title)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"gallery: {path.resolve()}")
    return 0
