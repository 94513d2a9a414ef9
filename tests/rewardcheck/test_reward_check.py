"""`sketch-env reward-check`: the degradations, the hack families through the whole
environment, and the report, on the real browser pool with the default (heuristic) reward."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sketch_env.catalog.references import TIERS, load_reference_pool
from sketch_env.evaluation.evaluator import Evaluator
from sketch_env.gate import GateConfig, gate_reply
from sketch_env.rewardcheck.check import run_reward_check
from sketch_env.rewardcheck.degrade import PICTURE_DEGRADATIONS, remove_half_the_brush_calls
from sketch_env.rewardcheck.hacks import HACKS, REFUSED_BY_GATE
from sketch_env.rewardcheck.report import write_html
from tests.conftest import GOOD_SKETCH

ROOT = Path(__file__).resolve().parents[2]


def _cheap_references(count: int) -> list:
    """The cheapest references to render, of at least two tiers."""
    refs = sorted(load_reference_pool(), key=lambda r: r.metadata.get("render_ms") or 0)
    # The cheapest of each tier first, so that a pool whose quickest pictures are all weak
    # (as the 96-reference pool's are) still gives the check pairs to order.
    firsts = list({r.tier: r for r in reversed(refs)}.values())
    chosen = sorted(firsts, key=lambda r: r.metadata.get("render_ms") or 0)[:count]
    chosen += [r for r in refs if r not in chosen][: count - len(chosen)]
    assert count < 2 or len({r.tier for r in chosen}) >= 2
    return chosen


@pytest.fixture(scope="module")
def evaluator(renderer) -> Evaluator:
    return Evaluator(renderer, "heuristic")


@pytest.fixture(scope="module")
def report(evaluator, tmp_path_factory):
    # The quickest reference of each tier, at one seed: the fast tier's reward check (the
    # command over every family at two seeds is the slow tier's).
    out = tmp_path_factory.mktemp("reward-check")
    return run_reward_check(evaluator, references=_cheap_references(len(TIERS)), out_dir=out), out


def test_every_degradation_makes_a_different_picture(evaluator) -> None:
    (rollout,) = evaluator.evaluate_sync([GOOD_SKETCH], ["a red square"], 0)
    original = rollout.render.image()
    for name, (make, _) in PICTURE_DEGRADATIONS.items():
        degraded = make(original, 0)
        assert degraded.size == original.size, name
        assert degraded.tobytes() != original.convert("RGB").tobytes(), name
        assert make(original, 0).tobytes() == degraded.tobytes(), f"{name} is not seeded"


def test_half_the_brush_calls_are_removed_and_the_sketch_still_passes_the_gate() -> None:
    ref = _cheap_references(1)[0]
    halved = remove_half_the_brush_calls(ref.source, 0)
    assert halved.count("// removed: brush.") >= 1
    assert gate_reply(halved).passed


def test_hack_sketches_are_seeded_and_distinct() -> None:
    for name, (build, description) in HACKS.items():
        assert build(0) == build(0), name
        assert description, name
    assert len({build(0) for build, _ in HACKS.values()}) == len(HACKS)


def test_the_gate_refuses_exactly_the_recorded_hack_families() -> None:
    refused = {name for name, (build, _) in HACKS.items() if not gate_reply(build(0)).passed}
    assert refused == REFUSED_BY_GATE
    # Each refused idea that has a passing version keeps one in the check.
    assert {"brush_wash_confetti", "token_stroke_blank", "brush_lettered_label"} <= set(HACKS)


def test_the_check_orders_pairs_and_reports_every_family(report) -> None:
    result, out = report
    kinds = {f.kind for f in result.families.values()}
    assert kinds == {"tier", "degradation", "hack"}
    degradations = {n for n, f in result.families.items() if f.kind == "degradation"}
    assert degradations == {*PICTURE_DEGRADATIONS, "prompt_swap", "half_brush_calls"}
    assert {n for n, f in result.families.items() if f.kind == "hack"} == set(HACKS)
    data = json.loads(json.dumps(result.to_dict()))
    assert set(data["summary"]) == {"tier", "degradation", "hack"}
    page = write_html(result, out).read_text()
    assert page.count('class="pair"') == len(result.misordered())
    for pair in result.misordered():
        for side in (pair.winner, pair.loser):
            image = next(e.image for e in result.entries if e.id == side)
            assert image is None or (out / image).is_file()


#: Hack families known to beat a reference under the default reward, each marked as a strict
#: expected failure so that the change which stops it must also remove the mark. Empty since
#: the heuristic reads text (sketch_env/scoring/reading.py): the charcoal-lettered label won
#: 68 % before.
KNOWN_WINNERS: dict[str, str] = {}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=KNOWN_WINNERS[n]))
        if n in KNOWN_WINNERS
        else n
        for n in HACKS
    ],
)
def test_no_hack_family_beats_a_reference_painting_under_the_default_reward(report, name) -> None:
    result, _ = report
    assert result.hack_win_rates()[name] == 0.0


def test_a_canvas_of_another_size_is_refused_at_run_time(evaluator, renderer) -> None:
    # The small-canvas hack, and the two ways to change the size after a correct
    # createCanvas: the size checked is the read-back picture's, which the sketch cannot fake.
    small = HACKS["small_canvas"][0](0)
    right = small.replace("createCanvas(64, 64, WEBGL);", "createCanvas(600, 600, WEBGL);")
    right = right.replace("height / 2);", "height / 2);\n  scale(600 / 64);")
    dense = right.replace("scale(600 / 64);", "scale(600 / 64);\n  pixelDensity(2);")
    resized = right.replace("brush.noStroke();", "resizeCanvas(120, 120);\n  brush.noStroke();")
    sketches = [small, right, dense, resized]
    rollouts = evaluator.evaluate_sync(sketches, ["flowers"] * 4, 0)
    statuses = [r.reward.status.value for r in rollouts]
    assert statuses == ["runtime_gate_failed", "ok", "runtime_gate_failed", "runtime_gate_failed"]
    for rollout in (rollouts[0], rollouts[2], rollouts[3]):
        assert rollout.reward.runtime_codes == ("runtime_canvas_size",)
        assert rollout.reward.reward == -1.0
    # Why the rule exists: left free, the small canvas outscores the same picture at full size.
    free = Evaluator(renderer, "heuristic", gate_config=GateConfig(canvas_size=None))
    loose_small, loose_right = free.evaluate_sync(sketches[:2], ["flowers"] * 2, 0)
    assert loose_small.reward.reward > loose_right.reward.reward


@pytest.mark.parametrize(
    "name", ["blank_paper", "colour_noise", "dark_mass", "stripes", "checkerboard", "text_label"]
)
def test_degenerate_pictures_never_outscore_the_painting(report, name: str) -> None:
    result, _ = report
    assert result.families[name].accuracy == 1.0


def test_the_seed_spread_of_the_references(evaluator, tmp_path) -> None:
    from sketch_env.rewardcheck.report import seed_spread_line, seed_spread_rows

    refs = _cheap_references(2)
    report = run_reward_check(
        evaluator, seeds=(0, 1, 2), references=refs, degradations=[], hacks=[], out_dir=tmp_path
    )
    spread = report.seed_spread()
    assert spread is not None and spread["seeds"] == [0, 1, 2]
    entries = {e.id: e.reward for e in report.entries}
    for ref in refs:
        measured = spread["references"][ref.id]
        assert measured["rewards"] == [entries[f"{ref.id}/s{s}"] for s in (0, 1, 2)]
        assert measured["min"] <= measured["mean"] <= measured["max"]
        assert measured["range"] == pytest.approx(measured["max"] - measured["min"])
    pooled = spread["pooled"]
    assert pooled["references"] == 2 and pooled["widest"] in {r.id for r in refs}
    stds = [spread["references"][r.id]["std"] for r in refs]
    assert min(stds) <= pooled["within_std"] <= max(stds)
    assert pooled["max_range"] == max(spread["references"][r.id]["range"] for r in refs)
    assert report.to_dict()["seed_spread"] == spread
    assert seed_spread_line(report).startswith("seed spread over 3 seeds")
    assert seed_spread_rows(report)[0][0] == pooled["widest"]
    assert "Seed spread" in write_html(report, tmp_path).read_text()
    # One seed measures nothing, and says how to.
    single = run_reward_check(
        evaluator, seeds=(0,), references=refs, degradations=[], hacks=[], out_dir=None
    )
    assert single.seed_spread() is None
    assert "--seeds N" in seed_spread_line(single)


# Every hack family at two seeds, through the whole environment: minutes on a loaded machine.
@pytest.mark.timeout(1500)
def test_the_command_writes_json_html_and_fails_when_a_hack_wins(tmp_path) -> None:
    # A reward of coverage alone, paid whatever the scorer thinks of the picture and unguarded,
    # is what the hacks beat: the command must say so (exit 1).
    config = tmp_path / "coverage_only.json"
    coverage_only = {
        "preference_weight": 0.0,
        "dark_mass_weight": 0.0,
        "coverage_quality": None,
        # ... and with the reward's guards off: they alone hold a coverage-only reward.
        "guards": [],
    }
    config.write_text(json.dumps(coverage_only))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sketch_env.cli",
            "reward-check",
            "--limit",
            "2",
            "--reward-config",
            str(config),
            "--out",
            str(tmp_path / "out"),
            "--quiet",
            "--pool-size",
            "2",
            "--seeds",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=1400,
        cwd=ROOT,
    )
    assert done.returncode == 1, done.stderr
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert Path(summary["html"]).is_file() and Path(summary["report"]).is_file()
    assert "hacks that beat a reference" in done.stderr
    # Two seeds: the spread of each reference's reward over them, pooled in the summary.
    assert "seed spread over 2 seeds" in done.stdout
    assert summary["seed_spread"]["references"] == 2 and summary["seed_spread"]["within_std"] >= 0
    saved = json.loads(Path(summary["report"]).read_text())
    assert len(saved["seed_spread"]["references"]) == 2
