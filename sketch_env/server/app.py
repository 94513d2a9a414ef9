"""The OpenEnv server: `SketchEnvironment` over HTTP and WebSocket, built with openenv's
``create_app``.

Every WebSocket connection (``/ws``) is one session with its own `SketchEnvironment`; all
sessions share one `Evaluator` and so one browser pool, which renders their steps
concurrently. A session whose client stays silent for ``idle_timeout_s`` is closed with
WebSocket close code 4408 (`sketch_env.server.sessions`). HTTP ``/reset`` and ``/step`` are
stateless: ``/step`` paints a one-step episode on a fresh environment
(`sketch_env.server.http_step`). Multi-step episodes go over ``/ws``, which is what
`sketch_env.server.client.SketchEnvClient` uses.

Every step (a session's, HTTP ``/step``, an MCP tool call) passes one bounded step queue
(`sketch_env.server.admission`): past it, a step is refused with HTTP 429 and ``Retry-After``
or a ``QUEUE_FULL`` frame, and ``GET /health`` reports the queue. A step whose client leaves
is cancelled. Request bodies and messages are strict JSON (`sketch_env.server.strict_json`).

Configuration comes from arguments or environment variables:

- ``SKETCH_ENV_MAX_SESSIONS``: concurrent sessions (default 8). One more is refused with
  OpenEnv's ``CAPACITY_REACHED`` error and the server keeps serving.
- ``SKETCH_ENV_SCORER``: scorer spec (default ``vision``; ``hpsv3+http://host:port``).
- ``SKETCH_ENV_MAX_STEPS``, ``SKETCH_ENV_REWARD_POLICY``: episode shape (1, ``last``).
- ``SKETCH_ENV_IDLE_TIMEOUT``: seconds a session may stay idle (default 300).
- ``SKETCH_ENV_MAX_CONCURRENT_STEPS``, ``SKETCH_ENV_MAX_QUEUED_STEPS``,
  ``SKETCH_ENV_MAX_HTTP_STEPS``: the step queue (`StepLimits`; defaults: twice the pool size,
  ``max_sessions``, ``max_sessions``).
- ``OPENENV_VALIDATION_TOKEN``: set by OpenEnv's validation supervisor; turns on the session
  telemetry its validator reads over ``/ws`` (`sketch_env.server.telemetry`).

Run it with ``sketch-env serve``, ``python -m sketch_env.server`` or
``uvicorn sketch_env.server.app:app`` (the module attribute ``app`` is built on first access).
"""

from __future__ import annotations

import functools
import os
from typing import Any

from fastapi import FastAPI
from openenv.core.env_server.http_server import create_app
from openenv.core.env_server.types import ConcurrencyConfig, HealthStatus

from sketch_env.env.environment import SketchEnvironment
from sketch_env.env.models import (
    SketchAction,
    SketchObservation,
    SketchState,
    check_reward_policy,
)
from sketch_env.evaluation.config import EvaluationConfig
from sketch_env.evaluation.evaluator import Evaluator
from sketch_env.render.config import RenderConfig
from sketch_env.render.protocol import Renderer
from sketch_env.render.renderer import SketchRenderer, shared_renderer
from sketch_env.reward.config import RewardConfig
from sketch_env.scoring.spec import DEFAULT_SCORER
from sketch_env.server.admission import StepLimits, StepQueue
from sketch_env.server.http_step import install_http_step
from sketch_env.server.sessions import ConnectionGuard
from sketch_env.server.settings import (
    check_idle_timeout,
    idle_timeout_from_env,
    max_sessions_from_env,
    max_steps_from_env,
    step_limits_from_env,
)
from sketch_env.server.strict_json import StrictJSONBodies
from sketch_env.server.telemetry import ValidationTelemetry, validation_token_from_env
from sketch_env.server.tools import ServedSketchEnvironment, build_mcp_server

__all__ = ["ENV_NAME", "create_sketch_app"]

#: Name under which the environment is served (``/list_environments``, task API paths).
ENV_NAME = "sketch_env"


def create_sketch_app(
    *,
    max_sessions: int | None = None,
    scorer: str | None = None,
    max_steps: int | None = None,
    reward_policy: str | None = None,
    include_image: bool = False,
    renderer: Renderer | str | None = None,
    render_config: RenderConfig | None = None,
    reward_config: RewardConfig | None = None,
    idle_timeout_s: float | None = None,
    config: EvaluationConfig | None = None,
    step_limits: StepLimits | None = None,
) -> FastAPI:
    """Builds the FastAPI app.

    Args:
        max_sessions: Concurrent WebSocket sessions; ``SKETCH_ENV_MAX_SESSIONS`` or 8.
        scorer: Scorer spec; ``SKETCH_ENV_SCORER`` or `DEFAULT_SCORER` (``"vision"``).
        max_steps: Sketches per episode; ``SKETCH_ENV_MAX_STEPS`` or 1.
        reward_policy: ``"last"`` or ``"best"``; ``SKETCH_ENV_REWARD_POLICY`` or ``"last"``.
        include_image: Return PNGs in step observations by default (a client can also ask per
            step with ``SketchAction.include_image``).
        renderer: The renderer; the process-wide shared one when ``None`` or ``"local"``; a
            spec such as ``"ray://auto"`` builds a `RayRenderer` (closed on shutdown).
        render_config: Configuration for the renderer the app builds (ignored when given a
            renderer object).
        reward_config: The reward's weights, thresholds and reference statistics.
        idle_timeout_s: Seconds a WebSocket session may wait for its client before it is
            closed (code 4408); ``SKETCH_ENV_IDLE_TIMEOUT`` or 300.
        config: Renderer, scorer, render limits, gate rules and reward in one
            `EvaluationConfig` (``sketch-env serve --config FILE``); then ``scorer``,
            ``renderer``, ``render_config`` and ``reward_config`` must be left unset. The only
            way to change the gate's rules for a served environment.
        step_limits: The step queue's limits; unset fields come from
            ``SKETCH_ENV_MAX_CONCURRENT_STEPS``, ``SKETCH_ENV_MAX_QUEUED_STEPS`` and
            ``SKETCH_ENV_MAX_HTTP_STEPS``, then the defaults (twice the renderer's pool size,
            ``max_sessions``, ``max_sessions``).

    Returns:
        The app, with OpenEnv's routes (``/ws``, ``/reset``, ``/state``, ``/schema``,
        ``/metadata``, ``/mcp``, task API), the one-step ``POST /step`` and a ``GET /health``
        that reports the step queue. On shutdown it closes the renderer it created.

    Raises:
        ValueError: On a bad setting (``OPENENV_VALIDATION_TOKEN`` included).
    """
    sessions = max_sessions if max_sessions is not None else max_sessions_from_env()
    if isinstance(sessions, bool) or not isinstance(sessions, int) or sessions < 1:
        raise ValueError(f"max_sessions must be a positive integer, got {sessions!r}")
    steps = max_steps if max_steps is not None else max_steps_from_env()
    policy = check_reward_policy(
        reward_policy or os.environ.get("SKETCH_ENV_REWARD_POLICY") or "last"
    )
    if config is not None:
        if any(v is not None for v in (scorer, renderer, render_config, reward_config)):
            raise ValueError(
                "pass either config or scorer/renderer/render_config/reward_config, not both"
            )
        scorer, renderer = config.scorer, config.renderer
        render_config, reward_config = config.render, config.reward
    gate_config = config.gate if config is not None else None
    spec = scorer or os.environ.get("SKETCH_ENV_SCORER") or DEFAULT_SCORER
    idle = (
        check_idle_timeout(idle_timeout_s)
        if idle_timeout_s is not None
        else idle_timeout_from_env()
    )
    owned = renderer is None or isinstance(renderer, str)
    pool: Renderer
    if isinstance(renderer, str) and renderer != "local":
        from sketch_env.distributed import make_renderer

        pool = make_renderer(renderer, config=render_config)
    elif renderer is None or isinstance(renderer, str):
        pool = shared_renderer(render_config)
    else:
        pool = renderer
    evaluator = Evaluator(
        renderer=pool, scorer=spec, reward_config=reward_config, gate_config=gate_config
    )
    queue = _step_queue(step_limits, pool, sessions)
    factory = functools.partial(
        SketchEnvironment,
        evaluator=evaluator,
        max_steps=steps,
        reward_policy=policy,
        include_image=include_image,
    )
    # Fail here, on a bad max_steps or reward_policy, rather than on the first connection.
    factory().close()
    # Sessions get the same settings plus the MCP tools; the tools' one-step episodes use
    # plain environments.
    served = functools.partial(
        ServedSketchEnvironment,
        **factory.keywords,
        mcp_server=build_mcp_server(evaluator, factory, queue),
        steps=queue,
    )
    app = create_app(
        served,
        SketchAction,
        SketchObservation,
        env_name=ENV_NAME,
        # session_timeout drives OpenEnv's own reaper, which expires sessions opened over HTTP
        # (``openenv/session/create`` on /mcp) and not attached to a socket; sockets expire
        # in WebSocketSessionGuard.
        concurrency_config=ConcurrencyConfig(max_concurrent_envs=sessions, session_timeout=idle),
        state_cls=SketchState,
    )
    install_http_step(app, factory, queue)
    _install_health(app, queue, sessions)
    # Added last, so outermost: bodies are checked before anything reads them, and the
    # telemetry records what the client was sent, after the guard's rewriting.
    app.add_middleware(ConnectionGuard, idle_timeout_s=idle)
    app.add_middleware(StrictJSONBodies)
    app.add_middleware(ValidationTelemetry, token=validation_token_from_env())
    if owned:
        app.router.on_shutdown.append(pool.close)
    app.state.sketch_evaluator = evaluator
    app.state.sketch_max_sessions = sessions
    app.state.sketch_idle_timeout_s = idle
    app.state.sketch_steps = queue
    return app


def _step_queue(limits: StepLimits | None, pool: Renderer, sessions: int) -> StepQueue:
    given = limits or StepLimits()
    env = step_limits_from_env()
    capacity = given.capacity or env.capacity
    if capacity is None and isinstance(pool, SketchRenderer):
        # A local pool's size is its configuration; a Ray renderer's is read (connecting to
        # the cluster) on the first step instead.
        capacity = 2 * pool.pool_size
    queued = given.max_queued if given.max_queued is not None else env.max_queued
    return StepQueue(
        capacity=capacity,
        max_queued=sessions if queued is None else queued,
        max_http=given.max_http or env.max_http or sessions,
        resolve_capacity=lambda: 2 * pool.pool_size,
    )


def _install_health(app: FastAPI, steps: StepQueue, sessions: int) -> None:
    """Replaces OpenEnv's ``GET /health`` (status only) with one that also reports the step
    queue: ``{"status": "healthy", "steps": {...}, "max_sessions": N}``."""
    app.router.routes[:] = [
        route
        for route in app.router.routes
        if getattr(route, "path", None) != "/health" or "GET" not in getattr(route, "methods", ())
    ]

    @app.get("/health", tags=["Health"], summary="Health check and step queue")
    async def health() -> dict[str, Any]:
        """The server is up (``status``), and what its step queue holds: ``in_flight``,
        ``queued``, ``capacity``, ``max_queued``, ``http``, ``max_http``, and counts so far
        (``refused``, ``completed``, ``cancelled``)."""
        return {
            "status": HealthStatus.HEALTHY.value,
            "steps": steps.snapshot(),
            "max_sessions": sessions,
        }


_app: FastAPI | None = None


def __getattr__(name: str) -> Any:
    # ``uvicorn sketch_env.server.app:app`` reads this attribute; building it lazily keeps
    # ``import sketch_env.server.app`` free of side effects.
    global _app
    if name == "app":
        if _app is None:
            _app = create_sketch_app()
        return _app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
