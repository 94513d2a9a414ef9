"""Turn rollouts into a Hugging Face dataset: the picture as an Image, every component a column.

Examples:
  sketch-env rollout --out runs/pool && sketch-env export runs/pool --to-dataset data/pool
  sketch-env export runs/grpo/pictures --to-dataset data/grpo       # every training run
  sketch-env export runs/pool --to-dataset data/pool --push-to-hub you/sketch-env-pool

DIR is a rollout folder (sketch-env rollout), an artifacts directory written during training
(SketchReward(artifacts=...): one folder per run, a step-NNNNNN folder per logged step), or one
training run's folder. The dataset is saved with datasets' save_to_disk (load it back with
datasets.load_from_disk); --push-to-hub REPO also uploads it (log in first: hf auth login).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the ``export`` arguments."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("directory", type=Path, help="a rollout folder or training artifacts")
    parser.add_argument(
        "--to-dataset",
        type=Path,
        required=True,
        metavar="OUT",
        help="where to save the dataset (a new or empty folder)",
    )
    parser.add_argument(
        "--push-to-hub", metavar="REPO", help="also upload it to this Hugging Face dataset repo"
    )
    parser.add_argument("--private", action="store_true", help="with --push-to-hub: private")


def run(args: argparse.Namespace) -> int:
    """Exports; prints the row count and where it went.

    Returns:
        0 when saved (and pushed); 2 on a one-line ``error:`` (nothing to export, a folder in
        the way, ``datasets`` missing, the upload refused).
    """
    from sketch_env.rollout.export import export_rows, to_dataset

    out: Path = args.to_dataset
    try:
        if args.private and not args.push_to_hub:
            raise ValueError("--private only applies with --push-to-hub REPO")
        if out.exists() and (not out.is_dir() or any(out.iterdir())):
            raise FileExistsError(
                f"--to-dataset {out} exists and is not an empty folder; give a new folder"
            )
        rows = export_rows(args.directory)
        dataset = to_dataset(rows)
        dataset.save_to_disk(str(out))
    except (OSError, ValueError, ImportError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    pictures = sum(1 for row in rows if row["image"] is not None)
    print(f"{len(rows)} rollouts ({pictures} with a picture), {len(dataset.column_names)} columns")
    if args.push_to_hub:
        try:
            dataset.push_to_hub(args.push_to_hub, private=args.private)
        except Exception as exc:  # The hub client's errors have no common base worth naming.
            message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            print(
                f"error: --push-to-hub {args.push_to_hub} failed: {message} (the dataset is "
                f"saved in {out}; log in with `hf auth login` and try again)",
                file=sys.stderr,
            )
            return 2
        print(f"pushed: https://huggingface.co/datasets/{args.push_to_hub}")
    print(f"dataset: {out.resolve()}")
    return 0
