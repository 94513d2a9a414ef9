"""The judge and calibration through every front end: `SketchEnvironment`, `SketchReward`,
``sketch-env rollout`` and ``sketch-env pool calibrate``, against the loopback fake of the
model boundary (`FakeJudgeServer`) and a real browser pool."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_judge_server import FakeJudgeServer

from sketch_env.catalog.references import load_reference_pool
from sketch_env.env.environment import SketchEnvironment
from sketch_env.evaluation.evaluator import Evaluator
from sketch_env.gate import GateConfig
from sketch_env.pool.calibrate import calibrate
from sketch_env.reward import RewardConfig
from sketch_env.reward.calibration import Calibration, CalibrationError
from sketch_env.trl.rewards import SketchReward
from tests.conftest import GOOD_SKETCH

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def judge() -> Iterator[FakeJudgeServer]:
    with FakeJudgeServer("fake-vlm") as server:
        yield server


def spec(server: FakeJudgeServer) -> str:
    return f"judge+{server.base_url}?model=fake-vlm&timeout=20"


def test_environment_steps_are_scored_by_the_judge(renderer, judge) -> None:
    env = SketchEnvironment(renderer=renderer, scorer=spec(judge))
    env.reset(task_id="flowers/watercolour", seed=3)
    obs = env.step(GOOD_SKETCH)
    assert obs.scorer is not None and obs.scorer.startswith("judge-pointwise:fake-vlm")
    assert obs.score is not None and 1.0 <= obs.score <= 10.0
    assert obs.reward is not None and math.isfinite(obs.reward)
    # The judge saw the picture and the task's prompt.
    seen = judge.requests[-1]
    assert len(seen.images) == 1
    assert any(env.state.prompt in text for text in seen.texts)


def test_sketch_reward_scores_a_batch_through_the_judge(renderer, judge) -> None:
    reward = SketchReward(scorer=spec(judge), renderer=renderer)
    values = reward(prompts=["a red square", "a red square"], completions=[GOOD_SKETCH, "no"])
    assert values[0] is not None and math.isfinite(values[0])
    assert values[1] == -1.0  # the gate's verdict, no judge needed
    assert reward.last_rollouts[0].scorer.startswith("judge-pointwise")


def test_an_unreachable_judge_gives_no_reward_not_zero(renderer) -> None:
    with FakeJudgeServer("fake-vlm", always=503) as down:
        env = SketchEnvironment(
            renderer=renderer, scorer=f"judge+{down.base_url}?model=fake-vlm&retries=1"
        )
        env.reset(seed=1)
        obs = env.step(GOOD_SKETCH)
    assert obs.reward is None and obs.infra_error


#: A sketch that paints a 2048x2048 canvas (allowed by the sandbox's caps, refused by default by
#: the run-time check, which names the instructions' 600x600).
BIG_CANVAS = GOOD_SKETCH.replace("createCanvas(600, 600, WEBGL)", "createCanvas(2048, 2048, WEBGL)")


def test_one_picture_the_judge_refuses_costs_only_its_own_rollout(renderer) -> None:
    # A group of eight, one of them a canvas of 2048x2048, against a judge that answers 400 to a
    # picture over its limit (vLLM past --max-model-len). Issue 20: the JudgeRequestError of
    # that picture used to escape evaluate_sync and lose the whole group, again on every retry.
    group = [GOOD_SKETCH] * 7 + [BIG_CANVAS]
    prompts = ["a red square"] * 8
    with FakeJudgeServer("fake-vlm", max_image_side=1024) as fake:
        base = f"judge+{fake.base_url}?model=fake-vlm&timeout=20"
        # The defaults refuse the odd canvas before anything is scored: the judge never sees it.
        rollouts = Evaluator(renderer, base).evaluate_sync(group, prompts, seeds=range(8))
        assert [r.status.value for r in rollouts] == ["ok"] * 7 + ["runtime_gate_failed"]
        assert len(fake.requests) == 7
        assert all(r.reward.reward is not None for r in rollouts)
        # With any canvas allowed and the judge sending full-size pictures, the server refuses
        # that one: seven honest rewards come back, the eighth is None (logged), not a crash.
        free = GateConfig(canvas_size=None)
        unbounded = Evaluator(renderer, base + "&max_side=4096", gate_config=free)
        rollouts = unbounded.evaluate_sync(group, prompts, seeds=range(8))
        assert [r.reward.reward is not None for r in rollouts] == [True] * 7 + [False]
        assert "refused the request (HTTP 400" in (rollouts[-1].reward.infra_error or "")
        # Bounded (the default, 768 px a side), every picture is judged.
        bounded = Evaluator(renderer, base, gate_config=free)
        rollouts = bounded.evaluate_sync(group, prompts, seeds=range(8))
        assert all(r.reward.reward is not None for r in rollouts)


def _small_pool(tmp_path: Path, count: int = 3) -> Path:
    """A pool folder with the first ``count`` shipped references (cheap ones first)."""
    refs = sorted(load_reference_pool(), key=lambda r: r.metadata.get("render_ms") or 0)[:count]
    index = json.loads((ROOT / "reference_pool" / "pool.json").read_text())
    chosen = {r.id for r in refs}
    index["references"] = [e for e in index["references"] if e["id"] in chosen]
    folder = tmp_path / "pool"
    folder.mkdir()
    for entry in index["references"]:
        shutil.copy(ROOT / "reference_pool" / entry["file"], folder / entry["file"])
    (folder / "pool.json").write_text(json.dumps(index))
    return folder


def test_calibration_round_trips_and_drives_the_reward(renderer, judge, tmp_path) -> None:
    refs = load_reference_pool(_small_pool(tmp_path))
    evaluator = Evaluator(renderer, spec(judge))
    calibration = calibrate(evaluator, refs, seeds=(0, 1))
    assert calibration.scorer.startswith("judge-pointwise")
    assert [r.id for r in calibration.references] == [r.id for r in refs]
    assert all(len(r.values) == 2 for r in calibration.references)
    again = Calibration.load(calibration.save(tmp_path / "cal.json"))
    assert again == calibration
    config = again.reward_config(pairwise_weight=1.0)
    assert config.preference_ref_mean == pytest.approx(calibration.mean)
    assert len(config.pairwise_references) == len(refs)
    env = SketchEnvironment(renderer=renderer, scorer=spec(judge), reward_config=config)
    env.reset(prompt="a red square", seed=0)
    obs = env.step(GOOD_SKETCH)
    components = obs.components
    assert components is not None and components.pairwise_prob is not None
    # The preference term is now a z-score against the references.
    assert components.preference_term == pytest.approx(
        (components.preference - calibration.mean) / calibration.std
    )


def test_contested_references_are_kept_and_bad_files_are_refused(tmp_path) -> None:
    from sketch_env.reward.calibration import ReferenceStats

    refs = tuple(
        ReferenceStats(f"r{i}", "t/a", "ok", mean, 0.5, None, (mean,))
        for i, mean in enumerate((1.0, 5.0, 9.0))
    )
    calibration = Calibration("s", (0,), "llvmpipe", "now", {}, refs)
    kept = calibration.keep_contested([(5.0, 0.5), (5.2, 0.5)])
    assert [r.id for r in kept.references] == ["r1"]
    bad = tmp_path / "bad.json"
    bad.write_text('{"format_version": 1, "references": []}')
    with pytest.raises(CalibrationError):
        Calibration.load(bad)
    with pytest.raises(CalibrationError):
        Calibration.load(tmp_path / "missing.json")
    assert isinstance(RewardConfig(), RewardConfig)


def _cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sketch_env.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


def test_rollout_and_pool_calibrate_commands_take_a_judge(judge, tmp_path) -> None:
    sketches = tmp_path / "sketches"
    sketches.mkdir()
    (sketches / "square.js").write_text(GOOD_SKETCH)
    pool = _small_pool(tmp_path, count=2)
    cal = tmp_path / "cal.json"
    done = _cli(
        "pool",
        "calibrate",
        "--scorer",
        spec(judge),
        "--seeds",
        "1",
        "--pool-dir",
        str(pool),
        "--out",
        str(cal),
        "--pool-size",
        "1",
    )
    assert done.returncode == 0, done.stderr
    assert Calibration.load(cal).scorer.startswith("judge-pointwise")
    out = tmp_path / "run"
    done = _cli(
        "rollout",
        "--sketches",
        str(sketches),
        "--scorer",
        spec(judge),
        "--calibration",
        str(cal),
        "--out",
        str(out),
        "--quiet",
        "--pool-size",
        "1",
    )
    assert done.returncode == 0, done.stderr
    (record,) = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert record["scorer"].startswith("judge-pointwise") and record["reward"] is not None
    observations = record["components"]["observations"]
    assert observations["preference_term"] != observations["preference"]
