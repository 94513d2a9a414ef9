"""Moved: the task set is `sketch_env.catalog.tasks`, the instructions
`sketch_env.catalog.instructions`. This alias keeps old imports working."""

from __future__ import annotations

import warnings

from sketch_env.catalog.instructions import *  # noqa: F403
from sketch_env.catalog.instructions import __all__ as _instructions
from sketch_env.catalog.tasks import *  # noqa: F403
from sketch_env.catalog.tasks import __all__ as _tasks

__all__ = [*_tasks, *_instructions]

warnings.warn(
    "sketch_env.env.tasks moved to sketch_env.catalog.tasks (the task set) and "
    "sketch_env.catalog.instructions (POLICY_INSTRUCTIONS, build_messages); import from there",
    DeprecationWarning,
    stacklevel=2,
)
