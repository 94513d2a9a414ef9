"""Scoring: the scorers, which turn a picture and its prompt into a number on a stated scale.

The default scorer is ``vision`` (`VisionScorer`: the reference pool's judgement of the picture
through a small image network, on the CPU); ``anchored`` (`AnchoredScorer`: how typical the
picture is of its task's references) and ``heuristic`` (`HeuristicScorer`) are kept for
comparison;
HPSv3 runs as a service (`sketch_env.scoring.hpsv3`) and a vision-language judge behind an
OpenAI-compatible API (`sketch_env.scoring.judge`), each imported only when a spec asks for it
(`make_scorer`). Every scorer states its `ScoreScale`.

The reward that combines a score with the picture's measurements moved to `sketch_env.reward`,
the measurements to `sketch_env.picture`, the gate to `sketch_env.gate`; their names are still
reachable here.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sketch_env.gate import (
        Extraction,
        GateConfig,
        GateIssue,
        GateVerdict,
        check_sketch,
        extract_sketch,
        gate_reply,
        known_brush_members,
    )
    from sketch_env.picture.measures import dark_mass_fraction
    from sketch_env.reward.breakdown import RewardBreakdown
    from sketch_env.reward.combine import combine
    from sketch_env.reward.config import RewardConfig
    from sketch_env.reward.outcome import RewardStatus
    from sketch_env.reward.terms import pairwise_win_probability
    from sketch_env.scoring.anchored import AnchoredScorer
    from sketch_env.scoring.base import (
        Score,
        Scorer,
        ScorerUnavailableError,
        ScoreScale,
        scale_of,
        score_sync,
    )
    from sketch_env.scoring.heuristic import HeuristicScorer, heuristic_terms
    from sketch_env.scoring.spec import DEFAULT_HPSV3_URL, DEFAULT_SCORER, make_scorer
    from sketch_env.scoring.vision.scorer import VisionScorer

_HOME = {
    "AnchoredScorer": "sketch_env.scoring.anchored",
    "Score": "sketch_env.scoring.base",
    "ScoreScale": "sketch_env.scoring.base",
    "Scorer": "sketch_env.scoring.base",
    "ScorerUnavailableError": "sketch_env.scoring.base",
    "scale_of": "sketch_env.scoring.base",
    "score_sync": "sketch_env.scoring.base",
    "HeuristicScorer": "sketch_env.scoring.heuristic",
    "dark_mass_fraction": "sketch_env.picture.measures",
    "heuristic_terms": "sketch_env.scoring.heuristic",
    "RewardBreakdown": "sketch_env.reward.breakdown",
    "RewardConfig": "sketch_env.reward.config",
    "RewardStatus": "sketch_env.reward.outcome",
    "combine": "sketch_env.reward.combine",
    "pairwise_win_probability": "sketch_env.reward.terms",
    "DEFAULT_HPSV3_URL": "sketch_env.scoring.spec",
    "DEFAULT_SCORER": "sketch_env.scoring.spec",
    "make_scorer": "sketch_env.scoring.spec",
    "VisionScorer": "sketch_env.scoring.vision.scorer",
    "Extraction": "sketch_env.gate",
    "GateConfig": "sketch_env.gate",
    "GateIssue": "sketch_env.gate",
    "GateVerdict": "sketch_env.gate",
    "check_sketch": "sketch_env.gate",
    "extract_sketch": "sketch_env.gate",
    "gate_reply": "sketch_env.gate",
    "known_brush_members": "sketch_env.gate",
}

__all__ = [
    "DEFAULT_HPSV3_URL",
    "DEFAULT_SCORER",
    "AnchoredScorer",
    "Extraction",
    "GateConfig",
    "GateIssue",
    "GateVerdict",
    "HeuristicScorer",
    "RewardBreakdown",
    "RewardConfig",
    "RewardStatus",
    "Score",
    "ScoreScale",
    "Scorer",
    "ScorerUnavailableError",
    "VisionScorer",
    "check_sketch",
    "combine",
    "dark_mass_fraction",
    "extract_sketch",
    "gate_reply",
    "heuristic_terms",
    "known_brush_members",
    "make_scorer",
    "pairwise_win_probability",
    "scale_of",
    "score_sync",
]


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted(__all__)
