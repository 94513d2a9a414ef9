"""The reward as an OpenEnv rubric tree: the checks OpenEnv's validation makes of a tree
(weighted-sum weights summing to 1, every parent equal to its children's aggregation, the root
equal to the emitted reward), on outcomes of every status, through `combine` and through the
environment with a real renderer and a real (unreachable) scorer service."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from openenv.core.rubrics import Gate, Rubric, Sequential, WeightedSum

from sketch_env.env import SketchAction, SketchEnvironment
from sketch_env.gate import GateIssue, GateVerdict
from sketch_env.reward.breakdown import RewardBreakdown
from sketch_env.reward.combine import combine
from sketch_env.reward.config import RewardConfig
from sketch_env.reward.outcome import LADDER, RewardStatus
from sketch_env.reward.rubric import CONTRIBUTIONS, reward_rubric
from sketch_env.reward.terms import TERMS
from sketch_env.rewardcheck.hacks import token_stroke_blank
from sketch_env.scoring.base import Score
from tests.conftest import GOOD_SKETCH

PASSED = GateVerdict(passed=True)
REFUSED = GateVerdict(passed=False, issues=(GateIssue("network", "`fetch` is not allowed"),))
GUARD_NAMES = RewardConfig().guard_names


def aggregation(node: Rubric) -> float:
    """What a container's score must be, from its children's last scores (OpenEnv's rules)."""
    children = list(node.children())
    scores = [child.last_score for child in children]
    assert all(isinstance(s, float) for s in scores), (node, scores)
    if isinstance(node, WeightedSum):
        return sum(w * s for w, s in zip(node.weights, scores, strict=True))  # type: ignore[misc]
    if isinstance(node, Sequential):
        return 0.0 if any(s == 0.0 for s in scores) else float(scores[-1])  # type: ignore[arg-type]
    if isinstance(node, Gate):
        (score,) = scores
        return 0.0 if score < node.threshold else float(score)  # type: ignore[operator]
    raise AssertionError(f"a parent OpenEnv cannot aggregate: {type(node).__name__}")


def check_tree(rubric: Rubric, reward: float) -> None:
    """The validation's checks: weights, aggregation at every parent, the root."""
    nodes = [rubric, *rubric.rubrics()]
    for node in nodes:
        if isinstance(node, WeightedSum):
            assert abs(sum(node.weights) - 1.0) <= 1e-6, node.weights
        if list(node.children()):
            assert node.last_score == pytest.approx(aggregation(node), abs=1e-9)
    assert rubric.last_score == pytest.approx(reward, abs=1e-9)


def sampled_outcomes(count: int) -> list[RewardBreakdown]:
    """Breakdowns of every status from random but valid inputs (seeded)."""
    rng = random.Random(27)
    out = []
    for _ in range(count):
        config = RewardConfig(
            gate_weight=rng.choice([0.0, 0.5]),
            preference_weight=rng.uniform(0.0, 2.0),
            coverage_weight=rng.uniform(0.0, 2.0),
            dark_mass_weight=rng.choice([0.0, 1.0, 2.0]),
            pairwise_weight=rng.choice([0.0, 1.0]),
            pairwise_references=((4.0, 1.0), (7.0, 0.5)),
            sketch_error_reward=rng.choice([-0.5, None]),
        )
        factors = {g: rng.choice([1.0, 1.0, rng.random()]) for g in GUARD_NAMES}
        runtime = (
            (GateIssue("runtime_primitives", "plain p5 shapes"),) if rng.random() < 0.15 else ()
        )
        out.append(
            combine(
                config,
                REFUSED if rng.random() < 0.1 else PASSED,
                paint_fraction=rng.choice([0.003, rng.random()]),
                dark_mass=rng.random(),
                score=Score(rng.uniform(-1.0, 10.0), sigma=rng.random()),
                sketch_error="timeout: too slow" if rng.random() < 0.2 else None,
                infra_error="scorer down" if rng.random() < 0.1 else None,
                runtime=runtime,
                guards=factors,
                sample_seed=rng.randrange(100),
            )
        )
    return out


def test_the_tree_is_a_weighted_sum_of_the_contributions_with_weights_summing_to_one() -> None:
    rubric = reward_rubric()
    assert isinstance(rubric, WeightedSum)
    assert [name for name, _ in rubric.named_children()] == list(CONTRIBUTIONS)
    assert abs(sum(rubric.weights) - 1.0) <= 1e-6
    # One child per way a contribution can arise: the ladder's fixed outcomes, the terms, and
    # the guards' pull (a new term is a new child, with no change here).
    fixed = [rung.contribution for rung in LADDER if rung.contribution is not None]
    assert fixed == ["gate_fail", "runtime_gate_fail", "sketch_error", "blank"]
    assert list(CONTRIBUTIONS) == [*fixed, *(term.name for term in TERMS), "guards"]
    assert {"coverage", "preference", "pairwise", "dark_mass", "gate"} <= set(CONTRIBUTIONS)
    assert rubric.state_dict()["contributions"] == list(CONTRIBUTIONS)


def test_the_root_is_the_reward_and_each_child_its_contribution_for_every_status() -> None:
    outcomes = sampled_outcomes(400)
    seen = {b.status for b in outcomes}
    assert seen == set(RewardStatus), seen
    rubric = reward_rubric()
    for breakdown in outcomes:
        if breakdown.reward is None:
            assert breakdown.status is RewardStatus.INFRA_ERROR
            continue
        assert set(dict(breakdown.contributions)) <= set(CONTRIBUTIONS)
        assert rubric(None, breakdown) == pytest.approx(breakdown.reward, abs=1e-9)
        check_tree(rubric, breakdown.reward)
        for name, child in rubric.named_children():
            assert child.contribution == pytest.approx(  # type: ignore[attr-defined]
                dict(breakdown.contributions).get(name, 0.0), abs=1e-12
            )


def test_a_tree_that_breaks_the_rules_is_caught() -> None:
    # The checker itself must fail: a parent whose score is not its children's aggregation.
    rubric = reward_rubric()
    step = RewardBreakdown(2.0, RewardStatus.OK, True, contributions=(("coverage", 2.0),))
    rubric(None, step)
    with pytest.raises(AssertionError):
        check_tree(rubric, 3.0)
    object.__setattr__(rubric, "last_score", 5.0)
    with pytest.raises(AssertionError):
        check_tree(rubric, 5.0)


def steps(env: SketchEnvironment, replies: list[str]) -> list[Any]:
    out = []
    for seed, reply in enumerate(replies):
        env.reset(seed=seed)
        observation = env.step(SketchAction(sketch=reply))
        out.append((observation, env.rubric.last_score if env.rubric is not None else None))
        if observation.reward is not None:
            assert env.rubric is not None
            check_tree(env.rubric, observation.reward)
    return out


#: One tiny stroke on an empty canvas: it passes the gate and is blank.
BLANK = token_stroke_blank(0)

SMALL = """
function setup() {
  createCanvas(64, 64, WEBGL);
  translate(-width / 2, -height / 2);
  background(245, 240, 228);
  brush.set('charcoal', '#2a3b55', 3);
  brush.line(5, 5, 60, 60);
}
"""

THROWS = """
function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background(250);
  brush.noStroke();
  brush.fill('#3060a0', 200);
  brush.rect(20, 20, 400, 400);
  undefinedHelper();
}
"""


def test_the_environment_scores_its_rubric_on_every_step(renderer) -> None:
    env = SketchEnvironment(renderer=renderer)
    try:
        results = steps(env, ["no code here", BLANK, SMALL, THROWS, GOOD_SKETCH])
    finally:
        env.close()
    statuses = [obs.components.status for obs, _ in results]
    assert statuses == ["gate_failed", "blank", "runtime_gate_failed", "sketch_error", "ok"]
    for obs, root in results:
        assert root == pytest.approx(obs.reward, abs=1e-9)


def test_an_infrastructure_failure_has_no_reward_and_leaves_no_score(renderer) -> None:
    # A real client of a scorer service that is not there (nothing listens on port 9): the
    # failure is the machine's, the reward None, and the rubric says nothing either.
    env = SketchEnvironment(renderer=renderer, scorer="hpsv3+http://127.0.0.1:9")
    try:
        ((first, _), (second, root)) = steps(env, [BLANK, GOOD_SKETCH])
    finally:
        env.close()
    assert first.reward == -0.75  # blank: never sent to the scorer
    assert second.reward is None and second.components.status == "infra_error"
    assert root is None and env.rubric is not None
    assert all(r.last_score is None for r in env.rubric.rubrics())
    assert math.isfinite(first.reward)
