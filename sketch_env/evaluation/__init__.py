"""The evaluation layer: from model replies to rewards, the one path every front end takes.

``render`` and ``scoring`` below it make a picture and a number; the front ends above it (the
OpenEnv environment, the gymnasium adapter, TRL, the ``rollout`` command, the server) call it:

- `Evaluator` gates, renders concurrently, checks at run time, scores in one batch and
  combines, on the renderer's own event loop: ``evaluate`` (async), ``evaluate_sync`` and
  ``submit`` (a future); ``preview`` stops before the scorer.
- `EvaluationConfig` is everything that decides it (renderer, scorer, render, gate, reward) in
  one JSON-round-tripping object every front end takes.
- `Rollout` is its result, and `RolloutStatus` the one vocabulary for how a rollout ended.
- `SketchEvaluation` caches evaluations by ``(reply, prompt, seed)`` for callers that ask for
  the same completion more than once (several TRL reward functions over one batch).
- `completion_text` and `resolve_prompt` read replies and prompts in the shapes trainers and
  files hand them over; `runs` reads and writes run folders (``results.jsonl``, pictures).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sketch_env.evaluation.cache import EvaluationKey, SketchEvaluation
    from sketch_env.evaluation.config import EvaluationConfig
    from sketch_env.evaluation.evaluator import Evaluator, Preview
    from sketch_env.evaluation.replies import completion_text, resolve_prompt
    from sketch_env.evaluation.rollout import Rollout, RolloutStatus

__all__ = [
    "EvaluationConfig",
    "EvaluationKey",
    "Evaluator",
    "Preview",
    "Rollout",
    "RolloutStatus",
    "SketchEvaluation",
    "completion_text",
    "resolve_prompt",
]

_HOME = {
    "EvaluationKey": "cache",
    "SketchEvaluation": "cache",
    "EvaluationConfig": "config",
    "Evaluator": "evaluator",
    "Preview": "evaluator",
    "completion_text": "replies",
    "resolve_prompt": "replies",
    "Rollout": "rollout",
    "RolloutStatus": "rollout",
}


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


def __dir__() -> list[str]:
    return sorted(__all__)
