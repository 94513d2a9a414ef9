"""`run_search`: the two optimisers, generation by generation, through the whole environment.

Each run fills generations of candidates, each generation one concurrent batch through
`Evaluator.evaluate_sync`; the best half of everything evaluated so far are the parents
(elitism), picked by tournament. ``blind`` breeds genomes
(`sketch_env.rewardcheck.search.breeding`), ``references`` mutates the task's references'
sources (`sketch_env.rewardcheck.search.mutants`).
"""

from __future__ import annotations

import io
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from PIL import Image

from sketch_env.catalog.finds import Find, load_finds
from sketch_env.catalog.references import Reference, load_reference_pool
from sketch_env.catalog.tasks import Task, get_task
from sketch_env.errors import InfrastructureError
from sketch_env.evaluation.evaluator import Evaluator
from sketch_env.evaluation.rollout import Rollout
from sketch_env.rewardcheck.search.breeding import crossover, mutate_genome
from sketch_env.rewardcheck.search.compiler import compile_genome
from sketch_env.rewardcheck.search.composed import run_composed
from sketch_env.rewardcheck.search.genome import random_genome
from sketch_env.rewardcheck.search.mutants import mutate_source
from sketch_env.rewardcheck.search.results import (
    FINDS,
    Candidate,
    SearchReport,
    SearchRun,
    TaskSearch,
    best_first,
    record_batch,
    write_search_json,
)
from sketch_env.scoring.base import scale_of

__all__ = [
    "DEFAULT_TASKS",
    "MODES",
    "OFFLINE_PER_RENDER",
    "CandidateEvaluator",
    "SearchInfrastructureError",
    "blind_search",
    "run_search",
    "split_budget",
]

#: The searches: programs bred blind, mutants of the references, pictures composed of tiles.
MODES: tuple[str, ...] = ("blind", "references", "composed")
#: Compositions a composed search scores offline between two renders.
OFFLINE_PER_RENDER = 48
#: Four tasks of different subjects and media: the default of ``--tasks``.
DEFAULT_TASKS: tuple[str, ...] = (
    "flowers/watercolour",
    "landscape/charcoal",
    "still_life/ink_hatching",
    "seascape/pastel",
)


class SearchInfrastructureError(InfrastructureError):
    """The search could not measure a task: its references got no reward (browser or scorer
    down), so there is no baseline to compare with."""


def split_budget(budget: int, parts: int) -> list[int]:
    """Splits ``budget`` evaluations into ``parts`` near-equal shares, the first ones larger.

    Examples:
        >>> split_budget(500, 8)
        [63, 63, 63, 63, 62, 62, 62, 62]
    """
    share, extra = divmod(budget, parts)
    return [share + (1 if i < extra else 0) for i in range(parts)]


def _generation_sizes(budget: int, population: int) -> list[int]:
    sizes = [population] * (budget // population)
    return [*sizes, budget % population] if budget % population else sizes


def _tournament(rng: random.Random, parents: Sequence[Candidate], size: int = 3) -> Candidate:
    """The best of ``size`` parents drawn at random (``parents`` is ranked, best first)."""
    picks = sorted(rng.randrange(len(parents)) for _ in range(min(size, len(parents))))
    return parents[picks[0]]


class CandidateEvaluator(Protocol):
    """What a search evaluates its candidates with: a local `Evaluator` (`run_search`), or a
    running server over the wire (`sketch_env.rewardcheck.floor`)."""

    def evaluate(self, task: Task, drafts: Sequence[dict[str, Any]], label: str) -> list[Candidate]:
        """Evaluates one batch of drafts (``id``, ``mode``, ``generation``, ``source`` and
        optionally ``parents``, ``ops``, ``genome``) for ``task``, in order."""
        ...


def blind_search(
    evaluator: CandidateEvaluator,
    task: Task,
    *,
    budget: int,
    population: int,
    seed: int,
    keep: int = 6,
) -> SearchRun:
    """The blind search of one task, its candidates evaluated by ``evaluator``: the same
    programs, in the same order, as `run_search`'s blind mode with the same seed.

    Args:
        evaluator: Evaluates each generation.
        task: The task.
        budget: Evaluations.
        population: Candidates per generation (at least 2).
        seed: The search's seed.
        keep: Best candidates that keep their picture.

    Returns:
        The run.

    Raises:
        ValueError: On a population below 2 or a budget below 1.
    """
    if population < 2 or budget < 1:
        raise ValueError(
            f"a search needs a population >= 2 and a budget >= 1, got {population}, {budget}"
        )
    rng = random.Random(f"sketch_env.search:{seed}:{task.id}:blind")
    return _run_blind(evaluator, task, budget, population, rng, keep)


class _Session:
    """Evaluates batches for one report, counts progress and keeps only the best pictures."""

    def __init__(
        self,
        evaluator: Evaluator,
        seed: int,
        total: int,
        progress: Callable[[int, int, str], None] | None,
    ) -> None:
        self.evaluator = evaluator
        self.seed = seed
        self.total = total
        self.done = 0
        self.progress = progress
        self.backend = ""

    def evaluate(self, task: Task, drafts: Sequence[dict[str, Any]], label: str) -> list[Candidate]:
        rollouts = self.evaluator.evaluate_sync(
            [d["source"] for d in drafts], [task.prompt] * len(drafts), self.seed
        )
        out = [self._candidate(task, d, r) for d, r in zip(drafts, rollouts, strict=True)]
        self.done += len(drafts)
        if self.progress is not None:
            self.progress(self.done, self.total, label)
        return out

    def _candidate(self, task: Task, draft: dict[str, Any], rollout: Rollout) -> Candidate:
        render = rollout.render
        if render is not None and render.backend and not self.backend:
            self.backend = render.backend
        return Candidate(
            id=draft["id"],
            task_id=task.id,
            mode=draft["mode"],
            generation=draft["generation"],
            parents=tuple(draft.get("parents", ())),
            ops=tuple(draft.get("ops", ())),
            source=draft["source"],
            reward=rollout.reward.reward,
            status=rollout.status.value,
            gate_passed=rollout.gate.passed,
            components=rollout.reward.to_dict(),
            render_ms=round(render.render_ms, 1) if render is not None else None,
            genome=draft.get("genome"),
            png=render.png if render is not None and render.status.has_picture else None,
        )


def _run_blind(
    session: CandidateEvaluator,
    task: Task,
    budget: int,
    population: int,
    rng: random.Random,
    keep: int,
) -> SearchRun:
    run = SearchRun(task.id, "blind", budget, population)
    start = time.perf_counter()
    seen: set[str] = set()
    elite = max(2, population // 2)
    for generation, size in enumerate(_generation_sizes(budget, population)):
        parents = run.ranked()[:elite]
        drafts = []
        for index in range(size):
            lineage: tuple[str, ...]
            ops: tuple[str, ...]
            for _ in range(10):  # a child identical to one already evaluated is redrawn
                if not parents:
                    genome, lineage, ops = random_genome(rng), (), ("random",)
                elif rng.random() < 0.5 and len(parents) >= 2:
                    a, b = _tournament(rng, parents), _tournament(rng, parents)
                    assert a.genome is not None and b.genome is not None
                    genome, ops = mutate_genome(crossover(a.genome, b.genome, rng), rng)
                    lineage, ops = (a.id, b.id), ("crossover", *ops)
                else:
                    a = _tournament(rng, parents)
                    assert a.genome is not None
                    genome, ops = mutate_genome(a.genome, rng)
                    lineage = (a.id,)
                source = compile_genome(genome)
                if source not in seen:
                    break
            seen.add(source)
            drafts.append(
                {
                    "id": f"{task.id}/blind/g{generation}/c{index:02d}",
                    "mode": "blind",
                    "generation": generation,
                    "parents": lineage,
                    "ops": ops,
                    "source": source,
                    "genome": genome,
                }
            )
        _record_generation(session, task, run, drafts, generation, keep)
    run.seconds = round(time.perf_counter() - start, 1)  # as reported
    return run


def _run_references(
    session: _Session,
    task: Task,
    references: Sequence[Candidate],
    budget: int,
    population: int,
    rng: random.Random,
    keep: int,
) -> SearchRun:
    run = SearchRun(task.id, "references", budget, population)
    start = time.perf_counter()
    seen = {r.source for r in references}
    elite = max(2, population // 2)
    for generation, size in enumerate(_generation_sizes(budget, population), start=1):
        # Generation 1 mutates every reference in turn; later ones breed from the best of the
        # references and everything evaluated so far.
        pool = best_first([*references, *run.candidates])[:elite]
        drafts = []
        for index in range(size):
            for _ in range(10):
                if generation == 1 or not pool:
                    parent = references[index % len(references)]
                else:
                    parent = _tournament(rng, pool)
                source, ops = mutate_source(parent.source, rng)
                if source not in seen:
                    break
            seen.add(source)
            drafts.append(
                {
                    "id": f"{task.id}/references/g{generation}/c{index:02d}",
                    "mode": "references",
                    "generation": generation,
                    "parents": (parent.id,),
                    "ops": ops,
                    "source": source,
                }
            )
        _record_generation(session, task, run, drafts, generation, keep)
    run.seconds = round(time.perf_counter() - start, 1)  # as reported
    return run


def _record_generation(
    session: CandidateEvaluator,
    task: Task,
    run: SearchRun,
    drafts: Sequence[dict[str, Any]],
    generation: int,
    keep: int,
) -> None:
    start = time.perf_counter()
    batch = session.evaluate(task, drafts, f"{task.id} {run.mode} g{generation}")
    record_batch(run, batch, generation, keep, time.perf_counter() - start)


def _save_pictures(task: TaskSearch, out: Path) -> None:
    images = out / "images"
    images.mkdir(parents=True, exist_ok=True)
    for c in [*task.references, *(x for run in task.runs.values() for x in run.candidates)]:
        if c.png is None:
            continue
        name = c.id.replace("/", "__") + ".png"
        # The canvas's RGBA over white, as every scorer sees it (`Render.image`).
        picture = Image.open(io.BytesIO(c.png)).convert("RGBA")
        ground = Image.new("RGBA", picture.size, (255, 255, 255, 255))
        Image.alpha_composite(ground, picture).convert("RGB").save(images / name)
        c.image = f"images/{name}"


def run_search(
    evaluator: Evaluator,
    *,
    tasks: Sequence[str | Task] = DEFAULT_TASKS,
    budget: int = 500,
    modes: Sequence[str] = MODES,
    population: int = 16,
    seed: int = 0,
    references: Sequence[Reference] | None = None,
    out_dir: str | Path | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    keep: int = 6,
    top: int = 5,
    offline_per_render: int = OFFLINE_PER_RENDER,
    finds: Sequence[Find] | None = None,
) -> SearchReport:
    """Searches for programs the reward pays for, and compares them with the references.

    The budget is split evenly over every (task, mode) pair (`split_budget`); each run fills
    generations of ``population`` candidates (the last one smaller when the share does not
    divide), each generation one concurrent batch through ``evaluator``. Each task's finds
    (what earlier searches found there, against any scorer) are evaluated too, outside the
    budget as the references are, as a run of their own (`FINDS`): the gap is the best of
    everything, so a reward must also hold against them. Every render uses
    ``seed``, so the reward is a function of the program and a rerun with the same seed gives
    the same programs and the same rewards on the same backend.

    Args:
        evaluator: The evaluation whose reward is measured (its renderer, scorer, reward and
            gate configuration).
        tasks: Task ids (or `Task`\\ s); every one needs at least one reference.
        budget: Search evaluations over all tasks and modes (references not counted).
        modes: Any of `MODES`.
        population: Candidates per generation (at least 2).
        seed: The search's seed and every render's seed.
        references: The reference paintings; the shipped pool when ``None``.
        out_dir: Where to save the pictures of the references and the best candidates
            (``images/``) and, after every task, the report so far (``report.json``, its
            ``complete`` false until the last task); nothing saved when ``None`` (the
            pictures stay in memory in ``Candidate.png``).
        progress: Called with ``(evaluations done, evaluations in all, label)`` after every
            batch.
        keep: Best candidates per run that keep their picture and source in the report.
        top: Best candidates per task that the saturation analysis looks at.
        offline_per_render: Compositions the composed mode scores as pictures between two
            renders (in batches of `sketch_env.rewardcheck.search.composed.OFFLINE_CHILDREN`,
            at least one): fewer for a slow scorer, more for a stronger attack.
        finds: The finds to replay; the pool's (`load_finds`) when ``None``, none when empty.

    Returns:
        The `SearchReport`.

    Raises:
        ValueError: On an unknown task or mode, a task without references, a population
            below 2, fewer than one offline composition per render, or a budget below one
            evaluation per task and mode.
        SearchInfrastructureError: When a task's references all got no reward.

    Examples:
        >>> evaluator = Evaluator(scorer="heuristic")  # doctest: +SKIP
        >>> report = run_search(evaluator, tasks=["trees/pastel"], budget=32)  # doctest: +SKIP
        >>> report.tasks[0].gap  # best found minus the median reference  # doctest: +SKIP
    """
    start = time.perf_counter()
    chosen = [t if isinstance(t, Task) else get_task(t) for t in tasks]
    mode_list = list(dict.fromkeys(modes))
    unknown = [m for m in mode_list if m not in MODES]
    if unknown or not mode_list:
        raise ValueError(f"search modes must be among {list(MODES)}, got {list(modes)}")
    if not chosen:
        raise ValueError("the search needs at least one task")
    if population < 2:
        raise ValueError(f"the population must be at least 2, got {population}")
    if offline_per_render < 1:
        raise ValueError(f"offline_per_render must be at least 1, got {offline_per_render}")
    runs = len(chosen) * len(mode_list)
    if budget < runs:
        raise ValueError(
            f"a budget of {budget} is less than one evaluation per task and mode ({runs})"
        )
    pool = list(references) if references is not None else load_reference_pool()
    by_task = {t.id: [r for r in pool if r.task_id == t.id] for t in chosen}
    bare = [task_id for task_id, refs in by_task.items() if not refs]
    if bare:
        raise ValueError(f"no reference paintings for task(s) {', '.join(bare)}")
    known = list(finds) if finds is not None else list(load_finds())
    found_before = {t.id: [f for f in known if f.task_id == t.id] for t in chosen}
    replays = sum(len(f) for f in found_before.values())
    shares = iter(split_budget(budget, runs))
    outside = sum(len(r) for r in by_task.values()) + replays
    session = _Session(evaluator, seed, budget + outside, progress)
    report = SearchReport(
        scorer=evaluator.scorer.name,
        reward_config=evaluator.reward_config.to_dict(),
        gate_config=evaluator.gate_config.to_dict(),
        backend="",
        seed=seed,
        budget=budget,
        population=population,
        modes=(*mode_list, FINDS) if replays else tuple(mode_list),
        keep=keep,
        offline_per_render=offline_per_render if "composed" in mode_list else None,
        asked=tuple(t.id for t in chosen),
    )
    for task in chosen:
        task_start = time.perf_counter()
        drafts = [
            {"id": ref.id, "mode": "reference", "generation": 0, "source": ref.source}
            for ref in by_task[task.id]
        ]
        refs = session.evaluate(task, drafts, f"{task.id} references")
        if all(r.reward is None for r in refs):
            reasons = "; ".join(sorted({str(r.components.get("infra_error")) for r in refs}))
            raise SearchInfrastructureError(
                f"the references of {task.id} got no reward ({reasons}): nothing to compare with"
            )
        result = TaskSearch(
            task,
            refs,
            preference_cap=scale_of(evaluator.scorer).cap,
            top=top,
        )
        if found_before[task.id]:
            run = SearchRun(task.id, FINDS, 0, len(found_before[task.id]))
            drafts = [
                {"id": f.id, "mode": FINDS, "generation": 0, "source": f.source}
                for f in found_before[task.id]
            ]
            _record_generation(session, task, run, drafts, 0, keep)
            result.runs[FINDS] = run
        for mode in mode_list:
            share = next(shares)
            if mode == "blind":
                result.runs[mode] = blind_search(
                    session, task, budget=share, population=population, seed=seed, keep=keep
                )
            elif mode == "composed":
                rng = random.Random(f"sketch_env.search:{seed}:{task.id}:{mode}")
                pictures = [p for p in (r.picture() for r in refs) if p is not None]
                result.runs[mode] = run_composed(
                    session, task, refs, pictures, share, rng, keep, offline_per_render
                )
            else:
                rng = random.Random(f"sketch_env.search:{seed}:{task.id}:{mode}")
                result.runs[mode] = _run_references(
                    session, task, refs, share, population, rng, keep
                )
        result.seconds = round(time.perf_counter() - task_start, 1)  # as reported
        report.tasks.append(result)
        report.backend = session.backend
        report.seconds = round(time.perf_counter() - start, 1)  # as reported
        if out_dir is not None:
            # After every task, not once at the end: a composed search of 500 renders can run
            # for hours, and a crash in its last task lost the three finished ones (session 11).
            _save_pictures(result, Path(out_dir))
            write_search_json(report, Path(out_dir) / "report.json")
    return report
