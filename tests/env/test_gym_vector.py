"""The gymnasium adapter in gymnasium's own vector environments, sync and async.

Real ``gymnasium.make_vec`` over real browsers: the async workers are processes of their own,
each with its own one-browser pool, and the observations come back through gymnasium's shared
memory (its default), which once turned every prompt into 4,096 ``'0'`` characters.
"""

from __future__ import annotations

import copy

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from sketch_env import EvaluationConfig, RenderConfig
from sketch_env.catalog.tasks import load_tasks
from sketch_env.env import ENV_ID
from sketch_env.env.gym import UnicodeText
from tests.conftest import GOOD_SKETCH, require_chromium

#: Each async worker renders in its own process: one browser each keeps two workers on two
#: cores from starting four.
ONE_BROWSER = EvaluationConfig(render=RenderConfig(pool_size=1, deadline_s=20.0, max_frames=20))
#: A prompt outside printable ASCII: gymnasium's own ``Text`` path cannot even write it.
WIDE_PROMPT = "a café at dusk, ☀ low over the roofs — 画"
PROMPTS = {task.prompt for task in load_tasks()}


def _vector(mode: str, **vector_kwargs: object) -> gymnasium.vector.VectorEnv:
    return gymnasium.make_vec(
        ENV_ID, 2, vectorization_mode=mode, vector_kwargs=vector_kwargs, config=ONE_BROWSER
    )


def test_shared_memory_round_trip_of_the_prompt_space() -> None:
    # The space's own shared-memory path, as AsyncVectorEnv drives it, without processes.
    from gymnasium.vector.utils import (
        create_shared_memory,
        read_from_shared_memory,
        write_to_shared_memory,
    )

    space = UnicodeText(16)
    memory = create_shared_memory(space, n=3)
    view = read_from_shared_memory(space, memory, n=3)  # read once, as AsyncVectorEnv does
    assert tuple(view) == ("", "", "")  # nothing written yet: empty, not sixteen '0's
    write_to_shared_memory(space, 0, "café ☀", memory)
    write_to_shared_memory(space, 2, "x" * 16, memory)
    # The view made before the writes sees them: the observation buffer is that view.
    assert tuple(view) == ("café ☀", "", "x" * 16)
    write_to_shared_memory(space, 2, "\x00 kept", memory)
    assert view[2] == "\x00 kept" and view[-1] == "\x00 kept" and len(view) == 3
    # What a caller gets (AsyncVectorEnv deep-copies by default) is a plain tuple.
    snapshot = copy.deepcopy(view)
    assert type(snapshot) is tuple and snapshot == ("café ☀", "", "\x00 kept")
    assert space.contains(snapshot[0]) and gymnasium.vector.utils.batch_space(space, 3).contains(
        snapshot
    )
    with pytest.raises(ValueError, match="longer than the space's 16"):
        write_to_shared_memory(space, 1, "y" * 17, memory)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_prompts_survive_reset_step_and_autoreset(mode: str) -> None:
    require_chromium()
    envs = _vector(mode)  # shared_memory=True is AsyncVectorEnv's default
    try:
        obs, info = envs.reset(seed=[3, 4])
        assert all(p in PROMPTS for p in obs["prompt"]), obs["prompt"]
        assert list(info["task_id"]) and info["seed"].tolist() == [3, 4]

        obs, reward, terminated, truncated, info = envs.step([GOOD_SKETCH, "no sketch"])
        assert terminated.tolist() == [True, True] and not truncated.any()
        assert all(p in PROMPTS for p in obs["prompt"]), obs["prompt"]
        # The sketch paints and is scored (the default scorer may judge a red square with a
        # line worth nothing under the task's prompt: 0, never the failures' -1 or less).
        assert reward[0] >= 0 and reward[1] == -1.0
        assert info["render_status"][0] == "ok" and info["reward_valid"].all()
        assert obs["image"][0].std() > 5 and obs["gate_passed"].tolist() == [1, 0]

        # NEXT_STEP, gymnasium's default: this step only resets (the actions are ignored).
        obs, reward, terminated, truncated, info = envs.step([GOOD_SKETCH, GOOD_SKETCH])
        assert reward.tolist() == [0.0, 0.0] and not terminated.any()
        assert all(p in PROMPTS for p in obs["prompt"]), obs["prompt"]
        assert not obs["image"].any()  # a fresh episode: no picture yet

        # A prompt of the caller's own, with characters beyond ASCII, through reset options.
        obs, _ = envs.reset(seed=[5, 6], options={"prompt": WIDE_PROMPT})
        assert list(obs["prompt"]) == [WIDE_PROMPT, WIDE_PROMPT]
        assert envs.observation_space.contains(obs)
    finally:
        envs.close()


def test_same_step_autoreset_scores_every_step() -> None:
    require_chromium()
    envs = _vector("async", autoreset_mode=AutoresetMode.SAME_STEP)
    try:
        envs.reset(seed=[7, 8])
        for _ in range(2):
            obs, reward, terminated, _, info = envs.step([GOOD_SKETCH, GOOD_SKETCH])
            # Every step paints and scores: no step is spent on a reset.
            assert terminated.all() and (reward >= 0).all(), reward
            # The step's own info is under final_info (the top level is the new reset's).
            assert info["final_info"]["reward_valid"].all()
            assert info["final_info"]["render_status"].tolist() == ["ok", "ok"]
            # The episode that ended is in final_obs; obs is already the next episode's.
            final = info["final_obs"]
            assert all(f["image"].std() > 5 for f in final)
            assert all(f["prompt"] in PROMPTS for f in final)
            assert all(p in PROMPTS for p in obs["prompt"]), obs["prompt"]
            assert not obs["image"].any() and np.array_equal(obs["step"], [0, 0])
    finally:
        envs.close()
