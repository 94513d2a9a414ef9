"""Render and score a set of sketches into a folder of pictures, results.jsonl and a gallery.

With no source flag it runs the reference pool. Examples:

  sketch-env rollout                                   # the reference pool, default scorer
  sketch-env rollout --sketches my_sketches/ --out runs/mine
  sketch-env rollout --replies samples.jsonl --scorer hpsv3+http://gpu-box:8765 --seeds 2

Open OUT/index.html in a browser to look at the paintings.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sketch_env.evaluation.options import add_evaluation_options, evaluation_config_from_args

if TYPE_CHECKING:
    from rich.console import Console

    from sketch_env.rollout.runner import RolloutItem

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the ``rollout`` options to a parser."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--pool", action="store_true", help="the shipped reference pool (the default source)"
    )
    source.add_argument("--sketches", metavar="DIR", help="every *.js file in a folder")
    source.add_argument(
        "--replies",
        metavar="FILE.jsonl",
        help="model replies: one JSON object per line with reply|completion, prompt, "
        "and optionally prompt_text, task_id, seed, id",
    )
    parser.add_argument(
        "--out", metavar="DIR", help="output folder (default: runs/rollout-YYYYmmdd-HHMMSS)"
    )
    parser.add_argument(
        "--seeds", type=int, default=1, metavar="N", help="render every sketch with seeds 0..N-1"
    )
    parser.add_argument("--prompt", help="with --sketches: score every sketch against this text")
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N sketches")
    add_evaluation_options(parser)
    parser.add_argument("--title", help="the gallery's title")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _items(args: argparse.Namespace) -> list[RolloutItem]:
    from sketch_env.rollout.runner import items_from_pool, items_from_replies, items_from_sketches

    if args.sketches:
        return items_from_sketches(args.sketches, prompt=args.prompt)
    if args.replies:
        return items_from_replies(args.replies)
    return items_from_pool()


def _error(console: Console, text: str) -> None:
    # One line whatever the terminal's width (scripts grep it); markup in the text stays text.
    from rich.markup import escape

    console.print(f"[red]error:[/red] {escape(text)}", soft_wrap=True)


def run(args: argparse.Namespace) -> int:
    """Runs ``sketch-env rollout``.

    Returns:
        0 on success; 1 when the renderer cannot start or any rollout was left unscored by
        an infrastructure failure (a scorer that is down); 2 for bad input.
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from sketch_env.errors import SetupError
    from sketch_env.evaluation import Evaluator
    from sketch_env.evaluation.options import open_renderer
    from sketch_env.rollout.runner import run_rollouts
    from sketch_env.scoring.spec import make_scorer

    console = Console(stderr=True)
    if args.seeds < 1 or (args.limit is not None and args.limit < 1):
        _error(console, "--seeds and --limit must be at least 1")
        return 2
    try:
        items = _items(args)
        config = evaluation_config_from_args(args)
        scorer = make_scorer(config.scorer)
    except OSError as exc:
        _error(console, f"cannot read {exc.filename or 'the input'}: {exc.strerror or exc}")
        return 2
    except (ValueError, ImportError) as exc:
        _error(console, str(exc))
        return 2
    if args.limit is not None:
        items = items[: args.limit]
    if not items:
        # Checked here, before any browser starts (launching the pool takes seconds).
        _error(console, "nothing to evaluate")
        return 2
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(args.out or Path("runs") / f"rollout-{stamp}")
    source = args.sketches or args.replies or "reference pool"
    title = args.title or f"Rollouts: {source}"

    try:
        renderer_cm = open_renderer(config)
    except (ValueError, ImportError) as exc:
        _error(console, str(exc))
        return 2
    try:
        with renderer_cm as renderer:
            console.print(
                f"{len(items)} sketches x {args.seeds} seed(s) on [b]{renderer.backend}[/b] "
                f"({renderer.pool_size} browsers), scorer [b]{scorer.name}[/b]"
            )
            evaluator = Evaluator(renderer, scorer, config.reward, config.gate)
            with Progress(
                "[progress.description]{task.description}",
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=console,
                disable=args.quiet,
            ) as progress:
                task = progress.add_task("rendering", total=None)

                def update(done: int, total: int) -> None:
                    progress.update(task, completed=done, total=total)

                result = run_rollouts(
                    items, out, evaluator, seeds=args.seeds, progress=update, title=title
                )
    except SetupError as exc:
        console.print(f"[red]The renderer cannot start:[/red] {exc}")
        console.print("Run `sketch-env doctor` to see what is missing and how to fix it.")
        return 1

    counts = ", ".join(f"{k} {v}" for k, v in sorted(result.status_counts().items()))
    mean = result.mean_reward()
    console.print(
        f"{len(result.records)} rollouts in {result.seconds:.1f} s: {counts}; mean reward "
        + (f"{mean:.3f}" if mean is not None else "none")
    )
    revisions = result.revisions()
    if revisions:
        gains = [r["improvement"] for r in revisions if r.get("improvement") is not None]
        console.print(
            f"{len(revisions)} multi-turn episode(s); mean improvement from the first render "
            "to the last: " + (f"{sum(gains) / len(gains):+.3f}" if gains else "none")
        )
    console.print(f"results: {result.results_path}")
    # The gallery path goes to stdout, alone, so scripts can pick it up.
    print(f"gallery: {result.gallery_path.resolve()}", file=sys.stdout)
    failed = [r for r in result.records if r.get("reward") is None and r.get("components")]
    failed = [r for r in failed if (r["components"] or {}).get("infra_error")]
    if failed:
        # A dead scorer or renderer must not pass for a run: its rewards are all missing.
        first = failed[0]["components"]["infra_error"]
        _error(
            console,
            f"{len(failed)} of {len(result.records)} rollouts were not scored (infrastructure "
            f"failure; reward none): {first}",
        )
        console.print("Run `sketch-env doctor` (and check the scorer service) to fix it.")
        return 1
    return 0
