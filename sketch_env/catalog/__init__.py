"""The catalogue: the data every layer reads, on the ground floor.

- `tasks`: the shipped task set (`Task`, `load_tasks`, `get_task`, `task_for_seed`).
- `references`: the reference pool's files (`Reference`, `load_reference_pool`); refreshing
  it, which renders and scores, is `sketch_env.pool`'s.
- `probes` and `finds`: what the reward check measures with beside the references (ladders
  ordered by hand, free compositions; what earlier searches found).
- `vocabulary`: the policy's API vocabulary, every name list with the role it plays for the
  static gate, for the run-time check and in the instructions.
- `instructions`: the policy's system prompt and user turn, written from the vocabulary.
- `assets`: where the vendored libraries and models live, and their checksums; where the
  example scripts and replies live.

Nothing here imports anything of the package above `sketch_env.config`, `sketch_env.errors`
and `sketch_env.install`, so the renderer, the gate, the scorers and the front ends can all
read the same tasks, references and rules without reaching up for them. The names below load
on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sketch_env.catalog.instructions import (
        EXAMPLE_SKETCH,
        POLICY_INSTRUCTIONS,
        build_messages,
        user_message,
    )
    from sketch_env.catalog.references import (
        TIERS,
        Reference,
        ReferencePoolError,
        get_reference,
        load_reference_pool,
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
    from sketch_env.catalog.vocabulary import CANVAS_SIZE

__all__ = [
    "CANVAS_SIZE",
    "EXAMPLE_SKETCH",
    "MEDIA",
    "POLICY_INSTRUCTIONS",
    "SUBJECTS",
    "TASKSET_VERSION",
    "TIERS",
    "Reference",
    "ReferencePoolError",
    "Task",
    "UnknownTaskError",
    "build_messages",
    "get_reference",
    "get_task",
    "load_reference_pool",
    "load_tasks",
    "task_for_seed",
    "user_message",
]

_HOME = {
    **dict.fromkeys(
        ["EXAMPLE_SKETCH", "POLICY_INSTRUCTIONS", "build_messages", "user_message"],
        "instructions",
    ),
    **dict.fromkeys(
        ["TIERS", "Reference", "ReferencePoolError", "get_reference", "load_reference_pool"],
        "references",
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
        "tasks",
    ),
    "CANVAS_SIZE": "vocabulary",
}


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


def __dir__() -> list[str]:
    return sorted(__all__)
