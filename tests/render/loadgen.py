"""Load generators for the fairness tests: processes that render in a loop beside a test.

A load generator renders until it is killed, so it must never outlive the test run. An earlier
run left two of them (and their browsers) spinning with parent pid 1: the run was killed from
outside (``timeout`` around pytest), so no fixture's ``finally`` ran. Two guards, then:

* the fixture's teardown kills each generator's whole process tree (collected before anything
  is killed, so a browser whose parent died first is still found), whether the test passed,
  failed or was stopped by pytest-timeout;
* each generator watches its parent and, once the pytest process is gone (its parent pid
  changes), kills its own descendants and exits: the case no teardown can reach.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[2]

#: Prepended to every generator's script: a daemon thread that ends the generator (browsers
#: included) within half a second of the process that started it going away.
EXIT_WITH_PARENT = """
import os as _os, threading as _threading, time as _time

def _exit_with_parent(parent=_os.getppid()):
    import psutil
    while _os.getppid() == parent:
        _time.sleep(0.5)
    for child in psutil.Process().children(recursive=True):
        try:
            child.kill()
        except psutil.Error:
            pass
    _os._exit(1)

_threading.Thread(target=_exit_with_parent, daemon=True).start()
"""


def kill_trees(procs: Sequence[subprocess.Popen[str]]) -> None:
    """Kills each process of ``procs`` with all its descendants, and reaps them.

    Args:
        procs: Processes started by `load_generators` (each leads a session of its own).
    """
    doomed: list[psutil.Process] = []
    for proc in procs:
        with suppress(psutil.NoSuchProcess):
            doomed.extend(psutil.Process(proc.pid).children(recursive=True))
    for proc in procs:
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    for child in doomed:
        with suppress(psutil.NoSuchProcess):
            child.kill()
    for proc in procs:
        proc.wait(timeout=30)
    psutil.wait_procs(doomed, timeout=30)


@contextmanager
def load_generators(
    script: str, argvs: Sequence[Sequence[str]], ready: str
) -> Iterator[list[subprocess.Popen[str]]]:
    """Runs ``script`` once per argument list, waits until each prints ``ready``, and kills
    them all (with their browsers) on the way out, however the block ends.

    Args:
        script: Python source run with ``python -c``; it prints ``ready`` once it loads the
            machine, then works until killed.
        argvs: The command-line arguments of each generator.
        ready: The line each generator prints when it has started.

    Yields:
        The generator processes.

    Raises:
        AssertionError: A generator ended before printing ``ready``.
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs: list[subprocess.Popen[str]] = []
    try:
        for argv in argvs:
            procs.append(
                subprocess.Popen(
                    [sys.executable, "-c", EXIT_WITH_PARENT + script, *argv],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    text=True,
                    env=env,
                    cwd=ROOT,
                    start_new_session=True,
                )
            )
        for proc in procs:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            assert line.strip() == ready, f"a load generator did not start (exit {proc.poll()})"
        yield procs
    finally:
        kill_trees(procs)
