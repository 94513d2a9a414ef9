"""`make_dataset`: the task set as a prompt dataset in TRL's conversational format."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sketch_env.catalog.instructions import POLICY_INSTRUCTIONS, build_messages
from sketch_env.catalog.tasks import Task, get_task, load_tasks
from sketch_env.install import TORCH_CPU_INSTALL, TORCH_GPU_INSTALL, TRL_INSTALL

if TYPE_CHECKING:
    import datasets

__all__ = ["TORCH_CPU_INSTALL", "TORCH_GPU_INSTALL", "TRL_INSTALL_HINT", "make_dataset"]

#: The install commands quoted when the training stack is missing (`sketch_env.install`).
TRL_INSTALL_HINT = TRL_INSTALL


def make_dataset(
    tasks: Sequence[Task | str] | None = None,
    repeats: int = 1,
    system_prompt: bool | str = True,
) -> datasets.Dataset:
    """Builds a prompt dataset for `trl.GRPOTrainer` from the task set.

    Args:
        tasks: Tasks or task ids; the shipped 24 when ``None``.
        repeats: How many times the task list is repeated (rows are in task order, repeated).
        system_prompt: ``True`` puts the policy instructions
            (`sketch_env.catalog.instructions.POLICY_INSTRUCTIONS`) in a system message, a
            string uses that text instead, ``False`` leaves the system message out.

    Returns:
        A `datasets.Dataset` with columns ``prompt`` (chat messages, TRL's conversational
        format), ``task_id`` and ``prompt_text`` (the scene the picture is scored against).

    Raises:
        ImportError: If ``datasets`` is not installed (with the install command).
        ValueError: If ``repeats`` is below 1 or the task list is empty.
        sketch_env.catalog.tasks.UnknownTaskError: For an unknown task id.

    Examples:
        >>> ds = make_dataset(["flowers/watercolour"], repeats=2)  # doctest: +SKIP
        >>> ds[0]["task_id"], ds[0]["prompt"][-1]["role"]
        ('flowers/watercolour', 'user')
    """
    try:
        import datasets
    except ImportError as exc:
        raise ImportError(f"make_dataset needs the `datasets` package: {TRL_INSTALL_HINT}") from exc
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    chosen = [get_task(t) if isinstance(t, str) else t for t in (tasks or load_tasks())]
    if not chosen:
        raise ValueError("make_dataset needs at least one task")
    rows: dict[str, list[Any]] = {"prompt": [], "task_id": [], "prompt_text": []}
    for _ in range(repeats):
        for task in chosen:
            if system_prompt is False:
                messages = build_messages(task.prompt)[1:]
            else:
                text = POLICY_INSTRUCTIONS if system_prompt is True else str(system_prompt)
                messages = build_messages(task.prompt, text)
            rows["prompt"].append(messages)
            rows["task_id"].append(task.id)
            rows["prompt_text"].append(task.prompt)
    return datasets.Dataset.from_dict(rows)
