"""Rendering p5.js + p5.brush sketches in a pool of headless Chromium browsers."""

from sketch_env.render.backends import BackendUnavailableError, BrowserNotFoundError
from sketch_env.render.config import RenderConfig
from sketch_env.render.coverage import paint_fraction
from sketch_env.render.renderer import SketchRenderer, shared_renderer
from sketch_env.render.result import Render, RenderStatus

__all__ = [
    "BackendUnavailableError",
    "BrowserNotFoundError",
    "Render",
    "RenderConfig",
    "RenderStatus",
    "SketchRenderer",
    "paint_fraction",
    "shared_renderer",
]
