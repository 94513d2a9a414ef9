"""The evaluation pipeline every front end shares: gate, render, score, reward."""

from __future__ import annotations

import asyncio

import pytest

from sketch_env import RenderStatus, shared_renderer
from sketch_env.evaluation import Evaluator
from sketch_env.scoring import HeuristicScorer, RewardConfig, Score, ScorerUnavailableError
from tests.conftest import GOOD_SKETCH

THROWS_AFTER_PAINT = """
function setup() {
  createCanvas(300, 300, WEBGL);
  background(240);
  translate(-width / 2, -height / 2);
  brush.noStroke();
  brush.fill('#335599', 200);
  brush.rect(40, 40, 200, 200);
  throw new Error('ran out of ideas');
}
"""


def replies() -> list[str]:
    return [
        f"Here is my painting:\n```javascript\n{GOOD_SKETCH}\n```",
        "I cannot paint today.",
        f"```js\n{THROWS_AFTER_PAINT}\n```",
    ]


def test_batch_gets_one_rollout_per_reply_with_every_component(renderer):
    evaluator = Evaluator(renderer, scorer="heuristic")
    good, refused, threw = evaluator.evaluate_sync(replies(), ["a red square"] * 3, seeds=[1, 2, 3])

    assert good.gate.passed and good.render.status is RenderStatus.OK
    assert good.score is not None and good.reward.status == "ok"
    assert good.reward.reward == pytest.approx(sum(v for _, v in good.reward.contributions))
    assert good.render.seed == 1 and good.to_dict()["render"]["seed"] == 1

    assert not refused.gate.passed and refused.render is None
    assert refused.reward.reward == RewardConfig().gate_fail_reward

    assert threw.render.status is RenderStatus.UNFINISHED
    assert threw.reward.status == "sketch_error"
    assert "ran out of ideas" in threw.feedback()


def test_async_evaluate_from_a_foreign_loop(renderer):
    evaluator = Evaluator(renderer)

    async def main():
        return await evaluator.evaluate(replies()[:1], ["a red square"], seeds=0)

    (rollout,) = asyncio.run(main())
    assert rollout.render.status is RenderStatus.OK


def test_length_mismatch_is_a_caller_error(renderer):
    with pytest.raises(ValueError, match="2 replies, 1 prompts"):
        Evaluator(renderer).evaluate_sync(["a", "b"], ["p"])


class UnreachableScorer:
    """A scorer whose service is down: the pipeline must turn that into reward None."""

    name = "unreachable"

    async def score(self, images, prompts) -> list[Score]:
        raise ScorerUnavailableError("connection refused at 127.0.0.1:9")


def test_scorer_outage_is_an_infrastructure_failure_not_a_zero(renderer):
    evaluator = Evaluator(renderer, scorer=UnreachableScorer())
    good, refused, _ = evaluator.evaluate_sync(replies(), ["a red square"] * 3)
    assert good.reward.reward is None and "unavailable" in good.reward.infra_error
    assert refused.reward.reward is not None  # the gate decided without the scorer


def test_renderer_specs():
    assert Evaluator("local").renderer is shared_renderer()
    assert Evaluator(None).renderer is shared_renderer()
    assert isinstance(Evaluator(scorer=HeuristicScorer()).scorer, HeuristicScorer)
    with pytest.raises(ValueError):
        Evaluator("nonsense://x")
