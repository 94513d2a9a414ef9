"""TRL integration: reward functions, an environment factory and a dataset for `GRPOTrainer`.

Everything here evaluates through `sketch_env.evaluation.Evaluator`, so a generation
batch (several GRPO groups of, typically, eight completions) is gated, rendered
**concurrently** across the shared browser pool and scored in one batch (docs/design.md §6).

- `SketchReward` is the reward function: an object with a ``__name__`` that TRL calls with
  ``prompts``, ``completions``, every dataset column, ``trainer_state``, ``log_metric`` and
  ``log_extra``. It returns one ``float | None`` per completion (``None`` for an infrastructure
  failure, which TRL leaves out of the loss) and logs the reward's components.
- `coverage_reward`, `gate_reward`, `preference_reward` and `sketch_reward` are ready-made
  reward functions over one shared evaluation: weighting them with ``reward_weights`` renders
  each completion once, not once per function. `SketchReward.components` makes the same set
  for a non-default configuration.
- `SketchToolEnv` is an ``environment_factory`` class: the policy calls its ``render`` tool,
  reads the feedback, revises, and `SketchToolEnv.get_reward` scores the last sketch.
- `make_dataset` builds the prompts (one per task) in TRL's conversational format.
- `ArtifactConfig` makes `SketchReward` (``artifacts=``) and `SketchToolEnv` write each logged
  step's pictures, sketches and components to a folder that ``sketch-env gallery`` shows.

Nothing here imports ``trl`` or ``torch``; ``datasets`` is imported only by `make_dataset`.
Install torch first, the build you want: ``pip install torch==2.13.0 --index-url
https://download.pytorch.org/whl/cpu`` for CPU only, plain ``pip install torch==2.13.0`` for
the CUDA build (what PyPI's Linux wheel is, with NVIDIA's wheels); then
``pip install 'openenv-sketch-env[trl]'``.

Examples:
    ```python
    from trl import GRPOConfig, GRPOTrainer
    from sketch_env.trl import SketchReward, make_dataset

    reward = SketchReward(scorer="hpsv3+http://gpu-box:8765")
    trainer = GRPOTrainer(
        model="Qwen/Qwen2.5-0.5B-Instruct",
        reward_funcs=[reward],
        train_dataset=make_dataset(repeats=8),
        args=GRPOConfig(num_generations=8, max_completion_length=1024),
    )
    trainer.train()
    ```
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sketch_env.evaluation.cache import SketchEvaluation
    from sketch_env.trl.artifacts import ArtifactConfig, ArtifactWriter
    from sketch_env.trl.dataset import (
        TORCH_CPU_INSTALL,
        TORCH_GPU_INSTALL,
        TRL_INSTALL_HINT,
        make_dataset,
        row_seed,
    )
    from sketch_env.trl.metrics import batch_metrics
    from sketch_env.trl.rewards import COMPONENTS, AsyncSketchReward, SketchReward
    from sketch_env.trl.tool_env import SketchToolEnv

__all__ = [
    "COMPONENTS",
    "TORCH_CPU_INSTALL",
    "TORCH_GPU_INSTALL",
    "TRL_INSTALL_HINT",
    "ArtifactConfig",
    "ArtifactWriter",
    "AsyncSketchReward",
    "SketchEvaluation",
    "SketchReward",
    "SketchToolEnv",
    "batch_metrics",
    "coverage_reward",
    "default_evaluation",
    "gate_reward",
    "make_dataset",
    "preference_reward",
    "row_seed",
    "sketch_reward",
]

_HOME = {
    "ArtifactConfig": "sketch_env.trl.artifacts",
    "ArtifactWriter": "sketch_env.trl.artifacts",
    "COMPONENTS": "sketch_env.trl.rewards",
    "AsyncSketchReward": "sketch_env.trl.rewards",
    "SketchReward": "sketch_env.trl.rewards",
    "SketchEvaluation": "sketch_env.evaluation.cache",
    "SketchToolEnv": "sketch_env.trl.tool_env",
    "batch_metrics": "sketch_env.trl.metrics",
    "make_dataset": "sketch_env.trl.dataset",
    "row_seed": "sketch_env.trl.dataset",
    "TRL_INSTALL_HINT": "sketch_env.trl.dataset",
    "TORCH_CPU_INSTALL": "sketch_env.trl.dataset",
    "TORCH_GPU_INSTALL": "sketch_env.trl.dataset",
}

#: The ready-made reward functions over one shared default evaluation: name -> component.
_READY_MADE = {
    "sketch_reward": "reward",
    "coverage_reward": "coverage",
    "gate_reward": "gate",
    "preference_reward": "preference",
}


@cache
def _ready_made(component: str) -> Any:
    # Built on first use rather than at import, so importing the package creates nothing; one
    # object per component, all over one evaluation (weighting them renders each completion once).
    from sketch_env.trl.rewards import SketchReward

    if component == "reward":
        return SketchReward()
    return _ready_made("reward").component(component)


def __getattr__(name: str) -> Any:
    if name in _HOME:
        return getattr(importlib.import_module(_HOME[name]), name)
    if name == "default_evaluation":
        return _ready_made("reward").evaluation
    if name in _READY_MADE:
        return _ready_made(_READY_MADE[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
