"""The reward as a declared pipeline: guards as data with thresholds a configuration sets, one
outcome ladder for the reward and the evaluator, a breakdown no term changes, scorers that state
their scale and take spec parameters, and the manifest that reads both."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import numpy as np
import pytest
import yaml
from PIL import Image

from sketch_env.catalog.references import find_pool_dir
from sketch_env.env.models import RewardComponents
from sketch_env.evaluation.config import EvaluationConfig
from sketch_env.evaluation.evaluator import Evaluator, _sketch_error
from sketch_env.gate import GateIssue, GateVerdict
from sketch_env.picture.guards import GUARDS, Condition, Guard, ramp
from sketch_env.picture.measures import MEASUREMENTS, PictureMeasures
from sketch_env.render.renderer import SketchRenderer
from sketch_env.render.result import Render, RenderStatus
from sketch_env.reward.breakdown import CORE, MAPS, RewardBreakdown
from sketch_env.reward.combine import combine, reward_range
from sketch_env.reward.config import RewardConfig
from sketch_env.reward.outcome import RewardStatus
from sketch_env.reward.terms import TERMS
from sketch_env.scoring.anchored import AnchoredScorer
from sketch_env.scoring.base import EMBEDDED_SCALE, Score, ScoreScale, scale_of
from sketch_env.scoring.heuristic import HEURISTIC_GUARDS, HeuristicScorer
from sketch_env.scoring.spec import make_scorer, spec_scale
from sketch_env.server.manifest import build_manifest

PASSED = GateVerdict(passed=True)
CLEAR = dict.fromkeys(RewardConfig().guard_names, 1.0)


def measures(**values: float) -> PictureMeasures:
    """A clean painting's measurements, with some changed."""
    base = {
        "coverage": 0.4,
        "colourfulness": 20.0,
        "luma_std": 40.0,
        "edge_density": 0.05,
        "neighbour_corr": 0.8,
        "top_colour": 0.5,
        "second_colour": 0.1,
        "dark_mass": 0.0,
        "hue_families": 3.0,
        "composition": 0.5,
        "text_fraction": 0.0,
    }
    base.update(values)
    return PictureMeasures(**base, text_read=True)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------- guards


def test_every_guard_has_a_json_form_that_round_trips() -> None:
    for guard in GUARDS.values():
        data = json.loads(json.dumps(guard.to_dict()))
        assert set(data) == {"name", "conditions", "floor", "why"} and data["why"]
        assert all(c["reads"] in MEASUREMENTS for c in data["conditions"])
        assert Guard.from_dict(data) == guard
    assert RewardConfig.from_json(RewardConfig().to_json()).guards == tuple(GUARDS.values())


def test_a_threshold_is_a_config_value() -> None:
    # Hatching measured at a neighbour correlation of 0.15: the default noise guard (0.20 ->
    # 0.05) fires a third of the way; a configuration that starts it lower leaves it alone.
    hatching = measures(neighbour_corr=0.15)
    painted = {"paint_fraction": 0.4, "score": Score(9.0), "measures": hatching}
    default = combine(RewardConfig(), PASSED, **painted)  # type: ignore[arg-type]
    assert dict(default.guards)["noise"] == pytest.approx(2 / 3)
    tuned = RewardConfig.from_dict(
        {
            "guards": [
                {
                    "name": "noise",
                    "conditions": [{"reads": "neighbour_corr", "start": 0.1, "full": 0.02}],
                }
            ]
        }
    )
    loose = combine(tuned, PASSED, **painted)  # type: ignore[arg-type]
    assert dict(loose.guards) == {"noise": 1.0} and loose.reward > default.reward  # type: ignore[operator]
    # The same from code, and the tuned guard is what a saved config holds.
    noise = RewardConfig().guard("noise").tuned(neighbour_corr=(0.1, 0.02))
    assert RewardConfig(guards=(noise,)) == tuned
    assert json.loads(tuned.to_json())["guards"][0]["conditions"][0]["start"] == 0.1


def test_guards_are_named_by_name_or_changed_in_part_and_bad_ones_are_refused() -> None:
    config = RewardConfig.from_dict({"guards": ["noise", {"name": "palette", "floor": 0.2}]})
    assert config.guard_names == ("noise", "palette") and config.guard("palette").floor == 0.2
    assert config.with_guard(GUARDS["marks"]).guard_names == ("noise", "palette", "marks")
    for bad, message in [
        (["taste"], "unknown guard"),
        ([{"name": "x", "conditions": [{"reads": "beauty", "start": 0, "full": 1}]}], "unknown"),
        ([{"name": "x", "conditions": [{"reads": "coverage", "start": 1, "full": 1}]}], "!="),
        ([{"name": "noise", "colour": "red"}], "unknown guard keys"),
    ]:
        with pytest.raises(ValueError, match=message):
            RewardConfig.from_dict({"guards": bad})


def test_the_heuristic_holds_its_own_instances_of_the_same_guards() -> None:
    # The reward's guards (names, measurements) with the heuristic's first thresholds and a floor
    # of 0.1: checked against the formulas its docstring states, on random measurements. (The
    # heuristic keeps its own set: a guard added to the reward need not be added to it.)
    assert all(g.reads == GUARDS[g.name].reads for g in HEURISTIC_GUARDS)

    def documented(m: PictureMeasures) -> list[float]:
        floor = [
            1.0
            - ramp(m.second_colour, 0.10, 0.25) * ramp(m.top_colour + m.second_colour, 0.85, 0.95),
            ramp(m.neighbour_corr, 0.15, 0.45),
            1.0 - ramp(m.hue_families, 5.0, 8.0),
            ramp(m.composition, 0.12, 0.20),
            ramp(m.edge_density, 0.003, 0.012),
            1.0 - ramp(m.text_fraction, 0.005, 0.03),
        ]
        return [ramp(m.coverage, 0.005, 0.03)] + [0.1 + 0.9 * f for f in floor]

    rng = random.Random(5)
    for _ in range(300):
        m = measures(
            coverage=rng.uniform(0, 0.05),
            second_colour=rng.uniform(0, 0.3),
            top_colour=rng.uniform(0.5, 0.7),
            neighbour_corr=rng.uniform(0, 0.6),
            hue_families=rng.uniform(3, 10),
            composition=rng.uniform(0.1, 0.25),
            edge_density=rng.uniform(0, 0.015),
            text_fraction=rng.uniform(0, 0.04),
        )
        assert [g.factor(m) for g in HEURISTIC_GUARDS] == documented(m)


def test_a_guard_with_several_conditions_fires_as_far_as_all_of_them() -> None:
    guard = Guard(
        "busy", (Condition("edge_density", 0.1, 0.2), Condition("hue_families", 6.0, 10.0))
    )
    assert guard.factor(measures(edge_density=0.2, hue_families=10.0)) == 0.0
    assert guard.factor(measures(edge_density=0.2, hue_families=6.0)) == 1.0
    assert guard.factor(measures(edge_density=0.15, hue_families=8.0)) == pytest.approx(0.75)


# ---------------------------------------------------------------------------------- the ladder


@pytest.mark.parametrize("sketch_error_reward", [-0.5, None])
@pytest.mark.parametrize("blank_reward", [-0.75, None])
def test_the_evaluator_scores_exactly_what_the_ladder_sends_to_the_formula(
    sketch_error_reward: float | None, blank_reward: float | None
) -> None:
    config = RewardConfig(sketch_error_reward=sketch_error_reward, blank_reward=blank_reward)
    renderer = SketchRenderer()  # never started: the evaluator only reads its config here
    try:
        evaluator = Evaluator(renderer, "heuristic", config)
        refusal = (GateIssue("runtime_primitives", "plain p5 shapes"),)
        checked = 0
        for status in RenderStatus:
            for fraction in (0.0, 0.005, 0.3):
                render = Render(status, png=b"x", paint_fraction=fraction, width=600, height=600)
                if not render.has_picture:
                    continue
                for refusals in ((), refusal):
                    infra = "crashed" if status.is_infrastructure_failure else None
                    breakdown = combine(
                        config,
                        PASSED,
                        paint_fraction=fraction,
                        dark_mass=0.0,
                        score=Score(5.0),
                        sketch_error=_sketch_error(render),
                        infra_error=infra,
                        runtime=refusals,
                        guards=CLEAR,
                    )
                    scored = breakdown.status is RewardStatus.OK
                    assert evaluator._needs_score(render, refusals) == scored, (status, fraction)
                    checked += 1
        pictured = [s for s in RenderStatus if Render(s, png=b"x").has_picture]
        assert checked == 6 * len(pictured)
        assert any(s.is_finished for s in pictured) and any(s.is_sketch_fault for s in pictured)
    finally:
        renderer.close()


# ---------------------------------------------------------------------------------- breakdown


def test_the_wire_model_mirrors_the_core_and_the_maps_not_the_terms() -> None:
    assert set(RewardComponents.model_fields) == {*CORE, *MAPS}
    # Whatever a term or guard adds travels without a change to the model.
    breakdown = RewardBreakdown(
        2.5,
        RewardStatus.OK,
        True,
        contributions=(("subject", 2.0), ("coverage", 0.5)),
        guards=(("stripes", 0.5),),
        observations=(("subject_similarity", 0.8),),
    )
    components = RewardComponents.from_breakdown(breakdown)
    assert components.contributions == {"subject": 2.0, "coverage": 0.5}
    assert components.observations == {"subject_similarity": 0.8}
    assert components.guards == {"stripes": 0.5}


def test_every_term_reports_what_it_reads_owns_and_adds() -> None:
    config = RewardConfig()
    for term in TERMS:
        assert term.name and term.reads and term.why
        assert all(hasattr(config, p) for p in term.params), term.name
        low, high = term.bounds(config, EMBEDDED_SCALE)
        assert low <= high, term.name
    b = combine(config, PASSED, paint_fraction=0.3, score=Score(6.0), measures=measures())
    assert {name for name, _ in b.contributions} <= {t.name for t in TERMS} | {"guards"}
    assert b.observed("coverage_term") == 1.0 and b.observed("guard_factor") == 1.0


# ---------------------------------------------------------------------------------- scale


def test_scorers_state_their_scale_and_the_coverage_ramp_reads_it() -> None:
    assert spec_scale("anchored") == scale_of(AnchoredScorer) == EMBEDDED_SCALE
    assert spec_scale("heuristic") == HeuristicScorer.scale
    assert spec_scale("hpsv3").bounded is False and spec_scale("hpsv3").cap is None
    pointwise = spec_scale("judge+http://127.0.0.1:1/v1?model=m")
    pairwise = spec_scale("judge+http://127.0.0.1:1/v1?model=m&mode=pairwise&refs=x")
    assert (pointwise.low, pointwise.full, pairwise.full) == (1.0, 10.0, 1.0)
    # Coverage pays in full from half of full marks: 5 of 10, or a win-rate of 0.5.
    config = RewardConfig(guards=())
    for scale, value in ((EMBEDDED_SCALE, 5.0), (pairwise, 0.5)):
        b = combine(
            config, PASSED, paint_fraction=0.3, dark_mass=0.0, score=Score(value), scale=scale
        )
        assert b.coverage_term == 1.0
        half = combine(
            config, PASSED, paint_fraction=0.3, dark_mass=0.0, score=Score(value / 2), scale=scale
        )
        assert half.coverage_term == pytest.approx(0.5)
    with pytest.raises(ValueError, match="low < full <= high"):
        ScoreScale(0.0, 1.0, 2.0)


def test_the_manifest_declares_the_rubric_and_reads_the_range_from_the_scale() -> None:
    for spec, expected in (
        ("anchored", (-1.0, 11.0)),
        ("judge+http://127.0.0.1:1/v1?model=m&mode=pairwise&refs=x", (-1.0, 2.0)),
    ):
        manifest = build_manifest(spec)
        assert tuple(manifest["validation"]["reward"]["range"]) == expected
        assert reward_range(RewardConfig(), spec_scale(spec)) == expected
        assert manifest["validation"]["capabilities"]["rubric_tree"] is True
    shipped = yaml.safe_load(
        (Path(__file__).resolve().parents[2] / "openenv.yaml").read_text("utf-8")
    )
    assert shipped["validation"]["capabilities"]["rubric_tree"] is True


# ---------------------------------------------------------------------------------- specs


def test_embedded_scorers_take_spec_parameters() -> None:
    anchored = make_scorer("anchored?kappa=2&typical_quantile=0.5")
    assert isinstance(anchored, AnchoredScorer)
    assert (anchored.kappa, anchored.typical_quantile) == (2.0, 0.5)
    assert make_scorer("heuristic?read_text=0").read_text is False  # type: ignore[attr-defined]
    assert make_scorer("heuristic?read_text=1").read_text is True  # type: ignore[attr-defined]
    for bad, message in [
        ("anchored?kapa=2", "anchored takes kappa, typical_quantile"),
        ("anchored?kappa=big", "must be a number"),
        ("heuristic?read_text=maybe", "must be 0 or 1"),
        ("anchored?kappa=0", "kappa must be a positive number"),
    ]:
        with pytest.raises(ValueError, match=message):
            make_scorer(bad)


def test_a_saved_configuration_names_the_pool_and_the_scorer_settings(tmp_path: Path) -> None:
    # A copy of the shipped pool, named by the configuration: the scorer reads that one.
    pool = tmp_path / "pool"
    shutil.copytree(find_pool_dir(), pool)
    config = EvaluationConfig(scorer="anchored?kappa=2", pool_dir=str(pool))
    saved = EvaluationConfig.load(config.save(tmp_path / "eval.json"))
    assert saved == config and json.loads((tmp_path / "eval.json").read_text())["pool_dir"]
    evaluator = Evaluator(config=saved)
    scorer = evaluator.scorer
    assert isinstance(scorer, AnchoredScorer)
    assert (scorer.pool_dir, scorer.kappa) == (str(pool), 2.0)
    rgb = np.full((600, 600, 3), 245, np.uint8)
    rgb[100:500, 100:500] = (40, 80, 160)
    picture, prompt = Image.fromarray(rgb), "a vase of flowers in watercolour"
    shipped = make_scorer("anchored?kappa=2")
    assert isinstance(shipped, AnchoredScorer)
    assert scorer.score_one(picture, prompt) == shipped.score_one(picture, prompt)
    with pytest.raises(ValueError, match="pool_dir must be a folder path"):
        EvaluationConfig(pool_dir=3)  # type: ignore[arg-type]
