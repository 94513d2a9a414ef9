"""The OpenEnv server, for real: uvicorn in a subprocess on a loopback port, driven through the
typed client, raw WebSockets and HTTP; and ``openenv validate``, static and at runtime."""

from __future__ import annotations

import asyncio
import base64
import io
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path

import httpx
import numpy as np
import pytest
from PIL import Image
from websockets.asyncio.client import connect

from sketch_env.env import SketchAction
from sketch_env.env.models import MAX_IMAGE_B64_CHARS
from sketch_env.scoring import GateConfig, gate_reply
from sketch_env.server.client import SketchEnvClient
from tests.conftest import BARE_SKETCH, GOOD_SKETCH, require_chromium
from tests.server.serving import running_server

REPO = Path(__file__).resolve().parents[2]
MAX_SESSIONS = 8

#: Spins for ~4 s inside setup, so a client can hang up while the server is mid-step.
SLOW_SKETCH = """
function setup() {
  createCanvas(200, 200, WEBGL);
  translate(-width / 2, -height / 2);
  const start = millis();
  while (millis() - start < 4000) {}
  brush.set('HB', '#203060', 1);
  brush.line(10, 10, 190, 190);
}
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    """A real server: 8 sessions, a two-browser pool, a 10 s render deadline."""
    require_chromium()
    log = tmp_path_factory.mktemp("server") / "server.log"
    with running_server(
        log,
        "--pool-size",
        "2",
        "--deadline",
        "10",
        "--log-level",
        "warning",
        env={"SKETCH_ENV_MAX_SESSIONS": str(MAX_SESSIONS)},
    ) as running:
        yield running.url


def _openenv() -> list[str]:
    # OpenEnv's own validation must pass with this package's grader installed, as it is
    # wherever the package is (the wheel's entry point is checked in
    # tests/rewardcheck/test_adversarial_floor.py).
    installed = entry_points(group="openenv.validation.graders")
    assert any(ep.value.startswith("sketch_env.") for ep in installed), list(installed)
    exe = shutil.which("openenv")
    return [exe] if exe else [sys.executable, "-m", "openenv.cli"]


def test_openenv_validate_static_on_the_repo():
    out = subprocess.run(
        [*_openenv(), "validate", str(REPO), "--level", "static", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    report = json.loads(out.stdout)
    assert report["verdict"] == "pass", report


def test_openenv_validate_runtime_against_the_running_server(server):
    out = subprocess.run(
        [*_openenv(), "validate", "--url", server, "--json", "--timeout", "30"],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    report = json.loads(out.stdout)
    assert report["passed"] is True, report
    assert report["mode"] == "simulation"


def test_single_turn_episode_through_the_client(server):
    with SketchEnvClient(base_url=server).sync() as client:
        first = client.reset(seed=9)
        assert first.observation.task_id and first.observation.instructions
        assert first.reward is None and not first.done
        result = client.step(SketchAction(sketch=GOOD_SKETCH, include_image=True))
        obs = result.observation
        assert result.done and isinstance(result.reward, float)
        assert obs.render_status == "ok" and obs.gate_passed and obs.coverage > 0.05
        assert obs.components.status == "ok" and obs.image_png_b64
        state = client.state()
        assert state.step_count == 1 and state.done and state.rewards == [result.reward]
        with pytest.raises(RuntimeError, match="episode is done"):
            client.step(GOOD_SKETCH)


def test_the_client_takes_what_the_local_environment_takes(server):
    # One rule on both sides (tests/env/test_action_rule.py): a dict of action fields steps.
    from tests.env.test_action_rule import REFUSED_SKETCH

    reasons = []
    for action in (SketchAction(sketch=REFUSED_SKETCH), REFUSED_SKETCH, {"sketch": REFUSED_SKETCH}):
        with SketchEnvClient(base_url=server).sync() as client:
            client.reset(seed=4)
            result = client.step(action)
            assert result.reward == -1.0 and result.done
            reasons.append(result.observation.gate_reasons)
    assert reasons[0] == reasons[1] == reasons[2] and any("text(" in r for r in reasons[0])


def test_multi_turn_episode_returns_pictures_only_when_asked(server):
    with SketchEnvClient(base_url=server).sync() as client:
        client.reset(task_id="flowers/pastel", seed=4, max_steps=4)
        looked = client.step(SketchAction(sketch=BARE_SKETCH, include_image=True))
        obs = looked.observation
        assert not looked.done and obs.render_status == "ok"
        assert obs.image_png_b64 and (obs.image_width, obs.image_height) == (256, 256)
        assert len(obs.image_png_b64) <= MAX_IMAGE_B64_CHARS
        picture = Image.open(io.BytesIO(base64.b64decode(obs.image_png_b64)))
        assert picture.format == "PNG" and picture.size == (256, 256) and picture.mode == "RGB"
        # A refused sketch painted nothing: no picture even when asked.
        refused = client.step(SketchAction(sketch="no code", include_image=True)).observation
        assert refused.image_png_b64 is None and refused.image_width is None
        # Text only (the server's default): no picture.
        text_only = client.step(GOOD_SKETCH).observation
        assert text_only.render_status == "ok" and text_only.image_png_b64 is None
        revised = client.step(SketchAction(sketch=GOOD_SKETCH, include_image=True))
        assert revised.done and revised.observation.truncated
        again = base64.b64decode(revised.observation.image_png_b64)
        assert np.asarray(Image.open(io.BytesIO(again))).std() > np.asarray(picture).std()


def test_multi_turn_episode_through_the_client(server):
    with SketchEnvClient(base_url=server).sync() as client:
        client.reset(task_id="seascape/pastel", seed=3, max_steps=2)
        first = client.step("I forgot the code")
        assert not first.done and first.reward == -1.0
        assert first.observation.gate_reasons and "revise 1 more" in first.observation.feedback
        second = client.step(GOOD_SKETCH)
        assert second.done and second.observation.truncated
        assert second.reward == second.observation.step_reward > -1.0


def test_eight_concurrent_sessions_then_capacity_error(server):
    async def scenario():
        clients = [SketchEnvClient(base_url=server) for _ in range(MAX_SESSIONS)]
        for c in clients:
            await c.connect()
        try:

            async def episode(client, seed):
                await client.reset(seed=seed)
                return await client.step(GOOD_SKETCH)

            results = await asyncio.gather(*(episode(c, i) for i, c in enumerate(clients)))
            states = await asyncio.gather(*(c.state() for c in clients))
            # A ninth session is refused while eight are open...
            extra = SketchEnvClient(base_url=server)
            with pytest.raises(RuntimeError, match="CAPACITY_REACHED"):
                await extra.reset(seed=0)
            await extra.close()
        finally:
            for c in clients:
                await c.close()
        # ...and served once they are gone.
        async with SketchEnvClient(base_url=server) as later:
            again = await later.reset(seed=1)
        return results, states, again

    results, states, again = asyncio.run(scenario())
    assert [r.observation.render_status for r in results] == ["ok"] * MAX_SESSIONS
    assert all(isinstance(r.reward, float) for r in results)
    assert len({s.episode_id for s in states}) == MAX_SESSIONS
    assert again.observation.prompt


def test_bad_reset_input_gets_clear_errors_and_the_session_survives(server):
    with SketchEnvClient(base_url=server).sync() as client:
        with pytest.raises(RuntimeError, match="step\\(\\) before reset\\(\\)"):
            client.step(GOOD_SKETCH)
        with pytest.raises(RuntimeError, match="unknown task id 'flowers/oil'"):
            client.reset(task_id="flowers/oil")
        with pytest.raises(RuntimeError, match="seed must be an integer"):
            client.reset(seed=-5)
        with pytest.raises(RuntimeError, match="unknown reset options"):
            client.reset(seed=1, colour="red")
        assert client.reset(task_id="trees/charcoal", seed=1).observation.task_id == (
            "trees/charcoal"
        )
    # Over stateless HTTP, OpenEnv's own request model refuses a negative seed (422).
    response = httpx.post(f"{server}/reset", json={"seed": -1}, timeout=30)
    assert response.status_code == 422


def test_malformed_messages_over_the_wire(server):
    async def scenario():
        ws_url = server.replace("http://", "ws://") + "/ws"
        async with connect(ws_url, max_size=None) as ws:
            replies = []
            for message in (
                "{not json",
                json.dumps({"type": "dance"}),
                json.dumps({"type": "step", "data": {"sktch": "x"}}),
                json.dumps({"type": "step", "data": {"sketch": 12}}),
                json.dumps({"type": "reset", "data": {"seed": 4}}),
            ):
                await ws.send(message)
                replies.append(json.loads(await ws.recv()))
            return replies

    replies = asyncio.run(scenario())
    assert [r["type"] for r in replies] == ["error"] * 4 + ["observation"]
    assert replies[0]["data"]["code"] == "INVALID_JSON"
    assert replies[1]["data"]["code"] == "UNKNOWN_TYPE"
    assert replies[2]["data"]["code"] == replies[3]["data"]["code"] == "VALIDATION_ERROR"
    assert replies[4]["data"]["observation"]["seed"] == 4
    response = httpx.post(f"{server}/step", json={"action": {"sktch": "x"}}, timeout=30)
    assert response.status_code == 422


def test_client_that_disconnects_mid_step_does_not_hurt_the_server(server):
    # The slow sketch must pass the gate, or the "step" would be over before the hang-up.
    assert gate_reply(SLOW_SKETCH, GateConfig()).passed

    async def hang_up():
        ws_url = server.replace("http://", "ws://") + "/ws"
        async with connect(ws_url) as ws:
            await ws.send(json.dumps({"type": "reset", "data": {"seed": 1}}))
            await ws.recv()
            await ws.send(json.dumps({"type": "step", "data": {"sketch": SLOW_SKETCH}}))
            await asyncio.sleep(0.5)
        # Leaving the block closes the socket while the server is still rendering.

    asyncio.run(hang_up())
    with SketchEnvClient(base_url=server).sync() as client:
        client.reset(seed=2)
        result = client.step(GOOD_SKETCH)
    assert result.observation.render_status == "ok"
    assert httpx.get(f"{server}/health", timeout=10).json()["status"] == "healthy"
