"""`run_search`: what a black-box optimiser finds when the reward is its only guide.

A policy trained with GRPO is an optimiser; whatever raises the reward it will find. Hand-written
hacks (`hacks`) measure what their authors thought of, so this module measures the reward by
what *search* finds. Three optimisers, all seeded and all blind to painting, take their
candidates through the whole environment (gate → render → score → reward) with
`Evaluator.evaluate_sync`, one generation per concurrent batch:

- **blind** evolves a small typed genome (`Genome`: a background, a three-colour palette, a
  brush scale and a list of `Mark`\\ s) that `compile_genome` turns into a sketch using only the
  p5.brush calls the policy's instructions offer
  (`sketch_env.catalog.instructions.POLICY_INSTRUCTIONS`):
  lines, splines, flow lines, free strokes, arcs, rectangles, circles, polygons, free shapes,
  fills, washes, hatching, massed tone, hatch and mass arrays, every brush and every vector
  field. Every compiled program passes the default gate (``tests/rewardcheck/test_reward_search.py``
  checks thousands). Mutation is structured (move, resize, recolour, change brush, kind or
  paint, add, remove, duplicate, reorder marks...), crossover splices two mark lists.
- **references** starts from each of the task's reference sketches' own source and mutates
  it (`mutate_source`): numeric and colour literals, duplicating, removing and reordering the
  statements of ``setup``, inserting random brush calls. It shows what the reward pays for
  beyond the painting. Mutants are not repaired: one the gate refuses is evaluated anyway and
  earns the gate's penalty (−1 by default), and counts against the budget like any other.
- **composed** (`composed`) optimises the picture instead of the program: tiles rendered once,
  mosaics and collages of them scored as pictures through the reward's own picture path
  without rendering, the best of each offline round compiled and confirmed by a render.

Beside them every task searched replays the pool's **finds** (`FINDS`,
`sketch_env.catalog.finds`): what earlier searches found on it, against any scorer, evaluated
outside the budget like the references. One seeded search finding nothing bounds nothing.

Blind and references keep the best half of everything evaluated so far as parents (elitism:
a parent is never re-evaluated; with one render seed the reward is a function of the program),
pick parents by tournament, and fill each generation with children (crossover then mutation,
or mutation alone). The budget counts evaluations; references are evaluated once per task,
outside it.

The report (`SearchReport`) gives per task: the task's references evaluated against the
*task's* prompt with the same evaluator and seed (min/median/max), the best reward found, the
**adversarial gap** (best found − median reference; a sound reward keeps it ≤ 0), the
trajectory of every run (best and median reward per generation), and which reward components
and scorer terms the top candidates saturated (`TermSaturation`). ``report.write_search_html``
puts the winners' pictures beside the references.

The package follows those parts: `genome` (the vocabulary, `Mark`, `Genome` and random draws),
`compiler` (`compile_genome`), `breeding` (`mutate_genome`, `crossover`), `mutants`
(`mutate_source`), `results` (`SearchReport` and its parts, JSON, saturation) and `runner`
(`run_search`). Import from the package: every public name is here.

Examples:
    >>> from sketch_env.rewardcheck.search import compile_genome, random_genome
    >>> import random
    >>> source = compile_genome(random_genome(random.Random(0)))
    >>> source.startswith("function setup() {")
    True
"""

from __future__ import annotations

from sketch_env.rewardcheck.search.breeding import crossover, mutate_genome
from sketch_env.rewardcheck.search.compiler import compile_genome, mark_calls
from sketch_env.rewardcheck.search.genome import (
    BRUSHES,
    FIELDS,
    LINE_KINDS,
    MAX_MARKS,
    MAX_SLOW_MARKS,
    PAINTS,
    SHAPE_KINDS,
    Genome,
    Mark,
    random_genome,
    random_mark,
)
from sketch_env.rewardcheck.search.mutants import mutate_source
from sketch_env.rewardcheck.search.results import (
    FINDS,
    PREFERENCE_CAPS,
    Candidate,
    GenerationStats,
    SearchReport,
    SearchRun,
    TaskSearch,
    TermSaturation,
    load_search_report,
    write_search_json,
)
from sketch_env.rewardcheck.search.runner import (
    DEFAULT_TASKS,
    MODES,
    OFFLINE_PER_RENDER,
    CandidateEvaluator,
    SearchInfrastructureError,
    blind_search,
    run_search,
    split_budget,
)

__all__ = [
    "BRUSHES",
    "DEFAULT_TASKS",
    "FIELDS",
    "FINDS",
    "LINE_KINDS",
    "MAX_MARKS",
    "MAX_SLOW_MARKS",
    "MODES",
    "OFFLINE_PER_RENDER",
    "PAINTS",
    "PREFERENCE_CAPS",
    "SHAPE_KINDS",
    "Candidate",
    "CandidateEvaluator",
    "GenerationStats",
    "Genome",
    "Mark",
    "SearchInfrastructureError",
    "SearchReport",
    "SearchRun",
    "TaskSearch",
    "TermSaturation",
    "blind_search",
    "compile_genome",
    "crossover",
    "load_search_report",
    "mark_calls",
    "mutate_genome",
    "mutate_source",
    "random_genome",
    "random_mark",
    "run_search",
    "split_budget",
    "write_search_json",
]
