"""The reward: the formula, every outcome, config validation and serialisation, bad input end to
end (reply -> gate -> reward), and the optional OpenEnv rubric adapter."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from sketch_env.gate import DEFAULT_MAX_REPLY_BYTES, GateConfig, GateIssue
from sketch_env.gate.runtime import runtime_check
from sketch_env.picture.paint import paint_fraction
from sketch_env.render.result import Render, RenderStatus
from sketch_env.reward.combine import combine as combine_reward
from sketch_env.reward.guards import GUARD_NAMES
from sketch_env.scoring import (
    GateVerdict,
    HeuristicScorer,
    RewardBreakdown,
    RewardConfig,
    RewardStatus,
    Score,
    check_sketch,
    dark_mass_fraction,
    gate_reply,
    pairwise_win_probability,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "rendered"
PASSED = GateVerdict(passed=True)
#: Guard factors of a picture no guard has anything to say about.
CLEAR = dict.fromkeys(GUARD_NAMES, 1.0)


def combine(*args: Any, **kwargs: Any) -> RewardBreakdown:
    """`sketch_env.scoring.reward.combine` for the formula's tests: a clean picture's guards
    unless a test says otherwise (the guards have their own tests, tests/picture/test_guards.py)."""
    kwargs.setdefault("guards", CLEAR)
    return combine_reward(*args, **kwargs)


FAILED = GateVerdict(
    passed=False,
    issues=(GateIssue("network", "`fetch` at 3:1: network access is not allowed", 3, 1),),
)


def ok(**kwargs: object) -> RewardBreakdown:
    """combine() for a passed gate with harmless defaults for what a test does not vary."""
    config = kwargs.pop("config", RewardConfig())
    values: dict[str, object] = {"paint_fraction": 0.3, "dark_mass": 0.0, "score": Score(5.0)}
    values.update(kwargs)
    return combine(config, PASSED, **values)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------- formula


def test_formula_and_contributions_sum_to_the_reward() -> None:
    config = RewardConfig(preference_weight=0.5, coverage_weight=2.0, gate_weight=0.25)
    b = ok(config=config, paint_fraction=0.1, score=Score(6.0, sigma=0.3, terms=(("a", 1.0),)))
    # 0.25 + 0.5 * 6 + 2 * (0.1 / 0.25) - 0
    assert b.reward == pytest.approx(0.25 + 3.0 + 0.8)
    assert b.status == "ok"
    assert b.gate_passed and b.gate_reasons == () and b.gate_codes == ()
    assert (b.preference, b.preference_sigma, b.preference_term) == (6.0, 0.3, 6.0)
    assert (b.coverage, b.coverage_term) == (0.1, pytest.approx(0.4))
    assert b.dark_mass == 0.0 and b.dark_mass_penalty == 0.0
    assert b.pairwise_prob is None and b.infra_error is None and b.sketch_error is None
    assert dict(b.contributions).keys() == {"gate", "coverage", "preference", "dark_mass"}
    assert math.fsum(v for _, v in b.contributions) == pytest.approx(b.reward)
    assert b.scorer_terms == (("a", 1.0),)


@pytest.mark.parametrize(
    ("fraction", "term"),
    [(0.0, 0.0), (0.0049, 0.0), (0.005, 0.02), (0.125, 0.5), (0.25, 1.0), (0.9, 1.0)],
)
def test_coverage_term_is_zero_below_the_floor_and_saturates(fraction: float, term: float) -> None:
    # The blank outcome would take over below 1 %: off here, to see the term itself.
    config = RewardConfig(blank_reward=None)
    assert ok(paint_fraction=fraction, config=config).coverage_term == pytest.approx(term)


@pytest.mark.parametrize(
    ("preference", "share"), [(-1.0, 0.0), (0.0, 0.0), (2.5, 0.5), (5.0, 1.0), (9.0, 1.0)]
)
def test_coverage_pays_only_as_much_as_the_scorer_likes_the_picture(
    preference: float, share: float
) -> None:
    b = ok(paint_fraction=0.3, score=Score(preference))
    assert b.coverage_term == pytest.approx(share)
    ungated = RewardConfig(coverage_quality=None)
    assert ok(paint_fraction=0.3, score=Score(preference), config=ungated).coverage_term == 1.0


def test_a_failure_earns_what_an_empty_canvas_earns_and_a_refusal_less() -> None:
    # Issue 29: a sketch error at -0.5 let a token stroke followed by an endless loop out-earn
    # the adversarial floor; under the error penalty, painting nothing would be the safe way out.
    config = RewardConfig()
    blank = ok(paint_fraction=0.004, score=Score(0.0))
    failed = ok(paint_fraction=0.3, sketch_error="unfinished: TypeError")
    poor = ok(paint_fraction=0.02, score=Score(0.0))
    refused = combine(config, FAILED)
    assert blank.status is RewardStatus.BLANK and blank.reward == config.blank_reward
    assert failed.status is RewardStatus.SKETCH_ERROR
    assert refused.reward < blank.reward == failed.reward < poor.reward  # type: ignore[operator]
    assert config.guard_floor == config.blank_reward  # a floored picture is an empty canvas


def test_blank_and_quality_settings_are_validated() -> None:
    with pytest.raises(ValueError, match=r"\(floor, full\) pair"):
        RewardConfig(coverage_quality=(1.0,))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="greater than"):
        RewardConfig(coverage_quality=(0.5, 0.5))
    with pytest.raises(ValueError, match=r"coverage_quality = \[floor, full\]"):
        RewardConfig.from_dict({"coverage_quality_full": 5.0})
    with pytest.raises(ValueError, match="blank_below"):
        RewardConfig(blank_below=1.5)


def test_coverage_floor_and_target_are_configurable() -> None:
    config = RewardConfig(coverage_floor=0.05, coverage_target=0.5)
    assert ok(config=config, paint_fraction=0.04).coverage_term == 0.0
    assert ok(config=config, paint_fraction=0.25).coverage_term == pytest.approx(0.5)


@pytest.mark.parametrize(("dark", "penalty"), [(0.0, 0.0), (0.25, 0.0), (0.375, 0.5), (0.5, 1.0)])
def test_dark_mass_penalty_ramps(dark: float, penalty: float) -> None:
    config = RewardConfig(dark_mass_weight=2.0)
    b = ok(config=config, dark_mass=dark)
    assert b.dark_mass_penalty == pytest.approx(2.0 * penalty)
    assert b.reward == pytest.approx(5.0 + 1.0 - 2.0 * penalty)


def test_dark_mass_penalty_can_be_turned_off_and_then_needs_no_input() -> None:
    b = ok(config=RewardConfig(dark_mass_weight=0.0), dark_mass=None)
    assert b.dark_mass_penalty is None
    assert b.reward == pytest.approx(6.0)


def test_preference_normalisation() -> None:
    config = RewardConfig(preference_ref_mean=4.0, preference_ref_std=2.0, coverage_weight=0.0)
    b = ok(config=config, score=Score(7.0))
    assert b.preference == 7.0
    assert b.preference_term == pytest.approx(1.5)
    assert b.reward == pytest.approx(1.5)


# ---------------------------------------------------------------------------------- pairwise


def test_pairwise_win_probability_values() -> None:
    assert pairwise_win_probability(3.0, 1.0, [(3.0, 1.0)]) == pytest.approx(0.5)
    # (2 - 0) / sqrt(1 + 1) = sqrt(2): Phi(1.4142) = 0.92135
    assert pairwise_win_probability(2.0, 1.0, [(0.0, 1.0)]) == pytest.approx(0.92135, abs=1e-5)
    assert pairwise_win_probability(0.0, 1.0, [(2.0, 1.0)]) == pytest.approx(0.07865, abs=1e-5)
    # Mean over references; no uncertainty at all is a step with ties at 1/2.
    assert pairwise_win_probability(1.0, None, [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)]) == 0.5
    with pytest.raises(ValueError):
        pairwise_win_probability(1.0, 1.0, [])


def test_pairwise_term_in_the_reward() -> None:
    refs = ((0.0, 1.0), (2.0, 1.0))
    config = RewardConfig(
        preference_weight=0.0, coverage_weight=0.0, pairwise_weight=1.0, pairwise_references=refs
    )
    b = ok(config=config, score=Score(2.0, sigma=1.0))
    expected = (0.92135 + 0.5) / 2
    assert b.pairwise_prob == pytest.approx(expected, abs=1e-5)
    assert b.reward == pytest.approx(expected, abs=1e-5)
    # References given per call (e.g. this prompt's pool) override the config's.
    assert ok(config=config, score=Score(2.0, 1.0), references=[(2.0, 1.0)]).reward == 0.5


def test_pairwise_sampling_is_seeded() -> None:
    refs = tuple((float(i), 0.5) for i in range(20))
    config = RewardConfig(
        preference_weight=0.0,
        coverage_weight=0.0,
        pairwise_weight=1.0,
        pairwise_references=refs,
        pairwise_samples=3,
    )
    by_seed = {
        seed: ok(config=config, score=Score(9.5, 0.5), sample_seed=seed).reward for seed in range(8)
    }
    assert ok(config=config, score=Score(9.5, 0.5), sample_seed=3).reward == by_seed[3]
    assert len(set(by_seed.values())) > 1  # different samples, different estimates
    everything = RewardConfig(
        **{**config.to_dict(), "pairwise_samples": 0, "pairwise_references": refs}
    )
    full = ok(config=everything, score=Score(9.5, 0.5)).reward
    assert full == pytest.approx(pairwise_win_probability(9.5, 0.5, refs))


# ---------------------------------------------------------------------------------- outcomes


def test_gate_failure_gives_the_configured_penalty_with_reasons() -> None:
    b = combine(RewardConfig(), FAILED)
    assert b.reward == -1.0 and b.status == "gate_failed"
    assert b.gate_passed is False
    assert b.gate_codes == ("network",)
    assert "network access" in b.gate_reasons[0]
    assert b.preference is None and b.coverage is None
    assert combine(RewardConfig(gate_fail_reward=0.0), FAILED).reward == 0.0


def test_infrastructure_failure_gives_none() -> None:
    b = combine(RewardConfig(), PASSED, infra_error="browser crashed")
    assert b.reward is None and b.status == "infra_error"
    assert b.infra_error == "browser crashed"
    # A scorer that answers NaN is broken infrastructure too, not a verdict on the painting.
    nan = ok(score=Score(float("nan")))
    assert nan.reward is None and "non-finite" in (nan.infra_error or "")


def test_sketch_error_penalty_or_score_what_was_painted() -> None:
    b = ok(sketch_error="TypeError: brush.bleed is not a function")
    assert b.reward == RewardConfig().sketch_error_reward and b.status == "sketch_error"
    assert b.sketch_error.startswith("TypeError")
    assert b.coverage == 0.3  # still reported
    lenient = ok(config=RewardConfig(sketch_error_reward=None), sketch_error="timed out")
    assert lenient.status == "ok" and lenient.reward == pytest.approx(6.0)
    assert lenient.sketch_error == "timed out"


def test_precedence_gate_then_infra_then_sketch() -> None:
    assert combine(RewardConfig(), FAILED, infra_error="x").status == "gate_failed"
    assert ok(infra_error="x", sketch_error="y").status == "infra_error"


def test_missing_or_bad_inputs_are_caller_errors() -> None:
    with pytest.raises(ValueError, match="paint_fraction"):
        ok(paint_fraction=None)
    with pytest.raises(ValueError, match="paint_fraction"):
        ok(paint_fraction=1.5)
    with pytest.raises(ValueError, match="dark_mass"):
        ok(dark_mass=None)
    with pytest.raises(ValueError, match="needs a score"):
        ok(score=None)
    # Without preference or pairwise weight no score is needed.
    assert ok(config=RewardConfig(preference_weight=0.0), score=None).reward == pytest.approx(1.0)


def test_breakdown_to_dict_is_json_serialisable() -> None:
    b = ok(score=Score(5.0, 0.2, (("coverage", 0.3),)))
    data = json.loads(json.dumps(b.to_dict()))
    assert data["reward"] == pytest.approx(b.reward)
    assert data["contributions"]["preference"] == 5.0
    assert data["scorer_terms"] == {"coverage": 0.3}
    # A fixed core and name -> value maps: what the terms measured is an observation.
    assert set(data) >= {"gate_passed", "gate_reasons", "infra_error", "observations", "guards"}
    assert set(data["observations"]) >= {
        "preference",
        "preference_sigma",
        "coverage",
        "coverage_term",
        "dark_mass_penalty",
    }
    assert json.loads(json.dumps(combine(RewardConfig(), FAILED).to_dict()))["reward"] == -1.0


# ---------------------------------------------------------------------------------- config


def test_config_round_trips_through_json() -> None:
    config = RewardConfig(
        coverage_floor=0.01,
        sketch_error_reward=None,
        preference_ref_mean=5.0,
        preference_ref_std=1.5,
        pairwise_weight=0.5,
        pairwise_references=((1.0, 0.5), (2.0, 0.25)),
        pairwise_samples=1,
    )
    text = config.to_json()
    assert json.loads(text)["pairwise_references"] == [[1.0, 0.5], [2.0, 0.25]]
    assert RewardConfig.from_json(text) == config
    assert RewardConfig.from_dict(config.to_dict()) == config
    assert hash(config) == hash(RewardConfig.from_json(text))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"preference_weight": -1.0}, "preference_weight must be >= 0"),
        ({"coverage_weight": float("nan")}, "coverage_weight must be a finite number"),
        ({"gate_fail_reward": float("inf")}, "gate_fail_reward must be a finite number"),
        ({"coverage_floor": 1.5}, r"coverage_floor must be in \[0, 1\]"),
        ({"coverage_target": 0.001}, "coverage_target must be > 0 and >= coverage_floor"),
        ({"dark_mass_start": 0.6, "dark_mass_full": 0.5}, "dark_mass_full must be greater"),
        ({"preference_ref_mean": 1.0}, "must be given together"),
        ({"preference_ref_mean": 1.0, "preference_ref_std": 0.0}, "preference_ref_std must be > 0"),
        ({"pairwise_weight": 1.0}, "needs pairwise_references"),
        ({"pairwise_references": ((1.0,),)}, r"must be a \(mu, sigma\) pair"),
        ({"pairwise_references": ((1.0, -1.0),)}, "sigma < 0"),
        ({"pairwise_samples": -1}, "pairwise_samples must be an int >= 0"),
        ({"sketch_error_reward": "low"}, "sketch_error_reward must be a finite number"),
    ],
)
def test_config_validation(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RewardConfig(**kwargs)  # type: ignore[arg-type]


def test_config_from_dict_rejects_unknown_keys() -> None:
    with pytest.raises(ValueError, match="unknown RewardConfig keys"):
        RewardConfig.from_dict({"coverage_flor": 0.1})
    with pytest.raises(ValueError):
        RewardConfig.from_json("3")


# ---------------------------------------------------------------------------------- end to end


def rollout(name: str, config: RewardConfig | None = None) -> RewardBreakdown:
    """Gate the fixture's source and score its real render with the heuristic scorer.

    The gate allows p5's own shapes here: darkblob.js paints its blob with a plain circle on
    purpose, and these tests are about what the reward's formula makes of the picture.
    """
    gate = check_sketch((DATA / f"{name}.js").read_text(), GateConfig(max_bare_primitives=None))
    with Image.open(DATA / f"{name}.png") as image:
        picture = image.convert("RGB")
    score = HeuristicScorer().score_one(picture)
    return combine(
        config or RewardConfig(),
        gate,
        paint_fraction=paint_fraction(picture),
        dark_mass=dark_mass_fraction(picture),
        score=score,
    )


def test_real_paintings_out_reward_the_dark_hacks() -> None:
    paintings = [rollout(n) for n in ("flower", "garden", "landscape")]
    hacks = [rollout(n) for n in ("darkblob", "fatstroke")]
    assert all(b.status == "ok" for b in paintings + hacks)
    assert min(b.reward for b in paintings) > max(b.reward for b in hacks)
    for hack in hacks:
        assert hack.dark_mass_penalty > 0.5
    for painting in paintings:
        assert painting.dark_mass_penalty == 0.0


BAD_REPLIES = {
    "empty": "",
    "none": None,
    "no code": "I would paint a peach hibiscus with loose, wet edges.",
    "only python": "```python\nprint('hibiscus')\n```",
    "several blocks, none a sketch": "```js\nconst a = 1;\n```\n```js\nconst b = 2;\n```",
    "enormous": "```js\n" + "// x\n" * (DEFAULT_MAX_REPLY_BYTES // 4) + "```",
    "not utf-8": b"```js\nfunction setup() {}\n\xc3\x28\n```",
    "lone surrogate": "```js\n\udcff\n```",
}


@pytest.mark.parametrize("reply", BAD_REPLIES.values(), ids=list(BAD_REPLIES))
def test_bad_replies_get_a_gate_verdict_and_a_penalty_never_an_exception(
    reply: str | bytes | None,
) -> None:
    verdict = gate_reply(reply)
    assert not verdict.passed
    assert verdict.reasons and all(isinstance(r, str) and r for r in verdict.reasons)
    b = combine(RewardConfig(), verdict)
    assert b.reward == -1.0
    assert b.gate_reasons == tuple(verdict.reasons)


def test_several_blocks_with_one_sketch_pass_the_gate() -> None:
    sketch = (DATA / "garden.js").read_text()
    reply = f"Palette first:\n```js\nconst c = ['#fff'];\n```\nSketch:\n```javascript\n{sketch}```"
    verdict = gate_reply(reply)
    assert verdict.passed
    assert "used block 2" in verdict.notes[0]


# ---------------------------------------------------------------------------------- statuses


def test_breakdown_status_is_the_reward_status_enum_and_serialises_as_text() -> None:
    ok = combine(RewardConfig(), PASSED, paint_fraction=0.2, dark_mass=0.1, score=Score(4.0))
    infra = combine(RewardConfig(), PASSED, infra_error="scorer timed out")
    assert ok.status is RewardStatus.OK and infra.status is RewardStatus.INFRA_ERROR
    as_json = json.loads(json.dumps(ok.to_dict()))
    assert as_json["status"] == "ok" and type(ok.to_dict()["status"]) is str


def test_runtime_refusal_earns_the_gate_fail_reward_after_infrastructure() -> None:
    config = RewardConfig()
    render = Render(RenderStatus.UNFINISHED, api_calls={"ellipse": 4, "brush.line": 2})
    refused = runtime_check(render, GateConfig())
    assert [issue.code for issue in refused] == ["runtime_primitives"]
    assert "ellipse ×4" in refused[0].message and "brush.line" in refused[0].message
    passed = GateVerdict(passed=True)
    painted = {"paint_fraction": 0.3, "dark_mass": 0.0, "score": Score(9.0)}
    breakdown = combine(config, passed, sketch_error="unfinished: x", runtime=refused, **painted)
    assert breakdown.status is RewardStatus.RUNTIME_GATE_FAILED
    assert breakdown.reward == config.gate_fail_reward
    assert breakdown.runtime_codes == ("runtime_primitives",)
    assert breakdown.to_dict()["runtime_reasons"] == [refused[0].message]
    # An infrastructure failure still wins: the policy is never charged for it.
    assert combine(config, passed, infra_error="down", runtime=refused, **painted).reward is None
    # Without a refusal the formula applies as before.
    assert combine(config, passed, **painted).status is RewardStatus.OK


def test_the_run_time_rules_moved_from_the_reward_to_the_gate() -> None:
    # A saved reward configuration that still carries a run-time rule says where it went.
    for key in ("require_brush_paint", "canvas_size"):
        with pytest.raises(ValueError, match="GateConfig"):
            RewardConfig.from_dict({key: True})
