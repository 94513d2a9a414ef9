"""The step queue on its own, on a real event loop: places, order, refusals, and the places
of steps cancelled while they wait or run (their clients went away)."""

from __future__ import annotations

import asyncio
import random

import pytest

from sketch_env.server.admission import QueueFullError, StepLimits, StepQueue


async def _hold(queue: StepQueue, started: list[int], index: int, release: asyncio.Event) -> int:
    async with queue.admit():
        started.append(index)
        await release.wait()
    return index


def test_steps_run_up_to_capacity_then_wait_in_order_then_are_refused():
    async def scenario():
        queue = StepQueue(capacity=2, max_queued=2, max_http=8)
        release = asyncio.Event()
        started: list[int] = []
        tasks = [asyncio.create_task(_hold(queue, started, i, release)) for i in range(4)]
        await asyncio.sleep(0.05)
        full = queue.snapshot()
        with pytest.raises(QueueFullError) as refused:
            async with queue.admit():
                pytest.fail("admitted past a full queue")
        release.set()
        await asyncio.gather(*tasks)
        return full, refused.value, started, queue.snapshot()

    full, refused, started, after = asyncio.run(scenario())
    assert (full["in_flight"], full["queued"]) == (2, 2)
    assert refused.limit == "queue" and refused.retry_after_s >= 1
    assert str(refused).startswith("QUEUE_FULL: ")
    assert started == [0, 1, 2, 3]  # first come, first served
    assert (after["in_flight"], after["queued"], after["refused"], after["completed"]) == (
        0,
        0,
        1,
        4,
    )


def test_one_step_episodes_have_their_own_limit():
    async def scenario():
        queue = StepQueue(capacity=1, max_queued=8, max_http=1)
        release = asyncio.Event()

        async def http_step() -> None:
            async with queue.admit(http=True):
                await release.wait()

        first = asyncio.create_task(http_step())
        await asyncio.sleep(0.05)
        with pytest.raises(QueueFullError) as refused:
            async with queue.admit(http=True):
                pass
        # A session's step still finds a place in the queue.
        session = asyncio.create_task(_hold(queue, [], 0, release))
        await asyncio.sleep(0.05)
        waiting = queue.snapshot()["queued"]
        release.set()
        await asyncio.gather(first, session)
        return refused.value, waiting

    refused, waiting = asyncio.run(scenario())
    assert refused.limit == "http" and "step in a session on /ws" in str(refused)
    assert waiting == 1


def test_cancelled_steps_give_their_places_back_and_are_counted():
    # Random cancellations of waiting and running steps (a seeded run): every place comes back
    # and every step is counted once, as completed or as cancelled.
    rng = random.Random(7)

    async def scenario():
        queue = StepQueue(capacity=2, max_queued=64, max_http=64)

        async def step() -> None:
            async with queue.admit(http=rng.random() < 0.5):
                await asyncio.sleep(rng.random() * 0.01)

        for _ in range(50):
            tasks = [asyncio.create_task(step()) for _ in range(12)]
            await asyncio.sleep(rng.random() * 0.01)
            for task in rng.sample(tasks, 6):
                task.cancel()
            results = await asyncio.gather(*tasks, return_exceptions=True)
            unexpected = [r for r in results if isinstance(r, Exception)]
            assert not unexpected, unexpected
        return queue.snapshot()

    final = asyncio.run(scenario())
    assert (final["in_flight"], final["queued"], final["http"]) == (0, 0, 0)
    assert final["completed"] + final["cancelled"] == 50 * 12
    assert final["cancelled"] >= 1


def test_the_capacity_can_be_resolved_on_the_first_step():
    async def scenario():
        queue = StepQueue(capacity=None, max_queued=1, max_http=1, resolve_capacity=lambda: 3)
        before = queue.snapshot()["capacity"]
        async with queue.admit():
            during = queue.snapshot()
        return before, during

    before, during = asyncio.run(scenario())
    assert before is None and during["capacity"] == 3 and during["in_flight"] == 1


def test_the_retry_delay_follows_the_step_times_within_bounds():
    async def scenario():
        queue = StepQueue(capacity=1, max_queued=0, max_http=8)
        first = queue.retry_after_s()
        async with queue.admit():
            await asyncio.sleep(0.05)
        return first, queue.retry_after_s(), queue.snapshot()["mean_step_s"]

    first, later, mean = asyncio.run(scenario())
    assert first == 1 and later == 1 and 0.04 < mean < 1.0


@pytest.mark.parametrize(
    "limits",
    [{"capacity": 0}, {"max_queued": -1}, {"max_http": 0}, {"capacity": True}, {"capacity": 1.5}],
)
def test_bad_limits_are_refused(limits):
    with pytest.raises(ValueError, match="must be an integer"):
        StepLimits(**limits)
