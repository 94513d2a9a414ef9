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

from typing import Any

from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient

from sketch_env.env.models import SketchAction, SketchObservation, SketchState

__all__ = ["SketchEnvClient"]


class SketchEnvClient(EnvClient[SketchAction, SketchObservation, SketchState]):
    """Client for one session (one WebSocket) of the sketch environment.

    ``step`` takes a `SketchAction` or the reply text. Results are ``StepResult`` objects whose
    ``observation`` is a typed `SketchObservation`. Server-side errors (step before reset,
    unknown task, bad seed, server at capacity) raise ``RuntimeError`` with the server's
    message and code.
    """

    def _step_payload(self, action: SketchAction | str) -> dict[str, Any]:
        if isinstance(action, str):
            action = SketchAction(sketch=action)
        return action.model_dump()

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
