"""One episode replayed in two fresh server processes gives byte-identical replies.

OpenEnv's next validator (``runtime.episode_determinism``) replays an episode across fresh
sessions and fresh containers and compares the whole wire trace (observations, reward, done,
metadata, state) with no field excluded. Measured before the fix: seed 5,
``flowers/watercolour`` and the instructions' garden sketch in two fresh processes differed
in ``elapsed_ms``, ``queue_ms``, ``render_ms`` and the feedback's first line ("Render: ok in
8090 ms" against "in 6855 ms").

Each process is the real server (``python -m sketch_env.server``, which is ``sketch-env
serve``) on its own loopback port, started for the replay and stopped after it, so nothing
(browser, cache, scorer state) carries over from one replay to the next.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

from sketch_env.catalog.instructions import EXAMPLE_SKETCH
from sketch_env.server.telemetry import VALIDATION_TOKEN_ENV
from tests.conftest import require_chromium
from tests.server.serving import running_server

TOKEN = secrets.token_urlsafe(32)
EPISODE = {"seed": 5, "episode_id": "replay-5", "task_id": "flowers/watercolour"}


def _replay(log: Path) -> tuple[list[str], dict[str, Any]]:
    """Plays the episode on a fresh server: the raw reply frames, and the server's own
    record of the session."""
    with (
        running_server(
            log, "--pool-size", "1", "--log-level", "warning", env={VALIDATION_TOKEN_ENV: TOKEN}
        ) as server,
        connect(server.ws_url, open_timeout=30, max_size=16 * 1024 * 1024) as ws,
    ):

        def send(message: dict[str, Any]) -> str:
            ws.send(json.dumps(message))
            raw = ws.recv(timeout=240)
            assert isinstance(raw, str)
            return raw

        opened = json.loads(
            send({"type": "validation_open", "data": {"schema_version": 1, "token": TOKEN}})
        )
        frames = [
            send(message)
            for message in (
                {"type": "reset", "data": EPISODE},
                {"type": "state"},
                {"type": "step", "data": {"sketch": f"```js\n{EXAMPLE_SKETCH}```"}},
                {"type": "state"},
            )
        ]
        capability = opened["data"]["capability"]
        read = {"type": "validation_read", "data": {"schema_version": 1, "capability": capability}}
        snapshot = json.loads(send(read))["data"]
    return frames, snapshot


def test_an_episode_replayed_in_two_fresh_processes_is_byte_identical(tmp_path):
    require_chromium()
    first, first_record = _replay(tmp_path / "first.log")
    second, second_record = _replay(tmp_path / "second.log")
    step = json.loads(first[2])
    assert step["type"] == "observation", step
    assert step["data"]["observation"]["render_status"] == "ok"
    assert isinstance(step["data"]["reward"], float)
    assert first == second
    # The servers' own records agree too, and with what the client received.
    assert first_record == second_record
    assert [json.dumps(r["response"]) for r in first_record["trajectory"]["records"]] == [
        json.dumps(json.loads(frame)) for frame in first
    ]
    assert first_record["seed"] == {"requested": True, "value": 5, "accepted": True}
