"""Renderer configuration: every limit and knob in one validated object."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from sketch_env.catalog.vocabulary import MAX_REPLY_BYTES
from sketch_env.config import JsonConfig
from sketch_env.render.gl_backends import BACKEND_CHOICES, BackendName


def default_pool_size() -> int:
    """Browsers to run by default: one per CPU core, at least one, at most eight.

    Concurrency has to come from browsers, not pages: pages of one browser share its GPU
    process and rasterise one after another there (docs/design.md §3.12).
    """
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(8, cpus or 1))


@dataclass(frozen=True)
class RenderConfig(JsonConfig):
    """Limits and settings of a `SketchRenderer`.

    Serialisable with `to_dict`/`from_dict`/`to_json`/`from_json`; validated on creation.

    Args:
        pool_size: Browsers in the pool; ``None`` picks `default_pool_size`.
        backend: GL backend: ``"auto"`` probes and takes the fastest that gives WebGL2
            (hardware GPU, then Mesa llvmpipe, then SwiftShader); or force one.
        browser_path: Chromium executable; ``None`` discovers one (see `find_browser`).
        deadline_s: The sketch's time budget for one render attempt: it is stopped and charged
            ``timeout`` once its wall time and its own time (CPU time of its browser's
            processes, or time they were not held back by other load; see
            `sketch_env.render.budget`) both pass it. On a quiet machine that is the wall
            deadline; it holds even when the sketch blocks the page's JavaScript thread forever.
        max_wall_factor: Hard wall-clock cap of one attempt, as a multiple of ``deadline_s``.
            A render that the machine's load kept from using its budget by then ends as
            ``crashed`` (an infrastructure failure, reward ``None``), not as the sketch's
            ``timeout``.
        max_frames: Frames after which a ``draw`` loop that never stops is captured.
        max_source_bytes: Larger sketches are rejected unrun (UTF-8 bytes).
        max_canvas_side: Largest canvas width or height a sketch may set, in pixels.
        max_canvas_pixels: Largest canvas area a sketch may set, in pixels.
        js_heap_mb: V8 old-space cap per page; a memory bomb crashes its own page, not the
            machine.
        viewport: Browser window size (what ``windowWidth``/``windowHeight`` report).
        retries: Extra attempts after an infrastructure failure before reporting ``crashed``.
        poll_interval_s: Delay between readiness polls.
        start_grace_ms: Time after the sketch loads for p5 to start before the render is
            reported as ``no_canvas``.
        launch_timeout_s: Bound on launching one browser.
        antialias: Multisampled WebGL canvases and p5 framebuffers. Off by default: that is
            the setting measured bit-identical on llvmpipe (192 of 192 renders of a
            watercolour sketch); with MSAA on, edge pixels are where backends disagree most.
        prewarm: Load each browser's next frame (p5.js and p5.brush parsed, harness ready)
            as soon as its previous render ends, so the next sketch is only injected and run.
        renders_per_page: Renders one host page (one browser context and renderer process)
            serves, each in a fresh frame on a fresh origin, before it is replaced. ``1`` gives
            every render a browser context of its own: the strictest isolation, at about
            0.4 s more per render (see `sketch_env.render.host`).
        extra_browser_args: Chromium switches appended to the chosen backend's (for
            experiments such as the benchmark's ``--experiments``; pictures may change).
        max_render_memory_mb: How far the browser's process tree (browser, GPU, renderers;
            resident memory) may grow above its baseline during a render before the memory
            watchdog kills it and reports ``memory_exceeded``. The JavaScript heap cap does not
            bound ArrayBuffers, GPU textures or storage: one ``ok`` render took a tree from 1.2
            to 5.3 GB. Heavy honest sketches (4096x4096 canvases, p5.brush buffers) stay well
            under the default.
        memory_poll_s: Interval between the watchdog's measurements of the tree.
        drain_timeout_s: Bound on a trivial GPU readback after each render, in the browser's
            own time (kept like ``deadline_s``, up to ``max_wall_factor`` times it in wall
            time). Work a sketch queued after its picture (draws on a second WebGL context)
            kept the GPU busy for minutes and made the next three honest renders time out;
            when the readback does not come back in time the browser is replaced and the
            render is reported as ``leftover_work``, unless other load held the browser back
            to the wall cap (then the render is kept, with a note). It takes ~0.01 s on an
            idle GPU.
        extra_browser_env: Environment variables added to the browser's, as ``(name, value)``
            pairs (e.g. ``(("LP_NUM_THREADS", "1"),)`` for llvmpipe).
    """

    pool_size: int | None = None
    backend: BackendName = "auto"
    browser_path: str | None = None
    deadline_s: float = 30.0
    max_wall_factor: float = 4.0
    max_frames: int = 60
    max_source_bytes: int = MAX_REPLY_BYTES
    max_canvas_side: int = 4096
    max_canvas_pixels: int = 2048 * 2048
    js_heap_mb: int = 512
    viewport: tuple[int, int] = (600, 600)
    retries: int = 1
    poll_interval_s: float = 0.02
    start_grace_ms: int = 300
    launch_timeout_s: float = 60.0
    antialias: bool = False
    prewarm: bool = True
    renders_per_page: int = 100
    extra_browser_args: tuple[str, ...] = ()
    extra_browser_env: tuple[tuple[str, str], ...] = ()
    max_render_memory_mb: int = 2048
    memory_poll_s: float = 0.1
    drain_timeout_s: float = 5.0

    def __post_init__(self) -> None:
        if self.pool_size is not None and self.pool_size < 1:
            raise ValueError(f"pool_size must be at least 1, got {self.pool_size}")
        if self.backend not in BACKEND_CHOICES:
            raise ValueError(
                f"backend must be one of {', '.join(BACKEND_CHOICES)}, got {self.backend!r}"
            )
        for name in (
            "deadline_s",
            "poll_interval_s",
            "launch_timeout_s",
            "memory_poll_s",
            "drain_timeout_s",
        ):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")
        for name in (
            "max_frames",
            "max_source_bytes",
            "max_canvas_side",
            "max_canvas_pixels",
            "js_heap_mb",
            "renders_per_page",
            "max_render_memory_mb",
        ):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.max_wall_factor < 1:
            raise ValueError(f"max_wall_factor must be at least 1, got {self.max_wall_factor}")
        if self.retries < 0:
            raise ValueError(f"retries must be >= 0, got {self.retries}")
        if len(self.viewport) != 2 or min(self.viewport) < 1:
            raise ValueError(f"viewport must be (width, height), got {self.viewport}")

    @property
    def resolved_pool_size(self) -> int:
        """The pool size, with ``None`` resolved to `default_pool_size`."""
        return self.pool_size or default_pool_size()

    def to_dict(self) -> dict[str, Any]:
        """Returns a JSON-serialisable view."""
        data = asdict(self)
        data["viewport"] = list(self.viewport)
        data["extra_browser_args"] = list(self.extra_browser_args)
        data["extra_browser_env"] = [list(pair) for pair in self.extra_browser_env]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RenderConfig:
        """Builds a config from a mapping (JSON lists become the tuples the fields hold).

        Raises:
            ValueError: On an unknown key or a bad value.
        """
        cls.check_keys(data)
        values = dict(data)
        for name in ("viewport", "extra_browser_args"):
            if isinstance(values.get(name), list):
                values[name] = tuple(values[name])
        if isinstance(values.get("extra_browser_env"), list):
            values["extra_browser_env"] = tuple(
                tuple(pair) if isinstance(pair, list | tuple) else pair
                for pair in values["extra_browser_env"]
            )
        return cls(**values)
