"""Connection hygiene for the endpoints that step (``/ws``, ``/mcp``, ``POST /step``): idle
sessions expire, work whose client has gone is cancelled, a client that hangs up is a normal
event rather than an ASGI traceback, and what the server says about bad input is typed, strict
JSON, and quotes at most an excerpt.

OpenEnv's WebSocket handler waits for the next message forever, so an idle client held its
session (and its slot under ``max_sessions``) until it went away: four idle sockets kept every
new client refused. Its idle reaper skips sessions attached to a WebSocket. A client that
closed the socket while its step was rendering made the handler's reply fail, then its error
reply fail inside the ``except``, which escaped as "Exception in ASGI application". And nobody
read the connection while a step ran, so a step whose client had gone (over ``/ws`` or HTTP)
rendered to its deadline: ten abandoned endless-loop steps held a two-browser pool for 75 s.

`ConnectionGuard` is an ASGI middleware around the app that fixes these without
re-implementing OpenEnv's protocol: it wraps each connection's ``receive`` and ``send``.

- While a WebSocket handler waits for a message (it is idle; a step in progress is not),
  ``receive`` runs under a timer. When it fires, the guard closes the socket with close code
  `SESSION_EXPIRED_CODE` and a reason starting ``SESSION_EXPIRED``, logs it, and hands the
  handler a disconnect, so OpenEnv destroys the session and frees its slot.
- While a step runs under `while_connected`, the guard reads the connection on the handler's
  behalf. A disconnect cancels the step (its render stops and its browser is freed at once,
  `ClientGoneError` is what the handler sees); any other message is kept for the handler's next
  ``receive``.
- Once the client is gone, sends are dropped and ``receive`` reports the disconnect.
- Every message on ``/ws`` and ``/mcp`` is checked as strict JSON (`check_json`): ``NaN``, a
  number out of range or a lone surrogate is answered with a ``VALIDATION_ERROR`` frame that
  says where, and the session goes on.
- An ``error`` frame has every quoted input cut to an excerpt; a ``VALIDATION_ERROR`` frame's
  message carries the field-level reasons (OpenEnv says only "Invalid message", which is all a
  client shows); a step refused by the full step queue is a ``QUEUE_FULL`` frame with
  ``retry_after_s``.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, TypeVar

from sketch_env.env.models import SESSION_EXPIRED_CODE
from sketch_env.errors import SketchEnvError
from sketch_env.server.admission import QUEUE_FULL_CODE, QueueFullError
from sketch_env.server.errors import cap_errors, one_line_errors
from sketch_env.server.settings import DEFAULT_IDLE_TIMEOUT_S, check_idle_timeout
from sketch_env.server.strict_json import StrictJSONError, check_json

__all__ = [
    "SESSION_EXPIRED_CODE",
    "SESSION_EXPIRED_REASON",
    "ClientGoneError",
    "ConnectionGuard",
    "while_connected",
]

logger = logging.getLogger("sketch_env.server")

T = TypeVar("T")
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: First word of the close reason of an expired session.
SESSION_EXPIRED_REASON = "SESSION_EXPIRED"

_WEBSOCKET_PATHS = frozenset({"/ws", "/mcp"})
#: HTTP requests that step (a one-step episode, an MCP tool call), watched for disconnects.
_HTTP_STEP_PATHS = frozenset({"/step", "/mcp"})
#: Longest error message relayed in full.
_MAX_MESSAGE_CHARS = 1000
#: JSON-RPC 2.0's "Parse error".
_JSONRPC_PARSE_ERROR = -32700

_CONNECTION: contextvars.ContextVar[_Connection | None] = contextvars.ContextVar(
    "sketch_env_connection", default=None
)


class ClientGoneError(SketchEnvError, ConnectionError):
    """The client of a step went away while it ran or waited; the step was cancelled."""


async def while_connected(work: Awaitable[T]) -> T:
    """Runs a step, cancelling it if the client of the current request or session leaves.

    Outside a connection the guard watches (a direct call, a test), it just awaits ``work``.

    Args:
        work: The step (its admission to the step queue included, so a client that leaves
            while it waits gives its place up too).

    Returns:
        What ``work`` returned.

    Raises:
        ClientGoneError: If the client disconnected first (``work`` was cancelled).
    """
    connection = _CONNECTION.get()
    if connection is None:
        return await work
    return await connection.run(work)


class ConnectionGuard:
    """ASGI middleware: idle timeout, cancellation of abandoned steps, quiet disconnects,
    strict messages and typed, capped error frames (``/ws``, ``/mcp``, ``POST /step``).

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
        path = scope.get("path")
        connection: _Connection
        if scope["type"] == "websocket" and path in _WEBSOCKET_PATHS:
            connection = _WebSocketConnection(receive, send, scope, self.idle_timeout_s)
        elif scope["type"] == "http" and path in _HTTP_STEP_PATHS:
            connection = _HTTPConnection(receive, send, scope)
        else:
            await self.app(scope, receive, send)
            return
        token = _CONNECTION.set(connection)
        try:
            await self.app(scope, connection.receive, connection.send)
        finally:
            _CONNECTION.reset(token)
            connection.stop_reading()


class _Connection:
    """One connection: reads it on a step's behalf while the step runs (`run`)."""

    _DISCONNECT = ""

    def __init__(self, receive: Receive, send: Send, scope: Scope) -> None:
        self._receive = receive
        self._send = send
        self._path = scope.get("path")
        client = scope.get("client")
        self._peer = f"{client[0]}:{client[1]}" if client else "unknown client"
        self._closed = False
        #: A read of the client's next message started while a step ran; the handler's next
        #: ``receive`` takes it over, so there is only ever one read at a time.
        self._read: asyncio.Task[Message] | None = None
        #: The step queue's refusal of the step this connection's handler is answering.
        self._refusal: QueueFullError | None = None

    async def receive(self) -> Message:
        raise NotImplementedError

    async def send(self, message: Message) -> None:
        raise NotImplementedError

    def _watchable(self) -> bool:
        return not self._closed

    async def _next(self) -> Message:
        read, self._read = self._read, None
        if read is None:
            return await self._receive()
        return await read

    async def run(self, work: Awaitable[T]) -> T:
        task = asyncio.ensure_future(work)
        if not self._watchable():
            return await self._outcome(task)
        if self._read is None:
            self._read = asyncio.ensure_future(self._receive())
        read = self._read
        try:
            await asyncio.wait({task, read}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            task.cancel()
            raise
        if task.done() or not self._left(read):
            # Finished, or the client said something else meanwhile (kept for `receive`).
            return await self._outcome(task)
        self._closed = True
        task.cancel()
        # Waited for, not awaited: a cancellation of this handler itself must still get through.
        await asyncio.wait({task})
        if not task.cancelled():
            task.exception()  # the step's own outcome has no one to go to
        logger.info(
            "%s: client %s went away before its reply; its step was cancelled",
            self._path,
            self._peer,
        )
        raise ClientGoneError("the client went away; its step was cancelled")

    async def _outcome(self, task: asyncio.Future[T]) -> T:
        try:
            return await task
        except QueueFullError as exc:
            self._refusal = exc
            raise

    def _left(self, read: asyncio.Task[Message]) -> bool:
        if read.cancelled() or read.exception() is not None:
            return True
        return str(read.result().get("type")) == self._DISCONNECT

    def stop_reading(self) -> None:
        if self._read is not None and not self._read.done():
            self._read.cancel()
        self._read = None


class _HTTPConnection(_Connection):
    _DISCONNECT = "http.disconnect"

    def __init__(self, receive: Receive, send: Send, scope: Scope) -> None:
        super().__init__(receive, send, scope)
        self._body_read = False

    def _watchable(self) -> bool:
        # Until the handler has the whole body, a read would take body chunks from it.
        return self._body_read and not self._closed

    async def receive(self) -> Message:
        message = await self._next()
        kind = message.get("type")
        if kind == "http.request" and not message.get("more_body", False):
            self._body_read = True
        elif kind == self._DISCONNECT:
            self._closed = True
        return message

    async def send(self, message: Message) -> None:
        await self._send(message)


class _WebSocketConnection(_Connection):
    _DISCONNECT = "websocket.disconnect"

    def __init__(self, receive: Receive, send: Send, scope: Scope, idle_timeout_s: float) -> None:
        super().__init__(receive, send, scope)
        self._idle_timeout_s = idle_timeout_s
        self._accepted = False
        self._close_code = 1000

    def _watchable(self) -> bool:
        return self._accepted and not self._closed

    async def receive(self) -> Message:
        if self._closed:
            return {"type": "websocket.disconnect", "code": self._close_code}
        if not self._accepted:
            return await self._next()
        while True:
            try:
                message = await asyncio.wait_for(self._next(), self._idle_timeout_s)
            except TimeoutError:
                await self._expire()
                return {"type": "websocket.disconnect", "code": SESSION_EXPIRED_CODE}
            if message.get("type") == self._DISCONNECT:
                self._closed = True
                self._close_code = int(message.get("code", 1005))
                return message
            refusal = _strict_refusal(message, jsonrpc=self._path == "/mcp")
            if refusal is None:
                return message
            # Answered here; the handler never sees the message and waits for the next.
            await self._deliver({"type": "websocket.send", "text": refusal})
            if self._closed:
                return {"type": "websocket.disconnect", "code": self._close_code}

    async def run(self, work: Awaitable[T]) -> T:
        try:
            return await super().run(work)
        except ClientGoneError:
            self._close_code = 1006
            raise

    async def send(self, message: Message) -> None:
        kind = message.get("type")
        if kind == "websocket.accept":
            self._accepted = True
        if self._closed:
            # The client is gone or the session expired: the handler's reply (to a step the
            # client hung up on) and its final close have no one to go to.
            return
        if kind == "websocket.send" and isinstance(message.get("text"), str):
            refusal, self._refusal = self._refusal, None
            message = {**message, "text": _error_frame(message["text"], refusal)}
        await self._deliver(message)
        if kind == "websocket.close":
            self._closed = True

    async def _deliver(self, message: Message) -> None:
        try:
            await self._send(message)
        except OSError:
            # uvicorn raises ClientDisconnected (an OSError) when the peer has gone.
            self._closed = True
            self._close_code = 1006
            logger.info("%s: client %s went away before its reply", self._path, self._peer)

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


def _strict_refusal(message: Message, jsonrpc: bool) -> str | None:
    """The reply to a text message `check_json` refuses (a ``VALIDATION_ERROR`` frame, or on
    ``/mcp`` a JSON-RPC parse error, as OpenEnv answers text that is not JSON there);
    ``None`` to pass the message on."""
    text = message.get("text")
    if not isinstance(text, str):
        return None
    try:
        check_json(text)
    except StrictJSONError as exc:
        reason = str(exc)[:_MAX_MESSAGE_CHARS]
        if jsonrpc:
            error = {"code": _JSONRPC_PARSE_ERROR, "message": f"Parse error: {reason}"}
            return json.dumps({"jsonrpc": "2.0", "error": error, "id": None})
        data = {
            "message": f"Invalid message: {reason}",
            "code": "VALIDATION_ERROR",
            "errors": exc.errors(),
        }
        return json.dumps({"type": "error", "data": data})
    except json.JSONDecodeError:
        return None  # not JSON at all: OpenEnv answers INVALID_JSON
    return None


def _error_frame(text: str, refusal: QueueFullError | None) -> str:
    """An outgoing frame as the client gets it; only ``error`` frames are changed.

    Each frame is a ``model_dump_json`` whose first field is ``"type"``; observations (up to a
    few hundred KB with a PNG) are never parsed.
    """
    if not text.startswith('{"type":"error"'):
        return text
    try:
        frame = json.loads(text)
    except ValueError:
        return text
    data = frame.get("data")
    if not isinstance(data, dict):
        return text
    errors = data.get("errors")
    if isinstance(errors, list):
        data["errors"] = errors = cap_errors(errors)
        if data.get("code") == "VALIDATION_ERROR" and data.get("message") == "Invalid message":
            # OpenEnv's clients show only the message: put the reasons in it.
            data["message"] = f"Invalid message: {one_line_errors(errors)}"
    if refusal is not None and data.get("code") == "EXECUTION_ERROR":
        data["code"] = QUEUE_FULL_CODE
        data["retry_after_s"] = refusal.retry_after_s
        data["limit"] = refusal.limit
    message = data.get("message")
    if isinstance(message, str) and len(message) > _MAX_MESSAGE_CHARS:
        data["message"] = f"{message[:_MAX_MESSAGE_CHARS]}... [{len(message)} characters]"
    return json.dumps(frame)
