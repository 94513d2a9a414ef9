"""The vision scorer's negative corpus (`sketch_env.pool.negatives`, ``reference_pool/
negatives.jsonl``): sketches that are not paintings, reproducible from their
generators, never a reference or a probe; and a hardening round, which adds what a blind and a
composed search found against the current scorer.
"""

from __future__ import annotations

from sketch_env.catalog.probes import load_probes
from sketch_env.catalog.references import load_reference_pool
from sketch_env.evaluation.evaluator import Evaluator
from sketch_env.gate import check_sketch
from sketch_env.pool.negatives import (
    HARDEN_TASKS,
    blind_negatives,
    search_negatives,
    unsearched_tasks,
)
from sketch_env.rewardcheck.search import DEFAULT_TASKS
from sketch_env.rewardcheck.search.composed import OFFLINE_CHILDREN
from sketch_env.scoring.vision.pool import load_negatives
from sketch_env.scoring.vision.scorer import VisionScorer
from tests.conftest import require_chromium


def _probe_sources() -> set[str]:
    sources = set()
    for probe in load_probes():
        sources.update(r.source for r in probe.ladder)
        sources.update(f.source for f in probe.free)
        sources.update(o.source for o in probe.outcome.values())
    return sources


def test_the_shipped_corpus_is_its_generators_output_and_never_a_painting_of_the_pool() -> None:
    shipped = load_negatives()
    ids = [n.id for n in shipped]
    assert len(set(ids)) == len(ids)
    kinds = {n.kind for n in shipped}
    assert {"blind", "collage"} <= kinds
    assert all(k in {"blind", "collage"} or k.startswith("search-r") for k in kinds), kinds
    # Reproducible: the blind part is exactly what its seeded generator writes.
    blind = [n for n in shipped if n.kind == "blind"]
    assert blind == blind_negatives(len(blind))
    paintings = {r.source for r in load_reference_pool()} | _probe_sources()
    assert not paintings & {n.source for n in shipped}
    # No hardening round looked at a task the search measures (ids name the attacked task).
    searched = [n.id for n in shipped if n.kind.startswith("search-r")]
    assert searched
    for task in DEFAULT_TASKS:
        assert not [i for i in searched if f"-{task.replace('/', '-')}-" in i], task


def test_hardening_attacks_other_tasks_than_the_search_that_measures_it() -> None:
    # A later `reward-check --search` then measures what the hardening generalised to.
    assert not set(HARDEN_TASKS) & set(DEFAULT_TASKS)
    assert len({t.split("/")[1] for t in HARDEN_TASKS}) == len(HARDEN_TASKS)
    wide = unsearched_tasks()
    assert not set(wide) & set(DEFAULT_TASKS)
    assert set(HARDEN_TASKS) <= set(wide)
    # Every task of the pool is either measured by the search or attacked by a wide round.
    assert set(wide) | set(DEFAULT_TASKS) == {r.task_id for r in load_reference_pool()}


def test_a_hardening_round_keeps_the_best_pictures_of_both_searches(renderer) -> None:
    require_chromium()
    evaluator = Evaluator(renderer, VisionScorer())
    # One batch of offline compositions per confirming render (the default three took 30 s of
    # the test's 47 on two cores, scoring pictures with the vision scorer).
    found = search_negatives(
        evaluator,
        7,
        tasks=["landscape/ink_hatching"],
        budget=6,
        seed=3,
        per_run=2,
        offline_per_render=OFFLINE_CHILDREN,
    )
    assert {n.kind for n in found} == {"search-r7"}
    modes = {n.id.rsplit("-", 2)[1] for n in found}
    assert modes == {"blind", "composed"}, [n.id for n in found]
    assert len(found) <= 4 and len({n.id for n in found}) == len(found)
    assert all(check_sketch(n.source).passed for n in found)
