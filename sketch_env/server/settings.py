"""The server's settings read from the environment, and their checks.

Kept apart from the app (`sketch_env.server.app`) so that ``sketch-env serve`` can check every
setting before it imports the app: OpenEnv's server package loads gradio, and a bad
``--idle-timeout`` waited 10 s on two cores for its one-line error while it did (now about 1 s).

- ``SKETCH_ENV_MAX_SESSIONS``: concurrent sessions (default `DEFAULT_MAX_SESSIONS`).
- ``SKETCH_ENV_MAX_STEPS``: sketches per episode (default 1).
- ``SKETCH_ENV_IDLE_TIMEOUT``: seconds a session may stay idle (default `DEFAULT_IDLE_TIMEOUT_S`).
- ``SKETCH_ENV_MAX_CONCURRENT_STEPS``, ``SKETCH_ENV_MAX_QUEUED_STEPS``,
  ``SKETCH_ENV_MAX_HTTP_STEPS``: the step queue (`sketch_env.server.admission.StepLimits`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

from sketch_env.server.admission import StepLimits

__all__ = [
    "DEFAULT_IDLE_TIMEOUT_S",
    "DEFAULT_MAX_SESSIONS",
    "MAX_IDLE_TIMEOUT_S",
    "check_idle_timeout",
    "idle_timeout_from_env",
    "max_sessions_from_env",
    "max_steps_from_env",
    "step_limits_from_env",
]

T = TypeVar("T")

#: Sessions allowed when ``SKETCH_ENV_MAX_SESSIONS`` is unset: one GRPO group of 8.
DEFAULT_MAX_SESSIONS = 8
#: Seconds a session may wait for its client's next message before it is closed. Generating
#: a revision with a 7B policy takes seconds to a minute; five minutes of silence is a client
#: that is gone or stuck, and its slot is worth more to the next one.
DEFAULT_IDLE_TIMEOUT_S = 300.0
#: Largest idle timeout accepted (one day).
MAX_IDLE_TIMEOUT_S = 86400.0


def _from_env(name: str, default: T, parse: Callable[[str], T], kind: str) -> T:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return parse(raw)
    except ValueError:
        raise ValueError(f"{name} must be {kind}, got {raw!r}") from None


def _int_env(name: str, default: int, low: int, high: int) -> int:
    value = _from_env(name, default, int, "an integer")
    if not low <= value <= high:
        raise ValueError(f"{name} must be in [{low}, {high}], got {value}")
    return value


def check_idle_timeout(value: Any) -> float:
    """Validates an idle timeout.

    Args:
        value: Seconds.

    Returns:
        The timeout as a float.

    Raises:
        ValueError: If it is not a number in ``(0, 86400]``.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"idle timeout must be a number of seconds, got {value!r}")
    seconds = float(value)
    if not 0 < seconds <= MAX_IDLE_TIMEOUT_S:
        raise ValueError(f"idle timeout must be in (0, {MAX_IDLE_TIMEOUT_S:g}] s, got {value!r}")
    return seconds


def max_sessions_from_env() -> int:
    """Reads ``SKETCH_ENV_MAX_SESSIONS`` (default 8).

    Raises:
        ValueError: If it is not an integer in ``[1, 1024]``.
    """
    return _int_env("SKETCH_ENV_MAX_SESSIONS", DEFAULT_MAX_SESSIONS, 1, 1024)


def max_steps_from_env() -> int:
    """Reads ``SKETCH_ENV_MAX_STEPS`` (default 1).

    Raises:
        ValueError: If it is not an integer in ``[1, 64]``.
    """
    return _int_env("SKETCH_ENV_MAX_STEPS", 1, 1, 64)


def idle_timeout_from_env() -> float:
    """Reads ``SKETCH_ENV_IDLE_TIMEOUT`` in seconds (default 300).

    Raises:
        ValueError: If it is not a number in ``(0, 86400]``.
    """
    value = _from_env("SKETCH_ENV_IDLE_TIMEOUT", DEFAULT_IDLE_TIMEOUT_S, float, "a number")
    try:
        return check_idle_timeout(value)
    except ValueError as exc:
        raise ValueError(f"SKETCH_ENV_IDLE_TIMEOUT: {exc}") from None


def step_limits_from_env() -> StepLimits:
    """Reads ``SKETCH_ENV_MAX_CONCURRENT_STEPS``, ``SKETCH_ENV_MAX_QUEUED_STEPS`` and
    ``SKETCH_ENV_MAX_HTTP_STEPS`` (each unset: its default).

    Raises:
        ValueError: If one is not an integer in range (queued may be 0).
    """

    def read(name: str, low: int) -> int | None:
        raw = os.environ.get(name)
        if raw is None or raw.strip() == "":
            return None
        return _int_env(name, low, low, 100_000)

    return StepLimits(
        capacity=read("SKETCH_ENV_MAX_CONCURRENT_STEPS", 1),
        max_queued=read("SKETCH_ENV_MAX_QUEUED_STEPS", 0),
        max_http=read("SKETCH_ENV_MAX_HTTP_STEPS", 1),
    )
