"""Session hygiene of the real server over real sockets: idle sessions expire with a typed
close, a client hanging up mid-step leaves no traceback and its step is cancelled, errors never
echo a huge action, input JSON cannot carry (NaN, 1e400, lone surrogates) is a 422 or a typed
frame with the reason, and the ``serve`` command's own errors are one line."""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest
from openenv.core import GenericEnvClient
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from sketch_env.env import SketchAction
from sketch_env.env.models import SESSION_EXPIRED_CODE
from sketch_env.server.client import ServerError, SessionExpiredError, SketchEnvClient
from tests.conftest import GOOD_SKETCH, require_chromium
from tests.server.serving import Server, free_port, running_server
from tests.server.test_server import SLOW_SKETCH

IDLE_TIMEOUT_S = 2
MAX_SESSIONS = 2
TRACEBACK_MARKERS = ("Traceback", "Exception in ASGI application", "Error in ASGI")


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    """Two sessions at most, idle for 2 s at most, INFO logging (session events)."""
    require_chromium()
    log = tmp_path_factory.mktemp("sessions") / "server.log"
    with running_server(
        log,
        "--max-sessions",
        str(MAX_SESSIONS),
        "--idle-timeout",
        str(IDLE_TIMEOUT_S),
        "--pool-size",
        "2",
        "--deadline",
        "20",
        "--log-level",
        "info",
    ) as running:
        yield running


def _assert_no_traceback(log: str) -> None:
    for marker in TRACEBACK_MARKERS:
        assert marker not in log, log


def test_idle_sessions_expire_with_a_typed_close_and_free_their_slots(server):
    async def scenario():
        # Fill every slot with idle sessions: a typed client and a raw socket.
        idle_client = SketchEnvClient(base_url=server.url)
        await idle_client.reset(seed=1)
        raw = await connect(server.ws_url)
        await raw.send(json.dumps({"type": "reset", "data": {"seed": 2}}))
        assert json.loads(await raw.recv())["type"] == "observation"
        # While both are open the server is full...
        extra = SketchEnvClient(base_url=server.url)
        with pytest.raises(RuntimeError, match="CAPACITY_REACHED"):
            await extra.reset(seed=0)
        await extra.close()
        # ...until their idle timeout closes them with the typed close code and reason.
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(raw.recv(), timeout=60)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == SESSION_EXPIRED_CODE
        assert closed.value.rcvd.reason.startswith("SESSION_EXPIRED")
        deadline = time.monotonic() + 60
        while idle_client._ws is not None and idle_client._ws.state is not State.CLOSED:
            assert time.monotonic() < deadline, "the idle client was never closed"
            await asyncio.sleep(0.2)
        # A new client is served at once.
        async with SketchEnvClient(base_url=server.url) as newcomer:
            served = await newcomer.reset(seed=3)
        # The expired client learns why, in one typed error, rather than a bare disconnect or
        # "step() before reset()" from a silently reopened session.
        with pytest.raises(SessionExpiredError, match="SESSION_EXPIRED: idle for 2 s"):
            await idle_client.step(GOOD_SKETCH)
        with pytest.raises(SessionExpiredError):
            await idle_client.state()
        # reset() starts over on a new session.
        again = await idle_client.reset(seed=4)
        await idle_client.close()
        return served, again

    served, again = asyncio.run(scenario())
    assert served.observation.seed == 3 and again.observation.seed == 4
    log = server.wait_for_log("expired after 2 s idle")
    _assert_no_traceback(log)


def test_a_step_longer_than_the_idle_timeout_is_not_idle(server):
    # SLOW_SKETCH spins for 4 s, twice the idle timeout: the session is busy, not idle.
    with SketchEnvClient(base_url=server.url).sync() as client:
        client.reset(seed=5)
        result = client.step(SketchAction(sketch=SLOW_SKETCH))
    assert result.observation.render_status == "ok", result.observation.feedback


def test_a_client_hanging_up_mid_step_leaves_no_traceback(server):
    async def hang_up():
        async with connect(server.ws_url) as ws:
            await ws.send(json.dumps({"type": "reset", "data": {"seed": 1}}))
            await ws.recv()
            await ws.send(json.dumps({"type": "step", "data": {"sketch": SLOW_SKETCH}}))
            await asyncio.sleep(0.5)
        # Leaving the block closes the socket while the server is still rendering.

    asyncio.run(hang_up())
    # The server logs the hang-up once the step's reply has nowhere to go...
    log = server.wait_for_log("went away before its reply")
    _assert_no_traceback(log)
    # ...and keeps serving.
    with SketchEnvClient(base_url=server.url).sync() as client:
        client.reset(seed=2)
        assert client.step(GOOD_SKETCH).observation.render_status == "ok"
    _assert_no_traceback(server.log())


def test_validation_errors_quote_an_excerpt_not_a_5_mb_action(server):
    huge = "x" * (5 * 1024 * 1024)

    async def over_the_socket():
        async with connect(server.ws_url, max_size=None) as ws:
            await ws.send(json.dumps({"type": "step", "data": {"sketch": huge}}))
            return await ws.recv()

    reply = asyncio.run(over_the_socket())
    assert len(reply) < 4096, len(reply)
    frame = json.loads(reply)
    assert frame["data"]["code"] == "VALIDATION_ERROR"
    (error,) = frame["data"]["errors"]
    assert error["type"] == "string_too_long"
    assert error["input"].endswith(f"[{len(huge)} characters]")


def test_a_ws_validation_error_below_the_cap_is_relayed_whole(server):
    # Capping must not eat ordinary errors: a misspelt field comes back with its input.
    async def over_the_socket():
        async with connect(server.ws_url) as ws:
            await ws.send(json.dumps({"type": "step", "data": {"sktch": "circle()"}}))
            return json.loads(await ws.recv())

    frame = asyncio.run(over_the_socket())
    inputs = [e.get("input") for e in frame["data"]["errors"]]
    assert "circle()" in inputs, frame


# ----------------------------------------------------------------- the serve command's errors


def _serve(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sketch_env.server", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


def test_an_out_of_range_port_is_a_one_line_error():
    out = _serve("--port", "99999")
    assert out.returncode == 2
    assert out.stderr.strip() == (
        "sketch-env serve: --port must be in [0, 65535] (0: any free port), got 99999"
    )


def test_a_busy_port_is_reported_before_anything_starts():
    port = free_port()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        out = _serve("--host", "127.0.0.1", "--port", str(port))
    assert out.returncode == 2
    # The message names a port that was free when it was written, and the way out.
    message = re.fullmatch(
        rf"sketch-env serve: port {port} on 127\.0\.0\.1 is already in use: stop what holds "
        r"it, or pass another --port \((\d+); 0 picks a free one\)",
        out.stderr.strip(),
    )
    assert message, out.stderr
    assert int(message.group(1)) != port
    assert "startup complete" not in out.stdout + out.stderr


def test_a_bad_idle_timeout_is_a_one_line_error():
    out = _serve("--port", "0", "--idle-timeout", "-1")
    assert out.returncode == 2
    assert out.stderr.strip() == "sketch-env serve: idle timeout must be in (0, 86400] s, got -1.0"
    # From the environment, and checked before the app is loaded like the flag.
    out = _serve("--port", "0", env={"SKETCH_ENV_IDLE_TIMEOUT": "soon"})
    assert out.returncode == 2
    assert out.stderr.strip() == (
        "sketch-env serve: SKETCH_ENV_IDLE_TIMEOUT must be a number, got 'soon'"
    )


def test_client_step_with_a_non_action_is_a_typed_one_line_error():
    # The client refuses the value before it opens a connection, so no server is needed.
    client = SketchEnvClient(base_url="http://127.0.0.1:9").sync()
    try:
        with pytest.raises(TypeError) as refused:
            client.step(123)
    finally:
        client.close()
    message = str(refused.value)
    assert message == (
        "SketchEnvClient.step() takes a SketchAction, the reply text (str) or a dict of "
        "SketchAction fields, got int"
    )


# ----------------------------------------------------------------- input JSON cannot carry

#: Bodies Python's parser accepts and JSON does not carry, with where the refusal points.
NOT_JSON_BODIES = {
    "nan seed": ('{"action": {"sketch": "x"}, "seed": NaN}', "seed: NaN is not a JSON number"),
    "infinite timeout": (
        '{"action": {"sketch": "x"}, "timeout_s": Infinity}',
        "timeout_s: Infinity is not a JSON number",
    ),
    "1e400 seed": (
        '{"action": {"sketch": "x"}, "seed": 1e400}',
        "seed: the number 1e400 is out of range",
    ),
    "nan action field": (
        '{"action": {"sketch": "x", "final": NaN}}',
        "action.final: NaN is not a JSON number",
    ),
    "surrogate in the prompt": (
        '{"action": {"sketch": "x"}, "prompt": "a \\ud800 kite"}',
        "prompt: a lone surrogate (\\ud800) at character 2",
    ),
    "surrogate in the sketch": (
        '{"action": {"sketch": "brush.line(0, 0, 9, 9) // \\udc00"}}',
        "action.sketch: a lone surrogate (\\udc00)",
    ),
    "surrogate in a key": ('{"action": {"sketch": "x"}, "\\ud83d": 1}', "a lone surrogate"),
}


@pytest.mark.parametrize("name", sorted(NOT_JSON_BODIES))
def test_http_bodies_json_cannot_carry_are_a_422_with_the_reason(server, name):
    body, reason = NOT_JSON_BODIES[name]
    # /step, OpenEnv's /reset, the JSON-RPC /mcp and the task API all parse the same way.
    for path in ("/step", "/reset", "/mcp", "/sketch_env/tasks"):
        response = httpx.post(
            server.url + path,
            content=body.encode("ascii"),
            headers={"content-type": "application/json"},
            timeout=60,
        )
        assert response.status_code == 422, (path, response.text)
        detail = response.json()["detail"]
        assert detail["code"] == "VALIDATION_ERROR"
        assert detail["message"].startswith("invalid JSON: ") and reason in detail["message"]
    _assert_no_traceback(server.log())


def test_a_surrogate_pair_is_one_character_and_comes_back_whole(server):
    # An emoji escaped as a surrogate pair is one character: it must not be refused.
    body = '{"action": {"sketch": "x"}, "prompt": "a kite \\ud83e\\ude81", "seed": 1}'
    response = httpx.post(
        server.url + "/step",
        content=body.encode("ascii"),
        headers={"content-type": "application/json"},
        timeout=120,
    )
    assert response.status_code == 200, response.text
    assert response.json()["observation"]["prompt"] == "a kite \N{KITE}"


def test_websocket_messages_json_cannot_carry_are_refused_and_the_session_lives(server):
    messages = [
        ('{"type": "reset", "data": {"seed": NaN}}', "data.seed: NaN is not a JSON number"),
        (
            '{"type": "reset", "data": {"seed": 2, "prompt": "a \\ud800 kite"}}',
            "data.prompt: a lone surrogate (\\ud800)",
        ),
        ('{"type": "step", "data": {"sketch": "\\udfff"}}', "data.sketch: a lone surrogate"),
        ('{"type": "step", "data": {"sketch": "x", "final": -1e999}}', "out of range"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ]

    async def scenario():
        replies = []
        async with connect(server.ws_url, max_size=None) as ws:
            for text, _ in messages:
                await ws.send(text)
                replies.append(json.loads(await asyncio.wait_for(ws.recv(), 60)))
            # The session survived every one of them.
            await ws.send(json.dumps({"type": "reset", "data": {"seed": 3}}))
            replies.append(json.loads(await asyncio.wait_for(ws.recv(), 60)))
        return replies

    *refused, last = asyncio.run(scenario())
    for (_, reason), frame in zip(messages, refused, strict=True):
        assert frame["type"] == "error" and frame["data"]["code"] == "VALIDATION_ERROR", frame
        assert reason in frame["data"]["message"], frame
    assert last["type"] == "observation" and last["data"]["observation"]["seed"] == 3
    _assert_no_traceback(server.log())


def test_mcp_websocket_messages_json_cannot_carry_are_a_json_rpc_parse_error(server):
    mcp_url = server.url.replace("http://", "ws://") + "/mcp"

    async def scenario():
        async with connect(mcp_url) as ws:
            await ws.send('{"jsonrpc": "2.0", "method": "tools/list", "params": {"x": NaN}}')
            refused = json.loads(await asyncio.wait_for(ws.recv(), 60))
            await ws.send(json.dumps({"jsonrpc": "2.0", "method": "tools/list", "id": 2}))
            listed = json.loads(await asyncio.wait_for(ws.recv(), 60))
        return refused, listed

    refused, listed = asyncio.run(scenario())
    assert refused["error"]["code"] == -32700, refused
    assert "params.x: NaN is not a JSON number" in refused["error"]["message"]
    assert sorted(t["name"] for t in listed["result"]["tools"]) == ["paint", "render"]


def test_ws_validation_reasons_reach_openenvs_client_and_ours(server):
    # OpenEnv's frame said only "Invalid message", which is all its clients show; the reasons
    # were in the frame's errors list.
    generic = GenericEnvClient(base_url=server.url).sync()
    try:
        generic.reset(seed=1)
        with pytest.raises(RuntimeError) as raised:
            generic.step({"sktch": GOOD_SKETCH})
    finally:
        generic.close()
    message = str(raised.value)
    assert "sketch: Field required" in message and "sktch: Extra inputs" in message, message
    assert "(code: VALIDATION_ERROR)" in message

    with SketchEnvClient(base_url=server.url).sync() as client:
        client.reset(seed=1)
        # Built past the model's own checks (pydantic warns as it dumps it), so the server is
        # the one that refuses it.
        bad = SketchAction.model_construct(sketch=5, final=False, include_image=None)
        with pytest.raises(ServerError) as raised_typed, pytest.warns(UserWarning, match="str"):
            client.step(bad)
        # The session goes on.
        assert client.reset(seed=2).observation.seed == 2
    error = raised_typed.value
    assert error.code == "VALIDATION_ERROR"
    assert [e["loc"] for e in error.errors] == [["sketch"]]
    assert "sketch: Input should be a valid string" in str(error)


# ----------------------------------------------------------------- a client leaving mid-step


#: Passes the gate, paints a line, then never returns: only the render deadline would end it.
ENDLESS_SKETCH = """
function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  brush.set('HB', '#203060', 1);
  brush.line(10, 10, 190, 190);
  while (true) {}
}
"""


def _health(server: Server) -> dict:
    return httpx.get(server.url + "/health", timeout=30).json()["steps"]


def _wait_until_idle(server: Server, timeout_s: float) -> float:
    """Seconds until no step is in flight or queued; fails the test after ``timeout_s``."""
    start = time.monotonic()
    while True:
        steps = _health(server)
        if steps["in_flight"] == 0 and steps["queued"] == 0:
            return time.monotonic() - start
        assert time.monotonic() - start < timeout_s, steps
        time.sleep(0.2)


def test_a_session_step_is_cancelled_when_its_client_leaves(server):
    _wait_until_idle(server, 120)
    before = _health(server)["cancelled"]

    async def hang_up():
        async with connect(server.ws_url) as ws:
            await ws.send(json.dumps({"type": "reset", "data": {"seed": 1}}))
            await ws.recv()
            await ws.send(json.dumps({"type": "step", "data": {"sketch": ENDLESS_SKETCH}}))
            deadline = time.monotonic() + 60
            while _health(server)["in_flight"] == 0:
                assert time.monotonic() < deadline, "the step never started"
                await asyncio.sleep(0.2)

    asyncio.run(hang_up())
    # The render deadline is 20 s here: without the cancellation the browser stayed busy
    # with the endless loop for all of it.
    assert _wait_until_idle(server, 10) < 10
    assert _health(server)["cancelled"] == before + 1
    log = server.wait_for_log("its step was cancelled")
    _assert_no_traceback(log)
