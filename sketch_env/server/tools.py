"""MCP tools (``POST /mcp``, the ``/mcp`` WebSocket, and ``"mcp"`` messages on ``/ws``):
OpenEnv's production mode, JSON-RPC 2.0 ``tools/list`` and ``tools/call``.

OpenEnv 0.10 serves MCP for an environment that has an ``mcp_server`` attribute (a FastMCP
server): ``tools/list`` lists its tools and ``tools/call`` calls the tool's function with the
request's arguments. Two tools, both stateless:

- ``render``: gate, render and check a sketch at run time (`Evaluator.preview`); no score. The
  picture, what the browser said, and what the run-time check refuses.
- ``paint``: a one-step painting episode, exactly as HTTP ``POST /step``: gate, render, score,
  reward; the typed observation as a dict.

The episode-control tool is called ``paint``, not ``step``: OpenEnv reserves the tool names
``reset``, ``step``, ``state`` and ``close`` for the environment's own controls
(``RESERVED_TOOL_NAMES``), and its harness refuses tool sets that use them.

Both tools are one-step work outside any session: they pass the app's step queue
(`sketch_env.server.admission`) as one-step episodes, and stop when their client goes away.
A session's own steps pass the same queue (`ServedSketchEnvironment.step_async`).
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

from fastmcp import FastMCP
from openenv.core.env_server.serialization import serialize_observation

from sketch_env.env.environment import SketchEnvironment, check_seed
from sketch_env.env.models import SketchAction, SketchObservation
from sketch_env.evaluation.evaluator import Evaluator
from sketch_env.evaluation.rollout import harness_notes, sketch_errors
from sketch_env.server.admission import StepQueue
from sketch_env.server.http_step import paint_one_step
from sketch_env.server.sessions import while_connected

__all__ = ["ServedSketchEnvironment", "build_mcp_server"]


class ServedSketchEnvironment(SketchEnvironment):
    """`SketchEnvironment` as the server builds it for a session: the same, plus the app's
    MCP tools, with every step admitted by the app's step queue and cancelled when the
    session's client goes away.

    Args:
        *args: `SketchEnvironment`'s arguments.
        mcp_server: The FastMCP server whose tools OpenEnv's ``/mcp`` serves.
        steps: The app's step queue.
        **kwargs: `SketchEnvironment`'s keyword arguments.
    """

    def __init__(self, *args: Any, mcp_server: FastMCP, steps: StepQueue, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.mcp_server = mcp_server
        self._steps = steps

    async def step_async(
        self,
        action: SketchAction | str | dict[str, Any],
        timeout_s: float | None = None,
        **kwargs: Any,
    ) -> SketchObservation:
        """`SketchEnvironment.step_async` behind the step queue.

        Raises:
            EpisodeError: As `SketchEnvironment.step_async` (checked before the queue, so a
                step that cannot be taken never holds a place).
            QueueFullError: If the step queue is full; the episode is unchanged.
            ClientGoneError: If the session's client went away during the step.
        """
        self._check_can_step()
        return await while_connected(self._admitted_step(action, timeout_s))

    async def _admitted_step(
        self, action: SketchAction | str | dict[str, Any], timeout_s: float | None
    ) -> SketchObservation:
        async with self._steps.admit():
            return await super().step_async(action, timeout_s=timeout_s)


def build_mcp_server(
    evaluator: Evaluator, factory: Callable[..., SketchEnvironment], steps: StepQueue
) -> FastMCP:
    """Builds the FastMCP server with the ``render`` and ``paint`` tools.

    Args:
        evaluator: The app's evaluator (its gate configuration and renderer).
        factory: Builds a `SketchEnvironment` for ``paint``.
        steps: The app's step queue; each tool call is a one-step episode in it.

    Returns:
        The server (OpenEnv calls its tools; it is never run on its own transport).
    """
    server: FastMCP = FastMCP("sketch_env")

    @server.tool
    async def render(
        sketch: str, seed: int = 0, include_image: bool = True, include_timings: bool = False
    ) -> dict[str, Any]:
        """Gate and render a p5.js + p5.brush sketch (a reply with a fenced code block, or
        the bare source) without scoring it. Returns whether the gate passed (and why not),
        the render status, JavaScript errors, paint coverage and the PNG as base64; with
        include_timings, the render's wall time and the harness's notes too (they differ on
        every call)."""
        SketchAction(sketch=sketch)  # the same length limit as a step
        value = check_seed(seed)
        return await while_connected(_render(sketch, value, include_image, include_timings))

    async def _render(
        sketch: str, seed: int, include_image: bool, include_timings: bool
    ) -> dict[str, Any]:
        async with steps.admit(http=True):
            # Awaited on the renderer's loop, so a cancelled call cancels the render itself.
            (preview,) = await evaluator.preview([sketch], seed)
        verdict, picture = preview.gate, preview.render
        if picture is None:
            return {
                "gate_passed": False,
                "gate_reasons": list(verdict.reasons),
                "gate_codes": list(verdict.codes),
            }
        png = picture.png if include_image else None
        timings = (
            {"elapsed_ms": picture.elapsed_ms, "harness_notes": harness_notes(picture)}
            if include_timings
            else {}
        )
        return {
            "gate_passed": True,
            "gate_reasons": [],
            "gate_codes": [],
            "runtime_reasons": [issue.message for issue in preview.refusals],
            "runtime_codes": [issue.code for issue in preview.refusals],
            "render_status": picture.status.value,
            "js_errors": sketch_errors(picture),
            "coverage": picture.paint_fraction,
            "backend": picture.backend,
            "width": picture.width,
            "height": picture.height,
            "image_png_b64": base64.b64encode(png).decode("ascii") if png else None,
            **timings,
        }

    @server.tool
    async def paint(
        sketch: str,
        seed: int | None = None,
        task_id: str | None = None,
        prompt: str | None = None,
        include_image: bool = False,
        include_timings: bool = False,
    ) -> dict[str, Any]:
        """Paint one sketch as a one-step episode (as HTTP POST /step): the sketch is gated,
        rendered and scored for the task chosen by seed or task_id (or a free-form prompt).
        Returns the observation (feedback, every reward component), the reward and done."""
        action = SketchAction(
            sketch=sketch, include_image=include_image, include_timings=include_timings
        )
        observation = await paint_one_step(
            factory, steps, action, seed=seed, task_id=task_id, prompt=prompt
        )
        return serialize_observation(observation)

    return server
