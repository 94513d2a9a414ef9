"""Scoring: the gate, scorers (a transparent heuristic by default, HPSv3 as a service) and the
reward that combines them. See DESIGN.md §4.

The HPSv3 client lives in `sketch_env.scoring.hpsv3` and is imported only when a spec asks for
it (`make_scorer("hpsv3+http://host:port")`).
"""

from sketch_env.scoring.base import Score, Scorer, ScorerUnavailableError, score_sync
from sketch_env.scoring.gate import (
    Extraction,
    GateConfig,
    GateIssue,
    GateVerdict,
    check_sketch,
    extract_sketch,
    gate_reply,
    known_brush_members,
)
from sketch_env.scoring.heuristic import HeuristicScorer, dark_mass_fraction, heuristic_terms
from sketch_env.scoring.reward import (
    RewardBreakdown,
    RewardConfig,
    RewardInputs,
    combine,
    openenv_rubric,
    pairwise_win_probability,
)
from sketch_env.scoring.spec import DEFAULT_HPSV3_URL, make_scorer

__all__ = [
    "DEFAULT_HPSV3_URL",
    "Extraction",
    "GateConfig",
    "GateIssue",
    "GateVerdict",
    "HeuristicScorer",
    "RewardBreakdown",
    "RewardConfig",
    "RewardInputs",
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
    "openenv_rubric",
    "pairwise_win_probability",
    "score_sync",
]
