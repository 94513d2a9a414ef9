"""Example rollouts from the command line: run sketches or replies, write pictures and a gallery.

`runner` turns a folder of sketches, a JSONL of model replies or the reference pool into
rollouts through `sketch_env.evaluation.Evaluator`; `gallery` writes the self-contained
``index.html``; `cli` is ``sketch-env rollout``; `replies` reads completions and prompts in the
shapes trainers hand them over.
"""

from sketch_env.rollout.gallery import render_gallery, write_gallery
from sketch_env.rollout.runner import (
    RolloutItem,
    RolloutRun,
    items_from_pool,
    items_from_replies,
    items_from_sketches,
    load_records,
    run_rollouts,
)

__all__ = [
    "RolloutItem",
    "RolloutRun",
    "items_from_pool",
    "items_from_replies",
    "items_from_sketches",
    "load_records",
    "render_gallery",
    "run_rollouts",
    "write_gallery",
]
