"""`SketchEnvironment` with the real renderer (the shared two-browser test pool)."""

from __future__ import annotations

import asyncio
import base64

import pytest

from sketch_env.catalog.tasks import load_tasks
from sketch_env.env import (
    EpisodeError,
    SketchAction,
    SketchEnvironment,
    UnknownTaskError,
    task_for_seed,
)
from sketch_env.scoring.spec import DEFAULT_SCORER
from tests.conftest import GOOD_SKETCH

#: Throws after painting a fill: the render is ``unfinished`` with the error reported.
THROWING_SKETCH = """
function setup() {
  createCanvas(200, 200, WEBGL);
  background(250);
  translate(-width / 2, -height / 2);
  brush.noStroke();
  brush.fill('#3060a0', 200);
  brush.rect(20, 20, 120, 120);
  undefinedHelper();
}
"""

FENCED_GOOD = f"Here is my painting:\n```javascript\n{GOOD_SKETCH}```\n"


@pytest.fixture
def env(renderer):
    environment = SketchEnvironment(renderer=renderer)
    yield environment
    environment.close()


def test_single_turn_episode(env, renderer):
    obs = env.reset(seed=11)
    task = task_for_seed(11)
    assert (obs.task_id, obs.prompt, obs.seed, obs.step, obs.done) == (
        task.id,
        task.prompt,
        11,
        0,
        False,
    )
    assert "p5.brush" in obs.instructions and obs.reward is None
    obs = env.step(SketchAction(sketch=FENCED_GOOD))
    assert obs.done and obs.terminated and not obs.truncated
    assert isinstance(obs.reward, float) and obs.reward == obs.step_reward
    assert obs.gate_passed is True and obs.gate_reasons == []
    assert obs.render_status == "ok" and obs.js_errors == []
    assert obs.coverage > 0.05 and obs.elapsed_ms is None  # timings only when asked for
    assert obs.backend == renderer.backend and (obs.width, obs.height) == (600, 600)
    assert obs.scorer == DEFAULT_SCORER and obs.score is not None
    assert obs.components.status == "ok"
    assert sum(obs.components.contributions.values()) == pytest.approx(obs.reward)
    # The policy reads the feedback: no score or reward in it unless asked for.
    assert "Reward:" not in obs.feedback and "Score" not in obs.feedback
    assert obs.image_png_b64 is None
    state = env.state
    assert state.step_count == 1 and state.done and state.rewards == [obs.reward]
    with pytest.raises(EpisodeError, match="episode is done"):
        env.step(GOOD_SKETCH)


def test_step_before_reset_and_after_close_are_clear_errors(renderer):
    env = SketchEnvironment(renderer=renderer)
    with pytest.raises(EpisodeError, match=r"before reset\(\)"):
        env.step(GOOD_SKETCH)
    env.close()
    with pytest.raises(EpisodeError, match="closed"):
        env.reset(seed=1)
    with pytest.raises(EpisodeError, match="closed"):
        env.step(GOOD_SKETCH)


def test_gate_failure_and_sketch_error_are_reported(env):
    env.reset(seed=1, max_steps=2)
    obs = env.step("I would paint a tree but I have no code.")
    assert obs.reward == -1.0 and obs.gate_passed is False and obs.render_status is None
    assert obs.gate_reasons and obs.gate_codes and obs.components.status == "gate_failed"
    assert "not run" in obs.feedback and "revise 1 more" in obs.feedback and not obs.done
    obs = env.step(THROWING_SKETCH)
    assert obs.render_status == "unfinished"
    assert any("undefinedHelper" in e for e in obs.js_errors), obs.js_errors
    assert obs.sketch_error and obs.components.status == "sketch_error"
    assert obs.done and obs.truncated and not obs.terminated


def test_multi_turn_reward_policies(renderer):
    best = SketchEnvironment(renderer=renderer, max_steps=3, reward_policy="best")
    best.reset(task_id="flowers/pastel", seed=4)
    first = best.step("no code")
    good = best.step(GOOD_SKETCH)
    last = best.step("still no code")
    assert first.reward == -1.0 and good.reward > -1.0
    assert last.step_reward == -1.0 and last.reward == good.step_reward == last.best_reward
    assert last.done and last.truncated and best.state.episode_reward == good.step_reward

    lastp = SketchEnvironment(renderer=renderer, max_steps=3, reward_policy="last")
    lastp.reset(task_id="flowers/pastel", seed=4)
    lastp.step("no code")
    ended = lastp.step(SketchAction(sketch="nothing", final=True))
    assert ended.done and ended.terminated and ended.reward == -1.0 and ended.step == 2


def test_feedback_policy_hides_scores_unless_asked_and_can_critique(renderer):
    # One feedback policy for every front end: scores only on request; a critique instead of
    # a report; the revision hint while revisions remain.
    shown = SketchEnvironment(renderer=renderer, max_steps=2, show_scores=True)
    shown.reset(task_id="flowers/pastel", seed=4)
    report = shown.step(GOOD_SKETCH).feedback
    assert f"Reward: {shown.state.last_reward:.3f}." in report
    assert f"Score ({DEFAULT_SCORER})" in report
    assert "You may revise 1 more time(s)" in report
    critic = SketchEnvironment(renderer=renderer, feedback="critique", revision_hint=None)
    critic.reset(task_id="flowers/pastel", seed=4)
    critique = critic.step("function setup() { createCanvas(600, 600, WEBGL); }").feedback
    assert critique.startswith("The sketch was refused") and "Reward" not in critique
    with pytest.raises(ValueError, match="feedback"):
        SketchEnvironment(renderer=renderer, feedback="scores")


def test_reset_choices_and_bad_input(env):
    assert env.reset(seed=5).task_id == env.reset(seed=5).task_id == task_for_seed(5).id
    assert env.reset(task_id="trees/pastel").task_id == "trees/pastel"
    free = env.reset(prompt="a red door in the rain", seed=2)
    assert free.task_id is None and free.prompt == "a red door in the rain"
    drawn = env.reset()
    assert 0 <= drawn.seed < 2**32 and env.state.seed == drawn.seed
    with pytest.raises(UnknownTaskError, match="unknown task id"):
        env.reset(task_id="flowers/oil")
    for bad in (-1, 2**32, True, 1.5, "3"):
        with pytest.raises(ValueError, match="seed must be an integer"):
            env.reset(seed=bad)
    with pytest.raises(ValueError, match="not both"):
        env.reset(prompt="x", task_id="trees/pastel")
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(seed=1, colour="red")
    with pytest.raises(ValueError, match="non-empty"):
        env.reset(prompt="   ")
    with pytest.raises(ValueError, match="max_steps"):
        env.reset(max_steps=0)
    with pytest.raises(TypeError):
        env.step(42)
    with pytest.raises(ValueError):
        SketchEnvironment(reward_policy="mean")


def test_sync_step_inside_a_running_loop_and_step_async(env):
    async def inside_loop():
        env.reset(seed=3)
        sync_obs = env.step(GOOD_SKETCH)  # blocks this loop, but must not deadlock
        env.reset(seed=3)
        async_obs = await env.step_async(SketchAction(sketch=GOOD_SKETCH, include_image=True))
        return sync_obs, async_obs

    sync_obs, async_obs = asyncio.run(inside_loop())
    assert sync_obs.render_status == async_obs.render_status == "ok"
    # Same sketch, same seed, same backend: the same picture and reward.
    assert sync_obs.reward == pytest.approx(async_obs.reward)
    png = base64.b64decode(async_obs.image_png_b64)
    assert png.startswith(b"\x89PNG") and png == env.last_rollout.render.png_at((256, 256))
    assert (async_obs.image_width, async_obs.image_height) == (256, 256)


def test_concurrent_sessions_share_the_pool_and_close_leaves_it_open(renderer):
    envs = [SketchEnvironment(renderer=renderer) for _ in range(3)]

    async def episode(e, seed):
        e.reset(seed=seed)
        return await e.step_async(GOOD_SKETCH)

    async def all_of_them():
        return await asyncio.gather(*(episode(e, i) for i, e in enumerate(envs)))

    results = asyncio.run(all_of_them())
    assert [r.render_status for r in results] == ["ok"] * 3
    assert len({e.state.episode_id for e in envs}) == 3
    for e in envs:
        e.close()
    # Closing sessions never closes the (shared) renderer.
    after = SketchEnvironment(renderer=renderer)
    after.reset(seed=0)
    assert after.step(GOOD_SKETCH).render_status == "ok"


def test_one_session_refuses_overlapping_steps(env):
    env.reset(seed=1, max_steps=3)

    async def overlap():
        return await asyncio.gather(
            env.step_async(GOOD_SKETCH), env.step_async(GOOD_SKETCH), return_exceptions=True
        )

    first, second = asyncio.run(overlap())
    assert first.render_status == "ok"
    assert isinstance(second, EpisodeError) and "still running" in str(second)
    assert env.state.step_count == 1


def test_task_api(env):
    assert env.list_splits() == ["train"]
    count = len(load_tasks())
    assert env.num_tasks("train") == count and len(env.list_tasks("train")) == count
    assert env.get_task("train", 0)["id"] == "flowers/watercolour"
    assert [t["id"] for t in env.get_task_range("train", 0, 2)] == [
        "flowers/watercolour",
        "flowers/charcoal",
    ]
    with pytest.raises(IndexError):
        env.get_task("train", count)
    with pytest.raises(ValueError, match="unknown split"):
        env.num_tasks("test")
    assert env.get_metadata().name == "sketch_env"
