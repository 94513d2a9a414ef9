"""Scoring: scorers (a transparent heuristic by default, HPSv3 as a service) and the reward that
combines a scorer's value with paint coverage and the gate's verdict (see
``docs/design.md`` §4).

The HPSv3 client lives in `sketch_env.scoring.hpsv3` and is imported only when a spec asks for
it (`make_scorer("hpsv3+http://host:port")`). The gate moved to `sketch_env.gate`; its names are
still reachable here.
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
    from sketch_env.scoring.base import Score, Scorer, ScorerUnavailableError, score_sync
    from sketch_env.scoring.heuristic import (
        HeuristicScorer,
        dark_mass_fraction,
        heuristic_terms,
    )
    from sketch_env.scoring.reward import (
        RewardBreakdown,
        RewardConfig,
        RewardStatus,
        combine,
        pairwise_win_probability,
    )
    from sketch_env.scoring.spec import DEFAULT_HPSV3_URL, make_scorer

_HOME = {
    "Score": "sketch_env.scoring.base",
    "Scorer": "sketch_env.scoring.base",
    "ScorerUnavailableError": "sketch_env.scoring.base",
    "score_sync": "sketch_env.scoring.base",
    "HeuristicScorer": "sketch_env.scoring.heuristic",
    "dark_mass_fraction": "sketch_env.scoring.heuristic",
    "heuristic_terms": "sketch_env.scoring.heuristic",
    "RewardBreakdown": "sketch_env.scoring.reward",
    "RewardConfig": "sketch_env.scoring.reward",
    "RewardStatus": "sketch_env.scoring.reward",
    "combine": "sketch_env.scoring.reward",
    "pairwise_win_probability": "sketch_env.scoring.reward",
    "DEFAULT_HPSV3_URL": "sketch_env.scoring.spec",
    "make_scorer": "sketch_env.scoring.spec",
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
    "Extraction",
    "GateConfig",
    "GateIssue",
    "GateVerdict",
    "HeuristicScorer",
    "RewardBreakdown",
    "RewardConfig",
    "RewardStatus",
    "Score",
    "Scorer",
    "ScorerUnavailableError",
    "check_sketch",
    "combine",
    "dark_mass_fraction",
    "extract_sketch",
    "gate_reply",
    "heuristic_terms",
    "known_brush_members",
    "make_scorer",
    "pairwise_win_probability",
    "score_sync",
]


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted(__all__)
