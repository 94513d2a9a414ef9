"""Queue time and render time are reported apart: a sketch is not blamed for the pool's load.

Measured before the split: one sketch reported 2,928 ms behind a full batch and 214 ms first in
line, and the policy's feedback quoted the larger number. With one browser and three sketches
submitted at once, two must wait for the browser; that wait is ``queue_ms``, not ``render_ms``.
"""

from __future__ import annotations

import pytest

from sketch_env import RenderConfig, SketchRenderer
from sketch_env.evaluation import Evaluator
from sketch_env.rollout.gallery import render_gallery
from sketch_env.trl.metrics import batch_metrics
from tests.conftest import GOOD_SKETCH, HOSTILE_DEADLINE_S, require_chromium


@pytest.fixture(scope="module")
def one_browser():
    require_chromium()
    with SketchRenderer(RenderConfig(pool_size=1, deadline_s=HOSTILE_DEADLINE_S)) as renderer:
        yield renderer


def test_waiting_for_a_browser_is_queue_time(one_browser) -> None:
    renders = one_browser.render_many_sync([GOOD_SKETCH] * 3, seeds=[0, 1, 2])
    assert all(r.status.has_picture for r in renders)
    for r in renders:
        assert r.queue_ms >= 0 and r.render_ms > 0
        assert r.elapsed_ms == pytest.approx(r.queue_ms + r.render_ms)
        assert r.to_dict()["queue_ms"] == r.queue_ms
        assert r.to_dict()["render_ms"] == r.render_ms
    by_wait = sorted(renders, key=lambda r: r.queue_ms)
    # The last in line waited for (at least most of) the two renders ahead of it.
    assert by_wait[-1].queue_ms > 0.5 * by_wait[0].render_ms
    assert by_wait[-1].queue_ms > by_wait[0].queue_ms
    # A lone render does not wait.
    alone = one_browser.render_sync(GOOD_SKETCH, seed=4)
    assert alone.queue_ms < alone.render_ms


def test_metrics_and_gallery_quote_both_and_the_feedback_neither(one_browser) -> None:
    evaluator = Evaluator(one_browser, "heuristic")
    rollouts = evaluator.evaluate_sync([GOOD_SKETCH] * 3, ["a red square"] * 3, [5, 6, 7])
    queued = max(rollouts, key=lambda r: r.render.queue_ms if r.render else 0.0)
    assert queued.render is not None and queued.render.queue_ms >= 1.0
    # The feedback is part of the observation, a pure function of (task, seed, action): no
    # wall time of any kind, which differs on every replay (issue 29).
    text = queued.feedback()
    assert text.startswith("Render: ok.")
    for ms in (queued.render.render_ms, queued.render.queue_ms, queued.render.elapsed_ms):
        assert f"{ms:.0f} ms" not in text
    assert " ms" not in text and "waiting for a free browser" not in text

    metrics = batch_metrics(rollouts)
    renders = [r.render for r in rollouts if r.render is not None]
    assert metrics["sketch/queue_ms"] == pytest.approx(sum(r.queue_ms for r in renders) / 3)
    assert metrics["sketch/render_ms"] == pytest.approx(sum(r.render_ms for r in renders) / 3)

    records = [{"n": i, "id": f"r{i}", **r.to_dict()} for i, r in enumerate(rollouts)]
    page = render_gallery(records)
    assert "Queue ms" in page and "Render ms" in page
    assert f'data-queue="{queued.render.queue_ms!r}"' in page
    assert f'data-ms="{queued.render.render_ms!r}"' in page
