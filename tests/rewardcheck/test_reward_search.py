"""`sketch-env reward-check --search`: the genome and its operators (no browser), a seeded
search through the real `Evaluator` and Chromium, its report, and the command's exit codes."""

from __future__ import annotations

import json
import math
import random
import re
import shutil
import statistics
from collections.abc import Iterator
from pathlib import Path

import pytest

from sketch_env import RenderConfig, SketchRenderer
from sketch_env.catalog.finds import Find, load_finds
from sketch_env.catalog.instructions import POLICY_INSTRUCTIONS, brush_names_in
from sketch_env.catalog.references import POOL_FILE, find_pool_dir, load_reference_pool
from sketch_env.catalog.tasks import get_task
from sketch_env.cli import main
from sketch_env.evaluation.evaluator import Evaluator
from sketch_env.gate import gate_reply
from sketch_env.pool.finds import add_find
from sketch_env.rewardcheck.report import (
    saturation_lines,
    search_summary_rows,
    write_search_html,
)
from sketch_env.rewardcheck.search import (
    FINDS,
    MAX_MARKS,
    MAX_SLOW_MARKS,
    SearchReport,
    compile_genome,
    composed,
    crossover,
    load_search_report,
    mutate_genome,
    mutate_source,
    random_genome,
    run_search,
    split_budget,
    write_search_json,
)
from sketch_env.rewardcheck.search.composed import OFFLINE_CHILDREN
from sketch_env.rewardcheck.search.results import best_first
from tests.conftest import reading_nothing, require_chromium

#: A task of four references, none slow to render (1.6-5.7 s on llvmpipe under load).
TASK = "abstract/charcoal"
#: Plain p5 calls a compiled genome may make; everything else is p5.brush.
P5_CALLS = {"setup", "createCanvas", "translate", "background"}
_BARE_CALL = re.compile(r"(?<![\w.$])([A-Za-z_$][\w$]*)\s*\(")
_CANVAS = re.compile(r"createCanvas\(\s*600\s*,\s*600\s*,\s*WEBGL\s*\)")


def _genomes(count: int) -> Iterator[str]:
    """Sources of random genomes and of their descendants, bred as the search breeds them."""
    for seed in range(count):
        rng = random.Random(seed)
        genome, other = random_genome(rng), random_genome(rng)
        yield compile_genome(genome)
        for _ in range(6):
            genome, _ = mutate_genome(genome, rng)
            yield compile_genome(genome)
            if rng.random() < 0.5:
                genome = crossover(genome, other, rng)
                yield compile_genome(genome)


def test_every_genome_compiles_to_a_sketch_the_default_gate_passes() -> None:
    used: set[str] = set()
    sources = list(_genomes(60))
    # Some mutations change nothing in the source (a colour index redrawn to itself); the
    # search redraws such children, and most differ.
    assert len(set(sources)) > 0.85 * len(sources)
    for source in sources:
        verdict = gate_reply(source)
        assert verdict.passed, (verdict.reasons, source)
        used |= brush_names_in(source)
        assert {m for m in _BARE_CALL.findall(source)} <= P5_CALLS, source
        assert source.count("brush.") <= 20 * MAX_MARKS
    # Exactly the instructions' p5.brush API: nothing it does not offer, and all that it does.
    assert used == brush_names_in(POLICY_INSTRUCTIONS)


def test_genomes_stay_within_their_size_and_cost() -> None:
    slow_calls = re.compile(r"brush\.(fill|mass)\(")
    for source in _genomes(40):
        # A slow mark is one textured fill or one mass: at most MAX_SLOW_MARKS of them.
        assert len(slow_calls.findall(source)) <= MAX_SLOW_MARKS, source


def test_the_genome_and_its_operators_are_seeded() -> None:
    assert list(_genomes(5)) == list(_genomes(5))
    assert compile_genome(random_genome(random.Random(1))) != compile_genome(
        random_genome(random.Random(2))
    )


def test_mutants_of_the_references_change_their_source_and_keep_the_canvas() -> None:
    refs = load_reference_pool()
    failed = total = 0
    for ref in refs:
        rng = random.Random(ref.id)
        for _ in range(8):
            mutant, ops = mutate_source(ref.source, rng)
            total += 1
            assert ops and set(ops) <= {
                "number",
                "colour",
                "duplicate",
                "remove",
                "reorder",
                "insert",
            }
            assert _CANVAS.search(mutant), (ref.id, ops)
            failed += not gate_reply(mutant).passed
    # Mutants are not repaired: removing a sketch's only drawing call makes it fail the gate.
    # Measured: 3 of 560 such mutants failed; most must pass, or the mode measures nothing.
    assert failed < 0.05 * total


def test_the_budget_is_split_exactly() -> None:
    assert split_budget(500, 8) == [63, 63, 63, 63, 62, 62, 62, 62]
    assert sum(split_budget(17, 3)) == 17


@pytest.fixture(scope="module")
def evaluator() -> Iterator[Evaluator]:
    # Its own pool at the default 30 s deadline: the shared fixture's 6 s could cut a heavy
    # genome short under load in one run and not in the other, which is not the search's doing.
    require_chromium()
    with SketchRenderer(RenderConfig(pool_size=2)) as renderer:
        yield Evaluator(renderer, "heuristic")


@pytest.fixture(scope="module")
def search(
    evaluator: Evaluator, tmp_path_factory: pytest.TempPathFactory
) -> tuple[SearchReport, Path]:
    out = tmp_path_factory.mktemp("search")
    calls: list[tuple[int, int]] = []
    report = run_search(
        evaluator,
        tasks=[TASK],
        budget=8,
        modes=["blind", "references"],
        population=2,
        seed=0,
        out_dir=out,
        progress=lambda done, total, _: calls.append((done, total)),
    )
    # The progress callback counts every evaluation, the references' too.
    total = 8 + len(load_reference_pool(task_id=TASK))
    assert calls[-1] == (total, total) and [d for d, _ in calls] == sorted(d for d, _ in calls)
    return report, out


def test_each_mode_runs_its_generations_through_the_environment(search) -> None:
    report, _ = search
    (task,) = report.tasks
    refs = load_reference_pool(task_id=TASK)
    assert report.evaluations == 8 and report.reference_evaluations == len(refs) >= 4
    for mode in ("blind", "references"):
        run = task.runs[mode]
        assert [g.evaluated for g in run.generations] == [2, 2]
        assert len(run.candidates) == 4
        assert all(c.reward is not None for c in run.candidates)
        assert run.generations[-1].best_so_far == max(c.reward for c in run.candidates)
        # The second generation is bred from the first (or, for mutants, from the reference).
        assert all(
            c.parents for c in run.candidates if c.generation == run.generations[1].generation
        )
    assert task.gap == pytest.approx(task.best.reward - task.reference_stats()["median"])
    assert report.passed == (task.gap <= 0)
    mutants = max(c.reward for c in task.runs["references"].candidates)
    assert task.mutant_margin == pytest.approx(mutants - task.reference_stats()["max"])
    assert report.to_dict()["tasks"][0]["mutant_margin"] == task.mutant_margin


def test_the_references_mode_mutates_the_tasks_references(search, evaluator) -> None:
    report, _ = search
    (task,) = report.tasks
    refs = load_reference_pool(task_id=TASK)
    assert [r.id for r in task.references] == [r.id for r in refs]
    run = task.runs["references"]
    # The first generation mutates the references in turn.
    for c, ref in zip(run.candidates[:2], refs, strict=False):
        assert c.parents == (ref.id,) and c.source != ref.source and c.ops
    # The references' rewards are their own, scored against the TASK's prompt with the same seed.
    again = evaluator.evaluate_sync(
        [r.source for r in refs], [get_task(TASK).prompt] * len(refs), report.seed
    )
    assert task.reference_stats()["median"] == statistics.median(r.reward.reward for r in again)
    assert all(r.prompt != get_task(TASK).prompt for r in refs)


def test_the_finds_of_a_task_are_replayed_outside_the_budget_and_count_in_its_gap(
    evaluator, tmp_path: Path
) -> None:
    # A find here is one of the task's references found again (its reward is then known);
    # the other is on a task not searched, and must not be evaluated.
    refs = load_reference_pool(task_id=TASK)
    finds = [
        Find("here", TASK, refs[0].source, "a test", "the first reference again"),
        Find("elsewhere", "flowers/watercolour", refs[1].source, "a test", "not searched"),
    ]
    out = tmp_path / "search"
    report = run_search(
        evaluator,
        tasks=[TASK],
        budget=2,
        modes=["blind"],
        population=2,
        seed=0,
        finds=finds,
        out_dir=out,
    )
    (task,) = report.tasks
    assert report.modes == ("blind", FINDS)
    run = task.runs[FINDS]
    assert [c.id for c in run.candidates] == ["here"] and run.budget == 0
    # The budget and the evaluations reported are the search's alone.
    assert len(task.runs["blind"].candidates) == 2 and report.evaluations == 2
    # The same sketch at the same seed earns what it earned as a reference.
    (replayed,) = run.candidates
    assert replayed.reward == next(c.reward for c in task.references if c.id == refs[0].id)
    everything = [c.reward for r in task.runs.values() for c in r.candidates]
    assert task.gap == pytest.approx(max(everything) - task.reference_stats()["median"])
    # The report says so: its JSON keeps the run, and the table a column for it.
    assert FINDS in report.to_dict()["tasks"][0]["runs"]
    assert len(search_summary_rows(report)[0]) == 2 + len(report.modes) + 3
    # With no finds there is no such run.
    bare = run_search(
        evaluator, tasks=[TASK], budget=2, modes=["blind"], population=2, seed=0, finds=()
    )
    assert bare.modes == ("blind",) and FINDS not in bare.tasks[0].runs
    # `sketch-env pool find` keeps the search's own best (never a find it replayed) in a pool.
    pool = tmp_path / "pool"
    pool.mkdir()
    shutil.copy(find_pool_dir() / POOL_FILE, pool / POOL_FILE)
    command = ["pool", "find", str(out), "--task", TASK, "--name", "test-find"]
    assert main([*command, "--note", "a test", "--pool-dir", str(pool)]) == 0
    (kept,) = load_finds(pool)
    best = best_first(task.runs["blind"].candidates)[0]
    assert kept.source == best.source and kept.id == "abstract-charcoal-blind-test-find"
    assert kept.task_id == TASK and kept.note.startswith("a test; ")
    assert "abstract-charcoal-blind-test-find.js" in {p.name for p in (pool / "finds").iterdir()}
    # Kept once: the same id, or the same sketch under another name, is refused.
    assert main([*command, "--pool-dir", str(pool)]) == 2
    with pytest.raises(ValueError, match="already the pool's find"):
        add_find(out, TASK, "another-name", path=pool)
    with pytest.raises(ValueError, match="did not search"):
        add_find(out, "trees/pastel", "x", path=pool)


def test_the_same_seed_gives_the_same_programs_and_rewards(search, evaluator) -> None:
    report, _ = search
    first = report.tasks[0].runs["blind"]
    # The blind run of a blind-only search of the same share is the same search.
    again = run_search(evaluator, tasks=[TASK], budget=4, modes=["blind"], population=2, seed=0)
    second = again.tasks[0].runs["blind"]
    assert [c.source for c in second.candidates] == [c.source for c in first.candidates]
    assert [c.reward for c in second.candidates] == [c.reward for c in first.candidates]


@pytest.mark.slow
def test_the_composed_mode_scores_pictures_offline_and_confirms_the_best_by_render(
    evaluator,
) -> None:
    # Budget 3: one tile sheet (a render), then two confirmations, each the best composition
    # of an offline round (one batch of 16 pictures scored, none rendered; the default 48
    # took 22 s of the test's 35 on two cores).
    report = run_search(
        evaluator,
        tasks=[TASK],
        budget=3,
        modes=["composed"],
        population=2,
        offline_per_render=OFFLINE_CHILDREN,
    )
    run = report.tasks[0].runs["composed"]
    assert report.evaluations == 3 and report.offline_per_render == OFFLINE_CHILDREN
    assert report.to_dict()["offline_per_render"] == OFFLINE_CHILDREN
    sheets = [c for c in run.candidates if c.ops == ("tiles",)]
    confirmed = [c for c in run.candidates if c.ops and c.ops[0] in ("mosaic", "collage")]
    assert len(sheets) == 1 and len(confirmed) == 2
    assert len({c.source for c in confirmed}) == 2, "a composition is confirmed once"
    for c in confirmed:
        assert c.reward is not None and c.status == "ok", (c.status, c.components)
        offline = float(c.ops[1].removeprefix("offline="))
        assert math.isfinite(offline)
        assert gate_reply(c.source).passed, "a confirmed composition is a sketch the gate passes"


@pytest.mark.slow
def test_a_composed_search_that_runs_out_of_new_compositions_stops_early(
    evaluator, monkeypatch
) -> None:
    # A reward that pays every picture alike (no preference, no coverage, no dark-mass term):
    # the offline population never changes, and once its compositions are confirmed there
    # is nothing new to render. At 500 renders under vision the search then raised
    # StopIteration after 35 minutes and lost the run; now it stops and says so. A population
    # of 6, not the search's 24: each confirmation is one serial render, and 24 of them took
    # 177 s of pytest's 300 on busy cores.
    monkeypatch.setattr(composed, "_POPULATION", 6)
    flat = reading_nothing(
        evaluator.renderer, preference_weight=0.0, coverage_weight=0.0, dark_mass_weight=0.0
    )
    report = run_search(
        flat, tasks=[TASK], budget=60, modes=["composed"], offline_per_render=OFFLINE_CHILDREN
    )
    run = report.tasks[0].runs["composed"]
    confirmed = [c for c in run.candidates if c.ops and c.ops[0] in ("mosaic", "collage")]
    assert run.stopped_early and len(run.candidates) < 60
    assert len({c.source for c in confirmed}) == len(confirmed) == 6
    assert run.to_dict(keep=1)["stopped_early"] is True


@pytest.mark.slow
def test_a_composed_search_stops_breeding_when_its_offline_allowance_is_spent(
    evaluator, monkeypatch
) -> None:
    # A converged population spends up to eight offline rounds a render: landscape/charcoal's
    # 125 renders took 105 min. The allowance is counted in pictures, so a run stops at the
    # same place on any machine; here 0.2 x 12 renders x 16 = 38 pictures, a population of 2.
    monkeypatch.setattr(composed, "_POPULATION", 2)
    monkeypatch.setattr(composed, "_OFFLINE_ALLOWANCE", 0.2)
    report = run_search(
        reading_nothing(evaluator.renderer),
        tasks=[TASK],
        budget=12,
        modes=["composed"],
        offline_per_render=16,
    )
    run = report.tasks[0].runs["composed"]
    confirmed = [c for c in run.candidates if c.ops and c.ops[0] in ("mosaic", "collage")]
    assert run.stopped_early and len(run.candidates) < 12
    assert 0.2 * 12 * 16 <= run.offline_scored < 0.2 * 12 * 16 + OFFLINE_CHILDREN
    assert confirmed and len({c.source for c in confirmed}) == len(confirmed)
    assert run.to_dict(keep=1)["offline_scored"] == run.offline_scored


def test_the_report_json_and_page_hold_what_is_promised(search) -> None:
    report, out = search
    (task,) = report.tasks
    # The search wrote its report itself, complete, after its only task.
    assert json.loads((out / "report.json").read_text())["complete"] is True
    data = json.loads(write_search_json(report, out / "report.json").read_text())
    (entry,) = data["tasks"]
    assert data["gaps"] == {TASK: task.gap}
    assert set(entry["reference_rewards"]) == {"min", "median", "max"}
    assert entry["best"]["source"] and entry["best"]["components"]["contributions"]
    for mode in ("blind", "references"):
        run = entry["runs"][mode]
        assert [set(g) >= {"best", "median", "best_so_far"} for g in run["generations"]] == [
            True
        ] * 2
        assert run["best"]["reward"] == max(c["reward"] for c in run["candidates"])
    names = {s["name"]: s for s in entry["saturation"]}
    assert {"preference", "coverage_term", "scorer:texture_term"} <= set(names)
    assert names["coverage_term"]["cap"] == 1.0 and names["preference"]["cap"] == 10.0
    maxed, shared = saturation_lines(task)
    assert maxed and shared
    page = write_search_html(report, out).read_text()
    for c in [*task.references, task.runs["blind"].best, task.runs["references"].best]:
        assert c.image is not None and (out / c.image).is_file()
        assert f'src="{c.image}"' in page
    assert "<script" not in page and "http" not in page.replace("http-equiv", "")
    assert f"{task.gap:+.2f}" in page and "<svg" in page
    assert f"against the best reference: {task.mutant_margin:+.2f}" in page
    # Read back, the report draws the same page and keeps its figures (a run can be redrawn
    # or compared with another reward's without searching again).
    back = load_search_report(out / "report.json")
    assert back.to_dict() == report.to_dict()
    assert write_search_html(back, out).read_text() == page


def test_a_search_that_stops_midway_keeps_the_tasks_it_finished(
    evaluator: Evaluator, tmp_path: Path
) -> None:
    # A 500-render composed search runs for hours; one that crashed in its last task used to
    # lose the three finished ones, since the report was written only at the end.
    second = "trees/pastel"

    def stop_at_the_second_task(done: int, total: int, label: str) -> None:
        if label.startswith(second):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_search(
            evaluator,
            tasks=[TASK, second],
            budget=2,
            modes=["blind"],
            population=2,
            out_dir=tmp_path,
            progress=stop_at_the_second_task,
        )
    kept = load_search_report(tmp_path / "report.json")
    assert [t.task.id for t in kept.tasks] == [TASK] and kept.asked == (TASK, second)
    assert not kept.complete and not kept.passed, "half a search passes nothing"
    data = json.loads((tmp_path / "report.json").read_text())
    assert data["complete"] is False and data["asked"] == [TASK, second]
    for c in kept.tasks[0].references:
        assert c.image is not None and (tmp_path / c.image).is_file()


def test_a_bad_search_is_refused_before_anything_renders(evaluator) -> None:
    with pytest.raises(ValueError, match="population"):
        run_search(evaluator, tasks=[TASK], budget=4, population=1)
    with pytest.raises(ValueError, match="less than one evaluation"):
        run_search(evaluator, tasks=[TASK], budget=1)
    with pytest.raises(ValueError, match="unknown task"):
        run_search(evaluator, tasks=["flowers/oil"], budget=4)
    with pytest.raises(ValueError, match="offline_per_render"):
        run_search(evaluator, tasks=[TASK], budget=4, offline_per_render=0)


def _command(tmp_path: Path, *extra: str) -> list[str]:
    return [
        "reward-check",
        "--search",
        "1",
        "--search-mode",
        "blind",
        "--population",
        "2",
        "--tasks",
        TASK,
        "--pool-size",
        "1",
        "--quiet",
        "--out",
        str(tmp_path / "out"),
        *extra,
    ]


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["--search", "0"], "--search"),
        (["--search", "4", "--population", "1"], "--population"),
        (["--search", "4", "--tasks", "flowers/oil"], "--tasks"),
        (["--search", "3"], "--search 3"),
        (["--search", "4", "--seeds", "2"], "--seeds"),
        (["--population", "4"], "--population"),
        (["--search", "4", "--offline", "0"], "--offline"),
        (["--offline", "16"], "--offline"),
        (["--tasks", "flowers/watercolour"], "--tasks"),
        (["--resolution", "--tasks", "flowers/oil"], "--tasks"),
        (["--resolution", "--tasks", "flowers/watercolour, flowers/oil"], "flowers/oil"),
        (["--resolution", "--tasks", " , "], "--tasks names no task"),
    ],
)
def test_usage_errors_exit_2_with_one_line_naming_the_flag(argv, flag, capsys) -> None:
    assert main(["reward-check", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and flag in err


def test_the_command_exits_0_when_no_gap_and_1_when_the_search_wins(tmp_path, capsys) -> None:
    # A constant reward (every picture earns 0) leaves the search nothing to find: gap 0.
    flat = tmp_path / "flat.json"
    flat.write_text(
        json.dumps({"preference_weight": 0, "coverage_weight": 0, "dark_mass_weight": 0})
    )
    assert main(_command(tmp_path, "--reward-config", str(flat))) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["gaps"] == {TASK: 0.0} and summary["passed"] is True
    assert Path(summary["html"]).is_file() and Path(summary["report"]).is_file()
    # Coverage paid whatever covers it: the first random program (28 % paint) out-covers the
    # sparse gesture drawing (5 %), and the command says so.
    coverage = tmp_path / "coverage.json"
    coverage.write_text(
        json.dumps(
            {
                "preference_weight": 0,
                "dark_mass_weight": 0,
                "coverage_quality": None,
            }
        )
    )
    assert main(_command(tmp_path, "--reward-config", str(coverage))) == 1
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["gaps"][TASK] > 0 and summary["passed"] is False
