"""The typed OpenEnv models."""

from __future__ import annotations

import base64
import io

import numpy as np
import pytest
from openenv.core.env_server.types import Action, Observation, State
from PIL import Image
from pydantic import ValidationError

from sketch_env.env.models import (
    MAX_ACTION_CHARS,
    MAX_IMAGE_B64_CHARS,
    MAX_IMAGE_SIDE,
    RewardComponents,
    SketchAction,
    SketchObservation,
    SketchState,
)
from sketch_env.scoring import RewardBreakdown


def test_models_subclass_openenv_bases():
    assert issubclass(SketchAction, Action)
    assert issubclass(SketchObservation, Observation)
    assert issubclass(SketchState, State)


def test_action_refuses_unknown_fields_wrong_types_and_huge_text():
    assert SketchAction(sketch="x").final is False
    with pytest.raises(ValidationError):
        SketchAction(sktch="x")
    with pytest.raises(ValidationError):
        SketchAction(sketch=12)
    with pytest.raises(ValidationError):
        SketchAction()
    with pytest.raises(ValidationError):
        SketchAction(sketch="x" * (MAX_ACTION_CHARS + 1))


def test_observation_has_typed_fields_and_round_trips_through_json():
    breakdown = RewardBreakdown(
        reward=1.5,
        status="ok",
        gate_passed=True,
        contributions=(("preference", 0.5), ("coverage", 1.0)),
        observations=(("preference", 6.0), ("coverage", 0.3), ("coverage_term", 1.0)),
    )
    obs = SketchObservation(
        done=True,
        reward=1.5,
        prompt="a red door",
        step=1,
        step_reward=1.5,
        gate_passed=True,
        render_status="ok",
        js_errors=["TypeError: x"],
        coverage=0.3,
        elapsed_ms=812.0,
        backend="llvmpipe",
        components=RewardComponents.from_breakdown(breakdown),
        feedback="Reward: 1.5",
    )
    again = SketchObservation.model_validate_json(obs.model_dump_json())
    assert again == obs
    assert again.components.contributions == {"preference": 0.5, "coverage": 1.0}
    # The fields the components had before they were generic still read, from observations.
    assert (again.components.coverage_term, again.components.preference) == (1.0, 6.0)
    schema = SketchObservation.model_json_schema()
    for name in (
        "gate_reasons",
        "render_status",
        "js_errors",
        "coverage",
        "elapsed_ms",
        "backend",
        "feedback",
        "image_png_b64",
        "components",
        "step_reward",
    ):
        assert name in schema["properties"], name
    with pytest.raises(ValidationError):
        SketchObservation(prompt="x", unknown_field=1)


def test_state_carries_episode_fields():
    state = SketchState(
        episode_id="e",
        step_count=2,
        task_id="trees/pastel",
        seed=3,
        rewards=[-1.0, None, 2.0],
        best_reward=2.0,
    )
    assert SketchState.model_validate(state.model_dump()) == state
    with pytest.raises(ValidationError):
        SketchState(step_count=-1)


def test_observation_picture_is_bounded():
    # The worst picture the environment can make, noise at the largest side, fits the cap...
    noise = np.random.default_rng(0).integers(0, 256, (MAX_IMAGE_SIDE, MAX_IMAGE_SIDE, 3))
    out = io.BytesIO()
    Image.fromarray(noise.astype(np.uint8)).save(out, format="PNG", optimize=True)
    encoded = base64.b64encode(out.getvalue()).decode("ascii")
    obs = SketchObservation(image_png_b64=encoded, image_width=MAX_IMAGE_SIDE, image_height=1)
    assert obs.image_png_b64 == encoded
    # ... and a client refuses anything longer, or a size out of range.
    with pytest.raises(ValidationError):
        SketchObservation(image_png_b64="A" * (MAX_IMAGE_B64_CHARS + 4))
    with pytest.raises(ValidationError):
        SketchObservation(image_width=MAX_IMAGE_SIDE + 1)
    with pytest.raises(ValidationError):
        SketchObservation(image_height=0)
