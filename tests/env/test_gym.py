"""The gymnasium adapter: registration, ``check_env``, and real episodes."""

from __future__ import annotations

import io
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from PIL import Image

import sketch_env.env
from sketch_env.env import ENV_ID, EpisodeError, SketchEnvironment, SketchGymEnv, UnicodeText
from tests.conftest import GOOD_SKETCH


def test_registered_and_passes_check_env():
    assert ENV_ID in gymnasium.registry
    env = gymnasium.make(ENV_ID, render_mode="rgb_array")
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(env.unwrapped)
        assert not [w for w in caught if "WARN" in str(w.message)], [str(w.message) for w in caught]
    finally:
        env.close()


def test_unicode_text_space():
    space = UnicodeText(100, min_length=0, seed=1)
    assert space.contains("fill('#ff0000') // café ☀ 画")
    assert not space.contains("x" * 101) and not space.contains(b"bytes")
    samples = [space.sample() for _ in range(5)]
    assert all(space.contains(s) for s in samples)
    assert sketch_env.env.SketchGymEnv(render_mode=None).action_space.max_length == 4 * 256 * 1024


def test_real_episode_with_image_and_info(renderer):
    env = SketchGymEnv(render_mode="rgb_array", renderer=renderer)
    obs, info = env.reset(seed=21)
    assert env.observation_space.contains(obs)
    assert info["task_id"] and "p5.brush" in info["instructions"]
    assert not env.render().any()
    obs, reward, terminated, truncated, info = env.step(GOOD_SKETCH)
    assert env.observation_space.contains(obs)
    assert obs["image"].shape == (256, 256, 3) and obs["image"].dtype == np.uint8
    assert terminated and not truncated
    assert reward == pytest.approx(info["step_reward"]) and info["reward_valid"]
    assert info["components"]["status"] == "ok" and info["render_status"] == "ok"
    assert obs["coverage"][0] == pytest.approx(info["coverage"]) and obs["gate_passed"] == 1
    frame = env.render()
    assert np.array_equal(frame, obs["image"]) and frame.std() > 5
    assert env.png().startswith(b"\x89PNG")
    with pytest.raises(EpisodeError):
        env.step(GOOD_SKETCH)
    env.close()


def test_image_agrees_with_the_openenv_observation(renderer):
    # One size for the array, the space and the OpenEnv observation's PNG: the same pixels.
    env = SketchGymEnv(renderer=renderer, image_size=96, max_steps=2)
    assert env.observation_space["image"].shape == (96, 96, 3)
    assert env.core.image_size == (96, 96)
    env.reset(seed=11, options={"include_image": True})
    obs, *_ = env.step(GOOD_SKETCH)
    rollout = env.core.last_rollout
    png = rollout.render.png_at(env.core.image_size)
    decoded = np.asarray(Image.open(io.BytesIO(png)))
    assert np.array_equal(obs["image"], decoded) and obs["image"].std() > 5
    wide = SketchGymEnv(renderer=renderer, image_size=(120, 80))
    assert wide.observation_space["image"].shape == (80, 120, 3)
    with pytest.raises(ValueError, match="disagrees"):
        SketchGymEnv(env=SketchEnvironment(renderer=renderer), image_size=600)
    with pytest.raises(ValueError, match="image_size"):
        SketchGymEnv(image_size=(0, 10))
    with pytest.raises(ValueError, match="image_size"):
        SketchEnvironment(image_size=4096)


def test_multi_turn_return_equals_episode_reward(renderer):
    env = SketchGymEnv(renderer=renderer, max_steps=2, reward_policy="best")
    env.reset(seed=2)
    _, r1, term1, trunc1, _ = env.step("no sketch at all")
    _, r2, term2, trunc2, info = env.step(GOOD_SKETCH)
    assert r1 == -1.0 and not (term1 or trunc1)
    assert trunc2 and not term2
    assert r1 + r2 == pytest.approx(info["episode_reward"])


def test_bad_seed_and_render_mode():
    env = SketchGymEnv()
    with pytest.raises(ValueError, match="seed must be"):
        env.reset(seed=2**40)
    with pytest.raises(ValueError, match="render_mode"):
        SketchGymEnv(render_mode="human")
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(seed=1, options={"difficulty": 3})
