"""A bounded queue in front of the renderer: every step the server evaluates passes here first.

Steps come from three places: a session's ``step`` on ``/ws``, a one-step episode on HTTP
``POST /step``, and the MCP ``render``/``paint`` tools. Sessions are bounded by
``max_sessions`` and take one step at a time; the other two hold no session, so nothing bounded
them, and the renderer queued whatever arrived. Measured on 2 cores (pool of 2 browsers,
10 s render deadline): ten HTTP steps of an endless loop, abandoned by their client after 1 s,
kept rendering for their full deadline, and the next WebSocket step took 75.8 s where it takes
1.95 s; a client with OpenEnv's default 60 s message timeout gave up.

`StepQueue` admits at most ``capacity`` steps at once (gate, render, score); up to
``max_queued`` more wait, first come first served; one more is refused at once with
`QueueFullError`, which says when to retry. The server turns that into HTTP 429 with a
``Retry-After`` header, or a ``QUEUE_FULL`` error frame on ``/ws`` that
`sketch_env.server.client.SketchEnvClient` raises as a retryable `ServerBusyError`, the way
browserless answers 429 past its queue. One-step episodes outside sessions (HTTP and MCP) are
also limited to ``max_http`` at once, running or waiting, so they cannot take every place
from the sessions.
Nothing a refused step asked for is counted: a session's episode is where it was.

The queue lives on the server's event loop and is not thread-safe.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import math
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Literal

from sketch_env.errors import SketchEnvError

__all__ = [
    "QUEUE_FULL_CODE",
    "QueueFullError",
    "StepLimits",
    "StepQueue",
]

#: ``detail.code`` of an HTTP 429 and ``data.code`` of the error frame on ``/ws``.
QUEUE_FULL_CODE = "QUEUE_FULL"
#: Bounds of the retry delay the server suggests, in seconds.
_MIN_RETRY_S = 1
_MAX_RETRY_S = 60
#: Weight of the newest step in the running mean of step times that sizes the retry delay.
_EMA_WEIGHT = 0.2


@dataclass(frozen=True)
class StepLimits:
    """How many steps the server evaluates and holds at once; ``None`` picks the default.

    Args:
        capacity: Steps evaluated at once. Default: twice the renderer's pool size, so each
            browser has one step rendering and one being gated or scored beside it (reasoned:
            on the loaded 2-core VM, 2, 4 and 8 at 8 sessions were within the load's noise,
            docs/performance.md).
        max_queued: Steps that may wait for one of those places. Default: ``max_sessions``,
            so sessions alone (one step each at a time) are never refused.
        max_http: One-step episodes outside sessions (HTTP ``POST /step``, MCP tool calls)
            running or waiting at once. Default: ``max_sessions``.

    Raises:
        ValueError: If a limit is not a positive integer (``max_queued`` may be 0).
    """

    capacity: int | None = None
    max_queued: int | None = None
    max_http: int | None = None

    def __post_init__(self) -> None:
        for name, low in (("capacity", 1), ("max_queued", 0), ("max_http", 1)):
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")


class QueueFullError(SketchEnvError):
    """The server is evaluating and holding as many steps as it takes; nothing was counted.

    Args:
        message: What is full, and when to retry.
        retry_after_s: Seconds after which a retry is likely to be admitted (at least 1).
        limit: ``"queue"`` (the step queue) or ``"http"`` (the one-step episodes' limit).
    """

    code = QUEUE_FULL_CODE

    def __init__(self, message: str, retry_after_s: int, limit: Literal["queue", "http"]):
        super().__init__(message)
        self.retry_after_s = retry_after_s
        self.limit = limit


class StepQueue:
    """Admission of steps: ``capacity`` at once, ``max_queued`` waiting, the rest refused.

    Args:
        capacity: Steps evaluated at once; ``None`` to ask ``resolve_capacity`` on the first
            step.
        max_queued: Steps that may wait.
        max_http: One-step episodes running or waiting at once.
        resolve_capacity: Gives the capacity when it was ``None``; called once, in a worker
            thread (reading a Ray renderer's pool size connects to the cluster).

    Raises:
        ValueError: If neither ``capacity`` nor ``resolve_capacity`` is given.

    Examples:
        >>> queue = StepQueue(capacity=4, max_queued=8, max_http=8)
        >>> async def step():  # doctest: +SKIP
        ...     async with queue.admit(http=True):
        ...         return await paint()
    """

    def __init__(
        self,
        capacity: int | None,
        max_queued: int,
        max_http: int,
        resolve_capacity: Callable[[], int] | None = None,
    ) -> None:
        if capacity is None and resolve_capacity is None:
            raise ValueError("StepQueue needs a capacity or a way to resolve it")
        self.capacity = capacity
        self._resolve_capacity = resolve_capacity
        self._resolving: asyncio.Lock | None = None
        self.max_queued = max_queued
        self.max_http = max_http
        self._running = 0
        self._http = 0
        self._waiters: collections.deque[asyncio.Future[None]] = collections.deque()
        self._mean_step_s: float | None = None
        #: Steps refused, completed (answered with an observation), and cancelled before
        #: they finished (the client went away, or a request's ``timeout_s`` ran out).
        self.refused = 0
        self.completed = 0
        self.cancelled = 0

    @contextlib.asynccontextmanager
    async def admit(self, http: bool = False) -> AsyncIterator[None]:
        """Holds a place for one step, waiting in the queue if every place is taken.

        Args:
            http: The step is a one-step episode outside a session (HTTP ``POST /step``, an
                MCP tool), which also counts against ``max_http``.

        Yields:
            Once the step may run.

        Raises:
            QueueFullError: At once, if the queue (or the one-step limit) is full.
        """
        if self.capacity is None:
            await self._resolve()
        self._refuse_if_full(http)
        if http:
            self._http += 1
        try:
            try:
                await self._acquire()
            except asyncio.CancelledError:
                # The client went away while its step waited.
                self.cancelled += 1
                raise
            started = time.monotonic()
            try:
                yield
            except asyncio.CancelledError:
                self.cancelled += 1
                raise
            else:
                self.completed += 1
                self._observe(time.monotonic() - started)
            finally:
                self._release()
        finally:
            if http:
                self._http -= 1

    def snapshot(self) -> dict[str, Any]:
        """What ``/health`` reports.

        Returns:
            ``in_flight`` (steps being evaluated), ``queued`` (waiting), ``capacity``,
            ``max_queued``, ``http`` (one-step episodes running or waiting),
            ``max_http``, ``refused``, ``completed``, ``cancelled`` (so far) and
            ``mean_step_s`` (running mean of recent step times, ``None`` before the first).
        """
        return {
            "in_flight": self._running,
            "queued": len(self._waiters),
            "capacity": self.capacity,
            "max_queued": self.max_queued,
            "http": self._http,
            "max_http": self.max_http,
            "refused": self.refused,
            "completed": self.completed,
            "cancelled": self.cancelled,
            "mean_step_s": None if self._mean_step_s is None else round(self._mean_step_s, 3),
        }

    def retry_after_s(self) -> int:
        """Seconds until a place is likely to be free: the queue ahead, drained at
        ``capacity`` steps per mean step time, rounded up, in ``[1, 60]``."""
        mean = self._mean_step_s if self._mean_step_s is not None else float(_MIN_RETRY_S)
        ahead = len(self._waiters) + 1
        seconds = math.ceil(mean * ahead / max(1, self.capacity or 1))
        return max(_MIN_RETRY_S, min(_MAX_RETRY_S, seconds))

    # ----------------------------------------------------------------- internals

    async def _resolve(self) -> None:
        if self._resolving is None:
            self._resolving = asyncio.Lock()
        async with self._resolving:
            if self.capacity is None and self._resolve_capacity is not None:
                capacity = await asyncio.to_thread(self._resolve_capacity)
                self.capacity = max(1, int(capacity))

    def _refuse_if_full(self, http: bool) -> None:
        if http and self._http >= self.max_http:
            self.refused += 1
            retry = self.retry_after_s()
            raise QueueFullError(
                f"{QUEUE_FULL_CODE}: {self._http} one-step episodes (HTTP /step, MCP tools) "
                f"are running or waiting, the most this server takes at once; retry in "
                f"{retry} s, or step in a session on /ws",
                retry,
                "http",
            )
        capacity = self.capacity or 1
        busy = self._running >= capacity or bool(self._waiters)
        if busy and len(self._waiters) >= self.max_queued:
            self.refused += 1
            retry = self.retry_after_s()
            raise QueueFullError(
                f"{QUEUE_FULL_CODE}: the server is evaluating {self._running} steps and "
                f"{len(self._waiters)} more are waiting, as many as its queue holds; retry in "
                f"{retry} s",
                retry,
                "queue",
            )

    async def _acquire(self) -> None:
        if self._running < (self.capacity or 1) and not self._waiters:
            self._running += 1
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                # Handed a place and cancelled before it ran: pass the place on.
                self._release()
            elif waiter in self._waiters:
                # (A release may already have dropped it: cancelling the task cancels its
                # waiter at once, and `_wake` skips cancelled waiters.)
                self._waiters.remove(waiter)
            raise

    def _release(self) -> None:
        self._running -= 1
        self._wake()

    def _wake(self) -> None:
        # Hands free places to the oldest waiters; each keeps `_running` counting its place.
        while self._waiters and self._running < (self.capacity or 1):
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                self._running += 1

    def _observe(self, seconds: float) -> None:
        if self._mean_step_s is None:
            self._mean_step_s = seconds
        else:
            self._mean_step_s += _EMA_WEIGHT * (seconds - self._mean_step_s)
