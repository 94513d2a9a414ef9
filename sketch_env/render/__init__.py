"""Rendering p5.js + p5.brush sketches in a pool of headless Chromium browsers.

The names below load on first use, so that light modules of this package (`config`,
`gl_backends`, `options`, `protocol`) import without the browser library.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sketch_env.picture.paint import paint_fraction
    from sketch_env.render.backends import BackendUnavailableError, BrowserNotFoundError
    from sketch_env.render.config import RenderConfig
    from sketch_env.render.protocol import Renderer
    from sketch_env.render.renderer import SketchRenderer, shared_renderer
    from sketch_env.render.result import Render, RenderStatus

__all__ = [
    "BackendUnavailableError",
    "BrowserNotFoundError",
    "Render",
    "RenderConfig",
    "RenderStatus",
    "Renderer",
    "SketchRenderer",
    "paint_fraction",
    "shared_renderer",
]

_HOME = {
    "BackendUnavailableError": "backends",
    "BrowserNotFoundError": "backends",
    "RenderConfig": "config",
    "paint_fraction": "sketch_env.picture.paint",
    "Renderer": "protocol",
    "SketchRenderer": "renderer",
    "shared_renderer": "renderer",
    "Render": "result",
    "RenderStatus": "result",
}


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    home = module if "." in module else f"{__name__}.{module}"
    return getattr(importlib.import_module(home), name)


def __dir__() -> list[str]:
    return sorted(__all__)
