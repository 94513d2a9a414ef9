"""The per-step reward-hacking signals, on real renders: repeats, spreads, gate classes, std.

Each number is checked against what the batch was built to contain, including the hacks a
policy would try: the same painting under cosmetically different code (caught by the pixel
hash, not the source), and a group that all fails the gate (zero reward spread: GRPO learns
nothing from it).
"""

from __future__ import annotations

import io
import statistics

import pytest
from PIL import Image

from sketch_env.evaluation import Evaluator
from sketch_env.trl import SketchReward
from sketch_env.trl.metrics import batch_metrics, picture_diversity, picture_hash
from tests.conftest import GOOD_SKETCH, SEEDED_SKETCH

#: Paints exactly what GOOD_SKETCH paints: a policy's cosmetic variation of one safe picture.
SAME_PICTURE = GOOD_SKETCH.replace("function setup() {", "function setup() { // v2", 1)
SYNTAX_ERROR = "```js\nfunction setup( {\n  createCanvas(100, 100, WEBGL);\n```"


def test_picture_hash_is_of_pixels_not_bytes() -> None:
    image = Image.new("RGBA", (40, 30), (200, 10, 10, 255))
    fast, small = io.BytesIO(), io.BytesIO()
    image.save(fast, "PNG", compress_level=0)
    image.save(small, "PNG", compress_level=9)
    assert fast.getvalue() != small.getvalue()
    assert picture_hash(fast.getvalue()) == picture_hash(small.getvalue())
    image.putpixel((3, 3), (200, 10, 11, 255))
    other = io.BytesIO()
    image.save(other, "PNG")
    assert picture_hash(other.getvalue()) != picture_hash(fast.getvalue())
    assert picture_hash(None) == ""


def test_batch_metrics_catch_repeats_spread_and_gate_classes(renderer) -> None:
    evaluator = Evaluator(renderer, "heuristic")
    replies = [GOOD_SKETCH, SAME_PICTURE, SEEDED_SKETCH, "no code, sorry"]
    replies += ["I refuse.", "Nothing here.", SYNTAX_ERROR]
    prompts = ["a red square"] * 4 + ["a blue field"] * 3
    rollouts = evaluator.evaluate_sync(replies, prompts, 0)
    assert [r.gate.passed for r in rollouts] == [True] * 3 + [False] * 4
    assert rollouts[0].render is not None and rollouts[1].render is not None
    assert rollouts[0].render.png is not None and rollouts[1].render.png is not None
    assert picture_hash(rollouts[0].render.png) == picture_hash(rollouts[1].render.png)

    metrics = batch_metrics(rollouts)
    # Group "a red square": 3 pictures, one repeats another; "a blue field": no picture.
    assert metrics["sketch/identical_pictures"] == pytest.approx(1 / 3)
    # The second group's rewards are all the gate-failure reward: zero spread.
    assert metrics["sketch/frac_groups_zero_std"] == 0.5
    first = [r.reward.reward for r in rollouts[:4]]
    assert all(v is not None for v in first)
    expected_std = statistics.pstdev([v for v in first if v is not None]) / 2
    assert metrics["sketch/group_reward_std"] == pytest.approx(expected_std)
    assert metrics["sketch/gate/no_code"] == 3.0
    assert metrics["sketch/gate/syntax_error"] == 1.0
    coverage = [r.render.paint_fraction for r in rollouts[:3] if r.render is not None]
    assert metrics["sketch/paint_fraction_min"] == min(coverage)
    assert metrics["sketch/paint_fraction_max"] == max(coverage)
    assert metrics["sketch/paint_fraction_median"] == statistics.median(coverage)
    dark = [r.reward.dark_mass for r in rollouts[:3]]
    assert all(d is not None for d in dark)
    assert metrics["sketch/dark_mass_max"] == max(d for d in dark if d is not None)
    assert 0 <= metrics["sketch/dark_mass"] <= 1

    # Diversity: the red group's three pictures, two of them identical (the one group with
    # two pictures or more).
    pngs = [r.render.png for r in rollouts[:3] if r.render is not None and r.render.png]
    assert metrics["sketch/picture_diversity"] == pytest.approx(picture_diversity(pngs))
    assert 0 < metrics["sketch/picture_diversity"] < picture_diversity([pngs[0], pngs[2]])

    # Explicit groups: each rollout alone means no repeats and no group with a spread.
    alone = batch_metrics(rollouts, groups=list(range(len(rollouts))))
    assert alone["sketch/identical_pictures"] == 0.0
    assert "sketch/frac_groups_zero_std" not in alone
    assert "sketch/picture_diversity" not in alone


def test_picture_diversity_is_zero_for_copies_and_grows_with_difference() -> None:
    def png(colour: tuple[int, int, int], square: bool) -> bytes:
        image = Image.new("RGB", (600, 600), (250, 248, 240))
        if square:
            image.paste(colour, (100, 100, 400, 400))
        out = io.BytesIO()
        image.save(out, format="PNG")
        return out.getvalue()

    paper, red, blue = png((0, 0, 0), False), png((200, 30, 30), True), png((30, 30, 200), True)
    assert picture_diversity([paper, paper, paper]) == 0.0
    assert picture_diversity([paper]) is None
    assert 0 < picture_diversity([red, blue]) < picture_diversity([paper, blue])  # type: ignore[operator]


def test_the_reward_function_logs_the_signals_and_table_columns(renderer) -> None:
    reward = SketchReward(scorer="heuristic", renderer=renderer)
    metrics: dict[str, float] = {}
    columns: dict[str, list] = {}
    reward(
        prompts=["a pond"] * 3,
        completions=[GOOD_SKETCH, SAME_PICTURE, "no code"],
        log_metric=metrics.__setitem__,
        log_extra=columns.__setitem__,
    )
    assert metrics["sketch/identical_pictures"] == 0.5
    assert metrics["sketch/gate/no_code"] == 1.0
    assert metrics["sketch/frac_groups_zero_std"] == 0.0
    hashes = columns["sketch_picture"]
    assert hashes[0] == hashes[1] != "" and hashes[2] == ""
    assert len(columns["sketch_dark_mass"]) == len(columns["sketch_coverage"]) == 3
