"""The side-by-side benchmark against an earlier renderer runs and reports what it measured.

Speed itself is never asserted (the machine's load decides it); the benchmark prints it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.previous import PREVIOUS, extract, report, summarise
from tests.conftest import require_chromium

REPO = Path(__file__).resolve().parents[2]


def _answer(wall: float, cpu: float) -> dict[str, object]:
    return {
        "wall_s": wall,
        "status": "ok",
        "renderer_cpu_s": cpu,
        "tree_cpu_s": cpu,
        "api_calls": {},
    }


def test_ratios_are_current_over_previous_of_medians_and_paired() -> None:
    samples = {
        "heavy": {
            "previous": [_answer(1.0, 0.5), _answer(2.0, 0.6), _answer(1.2, 0.7)],
            "current": [_answer(2.0, 1.0), _answer(2.2, 1.2), _answer(3.6, 1.4)],
        },
        "trivial": {
            "previous": [_answer(0.2, 0.1)] * 3,
            "current": [_answer(0.3, 0.1)] * 3,
        },
    }
    results = summarise(samples, "abc1234", [1.0, 3.0])
    heavy = results["wall_s"]["heavy"]
    assert heavy["previous"]["median"] == 1.2 and heavy["current"]["median"] == 2.2
    assert heavy["ratio"]["of_medians"] == pytest.approx(2.2 / 1.2)
    assert heavy["ratio"]["paired"] == pytest.approx(2.0)  # median of 2.0, 1.1, 3.0
    assert results["renderer_cpu_s"]["trivial"]["ratio"]["of_medians"] == pytest.approx(1.0)
    extra = results["wall_s"]["heavy_less_trivial"]
    assert extra["previous"]["median"] == pytest.approx(1.0)
    text = report(results)
    assert "abc1234" in text and "1.83x" in text and "OVER the 1.15x bound" in text


def test_the_previous_renderer_is_extracted_from_the_repository(tmp_path: Path) -> None:
    if subprocess.run(["git", "-C", str(REPO), "cat-file", "-e", PREVIOUS]).returncode != 0:
        pytest.skip(f"this checkout does not hold {PREVIOUS} (a shallow clone)")
    tree = extract(PREVIOUS, tmp_path)
    assert (tree / "sketch_env" / "render" / "harness.js").is_file()
    assert not (tree / "sketch_env" / "render" / "libraries.py").exists()


def test_a_quick_comparison_writes_its_ratios(tmp_path: Path) -> None:
    require_chromium()
    if subprocess.run(["git", "-C", str(REPO), "cat-file", "-e", PREVIOUS]).returncode != 0:
        pytest.skip(f"this checkout does not hold {PREVIOUS} (a shallow clone)")
    out = tmp_path / "previous.json"
    args = ["--quick", "--reps", "1", "--warmup", "0", "--out", str(out)]
    proc = subprocess.run(
        [sys.executable, "-m", "bench.previous", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "worst wall ratio" in proc.stdout
    results = json.loads(out.read_text("utf-8"))
    assert results["previous_commit"] == PREVIOUS
    for name in ("heavy", "trivial"):
        row = results["wall_s"][name]
        assert row["previous"]["median"] > 0 and row["current"]["median"] > 0
        assert row["ratio"]["of_medians"] > 0
