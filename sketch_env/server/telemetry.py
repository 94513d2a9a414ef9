"""Session telemetry for OpenEnv's validator: on ``/ws``, what the replayed session itself saw.

OpenEnv's next validator (RFC 008, "Session telemetry protocol"; its ``runtime.seed_control``
and ``runtime.trajectory_record`` checks) asks the server, on the same WebSocket it replays an
episode over, what the server observed: whether the seed it sent was *used* (a reset that
succeeds while silently dropping its seed is not seed control), and the server's own record of
every ``reset``/``step``/``state`` request and reply, which it compares with its transcript.
OpenEnv 0.10's server does not answer these messages, so this ASGI middleware does, for the
protocol as OpenEnv's main branch defines it:

- The server opts in only when ``OPENENV_VALIDATION_TOKEN`` (32-256 characters) is set, as
  the validation supervisor does for the container it starts; otherwise every telemetry
  message is refused and nothing is recorded.
- ``{"type": "validation_open", "data": {"schema_version": 1, "token": T}}``, sent before any
  ``reset``/``step``/``state`` of the connection, is answered with
  ``{"type": "validation_open", "data": {"schema_version": 1, "capability": C}}``: a random
  capability bound to this connection alone. An open after an operation is refused (it could
  otherwise hide what came before), and so is a second one.
- ``{"type": "validation_read", "data": {"schema_version": 1, "capability": C}}`` is answered
  with ``{"type": "validation", "data": SNAPSHOT}``:
  ``{"schema_version": 1, "seed": {"requested", "value", "accepted"}, "rubric": [],
  "rubric_error": null, "attribution": [{"step_index", "rubric"}...], "trajectory":
  {"schema_version": 1, "source": "openenv-server", "records": [{"operation", "request",
  "response"}...], "complete", "reason"}}``.
- A wrong, missing or another connection's capability, an unknown schema version, or a
  disabled server gets an ``error`` frame that quotes neither the token nor the capability.
  Telemetry messages are never recorded, never reach the environment, and are not MCP tools.

``seed.accepted`` is measured, not assumed: it is true when the reset's reply reports, as its
observation's ``seed``, the very seed the request carried (`SketchEnvironment` renders every
step of the episode with that seed). The record holds each request and reply as the client
sent and received them (this middleware is the outermost one), within OpenEnv's bounds: 100
steps, 202 operations, 8 MiB; past them it is marked incomplete, with the reason.

``rubric`` and ``attribution[].rubric`` are empty: the environment has no rubric tree
(``SketchEnvironment.rubric`` is OpenEnv's attribute, ``None``; the manifest does not declare
``capabilities.rubric_tree``). A rubric tree's nodes would be reported here.
"""

from __future__ import annotations

import copy
import json
import os
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from sketch_env.server.strict_json import StrictJSONError, check_json

__all__ = [
    "MAX_RECORDED_BYTES",
    "MAX_RECORDED_OPERATIONS",
    "MAX_RECORDED_STEPS",
    "TELEMETRY_SCHEMA_VERSION",
    "VALIDATION_TOKEN_ENV",
    "ValidationTelemetry",
    "validation_token_from_env",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The variable through which the validation supervisor hands the server its token.
VALIDATION_TOKEN_ENV = "OPENENV_VALIDATION_TOKEN"
#: The one telemetry schema version OpenEnv defines.
TELEMETRY_SCHEMA_VERSION = 1
#: OpenEnv's bounds on the server's own record of a session.
MAX_RECORDED_STEPS = 100
MAX_RECORDED_OPERATIONS = 202
MAX_RECORDED_BYTES = 8 * 1024 * 1024
#: Room kept for the snapshot's envelope and seed within `MAX_RECORDED_BYTES`.
_ENVELOPE_BYTES = 4096
#: Lengths OpenEnv accepts for the token and the capability.
_SECRET_CHARS = (32, 256)
_OPERATIONS = frozenset({"reset", "step", "state"})
_TELEMETRY = frozenset({"validation_open", "validation_read"})


def validation_token_from_env() -> str | None:
    """Reads ``OPENENV_VALIDATION_TOKEN``: the server answers telemetry only when it is set.

    Returns:
        The token, or ``None`` when the variable is unset or empty.

    Raises:
        ValueError: If it is set but not 32-256 characters long.
    """
    token = os.environ.get(VALIDATION_TOKEN_ENV, "")
    if not token:
        return None
    low, high = _SECRET_CHARS
    if not low <= len(token) <= high:
        raise ValueError(
            f"{VALIDATION_TOKEN_ENV} must be {low}-{high} characters long, got {len(token)}"
        )
    return token


def _error(message: str) -> str:
    return json.dumps({"type": "error", "data": {"message": message, "code": "VALIDATION_REFUSED"}})


def _json_size(value: Any) -> int:
    return len(json.dumps(value, allow_nan=False, ensure_ascii=False).encode("utf-8"))


@dataclass
class _Session:
    """One ``/ws`` connection's telemetry: its capability and its record."""

    token: str | None
    capability: str | None = None
    operated: bool = False
    #: Requests awaiting their reply, in the order they came (OpenEnv answers in order).
    pending: deque[dict[str, Any]] = field(default_factory=deque)
    records: list[dict[str, Any]] = field(default_factory=list)
    attribution: list[dict[str, Any]] = field(default_factory=list)
    seed: dict[str, Any] | None = None
    recorded_bytes: int = 0
    complete: bool = True
    reason: str | None = None

    def answer(self, message: dict[str, Any]) -> str:
        """The reply to a ``validation_open`` or ``validation_read`` message."""
        data = message.get("data")
        if self.token is None:
            return _error(
                f"validation telemetry is off: the server was started without "
                f"{VALIDATION_TOKEN_ENV}"
            )
        if not isinstance(data, dict) or data.get("schema_version") != TELEMETRY_SCHEMA_VERSION:
            return _error(
                f"unsupported telemetry request: data.schema_version must be "
                f"{TELEMETRY_SCHEMA_VERSION}"
            )
        if message["type"] == "validation_open":
            return self._open(data.get("token"))
        return self._read(data.get("capability"))

    def _open(self, token: Any) -> str:
        assert self.token is not None
        if not isinstance(token, str) or not secrets.compare_digest(
            token.encode(), self.token.encode()
        ):
            return _error("validation_open refused: not authorized")
        if self.capability is not None:
            return _error("validation_open refused: telemetry is already open on this session")
        if self.operated:
            return _error(
                "validation_open refused: it must come before the session's first reset, step "
                "or state"
            )
        self.capability = secrets.token_urlsafe(32)
        return json.dumps(
            {
                "type": "validation_open",
                "data": {"schema_version": TELEMETRY_SCHEMA_VERSION, "capability": self.capability},
            }
        )

    def _read(self, capability: Any) -> str:
        if (
            self.capability is None
            or not isinstance(capability, str)
            or not secrets.compare_digest(capability.encode(), self.capability.encode())
        ):
            return _error("validation_read refused: not this session's capability")
        snapshot = {
            "schema_version": TELEMETRY_SCHEMA_VERSION,
            "seed": self.seed,
            "rubric": [],
            "rubric_error": None,
            "attribution": self.attribution,
            "trajectory": {
                "schema_version": TELEMETRY_SCHEMA_VERSION,
                "source": "openenv-server",
                "records": self.records,
                "complete": self.complete,
                "reason": self.reason,
            },
        }
        return json.dumps({"type": "validation", "data": snapshot}, ensure_ascii=False)

    def request(self, message: dict[str, Any]) -> None:
        """Notes a ``reset``/``step``/``state`` request on its way to the handler."""
        self.operated = True
        if self.capability is not None:
            self.pending.append(message)

    def reply(self, text: str) -> None:
        """Records a frame sent to the client as the reply to the oldest pending request."""
        if not self.pending:
            return  # a reply to something else (an MCP call, a refused message)
        request = self.pending.popleft()
        if not self.complete:
            return
        try:
            response = check_json(text)
        except (ValueError, StrictJSONError):
            self._stop("the server sent a reply that is not JSON")
            return
        operation = request["type"]
        steps = len(self.attribution) + (operation == "step")
        record = {"operation": operation, "request": request, "response": response}
        try:
            size = _json_size(record)
        except (ValueError, RecursionError):
            self._stop("the session exchanged data that is not JSON")
            return
        if (
            len(self.records) >= MAX_RECORDED_OPERATIONS
            or steps > MAX_RECORDED_STEPS
            or self.recorded_bytes + size + _ENVELOPE_BYTES > MAX_RECORDED_BYTES
        ):
            self._stop("session telemetry budget exceeded")
            return
        self.recorded_bytes += size
        # Detached: nothing sent later can change what was recorded.
        self.records.append(copy.deepcopy(record))
        if operation == "step":
            self.attribution.append({"step_index": steps - 1, "rubric": []})
        elif operation == "reset":
            self.seed = _seed_acceptance(request, response)

    def _stop(self, reason: str) -> None:
        self.complete = False
        self.reason = reason


def _seed_acceptance(request: dict[str, Any], response: Any) -> dict[str, Any]:
    """Whether a reset's seed was requested, and whether its reply shows it was used."""
    data = request.get("data")
    seed = data.get("seed") if isinstance(data, dict) else None
    requested = seed is not None
    observation = (
        response.get("data", {}).get("observation")
        if isinstance(response, dict) and response.get("type") == "observation"
        else None
    )
    used = observation.get("seed") if isinstance(observation, dict) else None
    accepted = requested and type(seed) is int and type(used) is int and used == seed
    return {"requested": requested, "value": seed, "accepted": accepted}


class ValidationTelemetry:
    """ASGI middleware answering OpenEnv's session telemetry on ``/ws`` (module docstring).

    Added outermost, so that what it records is what the client was sent.

    Args:
        app: The ASGI app.
        token: The validation token; ``None`` turns telemetry off (every request refused).

    Raises:
        ValueError: If the token is not 32-256 characters long.
    """

    def __init__(self, app: ASGIApp, *, token: str | None = None) -> None:
        low, high = _SECRET_CHARS
        if token is not None and not low <= len(token) <= high:
            raise ValueError(f"the validation token must be {low}-{high} characters long")
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or scope.get("path") != "/ws":
            await self.app(scope, receive, send)
            return
        session = _Session(self.token)

        async def receive_message() -> Message:
            while True:
                message = await receive()
                text = message.get("text") if message.get("type") == "websocket.receive" else None
                parsed = _parse(text) if isinstance(text, str) else None
                if parsed is None:
                    return message
                kind = parsed["type"]
                if kind in _OPERATIONS:
                    session.request(parsed)
                    return message
                if kind not in _TELEMETRY:
                    return message
                try:
                    await send({"type": "websocket.send", "text": session.answer(parsed)})
                except OSError:
                    # uvicorn raises ClientDisconnected (an OSError) once the peer has gone.
                    return {"type": "websocket.disconnect", "code": 1006}

        async def send_message(message: Message) -> None:
            if message.get("type") == "websocket.send" and isinstance(message.get("text"), str):
                session.reply(message["text"])
            await send(message)

        await self.app(scope, receive_message, send_message)


def _parse(text: str) -> dict[str, Any] | None:
    """A client message as a JSON object with a string ``type``; ``None`` for anything else
    (left to the handlers, which answer it)."""
    try:
        value = check_json(text)
    except (ValueError, StrictJSONError):
        return None
    if isinstance(value, dict) and isinstance(value.get("type"), str):
        return value
    return None
