"""``sketch-env reward-check``: measure how well a reward orders paintings, degradations and hacks.

With ``--search N`` it runs a black-box search for N evaluations instead
(`sketch_env.rewardcheck.search`) and reports, per task, how far the best program found
out-earns the task's reference paintings (the adversarial gap; exit 1 when any gap is above 0).

Examples:
    sketch-env reward-check                                   # heuristic scorer, CPU, minutes
    sketch-env reward-check --scorer hpsv3+http://127.0.0.1:8765 --seeds 3
    sketch-env reward-check --seeds 6          # also how far each reference moves with the seed
    sketch-env reward-check --reward-config my_reward.json --out runs/check
    sketch-env reward-check --resolution --scorer vision   # what it tells apart
    sketch-env reward-check --search 500                      # both searches, four tasks
    sketch-env reward-check --search 2000 --search-mode blind --tasks trees/pastel
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sketch_env.evaluation.options import add_evaluation_options, evaluation_config_from_args
from sketch_env.rewardcheck.search import DEFAULT_TASKS, MODES, OFFLINE_PER_RENDER

if TYPE_CHECKING:
    from sketch_env.catalog.tasks import Task

__all__ = ["add_arguments", "run"]

T = TypeVar("T")


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
    parser.add_argument(
        "--resolution",
        action="store_true",
        help="instead of the labelled check, measure what the reward tells apart: tiers within "
        "each task (held out for a fitted scorer), the probe ladders, free compositions and "
        "wrong-subject paintings; exit 1 when a criterion of issue 28 fails",
    )
    search = parser.add_argument_group("search (instead of the labelled check)")
    search.add_argument(
        "--search",
        type=int,
        metavar="N",
        help="run a black-box search for N evaluations in all (split over tasks and modes), "
        "replay the pool's finds on each task (what earlier searches found; outside N), and "
        "report the adversarial gap: best found minus the task's median reference",
    )
    search.add_argument(
        "--search-mode",
        choices=(*MODES, "all"),
        help="blind genomes, mutants of the task's references, pictures composed of rendered "
        "tiles, or all three (default all)",
    )
    search.add_argument(
        "--tasks",
        metavar="ID[,ID...]",
        help="task ids (default: " + ",".join(DEFAULT_TASKS) + "); with --resolution, measure "
        "only these tasks' references and probes (default: every task)",
    )
    search.add_argument(
        "--population", type=int, metavar="K", help="candidates per generation (default 16)"
    )
    search.add_argument(
        "--seed", type=int, metavar="S", help="search seed, also every render's (default 0)"
    )
    search.add_argument(
        "--offline",
        type=int,
        metavar="N",
        help="compositions the composed mode scores as pictures between two renders "
        f"(default {OFFLINE_PER_RENDER}; fewer for a slow scorer)",
    )
    add_evaluation_options(parser)


_SEARCH_ONLY = ("search_mode", "tasks", "population", "seed", "offline")


def run(args: argparse.Namespace) -> int:
    """Runs the check; exit status 0 when no hack family beats a reference, 1 otherwise.

    With ``--search`` it runs the search instead (`run_search_command`).
    """
    from rich.console import Console
    from rich.table import Table

    if args.search is not None:
        if args.resolution:
            print(
                "sketch-env reward-check: --resolution and --search are separate runs",
                file=sys.stderr,
            )
            return 2
        return run_search_command(args)
    given = [
        f"--{n.replace('_', '-')}"
        for n in _SEARCH_ONLY
        if getattr(args, n) is not None and not (args.resolution and n == "tasks")
    ]
    if given:
        print(f"sketch-env reward-check: {', '.join(given)} needs --search N", file=sys.stderr)
        return 2

    from sketch_env.catalog.references import load_reference_pool
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
        references = list(load_reference_pool())
        tasks = {t.id for t in _tasks(args.tasks)} if args.tasks is not None else None
        if tasks is not None:
            references = [ref for ref in references if ref.task_id in tasks]
        references = references[: args.limit]
    except (OSError, ValueError) as exc:
        # One line, unwrapped, as every usage error of the command.
        print(f"sketch-env reward-check: {exc}", file=sys.stderr)
        return 2
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(args.out or Path("runs") / f"reward-check-{stamp}")
    out.mkdir(parents=True, exist_ok=True)

    def progress(stage: str, done: int, total: int) -> None:
        if not args.quiet:
            console.print(f"  {stage}: {done}/{total}", highlight=False)

    if args.resolution:
        return _run_resolution(args, config, references, tasks, out, progress)
    try:
        report = _measure(
            config,
            lambda evaluator: run_reward_check(
                evaluator,
                seeds=range(args.seeds),
                references=references,
                out_dir=out,
                progress=progress,
            ),
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


def _measure(config: Any, measure: Callable[[Any], T]) -> T:
    """Runs a measurement on an evaluation of ``config`` (its renderer opened and closed here)."""
    from sketch_env.evaluation.evaluator import Evaluator
    from sketch_env.evaluation.options import open_renderer

    with open_renderer(config) as renderer:
        return measure(Evaluator(renderer, config.scorer, config.reward, config.gate))


def _tasks(text: str) -> list[Task]:
    """The ``--tasks`` list as `Task`\\ s; `ValueError` names an unknown id or an empty list."""
    from sketch_env.catalog.tasks import UnknownTaskError, get_task

    ids = [t.strip() for t in text.split(",") if t.strip()]
    if not ids:
        raise ValueError("--tasks names no task")
    try:
        return [get_task(t) for t in ids]
    except UnknownTaskError as exc:
        raise ValueError(f"--tasks: {exc}") from None


def _run_resolution(
    args: argparse.Namespace,
    config: Any,
    references: list[Any],
    tasks: set[str] | None,
    out: Path,
    progress: Callable[[str, int, int], None],
) -> int:
    """``reward-check --resolution``: the table, ``report.json`` and ``index.html``; exit 0
    when every criterion holds, 1 when one fails, 2 on a usage or infrastructure error."""
    from rich.console import Console
    from rich.table import Table

    from sketch_env.catalog.probes import load_probes
    from sketch_env.render.backends import BackendUnavailableError, BrowserNotFoundError
    from sketch_env.rewardcheck.report import write_resolution_html
    from sketch_env.rewardcheck.resolution import (
        resolution_rows,
        run_resolution,
        write_resolution_json,
    )

    try:
        report = _measure(
            config,
            lambda evaluator: run_resolution(
                evaluator,
                seeds=range(args.seeds),
                references=references,
                probes=[p for p in load_probes() if tasks is None or p.task_id in tasks],
                out_dir=out,
                progress=progress,
            ),
        )
    except (BrowserNotFoundError, BackendUnavailableError, ValueError, ImportError) as exc:
        print(f"sketch-env reward-check: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 2
    write_resolution_json(report, out / "report.json")
    page = write_resolution_html(report, out)
    table = Table(title=f"Reward resolution — {report.scorer}")
    for column in ("measure", "figure", "verdict"):
        table.add_column(column)
    for row in resolution_rows(report):
        table.add_row(*row)
    Console(width=max(Console().width, 160)).print(table)
    summary = report.summary()
    print(json.dumps({"summary": summary, "report": str(out / "report.json"), "html": str(page)}))
    return 0 if report.passed else 1


def _usage(args: argparse.Namespace) -> dict[str, object]:
    """The search's settings from the options; raises `ValueError` naming the bad flag."""
    from sketch_env.catalog.tasks import get_task

    if args.search < 1:
        raise ValueError(f"--search needs a positive number of evaluations, got {args.search}")
    if args.seeds != 1 or args.limit is not None:
        raise ValueError("--seeds and --limit are for the labelled check; use --seed with --search")
    population = 16 if args.population is None else args.population
    if population < 2:
        raise ValueError(f"--population must be at least 2, got {population}")
    seed = 0 if args.seed is None else args.seed
    if not 0 <= seed < 2**32:
        raise ValueError(f"--seed must be in [0, 2**32), got {seed}")
    offline = OFFLINE_PER_RENDER if args.offline is None else args.offline
    if offline < 1:
        raise ValueError(f"--offline must be at least 1, got {offline}")
    tasks = [get_task(t) for t in DEFAULT_TASKS] if args.tasks is None else _tasks(args.tasks)
    modes = MODES if args.search_mode in (None, "all") else (args.search_mode,)
    runs = len(tasks) * len(modes)
    if args.search < runs:
        raise ValueError(
            f"--search {args.search} is less than one evaluation per task and mode ({runs})"
        )
    from sketch_env.catalog.references import load_reference_pool

    pool = load_reference_pool()
    bare = [t.id for t in tasks if not any(r.task_id == t.id for r in pool)]
    if bare:
        raise ValueError(f"--tasks: no reference paintings to compare with for {', '.join(bare)}")
    return {
        "tasks": tasks,
        "modes": modes,
        "population": population,
        "seed": seed,
        "pool": pool,
        "offline": offline,
    }


def _short(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def run_search_command(args: argparse.Namespace) -> int:
    """``reward-check --search N``: exit 0 when every task's gap is ≤ 0, 1 when the search beat
    a task's references, 2 on a usage or infrastructure error (one line naming the cause)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.table import Table

    from sketch_env.evaluation.evaluator import Evaluator
    from sketch_env.evaluation.options import open_renderer
    from sketch_env.render.backends import BackendUnavailableError, BrowserNotFoundError
    from sketch_env.rewardcheck.report import (
        saturation_lines,
        search_summary_rows,
        write_search_html,
    )
    from sketch_env.rewardcheck.search import (
        SearchInfrastructureError,
        run_search,
        write_search_json,
    )

    console = Console(stderr=True)

    def fail(message: str) -> int:
        # One plain line (rich would wrap it at the terminal's width).
        print(f"sketch-env reward-check: {message}", file=sys.stderr)
        return 2

    try:
        settings = _usage(args)
        config = evaluation_config_from_args(args)
    except (OSError, ValueError) as exc:
        return fail(str(exc).splitlines()[0])
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(args.out or Path("runs") / f"reward-search-{stamp}")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return fail(f"--out: {exc}")
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=args.quiet,
    )
    bar = progress.add_task("search", total=None)

    # Off a terminal (a log, CI) rich draws the bar only once it stops: a line per batch
    # says how far a run of many minutes has got.
    log_lines = not args.quiet and not console.is_terminal
    started = _dt.datetime.now()

    def advance(done: int, total: int, label: str) -> None:
        progress.update(bar, completed=done, total=total, description=label)
        if log_lines:
            elapsed = (_dt.datetime.now() - started).total_seconds()
            print(f"  {label}: {done}/{total} evaluations, {elapsed:.0f} s", file=sys.stderr)

    try:
        with open_renderer(config) as renderer, progress:
            evaluator = Evaluator(renderer, config.scorer, config.reward, config.gate)
            report = run_search(
                evaluator,
                tasks=settings["tasks"],  # type: ignore[arg-type]
                budget=args.search,
                modes=settings["modes"],  # type: ignore[arg-type]
                population=settings["population"],  # type: ignore[arg-type]
                seed=settings["seed"],  # type: ignore[arg-type]
                references=settings["pool"],  # type: ignore[arg-type]
                offline_per_render=settings["offline"],  # type: ignore[arg-type]
                out_dir=out,
                progress=advance,
            )
    except (
        BrowserNotFoundError,
        BackendUnavailableError,
        SearchInfrastructureError,
        ValueError,
        ImportError,
    ) as exc:
        return fail(str(exc).splitlines()[0])
    write_search_json(report, out / "report.json")
    page = write_search_html(report, out)
    table = Table(
        title=f"Reward search — {report.scorer} on {report.backend}, seed {report.seed}, "
        f"{report.evaluations} evaluations, {report.seconds:.0f} s"
    )
    table.add_column("task", no_wrap=True)
    table.add_column("refs: n: min / median / max", no_wrap=True)
    for mode in report.modes:
        table.add_column(f"{mode} best", justify="right")
    for column in ("best", "gap", "verdict"):
        table.add_column(column, justify="right", no_wrap=True)
    for row in search_summary_rows(report):
        table.add_row(*row)
    # Off a terminal rich assumes 80 columns, too few for the table: give it what it needs.
    screen = Console()
    Console(width=max(screen.width, 132)).print(table)
    for task in report.tasks:
        maxed, shared = saturation_lines(task)
        lines = [
            f"{task.task.id}: top {task.top} at their cap: {maxed}; at their cap in the "
            f"references too: {shared}",
            *(f"  warning: {w}" for w in task.warnings()),
        ]
        if task.mutant_margin is not None:
            lines.append(
                f"  references: the best mutant {task.mutant_margin:+.2f} against the task's "
                "best reference (the gap uses the median, which a mutant of the best "
                "painting passes by construction)"
            )
        for mode, run in task.runs.items():
            best = " ".join(_short(g.best) for g in run.generations)
            median = " ".join(_short(g.median) for g in run.generations)
            lines.append(f"  {mode}: best per generation {best}; median {median}")
            if run.stopped_early:
                lines.append(
                    f"  {mode}: stopped early, {len(run.candidates)} of {run.budget} evaluations "
                    f"({run.offline_scored} compositions scored offline): nothing new to render "
                    "or its offline allowance spent"
                )
        for line in lines:
            console.print(line, highlight=False, soft_wrap=True)
    print(
        json.dumps(
            {
                "gaps": {t.task.id: t.gap for t in report.tasks},
                "passed": report.passed,
                "seconds": round(report.seconds, 1),
                "report": str(out / "report.json"),
                "html": str(page),
            }
        )
    )
    if any(t.gap is None for t in report.tasks):
        return fail("a task's gap could not be measured (no candidate got a reward)")
    return 0 if report.passed else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m sketch_env.rewardcheck.cli")
    add_arguments(parser)
    sys.exit(run(parser.parse_args()))
