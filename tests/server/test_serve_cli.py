"""``sketch-env serve`` as a user starts it: the URL it listens on, one-line errors that say
what to do (a busy port, Ray missing for a ``ray://`` renderer), the renderer and scorer from
the environment variables a Space sets, and a warning at start when the scorer is dead."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from sketch_env.install import RAY_INSTALL
from sketch_env.scoring.spec import DEFAULT_SCORER
from sketch_env.server.probe import probe_scorer
from tests.conftest import GOOD_SKETCH, require_chromium
from tests.server.serving import running_server

ROOT = Path(__file__).resolve().parents[2]
#: A loopback port nothing listens on: connections are refused at once.
DEAD_SCORER = "hpsv3+http://127.0.0.1:9"


def _serve(*args: str, env: dict[str, str] | None = None, without_ray: bool = False):
    # Without Ray: a fresh interpreter in which `import ray` fails, as on a machine without
    # the extra (Ray is installed here for the distributed tests).
    prelude = "import sys; sys.modules['ray'] = None; " if without_ray else "import sys; "
    code = prelude + "from sketch_env.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, "serve", *args],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
    )


def _one_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_a_busy_port_says_how_to_get_another() -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        line = _one_line(_serve("--port", str(port)))
    assert line.startswith(f"sketch-env serve: port {port} on 127.0.0.1 is already in use"), line
    assert "--port" in line and "0 picks a free one" in line


def test_a_ray_renderer_without_ray_is_one_line_with_the_install_command() -> None:
    line = _one_line(_serve("--port", "0", "--renderer", "ray://auto", without_ray=True))
    assert line == (
        f"sketch-env serve: RayRenderer needs Ray, which is not installed: {RAY_INSTALL}"
    ), line
    # The renderer a Space's variables name (openenv.yaml `variables`) is read the same way.
    from_env = _serve("--port", "0", env={"SKETCH_ENV_RENDERER": "ray://auto"}, without_ray=True)
    assert RAY_INSTALL in _one_line(from_env)


def test_a_live_scorer_passes_the_probe() -> None:
    assert probe_scorer("heuristic") is None


def test_serve_prints_its_url_and_warns_at_start_when_the_scorer_is_dead(tmp_path) -> None:
    require_chromium()
    log = tmp_path / "server.log"
    with running_server(
        log, "--pool-size", "1", "--log-level", "warning", "--scorer", DEAD_SCORER
    ) as server:
        warning = server.wait_for_log("did not score a test picture", timeout_s=120)
        found = re.search(r"listening on (http://\S+) \(WebSocket (ws://\S+)/ws", warning)
        if found is None:
            pytest.fail(f"no URL printed:\n{warning}")
        url = found.group(1)
        assert url == server.url and found.group(2) == server.url.replace("http", "ws")
        line = next(x for x in warning.splitlines() if "did not score a test picture" in x)
        assert line.startswith("WARNING:") and DEAD_SCORER in line
        assert "reward will be null" in line and f"--scorer {DEFAULT_SCORER}" in line
        # It keeps serving: a step is answered, unscored.
        step = httpx.post(
            f"{url}/step", json={"action": {"sketch": GOOD_SKETCH}, "seed": 1}, timeout=180
        )
        assert step.status_code == 200, step.text
        assert step.json()["reward"] is None
