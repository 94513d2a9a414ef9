"""``sketch-env export``: rollout folders and training artifacts as Hugging Face datasets.

Real rollouts (the real renderer and scorer), real `datasets` (saved and loaded back). No hub
is reachable here: the upload is checked up to ``Dataset.push_to_hub``, where a fake that
records its call stands in for the network (and only there).
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from PIL import Image

from sketch_env.evaluation.evaluator import Evaluator
from sketch_env.rollout.export_cli import add_arguments, run
from sketch_env.rollout.runner import RolloutItem, run_rollouts
from sketch_env.trl import ArtifactConfig, SketchReward
from tests.conftest import GOOD_SKETCH, SEEDED_SKETCH

ROOT = Path(__file__).resolve().parents[2]

datasets = pytest.importorskip(
    "datasets", reason="sketch-env export needs `datasets` (pip install 'datasets>=3')"
)


def _export(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sketch_env.cli", "export", *argv],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def rollout_folder(renderer, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("rollouts")
    items = [
        RolloutItem("good", GOOD_SKETCH, "a red square on paper", task_id="flowers/pastel"),
        RolloutItem("seeded", SEEDED_SKETCH, "lines over a green circle"),
        RolloutItem("refused", "no code at all", "a blue field"),
    ]
    run_rollouts(items, out, Evaluator(renderer, "heuristic"), seeds=2)
    return out


def test_a_rollout_folder_becomes_a_dataset(rollout_folder: Path, tmp_path: Path) -> None:
    done = _export(str(rollout_folder), "--to-dataset", str(tmp_path / "ds"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("6 rollouts (4 with a picture)")
    assert done.stdout.strip().splitlines()[-1] == f"dataset: {(tmp_path / 'ds').resolve()}"

    data = datasets.load_from_disk(str(tmp_path / "ds"))
    assert len(data) == 6
    assert isinstance(data.features["image"], datasets.Image)
    for column in ("prompt", "task_id", "seed", "status", "reward", "sketch", "step", "group"):
        assert column in data.column_names, column
    components = [c for c in data.column_names if c.startswith("component_")]
    assert {"component_preference", "component_coverage_term", "component_infra_error"} <= set(
        components
    )
    assert any(c.startswith("contribution_") for c in data.column_names)
    rows = list(data)
    assert {r["source"] for r in rows} == {"rollout"}
    assert sorted({r["seed"] for r in rows}) == [0, 1]
    by_status = {}
    for row in rows:
        by_status.setdefault(row["status"], []).append(row)
    assert len(by_status["gate_failed"]) == 2 and len(by_status["ok"]) == 4
    good = next(r for r in rows if r["id"] == "good" and r["seed"] == 0)
    # The picture is the PNG the renderer made, carried in the dataset itself.
    png = (rollout_folder / "images").glob("*good-s0.png")
    assert good["image"].size == (600, 600)
    assert good["image"].tobytes() == Image.open(next(png)).tobytes()
    assert good["sketch"].strip() == GOOD_SKETCH.strip() and good["task_id"] == "flowers/pastel"
    assert good["reward"] > 0 and good["component_preference"] is not None
    contributions = sum(v for k, v in good.items() if k.startswith("contribution_") and v)
    assert contributions == pytest.approx(good["reward"], abs=1e-6)
    refused = by_status["gate_failed"][0]
    assert refused["image"] is None and refused["reward"] == -1.0 and refused["gate_reasons"]


def test_training_artifacts_become_a_dataset_with_runs_steps_and_groups(
    renderer, tmp_path: Path
) -> None:
    art = tmp_path / "art"
    prompts = ["a pond", "a pond", "a tree", "a tree"]
    runs = []
    for sketch in (GOOD_SKETCH, SEEDED_SKETCH):  # two runs into the same folder
        reward = SketchReward(
            scorer="heuristic", renderer=renderer, artifacts=ArtifactConfig(art), group_size=2
        )
        for step in (0, 1):
            reward(
                prompts=prompts,
                completions=[sketch, sketch + "\n// b", "no code", sketch],
                trainer_state=SimpleNamespace(global_step=step),
            )
        runs.append(reward.artifacts.run)

    done = _export(str(art), "--to-dataset", str(tmp_path / "ds"))
    assert done.returncode == 0, done.stderr
    data = datasets.load_from_disk(str(tmp_path / "ds"))
    assert len(data) == 16
    rows = list(data)
    assert {r["source"] for r in rows} == {"training"}
    assert sorted({r["run"] for r in rows}) == sorted(runs)
    for run_name in runs:
        mine = [r for r in rows if r["run"] == run_name]
        assert sorted({r["step"] for r in mine}) == [0, 1]
        assert [r["group"] for r in mine if r["step"] == 0] == [0, 0, 1, 1]
    assert sum(r["image"] is not None for r in rows) == 12

    # One run's folder exports that run alone.
    one = _export(str(art / runs[0]), "--to-dataset", str(tmp_path / "one"))
    assert one.returncode == 0, one.stderr
    assert len(datasets.load_from_disk(str(tmp_path / "one"))) == 8


class FakePushToHub:
    """Stands in for `datasets.Dataset.push_to_hub`, the one call that needs the network:
    it records what it was handed and uploads nothing."""

    def __init__(self, fail: str | None = None) -> None:
        self.calls: list[tuple[object, str, dict]] = []
        self.fail = fail

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Puts it in place of the method for the test's duration."""

        def push_to_hub(dataset: object, repo_id: str, **options: object) -> None:
            self.calls.append((dataset, repo_id, options))
            if self.fail:
                raise RuntimeError(self.fail)

        monkeypatch.setattr(datasets.Dataset, "push_to_hub", push_to_hub)


def _run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return run(parser.parse_args(argv))


def test_push_to_hub_hands_the_dataset_over(
    rollout_folder: Path, tmp_path: Path, monkeypatch, capsys
) -> None:
    fake = FakePushToHub()
    fake.install(monkeypatch)
    out = tmp_path / "ds"
    argv = [str(rollout_folder), "--to-dataset", str(out), "--push-to-hub", "you/sketch-pool"]
    assert _run([*argv, "--private"]) == 0
    ((pushed, repo, options),) = fake.calls
    assert repo == "you/sketch-pool" and options == {"private": True}
    assert isinstance(pushed, datasets.Dataset) and len(pushed) == 6
    assert pushed.to_dict() == datasets.load_from_disk(str(out)).to_dict()  # what was saved
    assert "pushed: https://huggingface.co/datasets/you/sketch-pool" in capsys.readouterr().out

    failing = FakePushToHub("401 Client Error: Unauthorized for url\nmore detail")
    failing.install(monkeypatch)
    assert (
        _run([str(rollout_folder), "--to-dataset", str(tmp_path / "b"), "--push-to-hub", "x/y"])
        == 2
    )
    # datasets' own progress bars come first on stderr; the error is one line of its own.
    (err,) = [line for line in capsys.readouterr().err.splitlines() if "error" in line]
    assert err.startswith("error: --push-to-hub x/y failed: 401 Client Error")
    assert "hf auth login" in err and (tmp_path / "b").is_dir()  # saved before the upload


def test_errors_are_one_line_and_name_the_flag(rollout_folder: Path, tmp_path: Path) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("")
    (tmp_path / "empty").mkdir()
    cases = {
        "--to-dataset": _export(str(rollout_folder), "--to-dataset", str(tmp_path / "full")),
        "no rollouts under": _export(str(tmp_path / "empty"), "--to-dataset", str(tmp_path / "o")),
        "no such folder": _export(str(tmp_path / "nope"), "--to-dataset", str(tmp_path / "o")),
        "--private only applies": _export(
            str(rollout_folder), "--to-dataset", str(tmp_path / "o"), "--private"
        ),
    }
    for expected, done in cases.items():
        assert done.returncode == 2, (expected, done.stderr)
        assert done.stderr.startswith("error: ") and expected in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "o").exists()


def test_the_picture_survives_as_png_bytes(rollout_folder: Path) -> None:
    from sketch_env.rollout.export import export_rows, to_dataset

    rows = export_rows(rollout_folder)
    data = to_dataset(rows).cast_column("image", datasets.Image(decode=False))
    stored = next(r for r in data if r["image"] is not None)["image"]
    assert stored["bytes"].startswith(b"\x89PNG")
    assert Image.open(io.BytesIO(stored["bytes"])).size == (600, 600)
