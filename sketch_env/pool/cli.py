"""List the reference pool, re-measure it, look at it, calibrate on it, export it for SFT.

Examples:
    sketch-env pool list
    sketch-env pool list --tier love --json
    sketch-env pool refresh                    # 3 repeats, rewrites reference_pool/pool.json
    sketch-env pool refresh --repeats 1 --id trees-charcoal-oak --dry-run
    sketch-env pool refresh --scorer hpsv3     # on a GPU machine with the HPSv3 service up
    sketch-env pool gallery --out runs/pool    # every reference, tasks x tiers, in index.html
    sketch-env pool export-sft runs/sft        # love + ok as prompt -> reply pairs for SFT
    sketch-env pool negatives                  # rewrite the vision scorer's negative corpus
    sketch-env pool negatives --harden         # + what searches find against it, one round
    sketch-env pool negatives --harden --tasks unsearched   # a round over all 20 other tasks
    sketch-env pool find runs/search --task still_life/ink_hatching --name grey-collage
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from sketch_env.catalog.references import MEASURE_SEED, TIERS
from sketch_env.render.options import add_render_options, render_config_from_args, seed_argument
from sketch_env.scoring.spec import DEFAULT_SCORER


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the ``pool`` subcommands."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = parser.add_subparsers(dest="pool_command", metavar="ACTION", required=True)

    listing = sub.add_parser("list", help="list the references and their measured metadata")
    listing.add_argument("--tier", choices=TIERS, help="only this tier")
    listing.add_argument("--task", help="only this task id, e.g. flowers/watercolour")
    listing.add_argument("--json", action="store_true", help="print JSON instead of a table")
    listing.add_argument("--pool-dir", help="pool folder (default: the shipped pool)")

    refresh = sub.add_parser("refresh", help="re-render every reference and rewrite pool.json")
    refresh.add_argument("--repeats", type=int, default=3, help="renders per reference (default 3)")
    refresh.add_argument(
        "--scorer",
        default="heuristic",
        help="'heuristic' (default) or an HPSv3 spec ('hpsv3', 'hpsv3+http://host:port') to "
        "also fill hpsv3_mu/hpsv3_sigma",
    )
    # One browser: the pool's render times are meant as the cost of each sketch alone.
    add_render_options(refresh, pool_size=False, defaults={"deadline_s": 60.0})
    refresh.add_argument(
        "--id", action="append", dest="ids", help="only this reference (repeatable)"
    )
    refresh.add_argument("--pool-dir", help="pool folder (default: the shipped pool)")
    refresh.add_argument("--dry-run", action="store_true", help="measure and print; write nothing")
    refresh.add_argument("--json", action="store_true", help="print the report as JSON")
    refresh.add_argument(
        "--no-vision",
        action="store_true",
        help="leave vision.npz as it is (measuring it renders every reference at three seeds "
        "and the negative corpus: about ten minutes on two cores)",
    )

    cal = sub.add_parser(
        "calibrate",
        help="score every reference with a scorer and write a calibration file for the reward",
    )
    cal.add_argument(
        "--scorer", default=DEFAULT_SCORER, help=f"scorer spec (default {DEFAULT_SCORER})"
    )
    cal.add_argument("--seeds", type=int, default=3, metavar="N", help="seeds 0..N-1 (default 3)")
    cal.add_argument(
        "--out", metavar="FILE.json", help="where to write it (default calibration-SCORER.json)"
    )
    cal.add_argument(
        "--from-results",
        metavar="RESULTS.jsonl",
        help="keep only references a policy's rollouts beat 25-75%% of the time",
    )
    cal.add_argument("--pool-dir", help="pool folder (default: the shipped pool)")
    add_render_options(cal, renderer_spec=True)

    gallery = sub.add_parser(
        "gallery",
        help="render every reference into a page of tasks (rows) by tiers (columns)",
    )
    gallery.add_argument(
        "--out", metavar="DIR", help="output folder (default: runs/pool-gallery-YYYYmmdd-HHMMSS)"
    )
    gallery.add_argument("--pool-dir", help="pool folder (default: the shipped pool)")
    gallery.add_argument(
        "--scorer", default=DEFAULT_SCORER, help=f"scorer spec (default {DEFAULT_SCORER})"
    )
    gallery.add_argument(
        "--seed",
        type=seed_argument,
        default=MEASURE_SEED,
        help=f"render seed (default {MEASURE_SEED}, the one the metadata was measured with)",
    )
    gallery.add_argument("--title", help="the page title")
    gallery.add_argument("--quiet", action="store_true", help="no progress line")
    # The deadline of a measurement: a heavy watercolour on a loaded machine needs more than
    # the 30 s a policy's sketch gets.
    add_render_options(gallery, defaults={"deadline_s": 60.0})

    neg = sub.add_parser(
        "negatives",
        help="rewrite the vision scorer's negative corpus (negatives.jsonl); measure it into "
        "vision.npz with `sketch-env pool refresh` afterwards",
    )
    neg.add_argument(
        "--harden",
        action="store_true",
        help="keep the corpus and add one round of what a blind and a composed search find "
        "against the current vision scorer (slow: the composed search scores --offline "
        "compositions a render; at 48, about two evaluations a minute on two busy cores)",
    )
    neg.add_argument(
        "--offline",
        type=int,
        default=48,
        metavar="N",
        help="compositions the hardening's composed search scores between two renders (default 48)",
    )
    neg.add_argument(
        "--budget", type=int, default=400, help="renders of the hardening search (default 400)"
    )
    neg.add_argument(
        "--seed", type=int, default=101, help="seed of the hardening search (default 101)"
    )
    neg.add_argument(
        "--tasks",
        default=None,
        metavar="LIST",
        help="comma-separated task ids the hardening attacks, or `unsearched`: every task "
        "outside `reward-check --search`'s defaults (default: four tasks, one per medium, "
        "`sketch_env.pool.negatives.HARDEN_TASKS`)",
    )
    neg.add_argument(
        "--population",
        type=int,
        default=16,
        metavar="N",
        help="candidates per generation of the hardening searches (default 16)",
    )
    neg.add_argument(
        "--keep",
        type=int,
        default=12,
        metavar="N",
        help="negatives the hardening keeps per task and search mode, the best first (default 12)",
    )
    neg.add_argument("--pool-dir", help="pool folder (default: the shipped pool)")
    add_render_options(neg, defaults={"deadline_s": 60.0})

    find = sub.add_parser(
        "find",
        help="keep a search's best picture on a task among the pool's finds, which every "
        "later `reward-check --search` replays",
    )
    find.add_argument("report", metavar="REPORT", help="a --search report.json or its folder")
    find.add_argument("--task", required=True, metavar="ID", help="the task whose best to keep")
    find.add_argument(
        "--name", required=True, metavar="SLUG", help="what it paints, as a slug: grey-collage"
    )
    find.add_argument("--note", default="", help="what it paints, in words")
    find.add_argument("--pool-dir", help="pool folder (default: the shipped pool)")

    sft = sub.add_parser(
        "export-sft",
        help="write references as prompt -> reply pairs (JSONL and a datasets dataset) for SFT",
    )
    sft.add_argument("directory", metavar="DIR", help="output folder")
    sft.add_argument(
        "--tiers",
        default="love,ok",
        help="comma-separated tiers to export (default love,ok)",
    )
    sft.add_argument(
        "--prompts",
        choices=["both", "task", "reference"],
        default="both",
        help="the user turn asks for the reference's task prompt (what RL asks), its own "
        "prompt (what the sketch paints), or both as two rows (default)",
    )
    sft.add_argument("--seed", type=int, default=0, help="seed of the row shuffle (default 0)")
    sft.add_argument("--pool-dir", help="pool folder (default: the shipped pool)")
    sft.add_argument(
        "--no-dataset",
        action="store_true",
        help="write only sft.jsonl (no `datasets` package needed)",
    )


def _run_list(args: argparse.Namespace) -> int:
    from sketch_env.catalog.references import load_reference_pool

    refs = load_reference_pool(args.pool_dir, tier=args.tier, task_id=args.task)
    if args.json:
        print(json.dumps([ref.to_dict() for ref in refs], indent=2))
        return 0

    def num(value: object, fmt: str) -> str:
        width = int(fmt.split(".")[0] or 0)
        return format(value, fmt) if isinstance(value, int | float) else "-".rjust(width)

    header = ("id", "task", "tier", "ms", "cover", "heur", "hpsv3")
    print("{:36s} {:26s} {:5s} {:>7s} {:>6s} {:>5s} {:>6s}".format(*header))
    for ref in refs:
        meta = ref.metadata
        print(
            f"{ref.id:36s} {ref.task_id:26s} {ref.tier:5s} {num(meta.get('render_ms'), '7.0f')} "
            f"{num(meta.get('paint_coverage'), '6.3f')} {num(meta.get('heuristic_score'), '5.2f')} "
            f"{num(meta.get('hpsv3_mu'), '6.2f')}"
        )
    print(f"{len(refs)} references")
    return 0


def _run_refresh(args: argparse.Namespace) -> int:
    from sketch_env.pool.refresh import refresh_reference_pool
    from sketch_env.render.renderer import SketchRenderer

    if args.repeats < 1:
        print("--repeats must be at least 1", file=sys.stderr)
        return 2
    config = render_config_from_args(args, pool_size=1)
    with SketchRenderer(config) as renderer:
        report = refresh_reference_pool(
            renderer,
            args.scorer,
            repeats=args.repeats,
            path=args.pool_dir,
            ids=args.ids,
            write=not args.dry_run,
            vision=False if args.no_vision else None,
        )
    print(json.dumps(report.to_dict(), indent=2) if args.json else report.table())
    if report.written:
        print(f"wrote {report.pool_dir / 'pool.json'}", file=sys.stderr)
    return 0 if report.ok else 1


def _run_calibrate(args: argparse.Namespace) -> int:
    import re

    from sketch_env.catalog.references import load_reference_pool
    from sketch_env.evaluation.evaluator import Evaluator
    from sketch_env.pool.calibrate import calibrate, policy_scores

    if args.seeds < 1:
        print("--seeds must be at least 1", file=sys.stderr)
        return 2
    refs = load_reference_pool(args.pool_dir)
    config = render_config_from_args(args)
    if args.renderer == "local":
        from sketch_env.render.renderer import SketchRenderer

        renderer: Any = SketchRenderer(config)
    else:
        from sketch_env.distributed import make_renderer

        renderer = make_renderer(args.renderer, config=config)
    with renderer:
        evaluator = Evaluator(renderer, args.scorer)
        calibration = calibrate(evaluator, refs, seeds=range(args.seeds))
    if args.from_results:
        calibration = calibration.keep_contested(policy_scores(args.from_results))
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", calibration.scorer).strip("-")
    out = calibration.save(args.out or f"calibration-{name}.json")
    print(
        json.dumps(
            {
                "scorer": calibration.scorer,
                "references": len(calibration.references),
                "mean": round(calibration.mean, 4),
                "std": round(calibration.std, 4),
                "file": str(out),
            }
        )
    )
    return 0


def _run_gallery(args: argparse.Namespace) -> int:
    import datetime as _dt
    from pathlib import Path

    from sketch_env.evaluation.evaluator import Evaluator
    from sketch_env.pool.gallery import write_pool_gallery
    from sketch_env.render.renderer import SketchRenderer
    from sketch_env.scoring.spec import make_scorer

    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(args.out or Path("runs") / f"pool-gallery-{stamp}")

    def progress(done: int, total: int) -> None:
        if not args.quiet:
            print(f"\rrendered {done}/{total}", end="" if done < total else "\n", file=sys.stderr)

    scorer = make_scorer(args.scorer)
    config = render_config_from_args(args)
    with SketchRenderer(config) as renderer:
        result = write_pool_gallery(
            Evaluator(renderer, scorer),
            out,
            path=args.pool_dir,
            seed=args.seed,
            title=args.title,
            progress=progress,
        )
    failed = result.failed()
    if failed:
        # A reference that no longer renders is what this page is for finding: say so loudly.
        print(
            f"error: {len(failed)} reference(s) did not render ok or were not scored: "
            + ", ".join(failed),
            file=sys.stderr,
        )
    print(f"{len(result.records)} references in {result.seconds:.1f} s", file=sys.stderr)
    # The page's path goes to stdout, alone, as `sketch-env rollout` prints its gallery.
    print(f"gallery: {result.index_path.resolve()}")
    return 1 if failed else 0


def _run_negatives(args: argparse.Namespace) -> int:
    from sketch_env.catalog.references import load_reference_pool
    from sketch_env.evaluation.evaluator import Evaluator
    from sketch_env.pool.negatives import (
        HARDEN_TASKS,
        blind_negatives,
        collage_negatives,
        search_negatives,
        unsearched_tasks,
        write_negatives,
    )
    from sketch_env.render.renderer import SketchRenderer
    from sketch_env.scoring.vision.pool import load_negatives
    from sketch_env.scoring.vision.scorer import VisionScorer

    def progress(done: int, total: int, label: str = "") -> None:
        print(f"\r{label} {done}/{total}", end="" if done < total else "\n", file=sys.stderr)

    if args.tasks is not None and not args.harden:
        print("--tasks chooses what a hardening round attacks: add --harden", file=sys.stderr)
        return 2
    if args.tasks is None:
        tasks: tuple[str, ...] = HARDEN_TASKS
    elif args.tasks.strip() == "unsearched":
        tasks = unsearched_tasks(args.pool_dir)
    else:
        tasks = tuple(t.strip() for t in args.tasks.split(",") if t.strip())
        known = {r.task_id for r in load_reference_pool(args.pool_dir)}
        unknown = sorted(set(tasks) - known)
        if unknown or not tasks:
            print(
                f"--tasks: no references for {', '.join(unknown) or 'an empty list'}; "
                "`sketch-env pool list` shows the pool's tasks",
                file=sys.stderr,
            )
            return 2
    try:
        kept = list(load_negatives(args.pool_dir))
    except FileNotFoundError:
        kept = []
    with SketchRenderer(render_config_from_args(args)) as renderer:
        if args.harden:
            rounds = [n.kind.removeprefix("search-r") for n in kept]
            round_number = max((int(r) for r in rounds if r.isdigit()), default=0) + 1
            evaluator = Evaluator(renderer, VisionScorer(args.pool_dir))
            new = search_negatives(
                evaluator,
                round_number,
                tasks=tasks,
                population=args.population,
                per_run=args.keep,
                budget=args.budget,
                seed=args.seed,
                progress=progress,
                offline_per_render=args.offline,
            )
            corpus = [*kept, *new]
        else:
            # The collages take each task's colours from its references' renders.
            refs = load_reference_pool(args.pool_dir)
            renders = renderer.render_many_sync(
                [r.source for r in refs], seeds=[MEASURE_SEED] * len(refs)
            )
            pictures: dict[str, list[Any]] = {}
            for ref, render in zip(refs, renders, strict=True):
                if render.png is None:
                    raise ValueError(f"reference {ref.id} rendered no picture")
                pictures.setdefault(ref.task_id, []).append(render.image().convert("RGB"))
            searched = [n for n in kept if n.kind.startswith("search-")]
            new = [*blind_negatives(), *collage_negatives(pictures)]
            corpus = [*new, *searched]
    path = write_negatives(corpus, args.pool_dir)
    print(
        f"{len(corpus)} negatives ({len(new)} written now) in {path}; measure them into "
        "vision.npz with `sketch-env pool refresh`"
    )
    return 0


def _run_find(args: argparse.Namespace) -> int:
    from sketch_env.pool.finds import add_find

    found = add_find(args.report, args.task, args.name, args.note, args.pool_dir)
    print(json.dumps({"id": found.id, "task_id": found.task_id, "note": found.note}))
    return 0


def _run_export_sft(args: argparse.Namespace) -> int:
    from sketch_env.pool.sft import PROMPT_SOURCES, export_sft

    tiers = [t.strip() for t in args.tiers.split(",") if t.strip()]
    prompts = PROMPT_SOURCES if args.prompts == "both" else (args.prompts,)
    export = export_sft(
        args.directory,
        tiers=tiers,
        prompts=prompts,
        seed=args.seed,
        path=args.pool_dir,
        dataset=not args.no_dataset,
    )
    print(json.dumps(export.to_dict(), indent=2))
    return 0


def run(args: argparse.Namespace) -> int:
    """Runs a ``pool`` action.

    Returns:
        0 on success; 1 when ``refresh`` or ``gallery`` found a reference that did not render
        ok; 2 for bad input (a malformed pool, an unknown tier, a missing package); 3 when no
        browser can start.
    """
    from sketch_env.catalog.references import ReferencePoolError
    from sketch_env.render.backends import BackendUnavailableError, BrowserNotFoundError
    from sketch_env.reward.calibration import CalibrationError
    from sketch_env.scoring.base import ScorerUnavailableError

    actions = {
        "list": _run_list,
        "refresh": _run_refresh,
        "calibrate": _run_calibrate,
        "gallery": _run_gallery,
        "export-sft": _run_export_sft,
        "negatives": _run_negatives,
        "find": _run_find,
    }
    # One mapping of failures to exit statuses for every action, each a line on stderr.
    try:
        return actions[args.pool_command](args)
    except (BrowserNotFoundError, BackendUnavailableError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 3
    except (
        ReferencePoolError,
        ScorerUnavailableError,
        CalibrationError,
        OSError,
        ValueError,
        ImportError,
    ) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
