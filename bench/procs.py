"""Watching browser process trees: peak RSS of a pool, and CPU time per Chromium process type.

A sampling thread walks the trees under the given root pids a few times a second. Short-lived
processes matter here: every render's context gets its own renderer process, which exits when
the context closes, so CPU time is taken from the last sample seen of each process (at most one
interval of it is missed per process) rather than from the survivors at the end.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Callable

import psutil


def process_type(cmdline: list[str]) -> str:
    """Chromium's process type from its command line (``browser`` when there is no --type).

    Args:
        cmdline: The process's arguments.

    Returns:
        ``browser``, ``renderer``, ``gpu-process``, ``utility``, ``zygote``...
    """
    for arg in cmdline:
        if arg.startswith("--type="):
            return arg[len("--type=") :]
    return "browser"


class TreeMonitor:
    """Samples the process trees under ``roots()`` on a background thread.

    Args:
        roots: Returns the root pids to watch (``None`` entries are skipped).
        interval_s: Sampling period.
    """

    def __init__(self, roots: Callable[[], list[int | None]], interval_s: float = 0.2) -> None:
        self._roots = roots
        self._interval_s = interval_s
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._cpu: dict[int, tuple[str, float]] = {}
        self._types: dict[int, str] = {}
        self.peak_rss = 0
        self.peak_pss = 0
        self.peak_processes = 0
        self._samples = 0

    def _sample(self) -> None:
        procs: list[psutil.Process] = []
        for pid in self._roots():
            if pid is None:
                continue
            try:
                root = psutil.Process(pid)
                procs += [root, *root.children(recursive=True)]
            except psutil.Error:
                continue
        rss = pss = 0
        seen = 0
        # RSS counts pages shared between Chromium's processes once per process (an upper
        # bound); PSS splits them fairly but reads /proc/PID/smaps, so it is taken once a second.
        self._samples += 1
        with_pss = self._samples % max(1, round(1.0 / self._interval_s)) == 1
        for proc in procs:
            try:
                with proc.oneshot():
                    kind = self._types.get(proc.pid)
                    if kind is None:
                        kind = self._types[proc.pid] = process_type(proc.cmdline())
                    times = proc.cpu_times()
                    rss += proc.memory_info().rss
                    if with_pss:
                        pss += getattr(proc.memory_full_info(), "pss", 0)
            except psutil.Error:
                continue
            seen += 1
            with self._lock:
                self._cpu[proc.pid] = (kind, times.user + times.system)
        with self._lock:
            self.peak_rss = max(self.peak_rss, rss)
            self.peak_pss = max(self.peak_pss, pss)
            self.peak_processes = max(self.peak_processes, seen)

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._sample()
            self._stop.wait(self._interval_s)

    def start(self) -> TreeMonitor:
        """Starts sampling."""
        self._thread = threading.Thread(target=self._loop, name="bench-monitor", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Takes a last sample and stops."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._sample()

    def cpu_snapshot(self) -> dict[int, tuple[str, float]]:
        """CPU seconds so far per process id (with its type), as last sampled."""
        self._sample()
        with self._lock:
            return dict(self._cpu)

    def reset_peak(self) -> None:
        """Forgets the peak RSS (to measure one phase)."""
        with self._lock:
            self.peak_rss = 0
            self.peak_pss = 0
            self.peak_processes = 0


def cpu_by_type(
    before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]]
) -> dict[str, float]:
    """CPU seconds spent per process type between two snapshots.

    Args:
        before: `TreeMonitor.cpu_snapshot` at the start.
        after: The snapshot at the end.

    Returns:
        Seconds per type, e.g. ``{"gpu-process": 12.3, "renderer": 1.1, ...}``.
    """
    spent: dict[str, float] = defaultdict(float)
    for pid, (kind, seconds) in after.items():
        spent[kind] += seconds - before.get(pid, (kind, 0.0))[1]
    return {k: round(v, 2) for k, v in sorted(spent.items())}


def wait_quiet(seconds: float) -> None:
    """Sleeps; used between phases so warm pages finish loading before timing starts."""
    time.sleep(seconds)
