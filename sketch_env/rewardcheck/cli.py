"""``sketch-env reward-check``: measure how well a reward orders paintings, degradations and hacks.

Examples:
    sketch-env reward-check                                   # heuristic scorer, CPU, minutes
    sketch-env reward-check --scorer hpsv3+http://127.0.0.1:8765 --seeds 3
    sketch-env reward-check --seeds 6          # also how far each reference moves with the seed
    sketch-env reward-check --reward-config my_reward.json --out runs/check
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import sys
from pathlib import Path

from sketch_env.evaluation.options import add_evaluation_options, evaluation_config_from_args

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the ``reward-check`` options."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument(
        "--seeds",
        type=int,
        default=1,
        metavar="N",
        help="seeds 0..N-1; with N >= 2 the report also gives each reference's seed spread",
    )
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N references")
    parser.add_argument("--out", metavar="DIR", help="output folder (default runs/reward-check-*)")
    parser.add_argument("--quiet", action="store_true", help="no progress output")
    add_evaluation_options(parser)


def run(args: argparse.Namespace) -> int:
    """Runs the check; exit status 0 when no hack family beats a reference, 1 otherwise."""
    from rich.console import Console
    from rich.table import Table

    from sketch_env.catalog.references import load_reference_pool
    from sketch_env.evaluation.evaluator import Evaluator
    from sketch_env.evaluation.options import open_renderer
    from sketch_env.render.backends import BackendUnavailableError, BrowserNotFoundError
    from sketch_env.rewardcheck.check import run_reward_check, write_json
    from sketch_env.rewardcheck.report import (
        seed_spread_line,
        seed_spread_rows,
        summary_rows,
        write_html,
    )

    console = Console(stderr=True)
    try:
        if args.seeds < 1 or (args.limit is not None and args.limit < 2):
            raise ValueError("--seeds must be at least 1 and --limit at least 2")
        config = evaluation_config_from_args(args)
        references = list(load_reference_pool())[: args.limit]
    except (OSError, ValueError) as exc:
        console.print(f"[red]sketch-env reward-check:[/red] {exc}")
        return 2
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(args.out or Path("runs") / f"reward-check-{stamp}")
    out.mkdir(parents=True, exist_ok=True)

    def progress(stage: str, done: int, total: int) -> None:
        if not args.quiet:
            console.print(f"  {stage}: {done}/{total}", highlight=False)

    try:
        with open_renderer(config) as renderer:
            evaluator = Evaluator(renderer, config.scorer, config.reward, config.gate)
            report = run_reward_check(
                evaluator,
                seeds=range(args.seeds),
                references=references,
                out_dir=out,
                progress=progress,
            )
    except (BrowserNotFoundError, BackendUnavailableError, ValueError, ImportError) as exc:
        console.print(f"[red]sketch-env reward-check:[/red] {exc}")
        return 2
    write_json(report, out / "report.json")
    page = write_html(report, out)
    table = Table(title=f"Reward check — {report.scorer} on {report.backend}")
    for column in ("kind", "family", "pairs", "accuracy", "hack win-rate"):
        table.add_column(column)
    for row in summary_rows(report):
        table.add_row(*row)
    Console().print(table)
    spread_rows = seed_spread_rows(report)
    if spread_rows:
        spread_table = Table(title=f"Seed spread over seeds 0-{args.seeds - 1}")
        for column in ("reference", "mean", "std", "min-max", "range"):
            spread_table.add_column(column)
        for spread_row in spread_rows:
            spread_table.add_row(*spread_row)
        Console().print(spread_table)
    print(seed_spread_line(report))
    summary = {k: report.accuracy(k) for k in ("tier", "degradation", "hack")}
    spread = report.seed_spread()
    pooled = spread["pooled"] if spread is not None else None
    print(
        json.dumps(
            {
                "summary": summary,
                "seed_spread": pooled,
                "report": str(out / "report.json"),
                "html": str(page),
            }
        )
    )
    beaten = [n for n, w in report.hack_win_rates().items() if w]
    if beaten:
        console.print(f"[yellow]hacks that beat a reference:[/yellow] {', '.join(beaten)}")
        return 1
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m sketch_env.rewardcheck.cli")
    add_arguments(parser)
    sys.exit(run(parser.parse_args()))
