"""Starts the real server (``python -m sketch_env.server``) on a loopback port for a test, with
its stdout and stderr captured to a file the test can read."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest


def free_port() -> int:
    """A port that was free a moment ago on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    """A running server: its base URL and its captured log."""

    url: str
    log_path: Path

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://") + "/ws"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for_log(self, text: str, timeout_s: float = 60.0) -> str:
        """Waits until ``text`` appears in the log; fails the test otherwise."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            log = self.log()
            if text in log:
                return log
            time.sleep(0.2)
        pytest.fail(f"{text!r} not in the server log after {timeout_s} s:\n{self.log()}")


@contextmanager
def running_server(
    log_path: Path, *args: str, env: dict[str, str] | None = None
) -> Iterator[Server]:
    """Runs the server with ``args`` until the block ends.

    Args:
        log_path: Where its stdout and stderr go.
        *args: Extra ``serve`` options.
        env: Extra environment variables.
    """
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "sketch_env.server",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        *args,
    ]
    url = f"http://127.0.0.1:{port}"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            command, env={**os.environ, **(env or {})}, stdout=log, stderr=subprocess.STDOUT
        )
    server = Server(url=url, log_path=log_path)
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                pytest.fail(f"server exited ({proc.returncode}): {server.log()}")
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"server did not become healthy in 120 s: {server.log()}")
            time.sleep(0.5)
        yield server
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
