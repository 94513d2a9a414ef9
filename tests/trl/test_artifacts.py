"""Training-time pictures: written per step under bounds, logged, and browsable across steps.

The GRPO test drives TRL's real `GRPOTrainer` with the tiny random model of
``examples/grpo_trl_smoke.py``. Such a model writes noise the gate refuses, so it is steered
with ``sequence_bias`` (a standard `transformers.GenerationConfig` field that TRL passes through
``generation_kwargs``) towards tokens whose text is a whole known sketch: real generation, real
rendering, real pictures. The gallery is opened in headless Chromium and checked on screen.
"""

from __future__ import annotations

import importlib
import importlib.util
import io
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from PIL import Image

from sketch_env.evaluation.runs import list_runs, load_runs
from sketch_env.rollout.gallery import load_steps, step_dir_name
from sketch_env.trl import TRL_INSTALL_HINT, ArtifactConfig, SketchReward, SketchToolEnv
from tests.conftest import (
    GOOD_SKETCH,
    SEEDED_SKETCH,
    require_chromium,
    smoke_example,
    steered_tiny_model,
)

ROOT = Path(__file__).resolve().parents[2]


def _state(step: int) -> SimpleNamespace:
    # What TRL passes as ``trainer_state``: the reward function reads ``global_step`` only.
    return SimpleNamespace(global_step=step)


def test_config_bounds_are_checked() -> None:
    for bad in ({"every_n_steps": 0}, {"max_per_step": 0}, {"log_images": -1}):
        with pytest.raises(ValueError, match="at least"):
            ArtifactConfig("x", **bad)
    with pytest.raises(ValueError, match="group_size"):
        SketchReward(group_size=0)


def test_reward_writes_bounded_steps_and_table_paths(renderer, tmp_path: Path) -> None:
    config = ArtifactConfig(tmp_path / "art", every_n_steps=2, max_per_step=3)
    reward = SketchReward(scorer="heuristic", renderer=renderer, artifacts=config)
    coverage = reward.component("coverage")
    batch = [GOOD_SKETCH, SEEDED_SKETCH, "no code", GOOD_SKETCH + "\n// again"]
    prompts = ["a red square", "a red square", "a blue field", "a blue field"]
    columns: dict[str, list] = {}
    for step in range(4):
        kwargs = {"trainer_state": _state(step), "log_extra": columns.__setitem__}
        reward(prompts=prompts, completions=batch, **kwargs)
        coverage(prompts=prompts, completions=batch, **kwargs)  # same batch: written once

    run = reward.artifacts.run
    assert list_runs(tmp_path / "art") == [run] and run.startswith("run-")
    steps = load_steps(tmp_path / "art" / run)
    assert list(steps) == [0, 2]  # every second step
    for step, records in steps.items():
        assert len(records) == 3  # at most three per step, the first of the batch
        assert [r["group"] for r in records] == [0, 0, 1]
        assert all(r["step"] == step and r["run"] == run for r in records)
        folder = tmp_path / "art" / run / step_dir_name(step)
        assert len(list((folder / "images").glob("*.png"))) == 2  # "no code" has no picture
        assert records[2]["image"] is None and records[2]["status"] == "gate_failed"
        first = records[0]
        assert (folder / first["sketch"]).read_text().strip() == GOOD_SKETCH.strip()
        png = (folder / first["image"]).read_bytes()
        assert Image.open(io.BytesIO(png)).size == (600, 600)
        assert first["components"]["observations"]["coverage"] > 0
        assert "render_ms" in first["render"]
    # The completions-table column points at the written pictures (the last logged batch
    # was step 3, not written: empty paths).
    paths = columns["sketch_image"]
    assert paths == ["", "", "", ""]
    reward(
        prompts=prompts, completions=batch, trainer_state=_state(4), log_extra=columns.__setitem__
    )
    # Relative to the artifacts directory, the run's folder included.
    assert columns["sketch_image"][0] == f"{run}/{step_dir_name(4)}/{steps[0][0]['image']}"
    assert (tmp_path / "art" / columns["sketch_image"][0]).is_file()
    assert columns["sketch_image"][2:] == ["", ""]  # no picture; over the bound


def test_two_runs_into_one_folder_stay_apart_and_a_run_resumes(renderer, tmp_path: Path) -> None:
    art = tmp_path / "art"
    config = ArtifactConfig(art, max_per_step=4)
    red = GOOD_SKETCH
    green = GOOD_SKETCH.replace("#c8402a", "#2aa84a")
    prompts = ["a pond", "a pond", "a tree", "a tree"]
    first = SketchReward(scorer="heuristic", renderer=renderer, artifacts=config)
    first(prompts=prompts, completions=[red, red, "no code", red], trainer_state=_state(0))
    # A second training run, same configuration, same folder: it used to append to the first
    # run's step-000000 with the same group numbers, so the gallery showed one group of four.
    second = SketchReward(scorer="heuristic", renderer=renderer, artifacts=config)
    second(prompts=prompts, completions=[green, green, green, "no code"], trainer_state=_state(0))

    runs = load_runs(art)
    assert set(runs) == {first.artifacts.run, second.artifacts.run} and len(runs) == 2
    for reward, sketch in ((first, red), (second, green)):
        (records,) = runs[reward.artifacts.run].values()
        assert len(records) == 4 and [r["group"] for r in records] == [0, 0, 1, 1]
        folder = art / reward.artifacts.run / step_dir_name(0)
        ran = {(folder / r["sketch"]).read_text().strip() for r in records if r["image"]}
        assert ran == {sketch.strip()}  # nothing of the other run

    # The gallery lists the runs apart and gives each its own page.
    built = _gallery(art)
    assert built.returncode == 0, built.stderr
    lines = built.stdout.strip().splitlines()
    assert lines[-1] == f"gallery: {(art / 'index.html').resolve()}"
    assert sorted(lines[:-1]) == sorted(
        f"run {r}: {(art / r / 'index.html').resolve()}" for r in runs
    )
    listing = (art / "index.html").read_text()
    assert all(f'href="{r}/index.html"' in listing for r in runs)
    assert listing.count("<tr data-run=") == 2
    for name in runs:
        page = (art / name / "index.html").read_text()
        assert page.count('class="group"') == 2 and 'href="../index.html"' in page
    only = _gallery_run(art, "nope")
    assert only.returncode == 2 and only.stderr.startswith("error: no run 'nope' under")
    assert len(only.stderr.strip().splitlines()) == 1

    # Resuming the first run by name: the step it holds is kept as it was (a resumed trainer
    # generates it again), and the steps it has not reached are written into the same folder.
    resumed = SketchReward(
        scorer="heuristic",
        renderer=renderer,
        artifacts=ArtifactConfig(art, max_per_step=4, run=first.artifacts.run),
    )
    for step in (0, 1):
        resumed(prompts=prompts, completions=[green] * 4, trainer_state=_state(step))
    steps = load_runs(art)[first.artifacts.run]
    assert {s: len(r) for s, r in steps.items()} == {0: 4, 1: 4}
    assert steps[0] == runs[first.artifacts.run][0]
    assert len(list_runs(art)) == 2
    # A writer sent to another process (TRL's spawned reward process) writes the same run.
    assert pickle.loads(pickle.dumps(first.artifacts)).run == first.artifacts.run
    with pytest.raises(ValueError, match="a run name is a folder name"):
        ArtifactConfig(art, run="../elsewhere")


def test_tool_env_writes_each_episode_last_render(renderer, tmp_path: Path) -> None:
    config = ArtifactConfig(tmp_path / "tool", max_per_step=2)
    env_cls = SketchToolEnv.configured(renderer=renderer, artifacts=config)
    envs = [env_cls() for _ in range(3)]
    for _ in range(2):  # two generation rounds
        for env in envs:
            env.reset(prompt_text="a quiet pond", seed=1)
            env.render(sketch="function setup() { createCanvas(10, 10); }")
            env.render(sketch=GOOD_SKETCH)
            assert env.get_reward() == env.get_reward()  # asked twice, written once
    (run,) = list_runs(tmp_path / "tool")  # every instance of the class is one run
    steps = load_steps(tmp_path / "tool" / run)
    assert list(steps) == [0, 1]
    for records in steps.values():
        assert len(records) == 2  # three episodes, bound two
        assert all(r["status"] == "ok" and r["image"] for r in records)


def _require_trl() -> None:
    for module in ("trl", "torch", "datasets", "transformers", "tokenizers", "pandas"):
        if importlib.util.find_spec(module) is None:
            pytest.fail(f"this test needs {module!r}: {TRL_INSTALL_HINT}")


def _steered_grpo(output_dir: Path, artifacts: ArtifactConfig, steps: int) -> dict:
    from trl import GRPOTrainer

    from sketch_env import SketchRenderer
    from sketch_env.catalog.tasks import load_tasks
    from sketch_env.trl import make_dataset

    smoke = smoke_example()
    tasks = load_tasks()[:2]
    tokenizer, model, generation_kwargs = steered_tiny_model([GOOD_SKETCH, SEEDED_SKETCH])
    dataset = make_dataset(tasks, repeats=4, system_prompt="Reply with a p5.brush sketch.")
    with SketchRenderer(pool_size=1, deadline_s=10) as renderer:
        reward = SketchReward(
            scorer="heuristic", renderer=renderer, artifacts=artifacts, group_size=2
        )
        args = smoke.cpu_grpo_config(
            output_dir,
            max_steps=steps,
            per_device_train_batch_size=4,
            num_generations=2,
            max_completion_length=4,
            log_completions=True,
            generation_kwargs=generation_kwargs,
        )
        trainer = GRPOTrainer(
            model=model,
            reward_funcs=[reward],
            args=args,
            train_dataset=dataset,
            processing_class=tokenizer,
        )
        trainer.train()
        return {"log_history": trainer.state.log_history, "steps": trainer.state.global_step}


@pytest.mark.trl
def test_grpo_trainer_writes_bounded_artifacts_and_logs_them(tmp_path: Path) -> None:
    _require_trl()
    import pandas as pd

    out = tmp_path / "trainer"
    art = tmp_path / "pictures"
    result = _steered_grpo(out, ArtifactConfig(art, every_n_steps=2, max_per_step=3), steps=4)
    assert result["steps"] == 4

    (run,) = list_runs(art)
    steps = load_steps(art / run)
    assert list(steps) == [0, 2]  # generation at steps 0..3, written every second
    for step, records in steps.items():
        assert len(records) == 3  # the batch holds 4: the bound kept 3
        assert {r["group"] for r in records} == {0, 1}  # two groups of two, in batch order
        for record in records:
            assert record["step"] == step and record["status"] == "ok"
            assert (art / run / step_dir_name(step) / record["image"]).stat().st_size > 1000
            sketch = (art / run / step_dir_name(step) / record["sketch"]).read_text()
            assert sketch.strip() in (GOOD_SKETCH.strip(), SEEDED_SKETCH.strip())
            assert record["components"]["observations"]["coverage"] > 0

    # TRL's completions table carries each picture's path (empty where none was written).
    table = pd.read_parquet(out / "completions" / "completions_00001.parquet")
    assert "sketch_image" in table.columns and "sketch_picture" in table.columns
    written = [p for p in table["sketch_image"] if p]
    assert len(written) == 3 and all((art / p).is_file() for p in written)

    logged = [row for row in result["log_history"] if "sketch/identical_pictures" in row]
    assert len(logged) == 4
    for row in logged:
        assert 0 <= row["sketch/identical_pictures"] <= 1
        assert 0 <= row["sketch/frac_groups_zero_std"] <= 1
        assert row["sketch/queue_ms"] >= 0 and row["sketch/render_ms"] > 0
        assert row["sketch/paint_fraction_min"] <= row["sketch/paint_fraction_max"]


def _gallery(directory: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sketch_env.cli", "gallery", str(directory)],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_gallery_across_steps_in_chromium(renderer, tmp_path: Path) -> None:
    require_chromium()
    from playwright.sync_api import sync_playwright

    from sketch_env.render.backends import find_browser

    art = tmp_path / "art"
    reward = SketchReward(
        scorer="heuristic", renderer=renderer, artifacts=ArtifactConfig(art, max_per_step=4)
    )
    red = GOOD_SKETCH
    green = GOOD_SKETCH.replace("#c8402a", "#2aa84a")
    batches = {
        0: [red, red, "no code", SEEDED_SKETCH],
        1: [green, green + "\n//x", SEEDED_SKETCH, SEEDED_SKETCH],
    }
    for step, batch in batches.items():
        reward(
            prompts=["a pond", "a pond", "a tree", "a tree"],
            completions=batch,
            trainer_state=_state(step),
        )

    built = _gallery(art)
    assert built.returncode == 0, built.stderr
    assert Path(built.stdout.split("gallery: ", 1)[1].strip()) == (art / "index.html").resolve()
    run = reward.artifacts.run
    index = art / run / "index.html"  # the run's own page, which the listing links
    assert f"run {run}: {index.resolve()}" in built.stdout
    assert (art / run / step_dir_name(0) / "index.html").is_file()  # each step's table page

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_browser())
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1600})
            page.goto(index.as_uri())

            def visible_step() -> str:
                return page.locator("section.step:not([hidden])").get_attribute("data-step")

            def shown_images() -> list[dict]:
                page.wait_for_function(
                    "() => Array.from(document.querySelectorAll("
                    "'section.step:not([hidden]) img')).every(i => i.complete)"
                )
                return page.eval_on_selector_all(
                    "section.step:not([hidden]) img",
                    "imgs => imgs.map(i => ({w: i.naturalWidth, src: i.getAttribute('src')}))",
                )

            assert visible_step() == "1"  # the latest step by default
            images = shown_images()
            assert len(images) == 4 and all(i["w"] == 600 for i in images)
            assert all(i["src"].startswith(step_dir_name(1) + "/images/") for i in images)
            # On screen: the first card shows the green painting, the picture that was written.
            shot = np.asarray(
                Image.open(
                    io.BytesIO(page.locator("section.step:not([hidden]) img").first.screenshot())
                ).convert("RGB"),
                dtype=float,
            )
            source = (
                Image.open(art / run / images[0]["src"]).convert("RGB").resize(shot.shape[1::-1])
            )
            assert np.abs(shot - np.asarray(source, dtype=float)).mean() < 12
            assert page.locator("section.step:not([hidden]) .group").count() == 2

            page.select_option("#step", "0")
            assert visible_step() == "0" and page.url.endswith("#step-0")
            images = shown_images()
            assert len(images) == 3 and all(i["w"] == 600 for i in images)  # "no code": none
            assert page.locator("section.step:not([hidden]) .nopic").count() == 1
            assert "gate_failed" in page.locator("section.step:not([hidden])").inner_text()
            page.click("#next")
            assert visible_step() == "1"
            page.keyboard.press("ArrowLeft")
            assert visible_step() == "0"
            href = page.get_attribute("#table-link", "href")
            assert href == f"{step_dir_name(0)}/index.html"
            assert page.get_attribute("#runs-link", "href") == "../index.html"
            # A shared link opens its step.
            page.goto(index.as_uri() + "#step-0")
            page.reload()
            assert visible_step() == "0"
            page.screenshot(path=str(tmp_path / "gallery.png"), full_page=True)
        finally:
            browser.close()
    screenshot = np.asarray(Image.open(tmp_path / "gallery.png").convert("RGB"))
    assert screenshot.std() > 10  # pictures and text, not a blank page


def test_gallery_cli_errors_are_one_line(tmp_path: Path) -> None:
    missing = _gallery(tmp_path / "nope")
    assert missing.returncode == 2 and missing.stderr.startswith("error: no such folder")
    (tmp_path / "empty").mkdir()
    empty = _gallery(tmp_path / "empty")
    assert empty.returncode == 2 and "no step-NNNNNN/results.jsonl" in empty.stderr
    bare = _gallery_run(tmp_path / "empty", "x")
    assert bare.returncode == 2 and "--run needs an artifacts directory" in bare.stderr
    assert len(bare.stderr.strip().splitlines()) == 1
    assert "Traceback" not in missing.stderr + empty.stderr
    assert len(empty.stderr.strip().splitlines()) == 1


def _gallery_run(directory: Path, run: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sketch_env.cli", "gallery", str(directory), "--run", run],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_gallery_cli_rebuilds_a_rollout_folder(tmp_path: Path) -> None:
    record = {"n": 0, "id": "a", "prompt": "p", "status": "gate_failed", "reward": -1.0}
    (tmp_path / "results.jsonl").write_text(json.dumps(record) + "\n")
    built = _gallery(tmp_path)
    assert built.returncode == 0, built.stderr
    assert "gate_failed" in (tmp_path / "index.html").read_text()


def _logger(name: str):
    # Optional loggers, not dependencies: a visible skip (reported by -ra) where absent.
    if importlib.util.find_spec(name) is None:
        pytest.skip(f"{name} is not installed (optional; `pip install {name}` to run this test)")
    return importlib.import_module(name)


def _log_one_step(renderer, directory: Path, log_images: int) -> None:
    reward = SketchReward(
        scorer="heuristic",
        renderer=renderer,
        artifacts=ArtifactConfig(directory, log_images=log_images),
    )
    reward(
        prompts=["a pond"] * 4,
        completions=[GOOD_SKETCH, SEEDED_SKETCH, "no code", GOOD_SKETCH],
        trainer_state=_state(0),
    )


def test_pictures_go_to_an_active_wandb_run(renderer, tmp_path: Path, monkeypatch) -> None:
    wandb = _logger("wandb")
    monkeypatch.setenv("WANDB_MODE", "offline")
    monkeypatch.setenv("WANDB_SILENT", "true")
    run = wandb.init(project="sketch-env-test", dir=str(tmp_path), mode="offline")
    try:
        _log_one_step(renderer, tmp_path / "art", log_images=2)
        wandb.log({"train/loss": 0.0})  # the trainer's own call commits the step
    finally:
        run.finish()
    media = [p for p in (tmp_path / "wandb").rglob("*.png") if "media" in p.parts]
    assert len(media) == 2  # bounded by log_images, pictures only


def test_pictures_go_to_trackio(renderer, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TRACKIO_DIR", str(tmp_path / "trackio"))  # read when trackio loads
    trackio = _logger("trackio")
    trackio.init(project="sketch-env-test")
    try:
        _log_one_step(renderer, tmp_path / "art", log_images=3)
    finally:
        trackio.finish()
    pictures = list((tmp_path / "trackio").rglob("*.png"))
    assert len(pictures) == 3, pictures


def test_steps_gallery_escapes_what_models_wrote() -> None:
    from sketch_env.rollout.gallery import render_steps_gallery

    hostile = '</script><img src=x onerror="alert(1)">'
    record = {
        "n": 0,
        "id": "a",
        "prompt": hostile,
        "task_id": hostile,
        "status": "js_error",
        "reward": -0.5,
        "image": 'images/x".png',
        "sketch": "sketches/<a>.js",
        "render": {"errors": [hostile]},
        "group": hostile,
    }
    page = render_steps_gallery({3: [record]})
    assert "<img src=x" not in page and "</script><img" not in page
    assert "&lt;/script&gt;&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in page
    assert 'src="step-000003/images/x%22.png"' in page


def test_a_step_being_written_shows_what_it_has(tmp_path: Path) -> None:
    folder = tmp_path / step_dir_name(7)
    folder.mkdir()
    whole = json.dumps({"n": 0, "id": "a", "prompt": "p", "status": "gate_failed", "reward": -1})
    (folder / "results.jsonl").write_text(whole + "\n" + whole[:20])  # the writer is mid-line
    (tmp_path / "step-notes").mkdir()  # not a step folder: ignored
    assert {step: len(r) for step, r in load_steps(tmp_path).items()} == {7: 1}
    built = _gallery(tmp_path)
    assert built.returncode == 0, built.stderr
    assert 'data-step="7"' in (tmp_path / "index.html").read_text()
