"""`RayRenderer`: the local renderer's API, backed by render actors spread over a Ray cluster.

The driver keeps one private event loop on a background thread, like `SketchRenderer`, and
all bookkeeping (which actor is alive, how many renders each has in flight) lives on that loop,
so it needs no locks. Each render goes to the live actor with the fewest renders in flight per
browser, waits for a free place when every actor is at its bound (back-pressure), and is
retried once on another actor if its actor dies. The dead actor is replaced in the background,
on the same node while that node lives.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import ray
from ray.exceptions import (
    GetTimeoutError,
    ObjectLostError,
    OwnerDiedError,
    RayActorError,
    WorkerCrashedError,
)
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from sketch_env.distributed.actors import RenderActor
from sketch_env.render.base import CLOSE_TIMEOUT_S, RendererBase, live_renderers
from sketch_env.render.config import RenderConfig
from sketch_env.render.result import Render, RenderStatus

logger = logging.getLogger(__name__)

#: Failures that mean the actor (or its worker, or its node) is gone: the render never
#: finished there, so it is safe to run it once more elsewhere.
_ACTOR_GONE = (RayActorError, WorkerCrashedError, ObjectLostError, OwnerDiedError)

#: Most browsers one actor runs by default, as for the local renderer (docs/design.md §3.12).
_MAX_DEFAULT_POOL = 8


@dataclass(eq=False)
class _Actor:
    """The driver's view of one render actor."""

    index: int
    handle: Any
    node_id: str
    pool_size: int
    capacity: int
    info: dict[str, Any] = field(default_factory=dict)
    in_flight: int = 0
    alive: bool = True
    generation: int = 0


class RayRenderer(RendererBase):
    """Renders sketches on render actors across a Ray cluster, behind `SketchRenderer`'s API.

    ``render``, ``render_many``, ``render_sync`` and ``render_many_sync`` take and return the
    same things as on `SketchRenderer`; ``start``, ``close``, ``run_coroutine``,
    ``on_own_loop``, ``pool_size`` and ``backend`` behave alike too, so the `Evaluator`, the
    environment and the TRL reward function take either one.

    By default there is one actor per node that has CPUs, each running one browser per CPU of
    its node (at most eight) and reserving those CPUs from Ray. An actor that dies, or whose
    node dies, is replaced (on the same node while it lives) and every render it had in flight
    is retried once on another actor: each render resolves exactly once, in order.

    Args:
        num_actors: Render actors to run; ``None`` runs one per node with CPUs. Actors are
            spread round-robin over the nodes.
        actor_pool_size: Browsers per actor; ``None`` takes ``config.pool_size`` if set, else
            the node's CPUs divided among the actors on it (between 1 and 8).
        config: Renderer settings used by every actor; keyword overrides apply on top.
        address: Ray cluster to use: ``None`` joins the one this process is already connected
            to, or starts a private local one; ``"auto"`` joins the cluster started on this
            machine with ``ray start``; ``"HOST:PORT"`` joins the cluster whose head listens
            there (the GCS port, 6379 by default).
        max_in_flight_per_actor: Renders sent to one actor at a time; ``None`` allows twice its
            browsers (one running and one queued per browser, which hides the Ray round trip).
            Further renders wait on the driver.
        actor_options: Extra ``.options()`` for every actor (e.g. ``{"num_cpus": 0}`` to
            reserve nothing, ``{"resources": {"render": 1}}``, a ``runtime_env``).
        init_options: Extra ``ray.init`` arguments when this renderer connects to Ray itself.
        start_timeout_s: Bound on actors being scheduled and launching their browsers.
        call_timeout_s: Bound on one call to an actor, against a wedged actor or a partitioned
            node; the actor is then killed and replaced and the render retried. ``None``
            derives a generous bound from the deadline, retries and queue depth.
        **overrides: Any `RenderConfig` field.

    Examples:
        >>> from sketch_env.distributed import RayRenderer
        >>> with RayRenderer(address="auto", backend="llvmpipe") as renderer:  # doctest: +SKIP
        ...     results = renderer.render_many_sync(sources, seeds=range(len(sources)))
    """

    _thread_name = "sketch-env-ray"

    def __init__(
        self,
        num_actors: int | None = None,
        actor_pool_size: int | None = None,
        config: RenderConfig | None = None,
        address: str | None = None,
        max_in_flight_per_actor: int | None = None,
        actor_options: dict[str, Any] | None = None,
        init_options: dict[str, Any] | None = None,
        start_timeout_s: float = 300.0,
        call_timeout_s: float | None = None,
        **overrides: Any,
    ) -> None:
        if num_actors is not None and num_actors < 1:
            raise ValueError(f"num_actors must be at least 1, got {num_actors}")
        if actor_pool_size is not None and actor_pool_size < 1:
            raise ValueError(f"actor_pool_size must be at least 1, got {actor_pool_size}")
        if max_in_flight_per_actor is not None and max_in_flight_per_actor < 1:
            raise ValueError(
                f"max_in_flight_per_actor must be at least 1, got {max_in_flight_per_actor}"
            )
        super().__init__(config, **overrides)
        self.num_actors = num_actors
        self.actor_pool_size = actor_pool_size or self.config.pool_size
        self.address = address
        self.max_in_flight_per_actor = max_in_flight_per_actor
        self.actor_options = dict(actor_options or {})
        self.init_options = dict(init_options or {})
        self.start_timeout_s = start_timeout_s
        self.call_timeout_s = call_timeout_s
        self._actors: list[_Actor] = []
        # Futures of renders waiting for a free actor; woken (all) whenever that may change.
        self._waiters: list[asyncio.Future[None]] = []
        self._pending = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._owns_ray = False
        self.replacements = 0

    # ------------------------------------------------------------------ lifetime
    def start(self) -> RayRenderer:
        """Connects to Ray, places the actors and waits until every one has its browsers.

        Idempotent and thread-safe; called implicitly by the first render.

        Returns:
            ``self``.

        Raises:
            BrowserNotFoundError: If an actor's node has no Chromium.
            BackendUnavailableError: If no GL backend works on an actor's node.
            RuntimeError: If the renderer was closed, the cluster has no node with CPUs, or the
                actors could not be scheduled within ``start_timeout_s``.
        """
        return super().start()

    def _launch(self) -> None:
        self._connect()
        self._actors = self._launch_actors(self._plan())
        logger.info(
            "sketch_env ray renderer: %d actors, %d browsers on %s",
            len(self._actors),
            sum(a.pool_size for a in self._actors),
            self._known_backend(),
        )

    def _connect(self) -> None:
        if ray.is_initialized():
            # Joining the caller's connection: it is theirs to shut down, not ours.
            return
        # Ray reads this switch when it starts a cluster: no usage report leaves the machine.
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": True}
        if self.address is not None:
            options["address"] = self.address
        options.update(self.init_options)
        ray.init(**options)
        self._owns_ray = True

    def _cpu_nodes(self) -> list[tuple[str, float]]:
        """Alive nodes with CPUs, as ``(node_id, cpus)``, in a stable order."""
        nodes = [
            (node["NodeID"], float(node.get("Resources", {}).get("CPU", 0.0)))
            for node in ray.nodes()
            if node.get("Alive")
        ]
        return sorted((n for n in nodes if n[1] > 0), key=lambda n: n[0])

    def _plan(self) -> list[tuple[str, int]]:
        """Where each actor goes and how many browsers it runs."""
        nodes = self._cpu_nodes()
        if not nodes:
            raise RuntimeError("the Ray cluster has no alive node with CPUs to render on")
        count = self.num_actors or len(nodes)
        placed = [nodes[i % len(nodes)] for i in range(count)]
        per_node = {node_id: placed.count((node_id, cpus)) for node_id, cpus in nodes}
        plan = []
        for node_id, cpus in placed:
            size = self.actor_pool_size or max(
                1, min(_MAX_DEFAULT_POOL, int(cpus // per_node[node_id]))
            )
            plan.append((node_id, size))
        return plan

    def _spawn(self, node_id: str, pool_size: int) -> Any:
        capacity = self.max_in_flight_per_actor or 2 * pool_size
        options: dict[str, Any] = {
            # The browsers are the work: reserve their CPUs so Ray schedules nothing else there.
            "num_cpus": pool_size,
            # Spare room beyond the in-flight bound for the info/close calls.
            "max_concurrency": capacity + 2,
            # Soft: if the node vanished since it was chosen, Ray places the actor elsewhere.
            "scheduling_strategy": NodeAffinitySchedulingStrategy(node_id, soft=True),
        }
        options.update(self.actor_options)
        return RenderActor.options(**options).remote(replace(self.config, pool_size=pool_size))

    def _launch_actors(self, plan: list[tuple[str, int]]) -> list[_Actor]:
        handles = [self._spawn(node_id, size) for node_id, size in plan]
        try:
            infos = ray.get([h.start.remote() for h in handles], timeout=self.start_timeout_s)
        except GetTimeoutError as exc:
            self._kill(handles)
            raise RuntimeError(
                f"{len(handles)} render actors did not start within {self.start_timeout_s:.0f} s; "
                "the cluster may lack free CPUs for them (pass actor_pool_size, num_actors or "
                "actor_options={'num_cpus': ...})"
            ) from exc
        except BaseException:
            self._kill(handles)
            raise
        return [
            _Actor(
                index=i,
                handle=handle,
                node_id=info["node_id"],
                pool_size=info["pool_size"],
                capacity=self.max_in_flight_per_actor or 2 * info["pool_size"],
                info=info,
            )
            for i, (handle, info) in enumerate(zip(handles, infos, strict=True))
        ]

    @staticmethod
    def _kill(handles: Sequence[Any]) -> None:
        for handle in handles:
            with contextlib.suppress(Exception):  # Already dead is fine.
                ray.kill(handle, no_restart=True)

    def _after_close(self) -> None:
        # Actors that did not close in time are killed; Ray is shut down only if we started it.
        self._kill([a.handle for a in self._actors])
        if self._owns_ray and ray.is_initialized():
            ray.shutdown()

    async def _shutdown(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        live = [a for a in self._actors if a.alive]
        if live:
            closing = [asyncio.wrap_future(a.handle.close.remote().future()) for a in live]
            with contextlib.suppress(Exception):
                await asyncio.wait_for(
                    asyncio.gather(*closing, return_exceptions=True), CLOSE_TIMEOUT_S
                )
        self._wake()  # Renders waiting for an actor see the renderer closed.

    # ------------------------------------------------------------------ introspection
    @property
    def pool_size(self) -> int:
        """Browsers across all live actors (starts the renderer if needed)."""
        self.start()
        return sum(a.pool_size for a in self._actors if a.alive)

    @property
    def backend(self) -> str:
        """The GL backend the actors render on; several joined by ``+`` if nodes differ."""
        self.start()
        names = sorted({a.info["backend"] for a in self._actors if a.info})
        return "+".join(names)

    def actors(self) -> list[dict[str, Any]]:
        """One dictionary per actor slot: its `RenderWorker.info` plus the driver's view.

        Returns:
            Dictionaries with ``index``, ``alive``, ``in_flight``, ``capacity``,
            ``generation`` (how often the slot was replaced), ``node_id``, ``pool_size``,
            ``backend``, ``pid``, ``browser_pids`` and ``hostname``.
        """
        self.start()
        return [
            {
                **a.info,
                "index": a.index,
                "alive": a.alive,
                "in_flight": a.in_flight,
                "capacity": a.capacity,
                "generation": a.generation,
                "node_id": a.node_id,
                "pool_size": a.pool_size,
            }
            for a in self._actors
        ]

    def actor_handles(self) -> list[Any]:
        """The Ray handles of the live actors (for fault-injection tests and tooling)."""
        self.start()
        return [a.handle for a in self._actors if a.alive]

    # ------------------------------------------------------------------ scheduling
    async def _render_checked(self, data: bytes, seed: int, backend: str) -> Render:
        notes: list[str] = []
        tried: set[int] = set()
        waited = 0.0
        # Two tries: the first actor, then (only if that actor died) one other.
        for attempt in (1, 2):
            asked = time.perf_counter()
            actor = await self._acquire(avoid=tried)
            waited += time.perf_counter() - asked
            if actor is None:
                notes.append("harness: no render actor is alive")
                break
            tried.add(id(actor))
            try:
                result = await self._call_actor(actor, data, seed)
            except _ACTOR_GONE as exc:
                notes.append(
                    f"harness: render actor {actor.index} ({actor.node_id[:8]}) died on "
                    f"attempt {attempt}: {type(exc).__name__}"
                )
                self._lost(actor)
                continue
            except TimeoutError:
                notes.append(
                    f"harness: render actor {actor.index} did not answer on attempt {attempt}"
                )
                self._lost(actor, kill=True)
                continue
            finally:
                self._release(actor)
            # Queued here for an actor, then on the actor for one of its browsers.
            queue_ms = waited * 1000.0 + result.queue_ms
            if not notes:
                return replace(result, queue_ms=queue_ms)
            return replace(
                result,
                errors=(*notes, *result.errors),
                attempts=result.attempts + len(notes),
                queue_ms=queue_ms,
            )
        return Render(
            RenderStatus.CRASHED,
            errors=tuple(notes),
            backend=self._known_backend(),
            seed=seed,
            attempts=max(1, len(tried)),
            queue_ms=waited * 1000.0,
        )

    async def _call_actor(self, actor: _Actor, source: bytes, seed: int) -> Render:
        ref = actor.handle.render.remote(source, seed)
        try:
            return await asyncio.wait_for(
                asyncio.wrap_future(ref.future()), timeout=self._call_timeout(actor)
            )
        except asyncio.CancelledError:
            # The caller gave up: stop the work on the actor too, rather than let it run on.
            with contextlib.suppress(Exception):
                ray.cancel(ref)
            raise

    def _call_timeout(self, actor: _Actor) -> float:
        if self.call_timeout_s is not None:
            return self.call_timeout_s
        # Every attempt of every render queued ahead on one browser, plus a relaunch, plus slack.
        # An attempt runs to the hard wall cap, not the deadline, on a loaded node (the deadline
        # charges the sketch's own time: render/budget.py).
        queue = math.ceil(actor.capacity / actor.pool_size)
        attempt = self.config.deadline_s * self.config.max_wall_factor
        per_render = (attempt + 15.0) * (self.config.retries + 1)
        return queue * per_render + self.config.launch_timeout_s + 30.0

    def _known_backend(self) -> str:
        return "+".join(sorted({a.info["backend"] for a in self._actors if a.info}))

    async def _acquire(self, avoid: set[int]) -> _Actor | None:
        """Takes a place on the live actor with the fewest renders in flight per browser.

        Waits while every actor is at its bound, or while only replacements are left to come.

        Returns:
            The actor, or ``None`` when no actor is alive and none is being replaced.
        """
        while True:
            if self._closed:
                raise RuntimeError("this RayRenderer is closed")
            live = [a for a in self._actors if a.alive]
            fresh = [a for a in live if id(a) not in avoid]
            if not fresh and self._pending == 0:
                if not live:
                    return None
                fresh = live
            free = [a for a in fresh if a.in_flight < a.capacity]
            if free:
                actor = min(free, key=lambda a: (a.in_flight / a.pool_size, a.index))
                actor.in_flight += 1
                return actor
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                await waiter
            finally:
                with contextlib.suppress(ValueError):
                    self._waiters.remove(waiter)

    def _release(self, actor: _Actor) -> None:
        # Synchronous on purpose: it runs in ``finally`` even when the render is cancelled.
        actor.in_flight -= 1
        self._wake()

    def _wake(self) -> None:
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    def _lost(self, actor: _Actor, kill: bool = False) -> None:
        """Marks an actor dead (once, however many of its renders report it) and replaces it."""
        if not actor.alive or self._closed:
            return
        actor.alive = False
        logger.warning(
            "render actor %d on node %s is gone; replacing it", actor.index, actor.node_id[:8]
        )
        if kill:
            self._kill([actor.handle])
        self._pending += 1
        task = asyncio.get_running_loop().create_task(self._replace(actor))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _replace(self, dead: _Actor) -> None:
        handle = None
        try:
            nodes = await asyncio.to_thread(self._cpu_nodes)
            if not nodes:
                raise RuntimeError("no alive node with CPUs")
            # The dead actor's node if it still lives (it now has a free place), else the node
            # with the fewest of our live actors.
            load = {node_id: 0 for node_id, _ in nodes}
            for a in self._actors:
                if a.alive and a.node_id in load:
                    load[a.node_id] += 1
            node_id = (
                dead.node_id if dead.node_id in load else min(load, key=lambda n: (load[n], n))
            )
            handle = self._spawn(node_id, dead.pool_size)
            info = await asyncio.wait_for(
                asyncio.wrap_future(handle.start.remote().future()), self.start_timeout_s
            )
            if self._closed:
                raise RuntimeError("renderer closed meanwhile")
            self._actors[dead.index] = _Actor(
                index=dead.index,
                handle=handle,
                node_id=info["node_id"],
                pool_size=info["pool_size"],
                capacity=self.max_in_flight_per_actor or 2 * info["pool_size"],
                info=info,
                generation=dead.generation + 1,
            )
            self.replacements += 1
            handle = None
            logger.info("render actor %d replaced on node %s", dead.index, info["node_id"])
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            logger.error("could not replace render actor %d: %s", dead.index, exc)
        finally:
            if handle is not None:
                self._kill([handle])
            self._kill([dead.handle])
            self._pending -= 1
            self._wake()


@atexit.register
def _close_all() -> None:
    # Registered after Ray's own exit hook (Ray is imported above), so it runs before it: the
    # actors are closed while Ray still runs.
    for renderer in live_renderers():
        if not isinstance(renderer, RayRenderer):
            continue
        with contextlib.suppress(Exception):
            renderer.close()
