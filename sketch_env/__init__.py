"""sketch_env: an RL environment in which a language model learns to paint with p5.brush code.

The package is a map of the architecture (docs/design.md §9): `sketch_env.catalog` (tasks,
reference pool, the policy's vocabulary and instructions) on the ground floor;
`sketch_env.picture` (the one measurement pass: paper, paint, guards) beside it;
`sketch_env.render` (browsers, the page protocol, the `Render` result), `sketch_env.gate`
(reply checks, static and at run time), `sketch_env.scoring` (scorers) and `sketch_env.reward`
(the reward as a declared pipeline) above it;
`sketch_env.evaluation` (reply → gate → render → score → reward, and its one configuration)
in the middle; the front ends on top: `sketch_env.env` (OpenEnv and gymnasium),
`sketch_env.server`, `sketch_env.trl`, `sketch_env.rollout`, `sketch_env.rewardcheck`,
`sketch_env.pool`. Every exception raised on purpose derives from `SketchEnvError`; failures of
the machine rather than the policy from `InfrastructureError`.

Importing it is cheap: the names below load on first use, and ``sketch_env/Sketch-v0`` is
registered with gymnasium by its string entry point, so ``gymnasium.make("sketch_env/Sketch-v0")``
works after ``import sketch_env`` without loading the renderer.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sketch_env.env.environment import SketchEnvironment
    from sketch_env.errors import (
        InfrastructureError,
        MissingExtraError,
        SetupError,
        SketchEnvError,
    )
    from sketch_env.evaluation.config import EvaluationConfig
    from sketch_env.evaluation.evaluator import Evaluator
    from sketch_env.gate.verdict import GateConfig
    from sketch_env.picture.paint import paint_fraction
    from sketch_env.render.backends import BackendUnavailableError, BrowserNotFoundError
    from sketch_env.render.config import RenderConfig
    from sketch_env.render.renderer import SketchRenderer, shared_renderer
    from sketch_env.render.result import Render, RenderStatus
    from sketch_env.reward.config import RewardConfig
    from sketch_env.scoring.base import ScorerUnavailableError

from sketch_env.install import VERSION as __version__

__all__ = [
    "BackendUnavailableError",
    "BrowserNotFoundError",
    "EvaluationConfig",
    "Evaluator",
    "GateConfig",
    "InfrastructureError",
    "MissingExtraError",
    "Render",
    "RenderConfig",
    "RenderStatus",
    "RewardConfig",
    "ScorerUnavailableError",
    "SetupError",
    "SketchEnvError",
    "SketchEnvironment",
    "SketchRenderer",
    "__version__",
    "paint_fraction",
    "shared_renderer",
]

_HOME = {
    "BackendUnavailableError": "sketch_env.render.backends",
    "BrowserNotFoundError": "sketch_env.render.backends",
    "EvaluationConfig": "sketch_env.evaluation.config",
    "Evaluator": "sketch_env.evaluation.evaluator",
    "GateConfig": "sketch_env.gate.verdict",
    "InfrastructureError": "sketch_env.errors",
    "MissingExtraError": "sketch_env.errors",
    "RewardConfig": "sketch_env.reward.config",
    "ScorerUnavailableError": "sketch_env.scoring.base",
    "SetupError": "sketch_env.errors",
    "SketchEnvError": "sketch_env.errors",
    "Render": "sketch_env.render.result",
    "RenderConfig": "sketch_env.render.config",
    "RenderStatus": "sketch_env.render.result",
    "SketchEnvironment": "sketch_env.env.environment",
    "SketchRenderer": "sketch_env.render.renderer",
    "paint_fraction": "sketch_env.picture.paint",
    "shared_renderer": "sketch_env.render.renderer",
}

#: The gymnasium id of the environment.
GYM_ENV_ID = "sketch_env/Sketch-v0"


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted(__all__)


def _register_gymnasium() -> None:
    # A string entry point: gymnasium imports the environment only when one is made.
    try:
        import gymnasium
    except ImportError:  # gymnasium is a dependency, but a trimmed install may lack it.
        return
    if GYM_ENV_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_ENV_ID, entry_point="sketch_env.env.gym:SketchGymEnv")


_register_gymnasium()
