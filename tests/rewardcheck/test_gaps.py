"""The measured gaps a training run states, and the examples that refuse a beaten scorer."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sketch_env.rewardcheck.gaps import MEASURED_GAPS, gap_notice, positive_gap
from sketch_env.rewardcheck.search import DEFAULT_TASKS
from sketch_env.scoring.spec import DEFAULT_SCORER

ROOT = Path(__file__).resolve().parents[2]


def test_the_default_scorer_is_measured_and_not_beaten_blind() -> None:
    assert positive_gap(DEFAULT_SCORER) is False
    assert positive_gap("heuristic") is True
    # The adversarial floor's blind search on a task outside the search's four counts too.
    assert "blind on landscape/ink_hatching" in gap_notice("vision")
    assert positive_gap("hpsv3+http://127.0.0.1:8765") is None
    for gap in MEASURED_GAPS.values():
        # Every figure is the four default tasks of `reward-check --search`, both modes.
        assert [t for t, _ in gap.blind] == list(DEFAULT_TASKS)
        assert [t for t, _ in gap.references] == list(DEFAULT_TASKS)
        assert not gap.composed or [t for t, _ in gap.composed] == list(DEFAULT_TASKS)
    # The default's composed search is measured too, and a training run is told its gap.
    assert MEASURED_GAPS[DEFAULT_SCORER].composed
    assert "composed pictures" in gap_notice(DEFAULT_SCORER)
    # And what an edit of the best painting gains over it, the mutants' own measure.
    margin = MEASURED_GAPS[DEFAULT_SCORER].mutant_margin
    assert [t for t, _ in margin] == list(DEFAULT_TASKS)
    assert "mutants over the best reference" in gap_notice(DEFAULT_SCORER)
    # And what the pool's finds earn on their tasks, where one of them beats it.
    finds = dict(MEASURED_GAPS[DEFAULT_SCORER].finds)
    assert finds["still_life/ink_hatching"] > 0
    assert "the pool's finds" in gap_notice(DEFAULT_SCORER)


def test_the_notice_names_the_scorer_and_how_to_measure_an_unmeasured_one() -> None:
    assert "blind" in gap_notice("anchored") and "anchored" in gap_notice("anchored")
    unmeasured = gap_notice("judge+http://127.0.0.1:9/v1?model=m")
    assert "not measured" in unmeasured and "reward-check --search 500" in unmeasured


def test_the_training_examples_refuse_a_beaten_scorer_before_loading_anything() -> None:
    for example in ("grpo_trl.py", "grpo_vlm_revise.py"):
        done = subprocess.run(
            [sys.executable, str(ROOT / "examples" / example), "--scorer", "heuristic"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 1, (example, done.stdout, done.stderr)
        assert "scorer heuristic: measured adversarial gap" in done.stdout
        assert "refusing to train on heuristic" in done.stderr
        assert "--accept-positive-gap" in done.stderr
