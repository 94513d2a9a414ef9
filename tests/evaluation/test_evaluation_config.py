"""One configuration for every front end, and reward objects that travel to another process."""

from __future__ import annotations

import argparse
import multiprocessing
import pickle
from pathlib import Path
from typing import Any

import pytest

from sketch_env import EvaluationConfig, GateConfig, RenderConfig, RewardConfig
from sketch_env.env import SketchEnvironment
from sketch_env.evaluation import Evaluator, SketchEvaluation
from sketch_env.evaluation.options import add_evaluation_options, evaluation_config_from_args
from sketch_env.render.renderer import SketchRenderer
from sketch_env.specs import parse_spec
from sketch_env.trl import SketchReward, SketchToolEnv
from tests.conftest import GOOD_SKETCH

NO_BRUSH = "function setup() { createCanvas(600, 600, WEBGL); background(200); }"


def test_the_configuration_round_trips_through_json_and_a_file(tmp_path: Path) -> None:
    config = EvaluationConfig(
        scorer="hpsv3+http://127.0.0.1:9",
        render=RenderConfig(pool_size=1, deadline_s=12.0),
        gate=GateConfig(forbid_text=False, canvas_size=None),
        reward=RewardConfig(coverage_weight=0.5),
    )
    assert EvaluationConfig.from_json(config.to_json()) == config
    assert EvaluationConfig.load(config.save(tmp_path / "eval.json")) == config
    assert EvaluationConfig.from_dict({}) == EvaluationConfig()


@pytest.mark.parametrize(
    ("data", "match"),
    [
        ({"scorer": "heuristic", "gates": {}}, "unknown EvaluationConfig keys"),
        ({"gate": {"forbid_txt": True}}, "unknown GateConfig keys"),
        ({"reward": {"canvas_size": None}}, "GateConfig"),
        ({"renderer": ""}, "empty renderer spec"),
        ({"render": {"deadline_s": -1}}, "deadline_s must be positive"),
        ({"scorer": 3}, "spec string"),
    ],
)
def test_a_bad_configuration_names_what_is_wrong(data: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        EvaluationConfig.from_dict(data)


def test_one_parser_reads_every_spec() -> None:
    judge = parse_spec("judge+http://127.0.0.1:8000/v1?model=a%2Fb&mode=pairwise")
    assert (judge.kind, judge.targets) == ("judge", ("http://127.0.0.1:8000/v1",))
    assert dict(judge.params) == {"model": "a/b", "mode": "pairwise"}
    ray = parse_spec("ray://10.0.0.1:6379?num_actors=2")
    assert (ray.kind, ray.targets, ray.url_form) == ("ray", ("10.0.0.1:6379",), True)
    with pytest.raises(ValueError, match="given twice"):
        parse_spec("judge+http://h:1/v1?model=a&model=b")


def test_command_line_flags_override_the_file(tmp_path: Path) -> None:
    path = EvaluationConfig(
        scorer="hpsv3+http://127.0.0.1:9",
        render=RenderConfig(pool_size=1, deadline_s=12.0),
        gate=GateConfig(forbid_text=False),
    ).save(tmp_path / "eval.json")
    parser = argparse.ArgumentParser()
    add_evaluation_options(parser)
    from_file = evaluation_config_from_args(parser.parse_args(["--config", str(path)]))
    assert from_file.scorer == "hpsv3+http://127.0.0.1:9"
    assert from_file.render == RenderConfig(pool_size=1, deadline_s=12.0)
    assert from_file.gate.forbid_text is False
    flags = ["--config", str(path), "--scorer", "heuristic", "--deadline", "20"]
    both = evaluation_config_from_args(parser.parse_args(flags))
    assert both.scorer == "heuristic" and both.render == RenderConfig(pool_size=1, deadline_s=20.0)
    assert both.gate.forbid_text is False  # not overridden
    with pytest.raises(ValueError, match="--deadline must be positive"):
        evaluation_config_from_args(parser.parse_args(["--deadline", "0"]))


def test_every_front_end_applies_the_gate_rules_of_one_configuration(
    renderer: SketchRenderer,
) -> None:
    # A sketch without a brush call: refused by default, rendered and scored once the
    # configuration's gate (static and run-time rules alike) allows it.
    lenient = GateConfig(require_brush_call=False, require_brush_paint=False)
    evaluator = Evaluator(renderer, gate_config=lenient)
    strict_env = SketchEnvironment(renderer=renderer)
    strict_env.reset(task_id="flowers/pastel", seed=1)
    assert strict_env.step(NO_BRUSH).reward == -1.0
    env = SketchEnvironment(evaluator=evaluator)
    env.reset(task_id="flowers/pastel", seed=1)
    assert env.step(NO_BRUSH).render_status == "ok"
    assert Evaluator(config=EvaluationConfig(gate=lenient)).gate_config == lenient
    with pytest.raises(ValueError, match="either config"):
        Evaluator(renderer, config=EvaluationConfig())


def test_the_served_app_takes_the_configuration() -> None:
    from sketch_env.server.app import create_sketch_app

    config = EvaluationConfig(gate=GateConfig(forbid_text=False))
    app = create_sketch_app(config=config, max_sessions=1)
    assert app.state.sketch_evaluator.gate_config == config.gate
    with pytest.raises(ValueError, match="either config"):
        create_sketch_app(config=config, scorer="heuristic")


def _call_in_child(payload: bytes) -> list[Any]:
    """Runs in a spawned process (as TRL 1.16's AsyncGRPOTrainer computes rewards)."""
    reward, env_cls, env = pickle.loads(payload)
    values = reward(prompts=["a red circle"], completions=[GOOD_SKETCH])
    episode = env_cls()
    episode.reset(prompt_text="a red circle", seed=3)
    answer = episode.render(GOOD_SKETCH)
    env.reset(prompt_text="a red circle", seed=3)
    return [values, answer, episode.get_reward(), env.render("no sketch here")]


def test_reward_and_tool_env_pickle_and_render_in_a_spawned_process() -> None:
    reward = SketchReward(scorer="heuristic", seed=3)
    env_cls = SketchToolEnv.configured(max_renders=2, feedback="critique")
    instance = env_cls()
    payload = pickle.dumps((reward, env_cls, instance))
    # The round trip keeps what they are: a configured class comes back configured.
    _, again_cls, _ = pickle.loads(payload)
    assert again_cls.max_renders == 2 and again_cls.feedback == "critique"
    assert issubclass(again_cls, SketchToolEnv)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        values, answer, tool_reward, refused = pool.apply(_call_in_child, (payload,))
    assert isinstance(values[0], float) and values[0] > 0
    assert "refused" not in answer and "JavaScript errors" not in answer, answer
    assert tool_reward is not None and tool_reward > 0
    assert refused.startswith("The sketch was refused")


def test_an_evaluation_around_a_live_evaluator_refuses_to_pickle(
    renderer: SketchRenderer,
) -> None:
    with pytest.raises(TypeError, match="config="):
        pickle.dumps(SketchEvaluation(Evaluator(renderer)))
