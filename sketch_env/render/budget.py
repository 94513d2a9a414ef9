"""A render's time budget: what the sketch itself used, not how busy the machine was.

A wall-clock deadline grades the machine as much as the sketch. Measured on the shared 2-core
development VM at load average 17-27: ``landscape-watercolour-misty-valley`` (a reference of
the pool) ran 15.8 s against a 12 s deadline and was charged ``timeout`` after using 4.4 CPU-s
of its browser's processes; on a quiet machine it finishes in a few seconds. With a second
process rendering heavy sketches on a pool of its own, three of four watercolour references
timed out at 31-35 s on the default 30 s deadline.

So `SketchClock` keeps the sketch's own time, from its browser's process tree (the browser is
dedicated to one render while it runs, so everything its processes do is that render's):

* **Time not held back.** Wall time minus, for each sampling interval, the longest time one of
  the tree's threads spent runnable but waiting for a CPU (Linux's per-thread schedstat; a wait
  reported after it ended, longer than the interval, takes back free time counted before). A
  sketch that spins for ever is held back by the load in proportion to it, so this is its CPU
  time; one that sleeps for ever (an ``await`` that never resolves) uses no CPU but is not held
  back either, so its wall time counts. The *longest* wait of any one thread, not their sum:
  an idle tree of ~115 threads summed 15 s of waiting over a 14 s render at load 22 (each
  wake-up queues behind the load), which would have let an idle sketch look starved. The
  longest wait under-counts a critical path that hops between threads within one interval,
  which errs towards charging the sketch, as a wall deadline did.
* **CPU time over the cores.** The tree's CPU-seconds since the render began, divided by the
  cores it may run on: the wall time the same work takes at best on this machine when it is
  quiet. Whole CPU-seconds would charge parallel raster: llvmpipe rasterises on one thread per
  core, and ``abstract-watercolour-colour-field`` (a reference) used 30.3 CPU-s in an ``ok``
  render that took 88 s at load 17, more than the whole 30 s budget.

The sketch's time is the larger of the two. The render is charged ``timeout`` once its wall
time has passed ``deadline_s`` and its own time has too, so on a quiet machine a render ends
exactly when it used to.

At ``max_wall_factor`` times the deadline every render ends. One whose own time is still short
then is charged all the same if it **spun**: its JavaScript thread (the main thread of its
browser's renderer process) was busy, running or waiting for a CPU, for at least
`SPIN_FRACTION` of the wall time. It burned whatever CPU it was given, which is what an endless
loop does however slow the machine: before this rule ``while (true) {}`` beside two processes
rendering heavy references ended ``crashed`` (reward ``None``, left out of the loss) in one run
of two, because its thread got under a quarter of a core and its own time stayed short of the
deadline at the cap (issue 29). Only a render whose JavaScript thread sat blocked most of the
time, waiting on its other processes while the load starved them, or stopped by the system,
was held back by the machine: it ends as an infrastructure failure (``crashed``), never as the
sketch's. A thread the system stopped (``SIGSTOP``, a frozen cgroup) waits for no CPU and is
not idle by choice either: the intervals it spends stopped are counted as held back.

Why the sketch cannot look held back on its own: a thread waits for a CPU only when every core
is busy. If the sketch's own threads are what keeps them busy, its CPU time grows by one
second per core per second, and the CPU rule charges it at the deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import psutil

logger = logging.getLogger(__name__)

#: Who a spent budget is charged to.
SKETCH = "sketch"
MACHINE = "machine"


#: At the wall cap, a render under budget is charged when its JavaScript thread was found busy
#: (running, or runnable and waiting for a CPU) in at least this share of the samples.
#: ``while (true) {}`` keeps it busy all of the time whatever the load; a render blocked on its
#: starved GPU process, or stopped, leaves it asleep.
SPIN_FRACTION = 0.5


def _thread_waits(pid: int) -> dict[int, float]:
    """Seconds each thread of ``pid`` has spent runnable but waiting for a CPU (schedstat)."""
    waits: dict[int, float] = {}
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return waits
    for tid in threads:
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat", encoding="ascii") as f:
                waits[int(tid)] = int(f.read().split()[1]) / 1e9
        except (OSError, ValueError, IndexError):
            continue
    return waits


def _state(pid: int) -> str:
    """The scheduler state of the main thread of ``pid`` (``R``, ``S``, ``D``, ``T``...)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            # The state follows the command name, which may hold spaces and parentheses.
            return f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "?"


def _is_renderer(proc: psutil.Process) -> bool:
    try:
        return "--type=renderer" in proc.cmdline()
    except psutil.Error:
        return False


def _cores() -> int:
    """CPUs this process (and the browsers it launches) may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def schedstat_available() -> bool:
    """Whether this kernel reports per-thread run-queue waits (``/proc/<pid>/schedstat``)."""
    return os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/schedstat")


@dataclass
class Sample:
    """The tree's counters at one moment.

    Args:
        at: ``time.perf_counter()`` of the reading.
        cpu: CPU-seconds of each process (user + system, its ended threads included).
        waits: Run-queue wait of each thread, by ``(pid, tid)``.
        states: The scheduler state of each JavaScript thread (the main thread of a renderer
            process), by pid.
    """

    at: float
    cpu: dict[int, float] = field(default_factory=dict)
    waits: dict[tuple[int, int], float] = field(default_factory=dict)
    states: dict[int, str] = field(default_factory=dict)


def read_sample(
    processes: Sequence[psutil.Process], threads: bool = True, scripts: Sequence[int] = ()
) -> Sample:
    """Reads the CPU time of each process and, with ``threads``, each thread's run-queue wait.

    Args:
        processes: The browser's process tree.
        threads: Also read the per-thread waits.
        scripts: The pids whose main thread runs JavaScript (the renderer processes): their
            scheduler state is read too.

    Returns:
        The `Sample`.
    """
    sample = Sample(time.perf_counter())
    for proc in processes:
        try:
            times = proc.cpu_times()
        except psutil.Error:
            continue
        sample.cpu[proc.pid] = times.user + times.system
        if threads:
            for tid, wait in _thread_waits(proc.pid).items():
                sample.waits[(proc.pid, tid)] = wait
        if proc.pid in scripts:
            sample.states[proc.pid] = _state(proc.pid)
    return sample


class SketchClock:
    """Keeps one render's own time and says when its budget is spent, and by whose fault.

    Args:
        processes: Returns the browser's process tree (rescanned now and then by the caller).
        deadline_s: The sketch's budget, in seconds of its own time (``RenderConfig.deadline_s``).
        max_wall_factor: Wall-clock cap, as a multiple of ``deadline_s``.
        poll_s: Interval between samples.
    """

    def __init__(
        self,
        processes: Callable[[], Sequence[psutil.Process]],
        deadline_s: float,
        max_wall_factor: float,
        poll_s: float = 0.2,
    ) -> None:
        self._processes = processes
        self.deadline_s = deadline_s
        self.cap_s = deadline_s * max(1.0, max_wall_factor)
        self.poll_s = poll_s
        self._threads = schedstat_available()
        self._renderer: dict[int, bool] = {}
        tree = processes()
        self._start = read_sample(tree, self._threads, self._scripts(tree))
        self._last = self._start
        #: Samples taken, and of them those that found each JavaScript thread busy (running,
        #: or runnable and waiting for a CPU: state ``R``). A thread's own run-queue wait is
        #: no measure of this: Linux adds a wait to schedstat only when the wait ends, so a
        #: thread that gets a sliver of a core shows its waits late, in lumps.
        self._samples = 0
        self._busy: dict[int, int] = {}
        #: CPU-seconds the tree used since the render began.
        self.cpu_s = 0.0
        #: Cores the browser's processes may run on.
        self.cores = max(1, _cores())
        #: Wall time during which no thread of the tree was held back by the machine.
        self.free_s = 0.0
        #: Wall time since the render began (at the last sample).
        self.wall_s = 0.0
        #: ``SKETCH`` or ``MACHINE`` once the budget is spent; ``None`` before.
        self.verdict: str | None = None

    def _scripts(self, tree: Sequence[psutil.Process]) -> list[int]:
        """The pids whose main thread runs the sketch's JavaScript: the renderer processes, or
        (a tree that is not a browser's) every process."""
        for proc in tree:
            if proc.pid not in self._renderer:
                self._renderer[proc.pid] = _is_renderer(proc)
        renderers = [p.pid for p in tree if self._renderer[p.pid]]
        return renderers or [p.pid for p in tree]

    @property
    def used_s(self) -> float:
        """The sketch's own time so far: its unhindered time, or its CPU time over the cores."""
        return max(self.cpu_s / self.cores, self.free_s)

    @property
    def busy_share(self) -> float:
        """The largest share of the samples that found one JavaScript thread busy (running, or
        runnable and waiting for a CPU)."""
        if self._samples == 0 or not self._busy:
            return 0.0
        return max(self._busy.values()) / self._samples

    @property
    def spun(self) -> bool:
        """Whether the sketch burned whatever CPU it was given (see `SPIN_FRACTION`)."""
        return self.busy_share >= SPIN_FRACTION

    def update(self) -> None:
        """Takes a sample and adds the interval since the last one."""
        tree = self._processes()
        now = read_sample(tree, self._threads, self._scripts(tree))
        step = max(0.0, now.at - self._last.at)
        held = 0.0
        for key, wait in now.waits.items():
            # A thread first seen now counts from now.
            held = max(held, wait - self._last.waits.get(key, wait))
        self._samples += 1
        for pid, state in now.states.items():
            self._busy[pid] = self._busy.get(pid, 0) + (state == "R")
            if state in ("T", "t") and self._last.states.get(pid) in ("T", "t"):
                # Stopped all along the interval: held back by the system, not idle by choice.
                held = max(held, step)
        if not self._threads:
            held = step  # Unknown: only the CPU rule and the cap decide.
        # Linux adds a wait to schedstat when it ends, so a thread that gets a sliver of a core
        # reports its waits late, in lumps longer than the interval (measured: a spinning
        # thread given 3% of a core was credited ~100 ms every other 50 ms interval and looked
        # free 40% of the time). A wait longer than the interval takes back free time counted
        # before it.
        self.free_s = max(0.0, self.free_s + step - held)
        self.cpu_s = sum(cpu - self._start.cpu.get(pid, 0.0) for pid, cpu in now.cpu.items()) + sum(
            # A process that ended keeps what it used while it was seen.
            self._last.cpu[pid] - self._start.cpu.get(pid, 0.0)
            for pid in self._last.cpu.keys() - now.cpu.keys()
        )
        self.wall_s = now.at - self._start.at
        # Threads that ended are forgotten; their waits were counted while they were seen.
        self._last = Sample(now.at, {**self._last.cpu, **now.cpu}, now.waits, now.states)

    def judge(self) -> str | None:
        """Returns ``SKETCH`` or ``MACHINE`` when the render must stop now, else ``None``."""
        if self.wall_s < self.deadline_s:
            return None
        if self.used_s >= self.deadline_s:
            return SKETCH
        if self.wall_s >= self.cap_s:
            return SKETCH if self.spun else MACHINE
        return None

    async def run_out(self, stop: Callable[[], None]) -> None:
        """Samples until the budget is spent, then records the verdict and calls ``stop``.

        Args:
            stop: Ends the render (reschedules its timeout to now).
        """
        while self.verdict is None:
            # Jittered, so a sketch cannot time its waits to the samples.
            await asyncio.sleep(self.poll_s * random.uniform(0.5, 1.5))
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.update)
            self.verdict = self.judge()
        stop()

    def describe(self) -> str:
        """What the sketch used, for the render's errors."""
        return (
            f"{self.cpu_s:.1f} CPU-s on {self.cores} cores and {self.free_s:.1f} s not held "
            f"back by other load, in {self.wall_s:.1f} s of wall time; its JavaScript thread "
            f"was busy {100 * self.busy_share:.0f}% of it"
        )


class WallClock:
    """The plain wall-clock deadline, for a render with no process tree to measure.

    Args:
        deadline_s: The deadline.
    """

    def __init__(self, deadline_s: float) -> None:
        self.deadline_s = deadline_s
        self.verdict: str | None = None
        self._start = time.perf_counter()

    async def run_out(self, stop: Callable[[], None]) -> None:
        """Sleeps out the deadline, then records the verdict and calls ``stop``."""
        await asyncio.sleep(max(0.0, self._start + self.deadline_s - time.perf_counter()))
        self.verdict = SKETCH
        stop()

    def describe(self) -> str:
        """What the sketch used, for the render's errors."""
        return f"{time.perf_counter() - self._start:.1f} s of wall time"
