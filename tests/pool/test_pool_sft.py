"""`sketch-env pool export-sft`: the pool as prompt -> reply pairs, read back by `datasets` and
trained on for one real `trl.SFTTrainer` step with the tiny local model of the TRL tests."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest

from sketch_env.catalog.instructions import POLICY_INSTRUCTIONS, user_message
from sketch_env.catalog.references import load_reference_pool
from sketch_env.catalog.tasks import get_task
from sketch_env.gate import gate_reply
from sketch_env.pool.sft import (
    DATASET_DIR,
    SFT_FILE,
    SFTExportError,
    export_sft,
    sft_reply,
)
from sketch_env.trl import TRL_INSTALL_HINT
from tests.conftest import smoke_example

REFS = {ref.id: ref for ref in load_reference_pool()}
COLUMNS = {
    "messages",
    "prompt",
    "completion",
    "task_id",
    "tier",
    "reference_id",
    "prompt_source",
    "prompt_text",
}


def _require(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.fail(f"this test needs {module!r}: {TRL_INSTALL_HINT}")


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Any:
    _require("datasets")
    return export_sft(tmp_path_factory.mktemp("sft"), seed=3)


def test_every_row_is_what_the_policy_sees_and_what_it_is_asked_to_answer(exported) -> None:
    import datasets

    loaded = datasets.load_from_disk(str(exported.out_dir / DATASET_DIR))
    lines = (exported.out_dir / SFT_FILE).read_text(encoding="utf-8").splitlines()
    assert set(loaded.column_names) == COLUMNS
    assert [json.loads(line) for line in lines] == loaded.to_list() == list(exported.rows)

    chosen = [ref for ref in REFS.values() if ref.tier in ("love", "ok")]
    # Two rows a reference (its task's prompt, its own), since no own prompt is its task's.
    assert len(loaded) == 2 * len(chosen)
    assert {(r["reference_id"], r["prompt_source"]) for r in loaded} == {
        (ref.id, source) for ref in chosen for source in ("task", "reference")
    }
    for row in loaded:
        ref = REFS[row["reference_id"]]
        assert (row["task_id"], row["tier"]) == (ref.task_id, ref.tier)
        scene = get_task(ref.task_id).prompt if row["prompt_source"] == "task" else ref.prompt
        assert row["prompt_text"] == scene
        assert row["prompt"] == [
            {"role": "system", "content": POLICY_INSTRUCTIONS},
            {"role": "user", "content": user_message(scene)},
        ]
        assert row["messages"] == row["prompt"] + row["completion"]
        (reply,) = row["completion"]
        assert reply["role"] == "assistant"
        text = reply["content"]
        # Exactly one ```javascript block and nothing around it.
        assert text.startswith("```javascript\n") and text.endswith("\n```")
        assert text.count("```") == 2
        verdict = gate_reply(text)
        assert verdict.passed, (ref.id, verdict.reasons)
        # The sketch itself, less the rater's note it opens with.
        body = text.removeprefix("```javascript\n").removesuffix("```")
        assert verdict.source is not None and verdict.source.strip() == body.strip()
        # (A code comment after the note's blank line stays: it explains the code.)
        assert body.strip() in ref.source and ref.source.splitlines()[0] not in body
        assert "on purpose" not in body.lower()
    # The shuffle mixes tasks: the first rows are not one task's.
    assert len({row["task_id"] for row in exported.rows[:8]}) > 2


def test_the_export_is_seeded_and_filtered(exported, tmp_path: Path) -> None:
    again = export_sft(tmp_path / "again", seed=3, dataset=False)
    assert again.dataset_path is None and not (tmp_path / "again" / DATASET_DIR).exists()
    same = (exported.out_dir / SFT_FILE).read_bytes()
    assert (tmp_path / "again" / SFT_FILE).read_bytes() == same
    other = export_sft(tmp_path / "other", seed=4, dataset=False)
    assert [r["reference_id"] for r in other.rows] != [r["reference_id"] for r in again.rows]
    assert sorted(map(json.dumps, other.rows)) == sorted(map(json.dumps, again.rows))

    weak = export_sft(tmp_path / "weak", tiers=["weak"], prompts=["task"], dataset=False)
    assert {r["tier"] for r in weak.rows} == {"weak"}
    assert {r["prompt_source"] for r in weak.rows} == {"task"}
    assert len(weak.rows) == sum(ref.tier == "weak" for ref in REFS.values())
    assert weak.to_dict()["tier"] == {"weak": len(weak.rows)}
    with pytest.raises(ValueError, match="tiers must be one or more of love, ok, weak"):
        export_sft(tmp_path / "bad", tiers=["great"], dataset=False)
    with pytest.raises(ValueError, match="prompts must be"):
        export_sft(tmp_path / "bad", prompts=["caption"], dataset=False)


def test_a_reply_the_gate_refuses_stops_the_export(tmp_path: Path) -> None:
    import shutil

    from sketch_env.catalog.references import find_pool_dir

    copy = tmp_path / "pool"
    shutil.copytree(find_pool_dir(), copy)
    index = json.loads((copy / "pool.json").read_text())
    first = index["references"][0]
    # A plain p5 shape: the gate refuses it, so it must never become a training reply.
    sketch = copy / first["file"]
    sketch.write_text(sketch.read_text() + "\nfunction draw() { ellipse(1, 2, 3, 4); }\n")
    with pytest.raises(SFTExportError, match=f"{first['id']}: its reply fails the gate"):
        export_sft(tmp_path / "out", path=copy, tiers=[first["tier"]], dataset=False)
    assert not (tmp_path / "out").exists()


def test_a_missing_datasets_package_is_named_with_the_install_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # None in sys.modules makes `import datasets` raise ImportError, as an absent package does.
    monkeypatch.setitem(sys.modules, "datasets", None)
    with pytest.raises(ImportError, match=r"pip install 'datasets>=3'.*--no-dataset"):
        export_sft(tmp_path / "out")
    assert not (tmp_path / "out").exists()
    # The JSONL needs no package.
    assert export_sft(tmp_path / "out", dataset=False).jsonl_path.is_file()


def test_cli_exports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sketch_env.cli import main

    out = tmp_path / "cli"
    argv = ["pool", "export-sft", str(out), "--tiers", "love", "--prompts", "reference"]
    assert main([*argv, "--seed", "1", "--no-dataset"]) == 0
    summary = json.loads(capsys.readouterr().out)
    love = sum(ref.tier == "love" for ref in REFS.values())
    assert summary["rows"] == summary["references"] == love
    assert summary["prompt_source"] == {"reference": love} and summary["dataset"] is None
    assert len((out / SFT_FILE).read_text().splitlines()) == love
    assert main(["pool", "export-sft", str(out), "--tiers", "love,best", "--no-dataset"]) == 2
    assert "best" in capsys.readouterr().err


def test_sft_reply_drops_only_the_leading_comment() -> None:
    source = "// Weak on purpose: a dot.\n// second line\n\nfunction setup() {\n  // kept\n}\n"
    assert sft_reply(source) == "```javascript\nfunction setup() {\n  // kept\n}\n```"


@pytest.mark.trl
@pytest.mark.parametrize("form", ["messages", "prompt_completion"])
def test_one_sft_trainer_step_on_the_export(exported, tmp_path: Path, form: str) -> None:
    for module in ("trl", "torch", "datasets", "transformers", "tokenizers"):
        _require(module)
    import datasets
    from trl import SFTConfig, SFTTrainer

    loaded = datasets.load_from_disk(str(exported.out_dir / DATASET_DIR))
    # The two shortest rows keep a CPU step to seconds; they are still whole rows, with the
    # full instructions, so nothing is truncated (max_length=None below).
    lengths = [len(json.dumps(m)) for m in loaded["messages"]]
    shortest = sorted(range(len(loaded)), key=lengths.__getitem__)[:2]
    train = loaded.select(shortest)
    # SFTTrainer reads prompt/completion whenever both are there: the messages form drops them.
    drop = ["prompt", "completion"] if form == "messages" else ["messages"]
    train = train.remove_columns(drop)

    smoke = smoke_example()
    texts = [POLICY_INSTRUCTIONS, *(m[-1]["content"] for m in loaded.select(shortest)["messages"])]
    tokenizer = smoke.build_tokenizer(texts, vocab_size=2000)
    model = smoke.build_model(tokenizer)
    args = SFTConfig(
        output_dir=str(tmp_path / "trainer"),
        max_steps=1,
        per_device_train_batch_size=2,
        learning_rate=1e-3,
        max_length=None,
        logging_steps=1,
        save_strategy="no",
        report_to="none",
        use_cpu=True,
        bf16=False,
        seed=0,
        dataloader_num_workers=0,
    )
    trainer = SFTTrainer(model=model, args=args, train_dataset=train, processing_class=tokenizer)
    prepared = trainer.train_dataset[0]
    trained_on = tokenizer.decode([t for t in prepared["labels"] if t != -100])
    if form == "prompt_completion":
        # Only the reply is trained on: the instructions and the user turn are masked.
        assert "function setup()" in trained_on and "Paint this:" not in trained_on
        assert -100 in prepared["labels"]
    else:
        assert "Paint this:" in trained_on and "function setup()" in trained_on
    trainer.train()
    assert trainer.state.global_step == 1
    losses = [row["loss"] for row in trainer.state.log_history if "loss" in row]
    assert losses and all(math.isfinite(v) and v > 0 for v in losses)
