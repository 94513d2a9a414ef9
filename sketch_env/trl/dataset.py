"""`make_dataset`: the task set as a prompt dataset in TRL's conversational format.

Seeds: p5.brush's textures depend on the render seed, so the same sketch earns different
rewards at different seeds (1.4 to 7.2 over seeds 0-5 for one watercolour). A GRPO group must
share its seed, and it does (a group is the completions of one row); but rows that all render at
one seed let a policy fit that seed's texture luck. So every row carries a ``seed`` column from
a deterministic schedule, `row_seed`: one seed per row and per epoch, all derived from a base
seed (docs/usage.md, "Seeds").
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sketch_env.catalog.instructions import POLICY_INSTRUCTIONS, build_messages
from sketch_env.catalog.tasks import Task, get_task, load_tasks
from sketch_env.render.base import check_seed

if TYPE_CHECKING:
    import datasets

__all__ = [
    "TORCH_CPU_INSTALL",
    "TORCH_GPU_INSTALL",
    "TRL_INSTALL_HINT",
    "make_dataset",
    "row_seed",
]

#: A CPU-only torch. PyPI's Linux wheel of ``torch==2.13.0`` is the CUDA build, which pulls
#: NVIDIA's wheels (gigabytes); the CPU build lives on PyTorch's own index.
TORCH_CPU_INSTALL = "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu"
#: A CUDA torch: PyPI's default Linux wheel (another CUDA version: PyTorch's ``/whl/cuXXX``).
TORCH_GPU_INSTALL = "pip install torch==2.13.0"
#: The install commands quoted when the training stack is missing: torch first (so that
#: installing TRL keeps the build chosen), then the extra.
TRL_INSTALL_HINT = (
    f"{TORCH_CPU_INSTALL} (CPU) or {TORCH_GPU_INSTALL} (CUDA), then "
    "pip install 'openenv-sketch-env[trl]'"
)


def row_seed(base_seed: int, epoch: int, row: int) -> int:
    """The render seed of one dataset row in one epoch: `make_dataset`'s seed schedule.

    A hash, so neighbouring rows and epochs get unrelated seeds, and the same
    ``(base_seed, epoch, row)`` gives the same seed on every machine.

    Args:
        base_seed: The schedule's base seed.
        epoch: The epoch, from 0.
        row: The row's index within the epoch, from 0.

    Returns:
        A seed in ``[0, 2**32)``.

    Examples:
        >>> row_seed(0, 0, 0) == row_seed(0, 0, 0) != row_seed(0, 1, 0)
        True
    """
    key = f"sketch_env.make_dataset:{base_seed}:{epoch}:{row}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:4], "big")


def make_dataset(
    tasks: Sequence[Task | str] | None = None,
    repeats: int = 1,
    system_prompt: bool | str = True,
    *,
    seed: int | None = 0,
    epochs: int = 1,
) -> datasets.Dataset:
    """Builds a prompt dataset for `trl.GRPOTrainer` from the task set.

    Args:
        tasks: Tasks or task ids; the shipped 24 when ``None``.
        repeats: How many times the task list is repeated (rows are in task order, repeated).
        system_prompt: ``True`` puts the policy instructions
            (`sketch_env.catalog.instructions.POLICY_INSTRUCTIONS`) in a system message, a
            string uses that text instead, ``False`` leaves the system message out.
        seed: The seed schedule's base seed: row ``i`` of epoch ``e`` renders at
            ``row_seed(seed, e, i)``, so every row (each repeat of a task included) and every
            epoch gets its own seed, and the same arguments build the same dataset. ``None``
            writes no ``seed`` column (every row then renders at the reward function's
            ``seed``, 0 by default: what this function did before it had a schedule).
        epochs: Epochs the dataset holds: the rows are written this many times, each time with
            the next epoch's seeds. A trainer's own epochs (``num_train_epochs``) go over the
            same rows again with the same seeds (a column cannot change between epochs), so
            for fresh seeds every epoch build ``epochs=E`` and train one epoch over it.

    Returns:
        A `datasets.Dataset` with columns ``prompt`` (chat messages, TRL's conversational
        format), ``task_id``, ``prompt_text`` (the scene the picture is scored against) and
        ``seed`` (the render seed; unless ``seed=None``). TRL passes the columns to the
        reward functions (`SketchReward` reads ``seed``) and to an environment's ``reset``.

    Raises:
        ImportError: If ``datasets`` is not installed (with the install command).
        ValueError: If ``repeats`` or ``epochs`` is below 1, ``seed`` is not a valid seed
            (`sketch_env.render.base.check_seed`), or the task list is empty.
        sketch_env.catalog.tasks.UnknownTaskError: For an unknown task id.

    Examples:
        >>> ds = make_dataset(["flowers/watercolour"], repeats=2)  # doctest: +SKIP
        >>> ds[0]["task_id"], ds[0]["prompt"][-1]["role"], ds["seed"] == [
        ...     row_seed(0, 0, 0), row_seed(0, 0, 1)]
        ('flowers/watercolour', 'user', True)
    """
    try:
        import datasets
    except ImportError as exc:
        raise ImportError(f"make_dataset needs the `datasets` package: {TRL_INSTALL_HINT}") from exc
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    if epochs < 1:
        raise ValueError(f"epochs must be at least 1, got {epochs}")
    base = check_seed(seed) if seed is not None else None
    chosen = [get_task(t) if isinstance(t, str) else t for t in (tasks or load_tasks())]
    if not chosen:
        raise ValueError("make_dataset needs at least one task")
    rows: dict[str, list[Any]] = {"prompt": [], "task_id": [], "prompt_text": []}
    if base is not None:
        rows["seed"] = []
    for epoch in range(epochs):
        for index, task in enumerate(chosen * repeats):
            if system_prompt is False:
                messages = build_messages(task.prompt)[1:]
            else:
                text = POLICY_INSTRUCTIONS if system_prompt is True else str(system_prompt)
                messages = build_messages(task.prompt, text)
            rows["prompt"].append(messages)
            rows["task_id"].append(task.id)
            rows["prompt_text"].append(task.prompt)
            if base is not None:
                rows["seed"].append(row_seed(base, epoch, index))
    return datasets.Dataset.from_dict(rows)
