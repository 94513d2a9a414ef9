"""The shipped task set.

A task is one painting to make: a subject in a medium, with the concrete scene that the
preference model scores the picture against. The set is 6 subjects x 4 media = 24 tasks, with
ids ``"{subject}/{medium}"`` (``"flowers/watercolour"``), stored in ``data/tasks.json`` and
versioned by `TASKSET_VERSION`: a change to any prompt is a new version, because rewards
measured against different prompts are not comparable.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from sketch_env.errors import SketchEnvError

__all__ = [
    "MEDIA",
    "SUBJECTS",
    "TASKSET_VERSION",
    "Task",
    "UnknownTaskError",
    "get_task",
    "load_tasks",
    "task_for_seed",
]

#: Version of the shipped task set; bump it whenever a prompt changes.
TASKSET_VERSION = "1"
#: The subjects, in task-set order.
SUBJECTS: tuple[str, ...] = ("flowers", "landscape", "still_life", "seascape", "trees", "abstract")
#: The media, in task-set order.
MEDIA: tuple[str, ...] = ("watercolour", "charcoal", "ink_hatching", "pastel")


class UnknownTaskError(SketchEnvError, ValueError):
    """A task id that is not in the task set (the message lists close matches)."""


@dataclass(frozen=True)
class Task:
    """One painting task.

    Args:
        id: ``"{subject}/{medium}"``.
        subject: One of `SUBJECTS` (free-form for custom task sets).
        medium: One of `MEDIA` (free-form for custom task sets).
        prompt: The scene the picture is scored against.
    """

    id: str
    subject: str
    medium: str
    prompt: str

    def to_dict(self) -> dict[str, str]:
        """Returns the task as a plain dict."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Task:
        """Builds a task from a mapping with ``id``, ``subject``, ``medium`` and ``prompt``.

        Raises:
            ValueError: If a field is missing, not a non-empty string, or unknown.
        """
        names = ("id", "subject", "medium", "prompt")
        unknown = sorted(set(data) - set(names))
        if unknown:
            raise ValueError(f"unknown task fields {unknown}; expected {list(names)}")
        for name in names:
            value = data.get(name)
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"task field {name!r} must be a non-empty string, got {value!r}")
        return cls(**{name: data[name] for name in names})


def _parse(raw: Any, origin: str) -> tuple[Task, ...]:
    if not isinstance(raw, dict) or not isinstance(raw.get("tasks"), list):
        raise ValueError(f"{origin}: expected an object with a 'tasks' list")
    tasks = tuple(Task.from_dict(item) for item in raw["tasks"])
    if not tasks:
        raise ValueError(f"{origin}: the task list is empty")
    ids = [t.id for t in tasks]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValueError(f"{origin}: duplicate task ids {duplicates}")
    return tasks


@cache
def _shipped() -> tuple[Task, ...]:
    text = resources.files("sketch_env.catalog").joinpath("data/tasks.json").read_text("utf-8")
    raw = json.loads(text)
    if raw.get("version") != TASKSET_VERSION:
        raise ValueError(
            f"shipped tasks.json has version {raw.get('version')!r}, code expects "
            f"{TASKSET_VERSION!r}"
        )
    return _parse(raw, "tasks.json")


def load_tasks(path: str | Path | None = None) -> tuple[Task, ...]:
    """Loads a task set.

    Args:
        path: A JSON file ``{"version": ..., "tasks": [{id, subject, medium, prompt}, ...]}``;
            the shipped set when ``None``.

    Returns:
        The tasks, in file order.

    Raises:
        ValueError: If the file is malformed, empty, or has duplicate ids.
        OSError: If the file cannot be read.

    Examples:
        >>> tasks = load_tasks()
        >>> len(tasks), tasks[0].id
        (24, 'flowers/watercolour')
    """
    if path is None:
        return _shipped()
    return _parse(json.loads(Path(path).read_text("utf-8")), str(path))


def get_task(task_id: str, tasks: Sequence[Task] | None = None) -> Task:
    """Finds a task by id.

    Args:
        task_id: ``"{subject}/{medium}"``.
        tasks: The task set; the shipped one when ``None``.

    Returns:
        The task.

    Raises:
        UnknownTaskError: If there is no such task (the message names close matches).
    """
    pool = tasks if tasks is not None else load_tasks()
    for task in pool:
        if task.id == task_id:
            return task
    import difflib

    ids = [t.id for t in pool]
    close = difflib.get_close_matches(str(task_id), ids, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise UnknownTaskError(
        f"unknown task id {task_id!r}{hint} (known ids look like 'flowers/watercolour'; "
        f"{len(ids)} in this task set)"
    )


def task_for_seed(seed: int, tasks: Sequence[Task] | None = None) -> Task:
    """Chooses a task deterministically from a seed.

    The choice hashes the task-set version and the seed (SHA-256), so it is the same on every
    machine and Python version, and neighbouring seeds do not walk the list in order.

    Args:
        seed: A non-negative integer.
        tasks: The task set; the shipped one when ``None``.

    Returns:
        The chosen task.
    """
    pool = tasks if tasks is not None else load_tasks()
    digest = hashlib.sha256(f"sketch_env/tasks/{TASKSET_VERSION}/{int(seed)}".encode()).digest()
    return pool[int.from_bytes(digest[:8], "big") % len(pool)]
