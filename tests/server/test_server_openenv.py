"""The server as OpenEnv's own tools see it, over a real loopback socket: ``AutoEnv``
discovery, ``GenericEnvClient``, the stateless HTTP ``/step``, MCP tools."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from openenv import AutoEnv
from openenv.auto._discovery import get_discovery, reset_discovery
from openenv.core import GenericEnvClient
from openenv.core.mcp_client import MCPToolClient
from openenv.validation.graders import Subject
from openenv.validation.graders.runtime.basic import (
    ObservationSchemaGrader,
    RewardWellFormedGrader,
    StateContractGrader,
)
from openenv.validation.parsers.openenv_yaml import OpenEnvYamlParser
from openenv.validation.runtime.collector import collect_runtime_evidence
from openenv.validation.runtime.contracts import load_runtime_plan
from openenv.validation.types import CheckStatus

from sketch_env.catalog.tasks import load_tasks, task_for_seed
from sketch_env.server.client import SketchEnvClient
from tests.conftest import GOOD_SKETCH, require_chromium
from tests.server.serving import Server, running_server

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    require_chromium()
    log = tmp_path_factory.mktemp("openenv") / "server.log"
    with running_server(
        log, "--pool-size", "2", "--deadline", "20", "--log-level", "warning"
    ) as running:
        yield running


@pytest.fixture
def fresh_discovery(tmp_path, monkeypatch) -> Iterator[None]:
    # AutoEnv caches discovery in $XDG_CACHE_HOME/openenv; a private cache keeps a stale entry
    # from a developer's machine out of the test (and the test's out of theirs).
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    reset_discovery()
    yield
    reset_discovery()


# ----------------------------------------------------------------- discovery


def test_autoenv_discovers_the_installed_package(fresh_discovery):
    # The wheel also carries the manifest inside the package (tests/system/test_packaging.py checks
    # discovery reads it there); a checkout has it at the root, and discovery falls back to
    # the package-name convention, which these names follow.
    info = get_discovery().get_environment_by_name("sketch")
    assert info is not None
    assert info.package_name == "openenv-sketch-env"
    assert info.client_module_path == "sketch_env.client"
    assert info.get_client_class() is SketchEnvClient
    assert info.get_action_class().__name__ == "SketchAction"
    assert info.get_observation_class().__name__ == "SketchObservation"


def test_autoenv_from_env_drives_a_real_server(server, fresh_discovery):
    env = AutoEnv.from_env("sketch", base_url=server.url)
    assert isinstance(env, SketchEnvClient)
    client = env.sync()
    try:
        first = client.reset(seed=7)
        assert first.observation.prompt
        result = client.step(GOOD_SKETCH)
    finally:
        client.close()
    assert result.done and isinstance(result.reward, float)
    assert result.observation.render_status == "ok"


def test_generic_env_client_plays_an_episode_with_plain_dicts(server):
    client = GenericEnvClient(base_url=server.url).sync()
    try:
        first = client.reset(seed=7)
        result = client.step({"sketch": GOOD_SKETCH})
        state = client.state()
    finally:
        client.close()
    assert first.observation["seed"] == 7
    assert result.observation["render_status"] == "ok"
    assert isinstance(result.reward, float) and result.done
    assert state["step_count"] == 1 and state["rewards"] == [result.reward]


# ----------------------------------------------------------------- HTTP /step


def test_http_step_paints_a_one_step_episode_like_the_websocket(server):
    response = httpx.post(
        f"{server.url}/step", json={"action": {"sketch": GOOD_SKETCH}, "seed": 11}, timeout=120
    )
    assert response.status_code == 200, response.text
    body = response.json()
    observation = body["observation"]
    assert body["done"] is True and isinstance(body["reward"], float)
    assert observation["task_id"] == task_for_seed(11, load_tasks()).id
    assert observation["seed"] == 11 and observation["render_status"] == "ok"
    assert observation["components"]["status"] == "ok"
    # The same episode over /ws gives the same typed observation and the same reward.
    client = SketchEnvClient(base_url=server.url).sync()
    try:
        client.reset(seed=11)
        over_ws = client.step(GOOD_SKETCH)
    finally:
        client.close()
    assert set(observation) == set(over_ws.observation.model_dump()) - {"done", "reward"}
    assert body["reward"] == pytest.approx(over_ws.reward)
    assert observation["coverage"] == pytest.approx(over_ws.observation.coverage)


def test_http_step_on_a_named_task_or_prompt_with_the_picture(server):
    named = httpx.post(
        f"{server.url}/step",
        json={"action": {"sketch": GOOD_SKETCH, "include_image": True}, "task_id": "trees/pastel"},
        timeout=120,
    )
    assert named.status_code == 200, named.text
    assert named.json()["observation"]["task_id"] == "trees/pastel"
    assert named.json()["observation"]["image_png_b64"]
    free = httpx.post(
        f"{server.url}/step",
        json={"action": {"sketch": GOOD_SKETCH}, "prompt": "a red kite over dunes", "seed": 2},
        timeout=120,
    )
    assert free.status_code == 200, free.text
    assert free.json()["observation"]["prompt"] == "a red kite over dunes"
    assert free.json()["observation"]["task_id"] is None


def test_http_step_errors_are_4xx_with_the_reason(server):
    def post(body):
        return httpx.post(f"{server.url}/step", json=body, timeout=60)

    unknown = post({"action": {"sketch": GOOD_SKETCH}, "task_id": "flowers/oil"})
    assert unknown.status_code == 422
    assert "unknown task id 'flowers/oil'" in unknown.json()["detail"]["message"]
    both = post({"action": {"sketch": GOOD_SKETCH}, "task_id": "trees/pastel", "prompt": "x"})
    assert both.status_code == 422 and "not both" in both.json()["detail"]["message"]
    for seed in (-1, 2**32, "x", 1.5):
        bad = post({"action": {"sketch": GOOD_SKETCH}, "seed": seed})
        assert bad.status_code == 422, (seed, bad.text)
        assert bad.json()["detail"]["code"] == "VALIDATION_ERROR"
    misspelt = post({"action": {"sktch": GOOD_SKETCH}})
    assert misspelt.status_code == 422
    assert "action.sketch: Field required" in misspelt.json()["detail"]["message"]
    typo = post({"action": {"sketch": GOOD_SKETCH}, "sead": 3})
    assert typo.status_code == 422 and "sead" in typo.json()["detail"]["message"]
    assert post({"seed": 1}).status_code == 422
    # The stateless /reset answers bad input with 422 and the reason too (OpenEnv's: a 500).
    reset = httpx.post(f"{server.url}/reset", json={"task_id": "flowers/oil"}, timeout=60)
    assert reset.status_code == 422
    assert "unknown task id 'flowers/oil'" in reset.json()["detail"]["message"]
    option = httpx.post(f"{server.url}/reset", json={"colour": "red"}, timeout=60)
    assert option.status_code == 422 and "unknown reset options" in option.text
    fine = httpx.post(f"{server.url}/reset", json={"task_id": "trees/pastel"}, timeout=60)
    assert fine.status_code == 200 and fine.json()["observation"]["task_id"] == "trees/pastel"


def test_http_errors_quote_an_excerpt_not_a_5_mb_action(server):
    huge = "y" * (5 * 1024 * 1024)
    for body in (
        {"action": {"sketch": huge}},  # over SketchAction's length limit
        {"action": {"sketch": GOOD_SKETCH}, "note": huge},  # an unknown field
        {"actoin": {"sketch": huge}},  # the action missing: the whole body is the input
    ):
        response = httpx.post(f"{server.url}/step", json=body, timeout=120)
        assert response.status_code == 422
        assert len(response.content) < 4096, (list(body), len(response.content))
        assert "characters]" in response.text
    # OpenEnv's /reset goes through the same capping.
    reset = httpx.post(f"{server.url}/reset", json={"seed": huge}, timeout=60)
    assert reset.status_code == 422 and len(reset.content) < 4096


# ----------------------------------------------------------------- MCP


def test_mcp_tools_through_openenvs_own_tool_client(server):
    async def scenario():
        async with MCPToolClient(base_url=server.url) as client:
            tools = {tool.name: tool for tool in await client.list_tools()}
            rendered = await client.call_tool("render", sketch=GOOD_SKETCH, seed=3)
            refused = await client.call_tool("render", sketch="I forgot the code")
            painted = await client.call_tool("paint", sketch=GOOD_SKETCH, seed=11)
            return tools, rendered, refused, painted

    tools, rendered, refused, painted = asyncio.run(scenario())
    assert set(tools) == {"render", "paint"}
    assert tools["paint"].input_schema["required"] == ["sketch"]
    assert rendered["gate_passed"] and rendered["render_status"] == "ok"
    assert rendered["coverage"] > 0.05
    assert base64.b64decode(rendered["image_png_b64"]).startswith(b"\x89PNG")
    assert refused["gate_passed"] is False and refused["gate_reasons"]
    assert painted["done"] is True and isinstance(painted["reward"], float)
    assert painted["observation"]["task_id"] == task_for_seed(11, load_tasks()).id


def test_mcp_over_plain_json_rpc_and_its_errors(server):
    def call(method, params=None, request_id=1):
        body = {"jsonrpc": "2.0", "method": method, "params": params or {}, "id": request_id}
        response = httpx.post(f"{server.url}/mcp", json=body, timeout=120)
        assert response.status_code == 200
        return response.json()

    listed = call("tools/list")
    assert sorted(t["name"] for t in listed["result"]["tools"]) == ["paint", "render"]
    painted = call("tools/call", {"name": "paint", "arguments": {"sketch": GOOD_SKETCH}})
    assert painted["result"]["observation"]["render_status"] == "ok"
    bad_seed = call("tools/call", {"name": "paint", "arguments": {"sketch": "x", "seed": -3}})
    assert "seed must be an integer" in bad_seed["error"]["message"]
    unknown = call("tools/call", {"name": "step", "arguments": {}})
    assert "Tool not found: step" in unknown["error"]["message"]
    huge = call("tools/call", {"name": "render", "arguments": {"sketch": "z" * 5_000_000}})
    assert "at most" in huge["error"]["message"] and len(json.dumps(huge)) < 4096


# ----------------------------------------------------------------- openenv validate, runtime


def test_openenv_runtime_graders_pass_on_the_manifests_own_plan(server, tmp_path):
    # `openenv validate --level runtime` builds the Dockerfile and starts the container with
    # Docker, which this machine may lack; everything after the start runs here, with
    # openenv's own code: the manifest's runtime plan is played over /ws of the real server
    # and graded by openenv's runtime graders.
    manifest = OpenEnvYamlParser().parse(REPO)
    assert manifest.manifest_schema_version == "2"
    plan = load_runtime_plan(REPO, manifest.execution)
    evidence = collect_runtime_evidence(
        server.url, plan, episode_timeout_s=manifest.resources.episode_timeout_s
    )
    assert evidence.failure_reason is None, evidence.failure_reason
    subject = Subject(
        root=REPO,
        manifest=manifest,
        image_ref=None,
        running=None,
        outputs_dir=tmp_path,
        runtime_evidence=evidence,
    )
    for grader in (RewardWellFormedGrader(), ObservationSchemaGrader(), StateContractGrader()):
        result = grader.run(subject)
        assert result.status is CheckStatus.PASS, (grader.check_id, result.evidence)
    # The tools the manifest declares are the tools /mcp lists.
    listed = httpx.post(
        f"{server.url}/mcp", json={"jsonrpc": "2.0", "method": "tools/list", "id": 1}, timeout=60
    ).json()
    declared = manifest.capabilities.declared_tools
    assert sorted(declared) == sorted(t["name"] for t in listed["result"]["tools"])
