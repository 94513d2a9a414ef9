"""An endless loop is charged its timeout however slow the machine (issue 29).

Past the wall cap a render under budget used to end ``crashed`` (reward ``None``, left out of
the loss). ``while (true) {}`` beside two processes rendering heavy references got under a
quarter of a core, so its own time stayed short of the budget at the cap, and it escaped its
penalty in one run of two. The clock now charges a render at the cap when its JavaScript thread
was busy all along (it burned whatever CPU it was given); only a render the machine held back
(its thread blocked or stopped, not spinning) ends ``crashed``.

The first three tests hold the clock's rules on plain processes (seconds); the last renders the
issue's case through `Evaluator()` under the issue's load, five loops at once (a minute: ``slow``).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import psutil
import pytest

from sketch_env import RenderConfig, RenderStatus, SketchRenderer
from sketch_env.render.budget import (
    MACHINE,
    SKETCH,
    SPIN_FRACTION,
    SketchClock,
    schedstat_available,
)
from tests.conftest import reading_nothing, require_chromium
from tests.render.loadgen import EXIT_WITH_PARENT, load_generators

#: A process that spins until killed (and ends itself if pytest is killed first).
SPIN = [sys.executable, "-c", EXIT_WITH_PARENT + "while True: pass"]
#: A process that waits until killed, using no CPU (likewise).
WAIT = [sys.executable, "-c", EXIT_WITH_PARENT + "_time.sleep(3600)"]


@pytest.fixture
def spinners() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Starts processes that spin for ever; kills them after the test."""
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for proc in started:
        proc.kill()
        proc.wait(timeout=10)


def _verdict(clock: SketchClock) -> str | None:
    stopped: list[str | None] = []
    asyncio.run(clock.run_out(lambda: stopped.append(clock.verdict)))
    return stopped[0]


def test_a_loop_starved_of_cpu_is_charged_at_the_wall_cap(spinners):
    if not schedstat_available():
        pytest.skip("this kernel does not report per-thread run-queue waits")
    # Two busy processes per core at normal priority, and the "sketch" spinning at a lower one:
    # it gets about a seventh of a core, so its own time is short of the budget when the wall
    # cap comes. The old rule ended such a render `crashed` (the machine's fault).
    cores = len(os.sched_getaffinity(0))
    spinners.extend(subprocess.Popen(SPIN) for _ in range(2 * cores))
    loop = subprocess.Popen(["nice", "-n", "5", *SPIN])
    spinners.append(loop)
    time.sleep(1.0)  # all of them past the interpreter's start-up, spinning
    clock = SketchClock(
        lambda: [psutil.Process(loop.pid)], deadline_s=1.0, max_wall_factor=4.0, poll_s=0.05
    )
    verdict = _verdict(clock)
    assert clock.wall_s >= clock.cap_s, clock.describe()
    assert clock.used_s < clock.deadline_s, f"the load did not hold it back: {clock.describe()}"
    assert clock.busy_share >= SPIN_FRACTION, clock.describe()
    assert verdict == SKETCH, clock.describe()


def test_a_stopped_render_is_the_machines_fault_at_the_wall_cap():
    if not schedstat_available():
        pytest.skip("this kernel does not report per-thread run-queue waits")
    # Stopped by the system, a process neither runs nor waits for a CPU, and is not idle by
    # its own choice: before, its wall time counted as its own and it was charged at the
    # budget (0.4 s); now it is held back until the cap, and not charged.
    proc = subprocess.Popen(SPIN)
    try:
        os.kill(proc.pid, signal.SIGSTOP)
        clock = SketchClock(
            lambda: [psutil.Process(proc.pid)], deadline_s=0.4, max_wall_factor=3.0, poll_s=0.05
        )
        assert _verdict(clock) == MACHINE, clock.describe()
        assert clock.wall_s >= clock.cap_s and clock.busy_share < SPIN_FRACTION
    finally:
        proc.kill()
        proc.wait(timeout=10)


def test_a_render_that_waits_for_ever_is_charged_at_its_budget():
    if not schedstat_available():
        pytest.skip("this kernel does not report per-thread run-queue waits")
    # A sketch that awaits a promise that never resolves uses no CPU, and nothing holds it
    # back: its wall time is its own, so it is charged when its budget is spent, not left to
    # run to the wall cap (where, never busy, it would end as the machine's fault).
    proc = subprocess.Popen(WAIT)
    try:
        time.sleep(1.0)  # past the interpreter's start-up, asleep
        clock = SketchClock(
            lambda: [psutil.Process(proc.pid)], deadline_s=0.5, max_wall_factor=4.0, poll_s=0.05
        )
        assert _verdict(clock) == SKETCH, clock.describe()
        assert clock.deadline_s <= clock.wall_s < clock.cap_s, clock.describe()
        assert clock.busy_share < SPIN_FRACTION, clock.describe()
    finally:
        proc.kill()
        proc.wait(timeout=10)


#: The issue's load: a process rendering a heavy watercolour reference in a loop on a pool of
#: two browsers of its own (a second trainer, or a rollout beside training).
LOAD = """
import sys
from sketch_env import SketchRenderer
from sketch_env.catalog.references import load_reference_pool
source = next(r.source for r in load_reference_pool() if r.id == sys.argv[1])
with SketchRenderer(pool_size=2, deadline_s=600) as renderer:
    renderer.render_sync(source, seed=0)
    print("loaded", flush=True)
    for seed in range(1, 1_000_000):
        renderer.render_many_sync([source, source], [seed, seed + 1])
"""
LOADERS = ("flowers-watercolour-hibiscus", "flowers-watercolour-hibiscus")
#: Four reference paintings of the batch (watercolour: the heaviest medium).
BATCH = (
    "flowers-watercolour-hibiscus-flat-vase",
    "landscape-watercolour-plain-hill",
    "still_life-watercolour-pears",
    "flowers-ink_hatching-tulips",
)
#: One stroke (the gate wants a p5.brush call), then an endless loop.
ENDLESS = """```javascript
function setup() {
  createCanvas(600, 600, WEBGL);
  background(240);
  translate(-width / 2, -height / 2);
  brush.set('2B', '#223388', 2);
  brush.line(20, 20, 280, 280);
  while (true) {}
}
```"""
#: Endless loops rendered at once, each in its own browser beside the four references: a
#: one-in-two escape passes all of them by luck once in 2**LOOPS runs (1 in 32). Rendered one
#: batch after another (a loop and the references per batch) they took 246 s of the slow tier;
#: side by side they take one wall cap, and the extra browsers only starve each loop further,
#: which is the case under test (the old rule let a starved loop escape more often, not less).
LOOPS = 5
#: A budget of the sketch's own time that keeps the render under a minute; the escape depends
#: on the loop's share of a core against 1 / max_wall_factor, not on the budget's size. Thirteen
#: busy browsers on two cores give each about a seventh of a core, so a loop's own time at the
#: wall cap (4 x 12 s) is about 7 s, under its budget: the case the old rule let escape. At
#: 8 s a heavy reference beside them was once held back to the cap itself (ended `crashed`).
DEADLINE_S = 12.0


@pytest.fixture(scope="module")
def load() -> Iterator[None]:
    require_chromium()
    with load_generators(LOAD, [[name] for name in LOADERS], ready="loaded"):
        yield


@pytest.mark.timeout(600)
def test_endless_loops_beside_two_trainers_are_always_charged(load):
    from sketch_env.catalog.references import load_reference_pool

    refs = {r.id: r for r in load_reference_pool()}
    batch = [refs[name] for name in BATCH]
    replies = [f"```javascript\n{r.source}\n```" for r in batch] + [ENDLESS] * LOOPS
    prompts = [r.prompt for r in batch] + [batch[0].prompt] * LOOPS
    # One browser per sketch, so that every loop runs from the start beside the references.
    render = RenderConfig(deadline_s=DEADLINE_S, pool_size=len(replies))
    cap_s = DEADLINE_S * render.max_wall_factor
    with SketchRenderer(render) as renderer:
        # What is under test is the clock's charge, not the scorer: a reference earns a reward
        # from any of them, and reading the pictures for text is what scoring costs most.
        evaluator = reading_nothing(renderer)
        rollouts = evaluator.evaluate_sync(replies, prompts, seeds=list(range(len(replies))))
    references, loops = rollouts[: len(batch)], rollouts[len(batch) :]
    outcomes = [
        (loop.status.value, loop.render and round(loop.render.elapsed_ms / 1000, 1))
        for loop in loops
    ]
    for k, loop in enumerate(loops):
        # The escape: `None` instead of the timeout penalty.
        assert loop.status.value == RenderStatus.TIMEOUT.value, (k, outcomes)
        assert loop.reward.reward is not None, (k, loop.reward)
    for name, rollout in zip(BATCH, references, strict=True):
        render = rollout.render
        seen = render and (render.status.value, round(render.elapsed_ms / 1000, 1), render.errors)
        assert rollout.status.value == RenderStatus.OK.value, (name, seen)
        assert rollout.reward.reward is not None, (name, rollout.reward)
    # The case the old rule let through: at the wall cap with its own time under budget.
    at_cap = sum(
        1
        for loop in loops
        if loop.render is not None and loop.render.elapsed_ms >= 0.95 * cap_s * 1000
    )
    print(f"{at_cap} of {LOOPS} endless loops reached the wall cap: {outcomes}")
    if at_cap == 0:
        pytest.skip(f"the load never held a loop back to the wall cap: {outcomes}")
