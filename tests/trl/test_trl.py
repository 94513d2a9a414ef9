"""The TRL integration: reward functions, the tool environment, the dataset and 2 GRPO steps.

Real Chromium, real scorers; the GRPO smoke run uses a tiny random model built locally.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import math
import time
from pathlib import Path

import numpy as np
import pytest

from sketch_env.catalog.instructions import POLICY_INSTRUCTIONS
from sketch_env.catalog.tasks import get_task, load_tasks
from sketch_env.render.result import RenderStatus
from sketch_env.reward import RewardConfig
from sketch_env.scoring.spec import make_scorer
from sketch_env.trl import (
    TRL_INSTALL_HINT,
    AsyncSketchReward,
    SketchEvaluation,
    SketchReward,
    SketchToolEnv,
    make_dataset,
)
from tests.conftest import (
    BARE_SKETCH,
    GOOD_SKETCH,
    SEEDED_SKETCH,
    smoke_example,
    steered_tiny_model,
)

ROOT = Path(__file__).resolve().parents[2]

#: Passes the gate (it paints a stroke), then throws in setup.
THROWING_SKETCH = """
function setup() {
  createCanvas(200, 200, WEBGL);
  background(30, 90, 160);
  brush.set('HB', '#111111', 1);
  brush.line(-60, 0, 60, 0);
  notDefinedAnywhere(3);
}
"""


def _require(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.fail(f"this test needs {module!r}: {TRL_INSTALL_HINT}")


class _Log:
    """Collects what a reward function logs through TRL's callbacks."""

    def __init__(self) -> None:
        self.metrics: dict[str, list[float]] = {}
        self.extra: dict[str, list] = {}

    def metric(self, name: str, value: float) -> None:
        self.metrics.setdefault(name, []).append(value)

    def column(self, name: str, values: list) -> None:
        self.extra.setdefault(name, []).extend(values)


def test_make_dataset_is_conversational_with_task_columns() -> None:
    _require("datasets")
    full = make_dataset()
    assert len(full) == len(load_tasks())
    assert set(full.column_names) == {"prompt", "task_id", "prompt_text", "seed"}
    row = full[0]
    assert [m["role"] for m in row["prompt"]] == ["system", "user"]
    assert row["prompt"][0]["content"] == POLICY_INSTRUCTIONS
    assert row["prompt_text"] == get_task(row["task_id"]).prompt
    assert row["prompt_text"] in row["prompt"][1]["content"]

    repeated = make_dataset(
        ["seascape/pastel", get_task("trees/charcoal")], repeats=3, system_prompt=False
    )
    assert repeated["task_id"] == ["seascape/pastel", "trees/charcoal"] * 3
    assert all([m["role"] for m in p] == ["user"] for p in repeated["prompt"])
    custom = make_dataset(["flowers/pastel"], system_prompt="Be brief.")
    assert custom[0]["prompt"][0] == {"role": "system", "content": "Be brief."}
    with pytest.raises(ValueError, match="repeats"):
        make_dataset(repeats=0)
    with pytest.raises(ValueError, match="unknown task id"):
        make_dataset(["flowers/oil"])


def test_make_dataset_has_a_seed_schedule_per_row_and_epoch(renderer) -> None:
    _require("datasets")
    from sketch_env.trl import row_seed

    tasks = ["seascape/pastel", "trees/charcoal"]
    data = make_dataset(tasks, repeats=3, epochs=2, seed=11)
    assert len(data) == 12 and data["task_id"] == tasks * 6
    seeds = data["seed"]
    # Row i of epoch e: row_seed(11, e, i); every row and every epoch its own seed.
    assert seeds == [row_seed(11, e, i) for e in range(2) for i in range(6)]
    assert len(set(seeds)) == 12 and all(0 <= s < 2**32 for s in seeds)
    assert seeds[:6] != seeds[6:]  # the second epoch is not the first again
    # The same arguments, the same dataset; another base seed, another schedule.
    assert make_dataset(tasks, repeats=3, epochs=2, seed=11)["seed"] == seeds
    assert set(make_dataset(tasks, repeats=3, seed=12)["seed"]).isdisjoint(seeds)
    # The schedule's first epoch does not depend on how many epochs are built.
    assert make_dataset(tasks, repeats=3, seed=11)["seed"] == seeds[:6]
    assert "seed" not in make_dataset(tasks, seed=None).column_names
    with pytest.raises(ValueError, match="epochs"):
        make_dataset(epochs=0)
    with pytest.raises(ValueError, match="seed must be"):
        make_dataset(seed=-1)

    # The reward function renders each row at its seed (TRL passes the column along).
    reward = SketchReward(scorer="heuristic", renderer=renderer)
    reward(
        prompts=data["prompt"][:4],
        completions=["no code"] * 4,
        task_id=data["task_id"][:4],
        prompt_text=data["prompt_text"][:4],
        seed=data["seed"][:4],
    )
    assert [r.seed for r in reward.last_rollouts] == seeds[:4]


def test_reward_renders_batch_once_and_logs_components(renderer) -> None:
    reward = SketchReward(scorer="heuristic", renderer=renderer)
    fenced = f"Here it is:\n```javascript\n{GOOD_SKETCH}\n```"
    completions = [
        [{"role": "assistant", "content": fenced}],  # conversational
        fenced,  # plain text, the same sketch: evaluated once
        "I cannot paint, sorry.",  # no code: the gate refuses it
        [{"role": "assistant", "content": f"```js\n{THROWING_SKETCH}\n```"}],
    ]
    prompts = [[{"role": "user", "content": "Paint this: anything"}]] * 4
    task_ids = ["flowers/watercolour", "flowers/watercolour", "trees/ink_hatching", None]
    texts = [None, None, None, "a blue field"]
    log = _Log()

    values = reward(
        prompts=prompts,
        completions=completions,
        completion_ids=[[1, 2]] * 4,
        task_id=task_ids,
        prompt_text=texts,
        log_metric=log.metric,
        log_extra=log.column,
        trainer_state=None,
    )
    assert len(values) == 4
    assert reward.__name__ == "sketch_reward"
    assert all(isinstance(v, float) for v in values)
    assert values[0] == values[1] and values[0] > 0
    assert values[2] == -1.0  # RewardConfig.gate_fail_reward
    assert values[3] == RewardConfig().sketch_error_reward
    assert reward.evaluation.evaluations == 1
    rollouts = reward.last_rollouts
    assert rollouts[0].prompt == get_task("flowers/watercolour").prompt
    assert rollouts[3].prompt == "a blue field"
    assert rollouts[3].render is not None and rollouts[3].render.status.value == "js_error"

    assert log.metrics["sketch/gate_pass_rate"] == [0.75]
    assert log.metrics["sketch/failures/gate_failed"] == [1.0]
    assert log.metrics["sketch/failures/js_error"] == [1.0]
    assert log.metrics["sketch/infra_failures"] == [0.0]
    assert 0 < log.metrics["sketch/paint_fraction"][0] <= 1
    assert 0 < log.metrics["sketch/coverage_term"][0] <= 1
    assert log.metrics["sketch/render_ms"][0] > 0
    assert "sketch/preference" in log.metrics
    assert log.extra["sketch_status"] == ["ok", "ok", "gate_failed", "js_error"]

    # Component functions over the same evaluation: no new render, no second log.
    coverage, gate, preference = reward.components("coverage", "gate", "preference")
    again = {
        "prompts": prompts,
        "completions": completions,
        "task_id": task_ids,
        "prompt_text": texts,
        "log_metric": log.metric,
        "trainer_state": None,
    }
    cov = coverage(**again)
    assert gate(**again) == [1.0, 1.0, 0.0, 1.0]
    pref = preference(**again)
    assert reward.evaluation.evaluations == 1
    assert log.metrics["sketch/gate_pass_rate"] == [0.75]
    assert cov[2] == 0.0 and cov[3] == 0.0 and 0 < cov[0] <= 1
    assert pref[0] == rollouts[0].reward.preference_term and pref[2] == 0.0
    assert coverage.__name__ == "sketch_coverage"


def test_a_reward_whose_discriminator_learns_the_batches_it_scores(renderer) -> None:
    # Issue 28's adversarial option: a scorer spec, so it reaches the TRL reward, the server
    # and the command line alike.
    reward = SketchReward(scorer="vision?refit_every=2", renderer=renderer)
    log = _Log()
    completions = [f"```js\n{GOOD_SKETCH}\n```", f"```js\n{SEEDED_SKETCH}\n```"]
    values = reward(
        prompts=["Paint this: poppies"] * 2,
        completions=completions,
        task_id=["flowers/watercolour"] * 2,
        log_metric=log.metric,
        trainer_state=None,
    )
    assert all(isinstance(v, float) for v in values)
    scorer = reward.evaluation.evaluator.scorer
    assert scorer.refits == 1  # type: ignore[attr-defined]
    (painting,) = log.metrics["sketch/painting"]
    assert 0.0 < painting < 1.0


def test_reward_is_a_sync_callable_that_works_under_a_running_loop(renderer) -> None:
    from trl.trainer.utils import is_async_callable

    evaluation = SketchEvaluation(scorer="heuristic", renderer=renderer, seed=5)
    reward = SketchReward(evaluation)
    # TRL calls a callable synchronously unless its __call__ is a coroutine function.
    assert not is_async_callable(reward)
    batch = {"prompts": ["a red square"], "completions": [GOOD_SKETCH]}

    async def inside_a_loop() -> list[float | None]:
        # A notebook or an async trainer calling from its own loop: rendering runs on the
        # renderer's loop, so the blocking call still completes.
        return reward(**batch)

    first = asyncio.run(inside_a_loop())
    assert reward(**batch) == first
    assert evaluation.evaluations == 1
    assert reward.last_rollouts[0].seed == 5


def test_the_async_view_is_awaited_and_shares_the_evaluation(renderer) -> None:
    from trl.trainer.utils import is_async_callable

    reward = SketchReward(scorer="heuristic", renderer=renderer, group_size=2)
    awaited = reward.async_reward()
    assert isinstance(awaited, AsyncSketchReward) and is_async_callable(awaited)
    assert not is_async_callable(reward) and not is_async_callable(awaited.sync_reward())
    coverage = awaited.component("coverage")
    assert isinstance(coverage, AsyncSketchReward) and coverage.__name__ == "sketch_coverage"
    assert awaited.__name__ == "sketch_reward" and awaited.evaluation is reward.evaluation
    batch = {"prompts": ["a red square"] * 2, "completions": [GOOD_SKETCH, "no code"]}

    async def both() -> tuple[list[float | None], list[float | None]]:
        values, cover = await asyncio.gather(awaited(**batch), coverage(**batch))
        return values, cover

    values, cover = asyncio.run(both())
    assert values[0] is not None and values[0] > 0 and values[1] == -1.0
    assert cover[0] is not None and 0 < cover[0] <= 1 and cover[1] == 0.0
    assert reward(**batch) == values  # the sync call, same cache: no new evaluation
    assert reward.evaluation.evaluations == 1


def test_infrastructure_failure_gives_none(renderer) -> None:
    # Port 9 on loopback: nothing listens, so the scorer fails the way a dead service does.
    scorer = make_scorer("hpsv3+http://127.0.0.1:9", timeout_s=3)
    scorer.retries = 0
    reward = SketchReward(scorer=scorer, renderer=renderer)
    log = _Log()
    values = reward(prompts=["x", "x"], completions=[GOOD_SKETCH, "no code"], log_metric=log.metric)
    assert values[0] is None
    assert values[1] == -1.0  # The gate's verdict needs no scorer.
    assert reward.component("coverage")(prompts=["x"], completions=[GOOD_SKETCH]) == [None]
    assert reward.component("gate")(prompts=["x"], completions=[GOOD_SKETCH]) == [1.0]
    assert log.metrics["sketch/infra_failures"] == [1.0]
    assert log.metrics["sketch/failures/infra_error"] == [1.0]
    assert "unavailable" in reward.last_rollouts[0].reward.infra_error


def test_a_dead_scorer_is_one_warning_per_batch(renderer, caplog) -> None:
    scorer = make_scorer("hpsv3+http://127.0.0.1:9", timeout_s=3)
    scorer.retries = 0
    reward = SketchReward(scorer=scorer, renderer=renderer)
    batch = {"prompts": ["x"] * 3, "completions": [GOOD_SKETCH, GOOD_SKETCH + "//2", "no code"]}
    with caplog.at_level(logging.WARNING, logger="sketch_env.trl.rewards"):
        assert reward(**batch)[:2] == [None, None]
        reward.component("coverage")(**batch)  # the same batch: no second warning
    warnings = [r for r in caplog.records if r.name == "sketch_env.trl.rewards"]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    message = warnings[0].getMessage()
    assert warnings[0].levelno == logging.WARNING
    assert message.startswith("2 of 3 completions were not scored")
    assert "127.0.0.1:9" in message and "unavailable" in message  # the first error, verbatim
    assert "sketch-env doctor" in message

    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="sketch_env.trl.rewards"):
        reward(prompts=["y"], completions=[GOOD_SKETCH + "//3"])  # the next batch warns again
        SketchReward(scorer="heuristic", renderer=renderer)(prompts=["y"], completions=["z"])
    assert len([r for r in caplog.records if r.name == "sketch_env.trl.rewards"]) == 1


def test_prompt_is_required() -> None:
    reward = SketchReward(scorer="heuristic")
    with pytest.raises(ValueError, match="no prompt to score against"):
        reward(prompts=[[{"role": "system", "content": "x"}]], completions=["y"])
    with pytest.raises(ValueError, match="unknown component"):
        SketchReward(component="beauty")


def test_tool_environment(renderer) -> None:
    env_cls = SketchToolEnv.configured(renderer=renderer, max_renders=2)
    env = env_cls()
    intro = env.reset(task_id="landscape/watercolour", prompt=[], seed=3)
    # TRL appends this to the user message as is: it must bring its own separator.
    assert intro and intro.startswith("\n\n") and "render" in intro
    assert env.get_reward() == -1.0  # Nothing rendered yet: the gate-failure reward.

    feedback = env.render(sketch="function setup() { createCanvas(10, 10); }")
    assert isinstance(feedback, str) and "not run" in feedback and "WEBGL" in feedback
    assert env.get_reward() == -1.0
    feedback = env.render(sketch=GOOD_SKETCH)
    assert isinstance(feedback, str) and "Render: ok" in feedback
    # The score never reaches the policy unless configured: no reward, no score line.
    assert "Reward" not in feedback and "Score" not in feedback and "heuristic" not in feedback
    reward = env.get_reward()
    assert isinstance(reward, float) and reward > 0
    assert f"{reward:.3f}" not in feedback
    assert env.last_rollout is not None and env.last_rollout.seed == 3
    assert env.last_rollout.prompt == get_task("landscape/watercolour").prompt
    assert "No more renders" in env.render(sketch=GOOD_SKETCH)
    assert env.get_reward() == reward
    assert [r.status.value for r in env.episode] == ["gate_failed", "ok"]

    env.reset(prompt_text="a quiet pond")
    assert env.get_reward() == -1.0 and env.episode == ()
    with pytest.raises(AttributeError, match="unknown SketchToolEnv settings"):
        SketchToolEnv.configured(colour="red")
    with pytest.raises(ValueError, match="image_size"):
        SketchToolEnv.configured(image_size=10_000)
    with pytest.raises(ValueError, match="feedback"):
        SketchToolEnv.configured(feedback="praise")
    with pytest.raises(ValueError, match="max_renders"):
        SketchToolEnv.configured(max_renders=0)
    assert env_cls.configured(instructions=None)().reset(prompt_text="x") is None
    # A tool call can carry any JSON value: a non-string is refused with a reason, no crash.
    odd = env_cls()
    odd.reset(prompt_text="x")
    answer = odd.render(sketch={"code": GOOD_SKETCH})
    assert isinstance(answer, str) and "must be a string, got dict" in answer
    assert odd.get_reward() == -1.0

    scored = env_cls.configured(show_scores=True)()
    scored.reset(prompt_text="a quiet pond", seed=3)
    shown = scored.render(sketch=GOOD_SKETCH)
    assert isinstance(shown, str) and f"Reward: {scored.get_reward():.3f}." in shown


def test_tool_environment_returns_the_picture(renderer) -> None:
    env = SketchToolEnv.configured(renderer=renderer, images=True, image_size=64)()
    env.reset(prompt_text="a red square", seed=4)
    blocks = env.render(sketch=GOOD_SKETCH)
    assert isinstance(blocks, list) and [b["type"] for b in blocks] == ["image", "text"]
    picture = blocks[0]["image"]
    assert picture.size == (64, 64) and picture.mode == "RGB"
    render = env.last_rollout.render
    # The policy sees the rendered canvas itself, shrunk: the same pixels as the render's.
    pixels = np.asarray(picture)
    assert np.array_equal(pixels, np.asarray(render.image((64, 64))))
    assert pixels.std() > 5  # not a blank tile
    assert "Render: ok" in blocks[1]["text"] and "Reward" not in blocks[1]["text"]

    # A refused sketch has no picture to show: text only, and it says so.
    refused = env.render(sketch="no code at all")
    assert isinstance(refused, list) and [b["type"] for b in refused] == ["text"]
    assert "No picture" in refused[0]["text"] and "not run" in refused[0]["text"]


def test_tool_environment_critique_names_problems_without_the_score(renderer) -> None:
    env = SketchToolEnv.configured(renderer=renderer, feedback="critique", max_renders=4)()
    env.reset(prompt_text="a field of poppies", seed=2)
    bare = env.render(sketch=BARE_SKETCH)
    assert isinstance(bare, str) and "almost empty" in bare
    thrown = env.render(sketch=THROWING_SKETCH)
    assert isinstance(thrown, str) and "notDefinedAnywhere" in thrown
    refused = env.render(sketch="function setup() { createCanvas(10, 10); }")
    assert isinstance(refused, str) and "refused" in refused and "WEBGL" in refused
    good = env.render(sketch=GOOD_SKETCH)
    assert isinstance(good, str)
    for text in (bare, thrown, refused, good):
        assert "Reward" not in text and "Score" not in text
        for rollout in env.episode:
            value = rollout.reward.reward
            assert value is None or f"{value:.3f}" not in text
    assert "almost empty" not in good and "threw" not in good


def test_tool_metrics_log_components_and_revision(renderer) -> None:
    env_cls = SketchToolEnv.configured(renderer=renderer, max_renders=3)
    envs = [env_cls() for _ in range(3)]
    for env in envs:
        env.reset(prompt_text="a quiet pond", seed=1)
    envs[0].render(sketch="no code")  # refused, then revised into a painting
    envs[0].render(sketch=GOOD_SKETCH)
    envs[1].render(sketch=GOOD_SKETCH)  # one render: no improvement
    # envs[2] never renders.
    log = _Log()
    metrics = env_cls.metrics()
    values = metrics(
        prompts=[[]] * 3,
        completions=[[]] * 3,
        environments=[*envs, SketchToolEnv()],  # another class's env is not read
        log_metric=log.metric,
        log_extra=log.column,
    )
    assert values == [None] * 4  # logging only: it never changes the reward
    assert metrics.__name__ == "sketch_tool_metrics"
    good = envs[1].get_reward()
    assert log.metrics["sketch/revision/first_reward"] == [pytest.approx((-1.0 + good) / 2)]
    assert log.metrics["sketch/revision/last_reward"] == [pytest.approx(good)]
    assert log.metrics["sketch/revision/improvement"] == [pytest.approx((good + 1.0) / 2)]
    assert log.metrics["sketch/revision/improved_rate"] == [0.5]
    assert log.metrics["sketch/revision/no_render"] == [1.0]
    assert log.metrics["sketch/revision/renders"] == [1.0]
    # The same components as reward-function mode, over each episode's last render.
    assert log.metrics["sketch/gate_pass_rate"] == [1.0]
    assert 0 < log.metrics["sketch/paint_fraction"][0] <= 1
    assert 0 < log.metrics["sketch/coverage_term"][0] <= 1
    assert log.extra["sketch_status"] == ["ok", "ok", "no_render"]
    assert log.extra["sketch_renders"] == [2, 1, 0]


def test_tool_schema_is_what_trl_exposes() -> None:
    _require("transformers")
    import inspect

    from transformers.utils import get_json_schema

    public = [
        n for n, _ in inspect.getmembers(SketchToolEnv, inspect.isfunction) if not n.startswith("_")
    ]
    assert sorted(public) == ["get_reward", "render", "reset"]
    schema = get_json_schema(SketchToolEnv().render)["function"]
    assert schema["name"] == "render"
    assert schema["parameters"]["required"] == ["sketch"]
    assert "p5.brush" in schema["description"]


@pytest.mark.trl
def test_grpo_smoke_two_steps(tmp_path) -> None:
    for module in ("trl", "torch", "datasets", "transformers", "tokenizers"):
        _require(module)
    result = smoke_example().run_smoke(tmp_path, steps=2)
    assert result["global_step"] == 2
    # Three reward functions, one evaluation per generation batch.
    assert result["evaluations"] == 2
    for name in ("sketch_reward", "sketch_coverage", "sketch_gate"):
        calls = result["calls"][name]
        assert len(calls) == 2
        for call in calls:
            assert call["prompts"] == call["completions"] == call["values"] == 4
            assert call["conversational"]
            assert {
                "task_id",
                "prompt_text",
                "completion_ids",
                "log_metric",
                "log_extra",
                "trainer_state",
            } <= set(call["kwargs"])
            assert set(call["task_id"]) <= {t.id for t in load_tasks()[:2]}
    steps = [row for row in result["log_history"] if "sketch/gate_pass_rate" in row]
    assert len(steps) == 2
    for row in steps:
        assert "rewards/sketch_reward/mean" in row and "rewards/sketch_gate/mean" in row
        assert math.isfinite(row["sketch/gate_pass_rate"])
        assert row["sketch/failures/gate_failed"] + row["sketch/gate_pass_rate"] * 4 == 4


class _Timed:
    """Records when each call of an async reward function started and ended (monotonic s)."""

    def __init__(self, inner, name: str | None = None) -> None:
        self.inner = inner
        self.__name__ = name or inner.__name__
        self.calls: list[tuple[float, float, list]] = []

    async def __call__(self, prompts, completions, **kwargs):
        start = time.monotonic()
        values = await self.inner(prompts=prompts, completions=completions, **kwargs)
        self.calls.append((start, time.monotonic(), values))
        return values


@pytest.mark.trl
def test_grpo_trainer_awaits_the_async_reward_alongside_others(tmp_path) -> None:
    # TRL 1.16 awaits every async reward function of a batch together; the sketch reward's
    # rendering must leave the loop free for the others (here one that waits 1 s, as a remote
    # judge would). The model is steered to write real sketches, so there is real rendering.
    for module in ("trl", "torch", "datasets", "transformers", "tokenizers"):
        _require(module)
    from trl import GRPOTrainer

    from sketch_env import SketchRenderer

    async def elsewhere(prompts, completions, **kwargs):
        await asyncio.sleep(1.0)
        return [0.0] * len(completions)

    smoke = smoke_example()
    tokenizer, model, generation_kwargs = steered_tiny_model([GOOD_SKETCH, SEEDED_SKETCH])
    dataset = make_dataset(load_tasks()[:2], repeats=2, system_prompt="Reply with a sketch.")
    with SketchRenderer(pool_size=1, deadline_s=20) as renderer:
        reward = SketchReward(scorer="heuristic", renderer=renderer, group_size=2)
        sketch, coverage = (
            _Timed(f) for f in reward.async_reward().components("reward", "coverage")
        )
        other = _Timed(elsewhere, "elsewhere")
        trainer = GRPOTrainer(
            model=model,
            reward_funcs=[sketch, coverage, other],
            args=smoke.cpu_grpo_config(
                tmp_path,
                max_steps=2,
                per_device_train_batch_size=4,
                num_generations=2,
                max_completion_length=4,
                reward_weights=[1.0, 0.5, 0.0],
                generation_kwargs=generation_kwargs,
            ),
            train_dataset=dataset,
            processing_class=tokenizer,
        )
        trainer.train()
    assert trainer.state.global_step == 2
    assert len(sketch.calls) == len(coverage.calls) == len(other.calls) == 2
    for (start, end, values), (other_start, other_end, _) in zip(
        sketch.calls, other.calls, strict=True
    ):
        # Each batch: the sketch reward ran while the other function waited, not before it.
        assert start < other_end and other_start < end
        assert all(v is not None and v > 0 for v in values), values  # rendered and scored
    assert reward.evaluation.evaluations == 2  # one per batch for both sketch functions
    rows = [row for row in trainer.state.log_history if "rewards/sketch_reward/mean" in row]
    assert len(rows) == 2 and all(math.isfinite(r["rewards/sketch_reward/mean"]) for r in rows)
    assert all(r["sketch/gate_pass_rate"] == 1.0 for r in rows)


def test_the_critique_explains_every_way_a_render_can_fail() -> None:
    # A status added to the renderer must come with advice: a silent critique teaches nothing.
    unexplained = [s for s in RenderStatus if s is not RenderStatus.OK and s.advice is None]
    assert unexplained == []
    assert RenderStatus.OK.advice is None
