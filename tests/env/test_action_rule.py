"""One rule for what a step takes, everywhere, and one name per class.

The local `SketchEnvironment`, the gymnasium adapter and the remote `SketchEnvClient` all take a
`SketchAction`, the reply text, or a dict of `SketchAction` fields, and refuse anything else
with the same message; a malformed dict fails the same validation on each side (the client
before it sends anything). The remote half runs against a real server in
``tests/server/test_server.py``.
"""

from __future__ import annotations

import subprocess
import sys
import warnings

import gymnasium
import pydantic
import pytest

import sketch_env.client
import sketch_env.env
from sketch_env.env import ENV_ID, SketchAction, SketchEnvironment
from sketch_env.env.gym import SketchGymEnv
from sketch_env.env.models import ACTION_RULE, as_action
from sketch_env.server.client import SketchEnvClient
from tests.conftest import GOOD_SKETCH


def test_the_rule_itself() -> None:
    assert as_action("x", "f()") == SketchAction(sketch="x")
    assert as_action({"sketch": "x", "final": True}, "f()") == SketchAction(sketch="x", final=True)
    action = SketchAction(sketch="y")
    assert as_action(action, "f()") is action
    with pytest.raises(pydantic.ValidationError, match="skecth"):
        as_action({"skecth": "x"}, "f()")
    with pytest.raises(TypeError) as refused:
        as_action(123, "f()")
    assert str(refused.value) == f"f() takes {ACTION_RULE}, got int"


#: Refused by the gate for its ``text()`` call, before any browser: each way of passing it
#: must deliver this very sketch, which the identical reasons show, in a second.
REFUSED_SKETCH = GOOD_SKETCH.replace("noLoop();", "text('hello', 20, 20);\n  noLoop();")


def test_local_and_gymnasium_steps_follow_the_rule(renderer) -> None:
    reasons = {}
    for kind, action in (
        ("model", SketchAction(sketch=REFUSED_SKETCH)),
        ("text", REFUSED_SKETCH),
        ("dict", {"sketch": REFUSED_SKETCH}),
    ):
        env = SketchEnvironment(renderer=renderer)
        env.reset(seed=4)
        obs = env.step(action)
        gym_env = SketchGymEnv(renderer=renderer)
        gym_env.reset(seed=4)
        *_, info = gym_env.step(action)  # type: ignore[arg-type]
        assert info["gate_reasons"] == obs.gate_reasons and obs.reward == -1.0
        reasons[kind] = obs.gate_reasons
    assert reasons["model"] == reasons["text"] == reasons["dict"]
    assert any("text(" in r for r in reasons["dict"]), reasons

    env = SketchEnvironment(renderer=renderer)
    env.reset(seed=4)
    with pytest.raises(TypeError) as refused:
        env.step(123)  # type: ignore[arg-type]
    assert str(refused.value) == f"SketchEnvironment.step() takes {ACTION_RULE}, got int"
    with pytest.raises(pydantic.ValidationError, match="skecth"):
        env.step({"skecth": GOOD_SKETCH})
    gym_env = SketchGymEnv(renderer=renderer)
    gym_env.reset(seed=4)
    with pytest.raises(TypeError, match=r"^SketchGymEnv.step\(\) takes a SketchAction"):
        gym_env.step(123)  # type: ignore[arg-type]


def test_the_client_refuses_a_malformed_dict_before_sending() -> None:
    # Port 9 on loopback: nothing listens, so reaching the network would fail differently.
    client = SketchEnvClient(base_url="http://127.0.0.1:9").sync()
    try:
        with pytest.raises(pydantic.ValidationError, match="skecth"):
            client.step({"skecth": GOOD_SKETCH})
        with pytest.raises(TypeError) as refused:
            client.step(123)  # type: ignore[arg-type]
    finally:
        client.close()
    assert str(refused.value) == f"SketchEnvClient.step() takes {ACTION_RULE}, got int"


def test_one_class_per_name() -> None:
    # The gymnasium env and the OpenEnv client are different things with different names.
    assert SketchGymEnv.__name__ == "SketchGymEnv" and issubclass(SketchGymEnv, gymnasium.Env)
    assert sketch_env.env.SketchGymEnv is SketchGymEnv
    assert "SketchEnv" not in sketch_env.env.__all__
    # `SketchEnv` is left only where OpenEnv's AutoEnv looks for it: sketch_env.client.
    assert sketch_env.client.SketchEnv is SketchEnvClient
    assert "SketchEnv" not in dir(sketch_env.server.client)
    env = gymnasium.make(ENV_ID)
    try:
        assert type(env.unwrapped) is SketchGymEnv
    finally:
        env.close()
    # The gymnasium env's old name still imports, with a warning that names the new one.
    for module in (sketch_env.env, sketch_env.env.gym):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert module.SketchEnv is SketchGymEnv  # type: ignore[attr-defined]
        assert any("renamed SketchGymEnv" in str(w.message) for w in caught), module


def test_make_with_module_prefix_builds_the_gymnasium_env() -> None:
    code = (
        "import gymnasium; e = gymnasium.make('sketch_env.env:sketch_env/Sketch-v0'); "
        "print(type(e.unwrapped).__name__)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "SketchGymEnv"
