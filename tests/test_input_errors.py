"""Bad input gets one clear message: seeds everywhere, and the CLI's one-line errors.

The renderer used to fold seeds silently (-1 -> 4294967295, 2**40 -> 0, 1.5 -> 1) while the
environment refused them; now one check (`sketch_env.render.base.check_seed`) speaks for the
renderer, the environments, the TRL integration and the command line.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sketch_env.env.environment import SketchEnvironment
from sketch_env.env.gym import SketchGymEnv
from sketch_env.render.base import MAX_SEED, check_seed
from sketch_env.trl import SketchEvaluation, SketchReward, SketchToolEnv
from tests.conftest import GOOD_SKETCH, assert_good_render

ROOT = Path(__file__).resolve().parent.parent

#: Every value that must be refused, with how it shows in the message.
BAD_SEEDS = [
    (-1, "-1"),
    (2**32, "4294967296"),
    (2**40, "1099511627776"),
    (1.5, "1.5"),
    (1.0, "1.0"),
    ("x", "'x'"),
    ("3", "'3'"),
    (True, "True"),
    (None, "None"),
]
PREFIX = f"seed must be an integer in [0, {MAX_SEED}], got "


def test_check_seed_accepts_32_bit_integers_only() -> None:
    assert check_seed(0) == 0 and check_seed(MAX_SEED) == MAX_SEED == 2**32 - 1
    value = check_seed(np.uint32(7))
    assert value == 7 and type(value) is int
    for bad, shown in BAD_SEEDS:
        with pytest.raises(ValueError) as info:
            check_seed(bad)
        assert str(info.value).startswith(PREFIX + shown + " "), (bad, str(info.value))
    with pytest.raises(ValueError) as info:
        check_seed("9" * 500)
    assert len(str(info.value)) < 300  # A huge value is not echoed back in full.


def test_the_renderer_refuses_instead_of_folding(renderer) -> None:
    for bad, shown in BAD_SEEDS:
        with pytest.raises(ValueError, match="seed must be an integer") as info:
            renderer.render_sync(GOOD_SKETCH, seed=bad)
        assert str(info.value).startswith(PREFIX + shown)
    with pytest.raises(ValueError, match=r"got -1 "):
        renderer.render_many_sync([GOOD_SKETCH, GOOD_SKETCH], seeds=[0, -1])
    with pytest.raises(ValueError, match=r"got 1099511627776 "):
        renderer.render_many_sync([GOOD_SKETCH], seeds=2**40)
    with pytest.raises(ValueError, match=r"got 1.5 "):
        asyncio.run(renderer.render(GOOD_SKETCH, seed=1.5))
    # The largest seed renders, and is reported as given (no folding).
    top = renderer.render_sync(GOOD_SKETCH, seed=MAX_SEED)
    assert top.status.has_picture and top.seed == MAX_SEED
    assert_good_render(renderer)


def test_environments_and_trl_say_the_same(renderer) -> None:
    env = SketchEnvironment(renderer=renderer)
    gym_env = SketchGymEnv(renderer=renderer)
    reward = SketchReward(scorer="heuristic", renderer=renderer)
    tool = SketchToolEnv.configured(renderer=renderer)()
    for bad, shown in BAD_SEEDS[:-1]:  # None means "draw a seed" in reset
        expected = PREFIX + shown
        for call in (
            lambda b=bad: env.reset(seed=b),
            lambda b=bad: gym_env.reset(seed=b),
            lambda b=bad: reward(prompts=["a pond"], completions=[GOOD_SKETCH], seed=[b]),
            lambda b=bad: tool.reset(prompt_text="a pond", seed=b),
            lambda b=bad: SketchEvaluation(seed=b),
        ):
            with pytest.raises(ValueError) as info:
                call()
            assert str(info.value).startswith(expected), str(info.value)
    gym_env.close()
    env.close()


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "sketch_env.cli", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _one_line_error(result: subprocess.CompletedProcess[str], *needles: str) -> str:
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines, "no error message"
    last = lines[-1]
    for needle in needles:
        assert needle in last, (needle, last)
    return last


def test_cli_render_errors_are_one_line(tmp_path: Path) -> None:
    missing = _cli("render", "no_such_sketch.js", cwd=tmp_path)
    assert _one_line_error(missing, "no_such_sketch.js", "No such file").startswith("error:")
    assert missing.stdout == ""
    (tmp_path / "ok.js").write_text(GOOD_SKETCH)
    for bad in ("-1", "4294967296", "1.5", "x"):
        result = _cli("render", "ok.js", "--seed", bad, cwd=tmp_path)
        _one_line_error(result, "argument --seed:", PREFIX)
    assert not list(tmp_path.glob("*.png"))


def test_cli_rollout_checks_replies_before_starting_browsers(tmp_path: Path) -> None:
    (tmp_path / "empty.jsonl").write_text("\n  \n")
    empty = _cli("rollout", "--replies", "empty.jsonl", "--out", "run", "--quiet", cwd=tmp_path)
    _one_line_error(empty, "empty.jsonl", "no replies")
    # Nothing was launched or written: the run folder does not exist.
    assert "browsers" not in empty.stderr and not (tmp_path / "run").exists()

    missing = _cli("rollout", "--replies", "gone.jsonl", "--out", "run", cwd=tmp_path)
    _one_line_error(missing, "cannot read gone.jsonl", "No such file")

    row = {"reply": GOOD_SKETCH, "prompt": "a pond", "seed": 2**40}
    (tmp_path / "bad_seed.jsonl").write_text(json.dumps(row) + "\n")
    bad = _cli("rollout", "--replies", "bad_seed.jsonl", "--out", "run", cwd=tmp_path)
    _one_line_error(bad, "bad_seed.jsonl:1:", PREFIX + "1099511627776")
    assert not (tmp_path / "run").exists()
