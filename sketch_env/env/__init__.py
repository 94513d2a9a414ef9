"""The environment: typed models, the OpenEnv ``Environment``, the gymnasium adapter.

The task set and the policy's instructions live in `sketch_env.catalog`; they are re-exported
here for convenience.

``import sketch_env`` registers ``sketch_env/Sketch-v0`` with gymnasium, so
``gymnasium.make("sketch_env/Sketch-v0")`` works after it, and
``gymnasium.make("sketch_env:sketch_env/Sketch-v0")`` imports it first. (gymnasium 1.x no longer
loads third-party environments from package entry points.) The names below load on first use.
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sketch_env.catalog.instructions import (
        EXAMPLE_SKETCH,
        POLICY_INSTRUCTIONS,
        build_messages,
        user_message,
    )
    from sketch_env.catalog.tasks import (
        MEDIA,
        SUBJECTS,
        TASKSET_VERSION,
        Task,
        UnknownTaskError,
        get_task,
        load_tasks,
        task_for_seed,
    )
    from sketch_env.env.environment import (
        MAX_SEED,
        EpisodeError,
        SketchEnvironment,
        check_seed,
    )
    from sketch_env.env.gym import ENV_ID, SketchGymEnv, UnicodeText
    from sketch_env.env.models import (
        MAX_ACTION_CHARS,
        RewardComponents,
        SketchAction,
        SketchObservation,
        SketchState,
    )

__all__ = [
    "ENV_ID",
    "EXAMPLE_SKETCH",
    "MAX_ACTION_CHARS",
    "MAX_SEED",
    "MEDIA",
    "POLICY_INSTRUCTIONS",
    "SUBJECTS",
    "TASKSET_VERSION",
    "EpisodeError",
    "RewardComponents",
    "SketchAction",
    "SketchEnvironment",
    "SketchGymEnv",
    "SketchObservation",
    "SketchState",
    "Task",
    "UnicodeText",
    "UnknownTaskError",
    "build_messages",
    "check_seed",
    "get_task",
    "load_tasks",
    "register_gymnasium",
    "task_for_seed",
    "user_message",
]


_HOME = {
    **dict.fromkeys(
        ["MAX_SEED", "EpisodeError", "SketchEnvironment", "check_seed"], f"{__name__}.environment"
    ),
    **dict.fromkeys(["ENV_ID", "SketchGymEnv", "UnicodeText"], f"{__name__}.gym"),
    **dict.fromkeys(
        [
            "MAX_ACTION_CHARS",
            "RewardComponents",
            "SketchAction",
            "SketchObservation",
            "SketchState",
        ],
        f"{__name__}.models",
    ),
    **dict.fromkeys(
        ["EXAMPLE_SKETCH", "POLICY_INSTRUCTIONS", "build_messages", "user_message"],
        "sketch_env.catalog.instructions",
    ),
    **dict.fromkeys(
        [
            "MEDIA",
            "SUBJECTS",
            "TASKSET_VERSION",
            "Task",
            "UnknownTaskError",
            "get_task",
            "load_tasks",
            "task_for_seed",
        ],
        "sketch_env.catalog.tasks",
    ),
}


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        # A renamed name (the gymnasium env's old ``SketchEnv``) warns and still works.
        return importlib.import_module(f"{__name__}.gym").renamed(__name__, name)
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted(__all__)


def register_gymnasium() -> None:
    """Registers ``sketch_env/Sketch-v0`` with gymnasium (idempotent; ``import sketch_env``
    already does it)."""
    from sketch_env import _register_gymnasium

    _register_gymnasium()
