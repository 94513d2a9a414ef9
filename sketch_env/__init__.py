"""sketch_env: an RL environment in which a language model learns to paint with p5.brush code.

The package is a map of the architecture: `sketch_env.render` (browsers, the page protocol,
the `Render` result) and `sketch_env.scoring` (scorers, the reward) and `sketch_env.gate`
(reply checks) at the bottom; `sketch_env.evaluation` (reply → gate → render → score →
reward) in the middle; the front ends on top: `sketch_env.env` (OpenEnv and gymnasium),
`sketch_env.server`, `sketch_env.trl`, `sketch_env.rollout`.

Importing it is cheap: the names below load on first use, and ``sketch_env/Sketch-v0`` is
registered with gymnasium by its string entry point, so ``gymnasium.make("sketch_env/Sketch-v0")``
works after ``import sketch_env`` without loading the renderer.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sketch_env.env.environment import SketchEnvironment
    from sketch_env.evaluation.evaluator import Evaluator
    from sketch_env.render.backends import BackendUnavailableError, BrowserNotFoundError
    from sketch_env.render.config import RenderConfig
    from sketch_env.render.coverage import paint_fraction
    from sketch_env.render.renderer import SketchRenderer, shared_renderer
    from sketch_env.render.result import Render, RenderStatus

__version__ = "0.1.0"

__all__ = [
    "BackendUnavailableError",
    "BrowserNotFoundError",
    "Evaluator",
    "Render",
    "RenderConfig",
    "RenderStatus",
    "SketchEnvironment",
    "SketchRenderer",
    "__version__",
    "paint_fraction",
    "shared_renderer",
]

_HOME = {
    "BackendUnavailableError": "sketch_env.render.backends",
    "BrowserNotFoundError": "sketch_env.render.backends",
    "Evaluator": "sketch_env.evaluation.evaluator",
    "Render": "sketch_env.render.result",
    "RenderConfig": "sketch_env.render.config",
    "RenderStatus": "sketch_env.render.result",
    "SketchEnvironment": "sketch_env.env.environment",
    "SketchRenderer": "sketch_env.render.renderer",
    "paint_fraction": "sketch_env.render.coverage",
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
        gymnasium.register(id=GYM_ENV_ID, entry_point="sketch_env.env.gym:SketchEnv")


_register_gymnasium()
