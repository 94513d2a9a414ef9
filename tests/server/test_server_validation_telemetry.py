"""What OpenEnv's next validator reads from a running server, over a real socket: the session
telemetry (seed acceptance, the server's own record), replays that agree, and declarations
(tasks per split, MCP tools) that match what is served.

The facts come from OpenEnv's main branch (``runtime.seed_control``,
``runtime.trajectory_record``, ``runtime.episode_determinism``,
``runtime.task_declaration_accuracy``, ``runtime.tool_declaration_accuracy``); OpenEnv 0.10
has none of these graders, so the checks are written here against the same wire messages.
Replays in two *fresh processes* are in ``test_replay_fresh_processes.py`` (slow).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from openenv.validation.parsers.openenv_yaml import OpenEnvYamlParser
from websockets.sync.client import ClientConnection, connect

from sketch_env.catalog.tasks import load_tasks, task_for_seed
from sketch_env.server.telemetry import VALIDATION_TOKEN_ENV
from tests.conftest import GOOD_SKETCH, SEEDED_SKETCH, require_chromium
from tests.server.serving import Server, running_server

REPO = Path(__file__).resolve().parents[2]
TOKEN = secrets.token_urlsafe(32)


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    require_chromium()
    log = tmp_path_factory.mktemp("telemetry") / "server.log"
    with running_server(
        log,
        "--pool-size",
        "2",
        "--deadline",
        "20",
        "--log-level",
        "warning",
        env={VALIDATION_TOKEN_ENV: TOKEN},
    ) as running:
        yield running


def _ws(server: Server) -> ClientConnection:
    return connect(server.ws_url, open_timeout=30, max_size=16 * 1024 * 1024)


def _exchange(ws: ClientConnection, message: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    ws.send(json.dumps(message))
    raw = ws.recv(timeout=180)
    assert isinstance(raw, str)
    return raw, json.loads(raw)


def _open(ws: ClientConnection) -> str:
    _, reply = _exchange(
        ws, {"type": "validation_open", "data": {"schema_version": 1, "token": TOKEN}}
    )
    assert reply["type"] == "validation_open", reply
    capability = reply["data"]["capability"]
    assert isinstance(capability, str) and 32 <= len(capability) <= 256
    return str(capability)


def _read(ws: ClientConnection, capability: str) -> dict[str, Any]:
    _, reply = _exchange(
        ws, {"type": "validation_read", "data": {"schema_version": 1, "capability": capability}}
    )
    assert reply["type"] == "validation", reply
    return dict(reply["data"])


def _episode(
    ws: ClientConnection, reset: dict[str, Any], sketch: str
) -> list[tuple[dict[str, Any], str]]:
    """reset, state, step, state, as OpenEnv's collector plays a plan: (request, raw reply)."""
    requests = [
        {"type": "reset", "data": reset},
        {"type": "state"},
        {"type": "step", "data": {"sketch": sketch}},
        {"type": "state"},
    ]
    return [(request, _exchange(ws, request)[0]) for request in requests]


# ----------------------------------------------------------------- seed control, record


def test_the_server_records_the_replayed_session_and_the_seed_it_used(server):
    reset = {"seed": 5, "episode_id": "validate-5", "task_id": "trees/pastel"}
    with _ws(server) as ws:
        capability = _open(ws)
        played = _episode(ws, reset, GOOD_SKETCH)
        snapshot = _read(ws, capability)
    assert snapshot["schema_version"] == 1
    assert snapshot["seed"] == {"requested": True, "value": 5, "accepted": True}
    trajectory = snapshot["trajectory"]
    assert trajectory["complete"] is True and trajectory["reason"] is None
    assert trajectory["source"] == "openenv-server" and trajectory["schema_version"] == 1
    # Exactly what went over the wire, in order.
    assert trajectory["records"] == [
        {"operation": request["type"], "request": request, "response": json.loads(raw)}
        for request, raw in played
    ]
    step = json.loads(played[2][1])
    assert step["type"] == "observation" and step["data"]["observation"]["render_status"] == "ok"
    assert snapshot["attribution"] == [{"step_index": 0, "rubric": []}]
    assert snapshot["rubric"] == [] and snapshot["rubric_error"] is None
    assert TOKEN not in json.dumps(snapshot) and capability not in json.dumps(snapshot)


def test_a_changed_seed_is_honoured_and_seen_as_accepted(server):
    # OpenEnv's seed experiment: the same plan with seed + 1 in a new session. A seeded sketch
    # paints differently under another seed, and the seed also picks the task.
    seen = {}
    for seed in (5, 6):
        with _ws(server) as ws:
            capability = _open(ws)
            played = _episode(ws, {"seed": seed, "episode_id": "seeded"}, SEEDED_SKETCH)
            snapshot = _read(ws, capability)
        assert snapshot["seed"] == {"requested": True, "value": seed, "accepted": True}
        first, step, state = (json.loads(raw)["data"] for _, raw in (played[0], *played[2:]))
        assert first["observation"]["seed"] == step["observation"]["seed"] == seed
        assert state["seed"] == seed
        assert first["observation"]["task_id"] == task_for_seed(seed, load_tasks()).id
        seen[seed] = step
    assert seen[5]["observation"]["coverage"] != seen[6]["observation"]["coverage"]


def test_a_reset_without_a_seed_is_reported_as_not_requested(server):
    with _ws(server) as ws:
        capability = _open(ws)
        _exchange(ws, {"type": "reset", "data": {"task_id": "trees/pastel"}})
        assert _read(ws, capability)["seed"] == {
            "requested": False,
            "value": None,
            "accepted": False,
        }


def test_telemetry_is_refused_without_the_token_late_twice_or_across_sessions(server):
    def refused(reply: dict[str, Any]) -> None:
        assert reply["type"] == "error", reply
        assert reply["data"]["code"] == "VALIDATION_REFUSED"
        assert TOKEN not in json.dumps(reply)

    with _ws(server) as first, _ws(server) as second:
        for data in (
            {"schema_version": 1, "token": "wrong-" * 8},
            {"schema_version": 999, "token": TOKEN},
            {"token": TOKEN},
        ):
            refused(_exchange(first, {"type": "validation_open", "data": data})[1])
        read = {"type": "validation_read", "data": {"schema_version": 1, "capability": "x" * 40}}
        refused(_exchange(first, read)[1])  # nothing open yet
        mine, theirs = _open(first), _open(second)
        assert mine != theirs
        refused(
            _exchange(
                first,
                {"type": "validation_read", "data": {"schema_version": 1, "capability": theirs}},
            )[1]
        )
        refused(
            _exchange(
                first, {"type": "validation_open", "data": {"schema_version": 1, "token": TOKEN}}
            )[1]
        )  # a second open
        assert _read(first, mine)["trajectory"]["records"] == []
    with _ws(server) as late:
        assert _exchange(late, {"type": "reset", "data": {"seed": 1}})[1]["type"] == "observation"
        refused(
            _exchange(
                late, {"type": "validation_open", "data": {"schema_version": 1, "token": TOKEN}}
            )[1]
        )
        # An ordinary client never needs to know about telemetry: the session goes on.
        assert _exchange(late, {"type": "state"})[1]["type"] == "state"


def test_telemetry_is_no_mcp_tool(server):
    listed = httpx.post(
        f"{server.url}/mcp", json={"jsonrpc": "2.0", "method": "tools/list", "id": 1}, timeout=60
    ).json()
    names = {tool["name"] for tool in listed["result"]["tools"]}
    assert not names & {"validation_open", "validation_read", "reset", "step", "state"}


# ----------------------------------------------------------------- determinism


def test_fresh_sessions_replaying_an_episode_get_identical_bytes(server):
    reset = {"seed": 5, "episode_id": "replay", "task_id": "flowers/watercolour"}
    runs = []
    for _ in range(2):
        with _ws(server) as ws:
            runs.append([raw for _, raw in _episode(ws, reset, GOOD_SKETCH)])
    assert runs[0] == runs[1]
    step = json.loads(runs[0][2])["data"]
    assert step["observation"]["render_status"] == "ok"
    # Nothing that measures the machine is in the observation, the metadata or the state.
    for name in ("elapsed_ms", "queue_ms", "render_ms", "harness_notes"):
        assert step["observation"][name] is None, name
    assert " ms" not in step["observation"]["feedback"]
    assert "metadata" not in step or step["metadata"] == {}


def test_timings_come_back_when_a_step_asks_for_them(server):
    with _ws(server) as ws:
        _exchange(ws, {"type": "reset", "data": {"seed": 5, "task_id": "trees/pastel"}})
        _, reply = _exchange(
            ws, {"type": "step", "data": {"sketch": GOOD_SKETCH, "include_timings": True}}
        )
    observation = reply["data"]["observation"]
    assert observation["render_ms"] > 0 and observation["queue_ms"] >= 0
    assert observation["elapsed_ms"] == pytest.approx(
        observation["queue_ms"] + observation["render_ms"], abs=1.0
    )
    assert isinstance(observation["harness_notes"], list)


# ----------------------------------------------------------------- declarations


def test_declared_task_counts_equal_the_task_api(server):
    # As OpenEnv's task discovery reads them: the splits, each split's count, two previews.
    declared = OpenEnvYamlParser().parse(REPO).capabilities.declared_task_count
    base = f"{server.url}/sketch_env"
    splits = httpx.get(f"{base}/splits", timeout=60).json()
    names = [split["name"] for split in splits]
    assert sorted(names) == sorted(declared)
    for name in names:
        count = httpx.post(f"{base}/num_tasks", json={"split": name}, timeout=60).json()
        assert count["num_tasks"] == declared[name]
        previews = [
            httpx.post(f"{base}/task", json={"split": name, "index": i}, timeout=60).json()["task"]
            for i in range(min(2, count["num_tasks"]))
        ]
        assert [p["id"] for p in previews] == [t.id for t in load_tasks()[: len(previews)]]


def test_declared_tools_equal_the_mcp_tools_on_both_transports(server):
    declared = OpenEnvYamlParser().parse(REPO).capabilities.declared_tools
    listed = httpx.post(
        f"{server.url}/mcp", json={"jsonrpc": "2.0", "method": "tools/list", "id": 1}, timeout=60
    ).json()
    over_http = [tool["name"] for tool in listed["result"]["tools"]]
    with _ws(server) as ws:
        _, reply = _exchange(
            ws, {"type": "mcp", "data": {"jsonrpc": "2.0", "method": "tools/list", "id": 2}}
        )
    over_ws = [tool["name"] for tool in reply["data"]["result"]["tools"]]
    assert len(set(over_http)) == len(over_http)
    assert sorted(over_http) == sorted(over_ws) == sorted(declared)
