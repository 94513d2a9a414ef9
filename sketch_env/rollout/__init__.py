"""Example rollouts from the command line: run sketches or replies, write pictures and a gallery.

`runner` turns a folder of sketches, a JSONL of model replies or the reference pool into
rollouts through `sketch_env.evaluation.Evaluator` and writes them in the run-folder format
(`sketch_env.evaluation.runs`, which also reads them back); `gallery` writes the
self-contained ``index.html``, drawn with `page` (the shell, stylesheet and helpers every
gallery page shares, the pool's too); `cli` is ``sketch-env rollout``.
"""

from sketch_env.rollout.gallery import render_gallery, write_gallery
from sketch_env.rollout.runner import (
    RolloutItem,
    RolloutRun,
    items_from_pool,
    items_from_replies,
    items_from_sketches,
    run_rollouts,
)

__all__ = [
    "RolloutItem",
    "RolloutRun",
    "items_from_pool",
    "items_from_replies",
    "items_from_sketches",
    "render_gallery",
    "run_rollouts",
    "write_gallery",
]
