"""sketch_env: an RL environment in which a language model learns to paint with p5.brush code."""

from sketch_env.render import (
    BackendUnavailableError,
    BrowserNotFoundError,
    Render,
    RenderConfig,
    RenderStatus,
    SketchRenderer,
    paint_fraction,
    shared_renderer,
)

__version__ = "0.1.0"

__all__ = [
    "BackendUnavailableError",
    "BrowserNotFoundError",
    "Render",
    "RenderConfig",
    "RenderStatus",
    "SketchRenderer",
    "__version__",
    "paint_fraction",
    "shared_renderer",
]
