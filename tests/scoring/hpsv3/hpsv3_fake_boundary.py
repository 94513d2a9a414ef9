"""A FAKE of the external HPSv3 service boundary, for client-only behaviour.

`FakeHPSv3Boundary` speaks the HTTP API of ``sketch_env/scoring/hpsv3/service.py`` (``POST
/score``, ``GET /health``) and nothing more. It exists only to make the client meet what the
real service cannot be made to do on demand — a 503, a hang past the timeout, a malformed
answer — and to count requests exactly. It is not a model and not our service: the real
service, in its own venv with the real ``hpsv3`` code, is tested in ``test_service.py``.

It scores a picture as (mean pixel value / 25.5) so a score that lands on the wrong picture
is visible in a test.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np
from PIL import Image


def fake_mu(image: Image.Image) -> float:
    """The fake's score of a picture: its mean RGB value / 25.5 (so 0..10)."""
    return float(np.asarray(image.convert("RGB"), dtype=np.float64).mean() / 25.5)


class FakeHPSv3Boundary:
    """A scripted stand-in for one HPSv3 service on the loopback.

    Args:
        script: Actions for the next requests, one per request, consumed in order: an int
            HTTP status (answered with ``{"detail": ...}``), ``"hang"`` (sleep ``hang_s``
            before answering normally), or ``"garbage"`` (200 with a body that is not the
            protocol). When the script is empty, requests are scored normally.
        reject_prompt: Answer 400 to any request with a prompt containing this text.
        hang_s: How long ``"hang"`` sleeps.
    """

    def __init__(
        self,
        script: list[int | str] | None = None,
        reject_prompt: str | None = None,
        hang_s: float = 2.0,
    ) -> None:
        self.script: deque[int | str] = deque(script or [])
        self.reject_prompt = reject_prompt
        self.hang_s = hang_s
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def batch_sizes(self) -> list[int]:
        return [r["images"] for r in self.requests]

    def __enter__(self) -> FakeHPSv3Boundary:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep pytest output clean
                pass

            def _send(self, status: int, payload: Any, raw: bytes | None = None) -> None:
                body = raw if raw is not None else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                self._send(200, {"status": "ok", "model_loaded": True, "device": "fake"})

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                payload = json.loads(body)
                with fake._lock:
                    action = fake.script.popleft() if fake.script else None
                    fake.requests.append({"images": len(payload["images"]), "action": action})
                if isinstance(action, int):
                    self._send(action, {"detail": f"scripted HTTP {action}"})
                    return
                if action == "garbage":
                    self._send(200, None, raw=b"<html>not the protocol</html>")
                    return
                if action == "hang":
                    time.sleep(fake.hang_s)
                if fake.reject_prompt and any(fake.reject_prompt in p for p in payload["prompts"]):
                    self._send(400, {"detail": f"prompt contains {fake.reject_prompt!r}"})
                    return
                scores = []
                for data in payload["images"]:
                    image = Image.open(io.BytesIO(base64.b64decode(data)))
                    scores.append({"mu": fake_mu(image), "sigma": 1.0, "log_sigma": 0.0})
                # The client may have given up already (the timeout tests).
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self._send(200, {"scores": scores})

        return Handler
