"""The benchmark harness runs end to end and writes results of the documented shape.

Speed itself is never asserted here (the machine's load decides it); the benchmark shows it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench.baseline import inline_page
from bench.report import render_text
from bench.workloads import FILL_COUNTS, TRIVIAL, grpo_group, heavy_sketch, watercolour
from sketch_env.cli import SUBCOMMANDS
from tests.conftest import require_chromium

REPO = Path(__file__).resolve().parents[2]


def test_workloads_are_what_the_report_says():
    assert len(grpo_group()) == 8 and len(grpo_group(quick=True)) == 8
    assert watercolour(4).count("brush.fillTexture(") == 4
    assert watercolour(4).count("brush.fillBleed(") == 4
    assert FILL_COUNTS == (1, 2, 4, 8)
    assert "fillTexture" in heavy_sketch().source
    assert "brush.line" in TRIVIAL


def test_baseline_page_inlines_everything():
    html = inline_page(TRIVIAL, seed=7)
    assert html.count("<script>") == 5  # PRNG, p5, p5.brush, completion hook, sketch
    assert "let a = 7 >>> 0;" in html
    assert "registerAddon" in html and TRIVIAL in html


def test_bench_is_a_subcommand():
    assert SUBCOMMANDS["bench"][0] == "sketch_env.bench_cli"
    proc = subprocess.run(
        [sys.executable, "-m", "sketch_env.cli", "bench", "--help"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "--quick" in proc.stdout


def test_quick_benchmark_writes_json(tmp_path):
    require_chromium()
    out = tmp_path / "results.json"
    args = ["--quick", "--reps", "1", "--no-scaling", "--out", str(out)]
    proc = subprocess.run(
        [sys.executable, "-m", "bench", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert out.is_file(), proc.stderr[-3000:]
    results = json.loads(out.read_text())
    assert results["failures"] == [], results["failures"]
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert results["meta"]["quick"] is True
    assert len(results["meta"]["load_average_start"]) == 3
    for key in ("a_trivial", "b_heavy", "c_group"):
        workload = results[key]
        assert set(workload["results"]) >= {"baseline", "ours"}
        for stat in workload["results"].values():
            assert stat["min"] <= stat["median"] <= stat["max"]
            assert stat["n"] == len(stat["samples"]) >= 1
        assert workload["ratios"]["ours"] > 0
        assert set(results["targets"][key]) == {"target_ratio", "ratio", "met"}
    assert "ours_cold" in results["a_trivial"]["results"]
    assert results["a_trivial"]["ours_back_to_back"]["n"] == 8
    for name in ("baseline", "ours", "ours_cold"):
        assert results["memory_peak_rss_mb"][name]["peak_rss_mb"] > 0
    cpu = results["b_heavy"]["cpu_seconds_by_process_type"]
    assert "gpu-process" in cpu["baseline"] and "renderer" in cpu["ours"]
    assert "(a) trivial" in render_text(results)
