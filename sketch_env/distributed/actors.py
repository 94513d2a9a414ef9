"""The Ray actor that renders: one `SketchRenderer` per actor, served through its async API.

An actor is an async Ray actor, so a single actor process accepts several ``render`` calls at
once (up to its ``max_concurrency``) and hands them all to its renderer, whose browser pool
runs them in parallel. Everything here is imported only on machines that have Ray.
"""

from __future__ import annotations

import asyncio
import os
import socket
from typing import Any

import ray

from sketch_env.render import Render, RenderConfig, SketchRenderer


class RenderWorker:
    """Owns a browser pool on one Ray node and renders sketches sent to it.

    Wrapped by `RenderActor` (``ray.remote``); kept as a plain class too so it can be read and
    documented without a cluster.

    Args:
        config: The renderer configuration; ``pool_size`` is the number of browsers this actor
            runs (the driver sizes it to the node's CPUs).
    """

    def __init__(self, config: RenderConfig) -> None:
        self._renderer = SketchRenderer(config)

    async def start(self) -> dict[str, Any]:
        """Launches the browsers and reports where and how they run.

        Launching blocks for seconds, so it runs in a thread: the actor's event loop stays free
        to answer other calls meanwhile.

        Returns:
            The same dictionary as `info`.
        """
        await asyncio.to_thread(self._renderer.start)
        return await self.info()

    async def info(self) -> dict[str, Any]:
        """Where this actor runs and what it renders with.

        Returns:
            ``node_id``, ``hostname``, ``pid``, ``backend``, ``webgl_renderer``, ``pool_size``
            and ``browser_pids`` (meaningful on the actor's own node only).
        """
        renderer = self._renderer
        return {
            "node_id": ray.get_runtime_context().get_node_id(),
            "hostname": socket.gethostname(),
            "pid": os.getpid(),
            "backend": renderer.backend,
            "webgl_renderer": renderer.webgl_renderer,
            "pool_size": renderer.pool_size,
            "browser_pids": renderer.browser_pids(),
        }

    async def render(self, source: str | bytes, seed: int) -> Render:
        """Renders one sketch with this actor's pool (see `SketchRenderer.render`)."""
        return await self._renderer.render(source, seed=seed)

    async def close(self) -> None:
        """Closes the browsers, so that killing the actor afterwards leaves nothing behind."""
        await asyncio.to_thread(self._renderer.close)


#: ``max_restarts=0``: the driver replaces dead actors itself, choosing the node, so a render
#: is retried exactly once and never silently re-run by Ray behind the driver's back.
RenderActor = ray.remote(max_restarts=0, max_task_retries=0)(RenderWorker)
