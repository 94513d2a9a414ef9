"""Session hygiene for the WebSocket endpoints (``/ws``, ``/mcp``): idle sessions expire, a
client that hangs up mid-step is a normal event rather than an ASGI traceback, and error frames
quote at most an excerpt of the client's message.

OpenEnv's WebSocket handler waits for the next message forever, so an idle client held its
session (and its slot under ``max_sessions``) until it went away: four idle sockets kept every
new client refused. Its idle reaper skips sessions attached to a WebSocket. And a client that
closed the socket while its step was rendering made the handler's reply fail, then its error
reply fail inside the ``except``, which escaped as "Exception in ASGI application".

`WebSocketSessionGuard` is an ASGI middleware around the app that fixes all three without
re-implementing OpenEnv's protocol: it wraps the connection's ``receive`` and ``send``.

- While the handler waits for a message (it is idle; a step in progress is not), ``receive``
  runs under a timer. When it fires, the guard closes the socket with close code
  `SESSION_EXPIRED_CODE` and a reason starting ``SESSION_EXPIRED``, logs it, and hands the
  handler a disconnect, so OpenEnv destroys the session and frees its slot.
- Once the client is gone, sends are dropped and ``receive`` reports the disconnect.
- An ``error`` frame carrying validation errors has every quoted input cut to an excerpt.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from sketch_env.env.models import SESSION_EXPIRED_CODE
from sketch_env.server.errors import cap_errors

__all__ = [
    "DEFAULT_IDLE_TIMEOUT_S",
    "SESSION_EXPIRED_CODE",
    "SESSION_EXPIRED_REASON",
    "WebSocketSessionGuard",
    "check_idle_timeout",
]

logger = logging.getLogger("sketch_env.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Seconds a session may wait for its client's next message before it is closed. Generating
#: a revision with a 7B policy takes seconds to a minute; five minutes of silence is a client
#: that is gone or stuck, and its slot is worth more to the next one.
DEFAULT_IDLE_TIMEOUT_S = 300.0
#: First word of the close reason of an expired session.
SESSION_EXPIRED_REASON = "SESSION_EXPIRED"
#: Largest idle timeout accepted (one day).
MAX_IDLE_TIMEOUT_S = 86400.0

_GUARDED_PATHS = frozenset({"/ws", "/mcp"})
#: Longest error message relayed in full.
_MAX_MESSAGE_CHARS = 1000


def check_idle_timeout(value: Any) -> float:
    """Validates an idle timeout.

    Args:
        value: Seconds.

    Returns:
        The timeout as a float.

    Raises:
        ValueError: If it is not a number in ``(0, 86400]``.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"idle timeout must be a number of seconds, got {value!r}")
    seconds = float(value)
    if not 0 < seconds <= MAX_IDLE_TIMEOUT_S:
        raise ValueError(f"idle timeout must be in (0, {MAX_IDLE_TIMEOUT_S:g}] s, got {value!r}")
    return seconds


class WebSocketSessionGuard:
    """ASGI middleware: idle timeout, quiet disconnects and capped error frames on ``/ws`` and
    ``/mcp``.

    Args:
        app: The ASGI app (OpenEnv's FastAPI app).
        idle_timeout_s: Seconds a session may wait for its client before it is closed.

    Raises:
        ValueError: On a bad ``idle_timeout_s``.
    """

    def __init__(self, app: ASGIApp, *, idle_timeout_s: float = DEFAULT_IDLE_TIMEOUT_S) -> None:
        self.app = app
        self.idle_timeout_s = check_idle_timeout(idle_timeout_s)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or scope.get("path") not in _GUARDED_PATHS:
            await self.app(scope, receive, send)
            return
        connection = _GuardedConnection(receive, send, self.idle_timeout_s, scope)
        await self.app(scope, connection.receive, connection.send)


class _GuardedConnection:
    def __init__(self, receive: Receive, send: Send, idle_timeout_s: float, scope: Scope) -> None:
        self._receive = receive
        self._send = send
        self._idle_timeout_s = idle_timeout_s
        self._path = scope.get("path")
        client = scope.get("client")
        self._peer = f"{client[0]}:{client[1]}" if client else "unknown client"
        self._accepted = False
        self._closed = False
        self._close_code = 1000

    async def receive(self) -> Message:
        if self._closed:
            return {"type": "websocket.disconnect", "code": self._close_code}
        if not self._accepted:
            return await self._receive()
        try:
            message = await asyncio.wait_for(self._receive(), self._idle_timeout_s)
        except TimeoutError:
            await self._expire()
            return {"type": "websocket.disconnect", "code": SESSION_EXPIRED_CODE}
        if message.get("type") == "websocket.disconnect":
            self._closed = True
            self._close_code = int(message.get("code", 1005))
        return message

    async def send(self, message: Message) -> None:
        kind = message.get("type")
        if kind == "websocket.accept":
            self._accepted = True
        if self._closed:
            # The client is gone or the session expired: the handler's reply (to a step the
            # client hung up on) and its final close have no one to go to.
            return
        if kind == "websocket.send" and isinstance(message.get("text"), str):
            message = {**message, "text": _capped_error_frame(message["text"])}
        try:
            await self._send(message)
        except OSError:
            # uvicorn raises ClientDisconnected (an OSError) when the peer has gone.
            self._closed = True
            self._close_code = 1006
            logger.info("%s: client %s went away before its reply", self._path, self._peer)
            return
        if kind == "websocket.close":
            self._closed = True

    async def _expire(self) -> None:
        reason = f"{SESSION_EXPIRED_REASON}: idle for {self._idle_timeout_s:g} s"
        logger.info(
            "%s: session of %s expired after %g s idle; closing with code %d",
            self._path,
            self._peer,
            self._idle_timeout_s,
            SESSION_EXPIRED_CODE,
        )
        self._closed = True
        self._close_code = SESSION_EXPIRED_CODE
        with contextlib.suppress(OSError):
            await self._send(
                {"type": "websocket.close", "code": SESSION_EXPIRED_CODE, "reason": reason}
            )


def _capped_error_frame(text: str) -> str:
    # Only OpenEnv's error frames quote the client's input; each frame is a model_dump_json
    # whose first field is "type". Observations (up to a few hundred KB with a PNG) are not
    # parsed.
    if not text.startswith('{"type":"error"') or len(text) <= 4096:
        return text
    try:
        frame = json.loads(text)
    except ValueError:
        return text
    data = frame.get("data")
    if isinstance(data, dict):
        if isinstance(data.get("errors"), list):
            data["errors"] = cap_errors(data["errors"])
        message = data.get("message")
        if isinstance(message, str) and len(message) > _MAX_MESSAGE_CHARS:
            data["message"] = f"{message[:_MAX_MESSAGE_CHARS]}... [{len(message)} characters]"
    return json.dumps(frame)
