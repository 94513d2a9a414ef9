"""`SketchEnvClient`: a typed OpenEnv client for a running sketch_env server.

Examples:
    Synchronous::

        from sketch_env.server.client import SketchEnvClient
        with SketchEnvClient(base_url="http://127.0.0.1:8000").sync() as env:
            result = env.reset(seed=3)
            result = env.step(reply_text)
            print(result.reward, result.observation.feedback)

    Asynchronous (one client per concurrent session)::

        async with SketchEnvClient(base_url="http://127.0.0.1:8000") as env:
            result = await env.reset(task_id="trees/pastel", seed=1)
            result = await env.step(SketchAction(sketch=reply_text))
"""

from __future__ import annotations

from typing import Any, NoReturn

from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from sketch_env.env.models import (
    SESSION_EXPIRED_CODE,
    SketchAction,
    SketchObservation,
    SketchState,
    as_action,
)
from sketch_env.errors import SketchEnvError

__all__ = ["ServerBusyError", "ServerError", "SessionExpiredError", "SketchEnvClient"]

#: Error codes that mean "not now": nothing was counted, and the same request may be retried.
_BUSY_CODES = frozenset({"QUEUE_FULL", "CAPACITY_REACHED"})


class ServerError(SketchEnvError, RuntimeError):
    """An ``error`` frame from the server: the message (with the field-level reasons of a
    validation error), its ``code`` and, for invalid messages, the ``errors`` entries.

    Args:
        message: The server's message.
        code: Its error code (``VALIDATION_ERROR``, ``EXECUTION_ERROR``, ...).
        data: The whole ``data`` of the frame.
    """

    def __init__(self, message: str, code: str, data: dict[str, Any]) -> None:
        # The same text OpenEnv's client raises, so ``match=`` on it keeps working.
        super().__init__(f"Server error: {message} (code: {code})")
        self.code = code
        self.data = data
        errors = data.get("errors")
        self.errors: list[dict[str, Any]] = list(errors) if isinstance(errors, list) else []


class ServerBusyError(ServerError):
    """The server refused for lack of room; retryable. ``QUEUE_FULL``: its step queue is full
    (the step was not taken: the episode is where it was, call ``step`` again after
    ``retry_after_s``); ``CAPACITY_REACHED``: every session slot is taken (``reset`` opens a
    new session once one is free)."""

    @property
    def retry_after_s(self) -> float | None:
        """The server's estimate of when a retry is admitted, in seconds (``None``: none)."""
        value = self.data.get("retry_after_s")
        return float(value) if isinstance(value, int | float) else None


class SessionExpiredError(SketchEnvError, ConnectionError):
    """The server closed this session because its client sent nothing for the server's idle
    timeout (``sketch-env serve --idle-timeout``). The episode is gone: call ``reset()`` to
    start a new one on a new session."""


class SketchEnvClient(EnvClient[SketchAction, SketchObservation, SketchState]):
    """Client for one session (one WebSocket) of the sketch environment.

    ``step`` takes what `SketchEnvironment.step` takes: a `SketchAction`, the reply text or a
    dict of `SketchAction` fields (validated here, before sending). Results are ``StepResult``
    objects whose ``observation`` is a typed `SketchObservation`. Server-side errors (step
    before reset, unknown task, bad seed, an invalid message with its reasons) raise
    `ServerError` (a ``RuntimeError``) with the server's message and code; a full server (its
    step queue, or every session slot) raises `ServerBusyError`, which is retryable. A session
    the server expired for idleness raises `SessionExpiredError` on the next ``step`` or
    ``state``; ``reset`` opens a new session.
    """

    #: Close reason of the session the server expired; ``None`` while the session lives.
    _expired_reason: str | None = None

    def _step_payload(self, action: SketchAction | str | dict[str, Any]) -> dict[str, Any]:
        # The same rule as the local environment's step (checked here, before anything is
        # sent): a malformed dict fails the same validation on both sides.
        return as_action(action, "SketchEnvClient.step()").model_dump()

    async def _send_and_receive(self, message: dict[str, Any]) -> dict[str, Any]:
        expired = self._expired_reason
        if message.get("type") == "reset":
            self._expired_reason = None
        elif expired is not None:
            raise SessionExpiredError(_expired_message(expired))
        ws = self._ws
        # OpenEnv's client would reconnect here and send a step to a fresh session, which
        # answers "step() before reset()": say what happened instead.
        if (
            ws is not None
            and ws.state in (State.CLOSING, State.CLOSED)
            and ws.close_code == SESSION_EXPIRED_CODE
            and message.get("type") != "reset"
        ):
            self._expire(ws.close_reason)
        try:
            return await super()._send_and_receive(message)
        except ConnectionClosed as exc:
            received = exc.rcvd
            if received is not None and received.code == SESSION_EXPIRED_CODE:
                self._expire(received.reason)
            raise

    async def _receive(self) -> dict[str, Any]:
        response = await super()._receive()
        if response.get("type") == "error":
            data = response.get("data")
            data = data if isinstance(data, dict) else {}
            message = str(data.get("message", "Unknown error"))
            code = str(data.get("code", "UNKNOWN"))
            kind = ServerBusyError if code in _BUSY_CODES else ServerError
            raise kind(message, code, data)
        return response

    def _expire(self, reason: str | None) -> NoReturn:
        # Every step() and state() raises until reset() opens a new session.
        self._ws = None
        self._expired_reason = reason or "SESSION_EXPIRED"
        raise SessionExpiredError(_expired_message(self._expired_reason)) from None

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[SketchObservation]:
        fields = dict(payload.get("observation") or {})
        fields["reward"] = payload.get("reward")
        fields["done"] = bool(payload.get("done", False))
        observation = SketchObservation.model_validate(fields)
        return StepResult(
            observation=observation,
            reward=payload.get("reward"),
            done=observation.done,
            metadata=payload.get("metadata"),
        )

    def _parse_state(self, payload: dict[str, Any]) -> SketchState:
        return SketchState.model_validate(payload)


def _expired_message(reason: str) -> str:
    return (
        f"the server closed this session ({reason}); its episode is "
        "gone: call reset() to start a new one"
    )
