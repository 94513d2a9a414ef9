"""The environment: typed models, the OpenEnv ``Environment``, the gymnasium adapter, tasks.

Importing this package registers ``sketch_env/Sketch-v0`` with gymnasium, so
``gymnasium.make("sketch_env/Sketch-v0")`` works after ``import sketch_env.env``; without that
import, ``gymnasium.make("sketch_env.env:sketch_env/Sketch-v0")`` imports it first. (gymnasium
1.x no longer loads third-party environments from package entry points.)
"""

from sketch_env.env.environment import (
    MAX_SEED,
    EpisodeError,
    SketchEnvironment,
    check_seed,
)
from sketch_env.env.gym import ENV_ID, SketchEnv, UnicodeText
from sketch_env.env.models import (
    MAX_ACTION_CHARS,
    RewardComponents,
    SketchAction,
    SketchObservation,
    SketchState,
)
from sketch_env.env.tasks import (
    EXAMPLE_SKETCH,
    MEDIA,
    POLICY_INSTRUCTIONS,
    SUBJECTS,
    TASKSET_VERSION,
    Task,
    UnknownTaskError,
    build_messages,
    get_task,
    load_tasks,
    task_for_seed,
    user_message,
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
    "SketchEnv",
    "SketchEnvironment",
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


def register_gymnasium() -> None:
    """Registers ``sketch_env/Sketch-v0`` with gymnasium (idempotent)."""
    import gymnasium

    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="sketch_env.env.gym:SketchEnv")


register_gymnasium()
