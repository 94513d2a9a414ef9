"""HTTP ``POST /step``: a one-step painting episode on a fresh environment.

OpenEnv's HTTP mode is stateless: every ``/step`` request gets a new environment, and OpenEnv's
own handler steps it without a reset, which ours refuses ("step() before reset()"), so every
request answered a plain 500. Here the request names the episode (``seed``, ``task_id`` or
``prompt``, all optional, as ``reset`` takes them), the server resets a fresh single-step
environment on it, steps the action and returns the same typed `SketchObservation` as ``/ws``.

Errors are 4xx with the reason and never echo the action back in full: 422 for an invalid
request or action (a capped excerpt of what was sent), 422 for a bad seed, task id or prompt,
429 with ``Retry-After`` when the step queue or the one-step limit is full
(`sketch_env.server.admission`), 504 when the request's own ``timeout_s`` ran out (waiting in
the queue included). ``POST /reset`` is OpenEnv's (a fresh environment, reset, closed), except
that a bad task id or option is a 422 with the reason rather than a 500.

A step whose client disconnects is cancelled, in the queue or mid-render
(`sketch_env.server.sessions.while_connected`): its browser is free for the next step at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request, Response, status
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from openenv.core.env_server.serialization import serialize_observation
from openenv.core.env_server.types import (
    ResetRequest,
    ResetResponse,
    StepRequest,
    StepResponse,
)
from pydantic import ConfigDict, Field, ValidationError

from sketch_env.env.environment import MAX_PROMPT_CHARS, MAX_SEED, SketchEnvironment
from sketch_env.env.models import SketchAction, SketchObservation
from sketch_env.server.admission import QUEUE_FULL_CODE, QueueFullError, StepQueue
from sketch_env.server.errors import cap_errors, one_line_errors
from sketch_env.server.sessions import ClientGoneError, while_connected

__all__ = ["SketchStepRequest", "install_http_step", "paint_one_step"]


class SketchStepRequest(StepRequest):
    """Body of ``POST /step``: OpenEnv's step request plus the episode to paint.

    Args:
        action: The `SketchAction` fields (``sketch``, ``final``, ``include_image``).
        timeout_s: Give up after this many seconds (504).
        request_id: A client's id for the request (echoed nowhere; OpenEnv's field).
        seed: The episode seed (chooses the task and seeds the render); random when absent.
        task_id: A task id such as ``"trees/pastel"``.
        prompt: A free-form scene instead of a task.
    """

    model_config = ConfigDict(extra="forbid")

    seed: int | None = Field(default=None, ge=0, le=MAX_SEED, description="episode seed")
    task_id: str | None = Field(default=None, max_length=256, description="task id")
    prompt: str | None = Field(
        default=None, max_length=MAX_PROMPT_CHARS, description="free-form scene to paint"
    )


def _error(
    code: int, kind: str, message: str, errors: list[dict[str, Any]] | None = None
) -> JSONResponse:
    detail: dict[str, Any] = {"code": kind, "message": message}
    if errors is not None:
        detail["errors"] = errors
    return JSONResponse(status_code=code, content={"detail": detail})


def queue_full_response(exc: QueueFullError) -> JSONResponse:
    """HTTP 429 for a refused step: ``Retry-After`` and ``detail.retry_after_s`` in seconds.

    Args:
        exc: The refusal.

    Returns:
        The response.
    """
    detail = {
        "code": QUEUE_FULL_CODE,
        "message": str(exc),
        "retry_after_s": exc.retry_after_s,
        "limit": exc.limit,
    }
    return JSONResponse(
        status_code=status.HTTP_429_TOO_MANY_REQUESTS,
        content={"detail": detail},
        headers={"Retry-After": str(exc.retry_after_s)},
    )


def install_http_step(
    app: FastAPI, factory: Callable[..., SketchEnvironment], steps: StepQueue
) -> None:
    """Replaces OpenEnv's ``POST /step`` with the one-step episode and its ``POST /reset``
    with one whose bad input is a 422, and makes every request validation error quote capped
    excerpts.

    Args:
        app: The app built by OpenEnv's ``create_app``.
        factory: Builds a `SketchEnvironment`; called with ``max_steps=1``.
        steps: The app's step queue.
    """
    app.router.routes[:] = [
        route
        for route in app.router.routes
        if not (
            getattr(route, "path", None) in ("/step", "/reset")
            and "POST" in getattr(route, "methods", ())
        )
    ]

    @app.exception_handler(RequestValidationError)
    async def _invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = cap_errors(exc.errors())
        return _error(422, "VALIDATION_ERROR", one_line_errors(errors), errors)

    @app.post(
        "/reset",
        response_model=ResetResponse,
        tags=["Environment Control"],
        summary="Reset a fresh environment (stateless)",
        responses={422: {"description": "Invalid seed, task id, prompt or option"}},
    )
    async def reset(request: ResetRequest | None = None) -> Any:
        """Resets a fresh environment with the request's options and returns the first
        observation (the task, its prompt and the policy's instructions)."""
        options = request.model_dump(exclude_unset=True) if request is not None else {}
        env = factory()
        try:
            observation = env.reset(**options)
        except ValueError as exc:
            return _error(422, "INVALID_EPISODE", str(exc))
        finally:
            env.close()
        return ResetResponse(**serialize_observation(observation))

    @app.post(
        "/step",
        response_model=StepResponse,
        tags=["Environment Control"],
        summary="Paint one sketch on a fresh episode",
        responses={
            422: {"description": "Invalid action, seed, task id or prompt (capped excerpt)"},
            429: {"description": "The step queue is full: retry after Retry-After seconds"},
            504: {"description": "timeout_s ran out"},
        },
    )
    async def step(request: SketchStepRequest) -> Any:
        """Resets a fresh single-step environment on ``seed``/``task_id``/``prompt`` and steps
        ``action``; returns the typed observation with the reward."""
        try:
            action = SketchAction.model_validate(request.action)
        except ValidationError as exc:
            errors = cap_errors([{**e, "loc": ("action", *e.get("loc", ()))} for e in exc.errors()])
            return _error(422, "VALIDATION_ERROR", one_line_errors(errors), errors)
        try:
            observation = await paint_one_step(
                factory,
                steps,
                action,
                seed=request.seed,
                task_id=request.task_id,
                prompt=request.prompt,
                timeout_s=request.timeout_s,
            )
        except QueueFullError as exc:
            return queue_full_response(exc)
        except ClientGoneError:
            # Nobody is left to read it; uvicorn drops it.
            return Response(status_code=499)
        except TimeoutError as exc:
            return _error(status.HTTP_504_GATEWAY_TIMEOUT, "TIMEOUT", str(exc))
        except ValueError as exc:
            return _error(422, "INVALID_EPISODE", str(exc))
        return StepResponse(**serialize_observation(observation))


async def paint_one_step(
    factory: Callable[..., SketchEnvironment],
    steps: StepQueue,
    action: SketchAction,
    *,
    seed: int | None = None,
    task_id: str | None = None,
    prompt: str | None = None,
    timeout_s: float | None = None,
) -> SketchObservation:
    """Plays a one-step episode on a fresh environment, as a one-step episode of the step
    queue: HTTP ``/step`` and the MCP ``paint`` tool.

    Args:
        factory: Builds a `SketchEnvironment`; called with ``max_steps=1``.
        steps: The app's step queue.
        action: The sketch.
        seed: The episode seed; random when ``None``.
        task_id: A task id.
        prompt: A free-form scene instead of a task.
        timeout_s: Give up after this many seconds, waiting in the queue included.

    Returns:
        The step's observation (``done``, with the reward).

    Raises:
        ValueError: On a bad seed, an unknown task, or both ``task_id`` and ``prompt``
            (checked before the queue).
        QueueFullError: If the step queue or the one-step limit is full.
        ClientGoneError: If the request's client disconnected first (the step was cancelled).
        TimeoutError: If ``timeout_s`` ran out.
    """
    env = factory(max_steps=1)
    try:
        env.reset(seed=seed, task_id=task_id, prompt=prompt)

        async def admitted() -> SketchObservation:
            async with steps.admit(http=True):
                return await env.step_async(action)

        try:
            return await while_connected(asyncio.wait_for(admitted(), timeout_s))
        except TimeoutError:
            raise TimeoutError(f"the step took longer than timeout_s={timeout_s}") from None
    finally:
        env.close()
