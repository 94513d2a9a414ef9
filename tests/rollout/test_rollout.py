"""`sketch-env rollout`: reading sources, running rollouts, writing PNGs, results and gallery."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from PIL import Image

from sketch_env.catalog.tasks import get_task
from sketch_env.cli import main
from sketch_env.evaluation import Evaluator
from sketch_env.evaluation.runs import load_records
from sketch_env.rollout.runner import (
    RolloutItem,
    items_from_pool,
    items_from_replies,
    items_from_sketches,
    run_rollouts,
)
from tests.conftest import BARE_SKETCH, GOOD_SKETCH, SEEDED_SKETCH, require_chromium


def test_sketch_folder_prompts(tmp_path: Path) -> None:
    (tmp_path / "a_quiet_pond.js").write_text("function setup() {}\n")
    (tmp_path / "commented.js").write_text("// Two pears on a plate,\n// in ink.\nlet x;\n")
    (tmp_path / "sidecar.js").write_text("// ignored comment\n")
    (tmp_path / "sidecar.prompt.txt").write_text("a red boat\n")
    (tmp_path / "notes.md").write_text("not a sketch")
    items = {i.id: i for i in items_from_sketches(tmp_path)}
    assert sorted(items) == ["a_quiet_pond", "commented", "sidecar"]
    assert items["a_quiet_pond"].prompt == "a quiet pond"
    assert items["commented"].prompt == "Two pears on a plate, in ink."
    assert items["sidecar"].prompt == "a red boat"
    assert items["sidecar"].origin.endswith("sidecar.js")
    forced = items_from_sketches(tmp_path, prompt="one prompt")
    assert {i.prompt for i in forced} == {"one prompt"}
    with pytest.raises(FileNotFoundError, match=r"no \.js files"):
        items_from_sketches(tmp_path / "..")
    with pytest.raises(FileNotFoundError, match="no such folder"):
        items_from_sketches(tmp_path / "missing")


def test_replies_jsonl(tmp_path: Path) -> None:
    path = tmp_path / "replies.jsonl"
    rows = [
        {"reply": "```js\nx\n```", "prompt": "a blue kite", "seed": 4, "model": "m1"},
        {
            "completion": [{"role": "assistant", "content": "final"}],
            "prompt": [{"role": "user", "content": "Paint this: whatever"}],
            "task_id": "trees/pastel",
            "id": "named",
        },
        {"completion": "c", "prompt": [{"role": "user", "content": "Paint this: a red fox"}]},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n")
    items = items_from_replies(path)
    assert [i.id for i in items] == ["line1", "named", "line3"]
    assert items[0].seed == 4 and items[0].metadata == {"model": "m1"}
    assert items[1].reply == "final"
    assert items[1].prompt == get_task("trees/pastel").prompt
    assert items[2].prompt == "a red fox"

    path.write_text(json.dumps({"prompt": "p"}) + "\n")
    with pytest.raises(ValueError, match=r"replies\.jsonl:1: needs a 'reply'"):
        items_from_replies(path)
    path.write_text('{"reply": "r", "prompt": "p"}\n{oops\n')
    with pytest.raises(ValueError, match=r"replies\.jsonl:2: not JSON"):
        items_from_replies(path)


def test_reference_pool_items() -> None:
    items = items_from_pool()
    assert len(items) >= 12
    for item in items:
        assert item.reply.strip() and item.prompt.strip()
        assert item.origin.startswith("reference_pool/")
    assert len({i.id for i in items}) == len(items)


def test_run_rollouts_writes_pictures_results_and_gallery(renderer, tmp_path: Path) -> None:
    items = [
        RolloutItem("good", GOOD_SKETCH, "a red block", task_id="abstract/pastel"),
        RolloutItem("seeded", SEEDED_SKETCH, "lines and a circle"),
        RolloutItem("refused", "no code here", "anything", seed=7),
    ]
    seen: list[tuple[int, int]] = []
    run = run_rollouts(
        items,
        tmp_path / "run",
        Evaluator(renderer, "heuristic"),
        seeds=[0, 1],
        chunk_size=2,
        progress=lambda done, total: seen.append((done, total)),
    )
    # Two seeds for the first two, the refused one once (its own seed).
    assert seen == [(0, 5), (2, 5), (4, 5), (5, 5)]
    records = load_records(run.out_dir)
    assert records == run.records and len(records) == 5
    assert [(r["id"], r["seed"]) for r in records] == [
        ("good", 0),
        ("good", 1),
        ("seeded", 0),
        ("seeded", 1),
        ("refused", 7),
    ]
    for record in records[:4]:
        assert record["status"] == "ok"
        image = run.out_dir / record["image"]
        with Image.open(image) as picture:
            assert picture.size == (600, 600)
        source = {"good": GOOD_SKETCH, "seeded": SEEDED_SKETCH}[record["id"]]
        assert (run.out_dir / record["sketch"]).read_text() == source
        assert record["components"]["observations"]["coverage"] > 0
        assert record["components"]["contributions"]
        assert record["render"]["backend"] == renderer.backend
        assert record["reward"] is not None
    refused = records[4]
    assert refused["status"] == "gate_failed"
    assert refused["image"] is None and refused["render"] is None
    assert refused["reward"] == -1.0 and refused["gate"]["reasons"]
    assert records[0]["task_id"] == "abstract/pastel"
    # Seeds change SEEDED_SKETCH's picture: the two PNGs differ.
    first, second = (run.out_dir / r["image"] for r in records[2:4])
    assert first.read_bytes() != second.read_bytes()
    assert run.status_counts() == {"ok": 4, "gate_failed": 1}
    assert run.gallery_path == run.out_dir / "index.html"
    assert "seeded" in run.gallery_path.read_text()


def test_cli_rollout_over_a_folder(tmp_path: Path) -> None:
    require_chromium()
    sketches = tmp_path / "sketches"
    sketches.mkdir()
    (sketches / "block.js").write_text("// a red block on cream\n" + GOOD_SKETCH)
    (sketches / "broken.js").write_text("function setup() { createCanvas(10, 10); }\n")
    out = tmp_path / "out"
    stdout = io.StringIO()
    with redirect_stdout(stdout):
        status = main(
            [
                "rollout",
                "--sketches",
                str(sketches),
                "--out",
                str(out),
                "--pool-size",
                "1",
                "--quiet",
                "--deadline",
                "15",
            ]
        )
    assert status == 0
    assert stdout.getvalue().strip() == f"gallery: {(out / 'index.html').resolve()}"
    records = load_records(out)
    assert {r["id"]: r["status"] for r in records} == {"block": "ok", "broken": "gate_failed"}
    assert records[0]["prompt"] == "a red block on cream"
    assert (out / records[0]["image"]).is_file()


def test_cli_rollout_replays_multi_turn_replies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    require_chromium()
    call = {"type": "function", "function": {"name": "render", "arguments": {"sketch": ""}}}

    def render_call(sketch: str) -> dict:
        return {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {**call, "function": {**call["function"], "arguments": {"sketch": sketch}}}
            ],
        }

    tool_episode = [
        render_call("no code yet"),
        {"role": "tool", "name": "render", "content": "The sketch was not run."},
        render_call(BARE_SKETCH),
        {"role": "tool", "name": "render", "content": "Render: ok"},
        # TRL may serialise the arguments as a JSON string.
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    **call,
                    "function": {
                        "name": "render",
                        "arguments": json.dumps({"sketch": GOOD_SKETCH}),
                    },
                }
            ],
        },
        {"role": "tool", "name": "render", "content": "Render: ok"},
        {"role": "assistant", "content": "Done."},
    ]
    openenv_episode = [
        {"role": "assistant", "content": f"```js\n{BARE_SKETCH}\n```"},
        {"role": "user", "content": "Render: ok. Revise."},
        {"role": "assistant", "content": f"```js\n{GOOD_SKETCH}\n```"},
    ]
    replies = tmp_path / "replies.jsonl"
    rows = [
        {"id": "tools", "completion": tool_episode, "prompt": "a red block", "seed": 3},
        {"id": "turns", "completion": openenv_episode, "prompt": "a red block", "seed": 3},
        {"id": "single", "reply": GOOD_SKETCH, "prompt": "a red block", "seed": 3},
    ]
    replies.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    out = tmp_path / "out"
    with redirect_stdout(io.StringIO()):
        status = main(
            [
                *("rollout", "--replies", str(replies), "--out", str(out)),
                *("--pool-size", "1", "--quiet", "--deadline", "15"),
            ]
        )
    assert status == 0
    assert "2 multi-turn episode(s); mean improvement" in capsys.readouterr().err
    records = load_records(out)
    turns = [(r.get("episode"), r.get("turn"), r["status"]) for r in records]
    assert turns == [
        ("tools", 0, "gate_failed"),
        ("tools", 1, "ok"),
        ("tools", 2, "ok"),
        ("turns", 0, "ok"),
        ("turns", 1, "ok"),
        (None, None, "ok"),
    ]
    by_id = {r["id"]: r for r in records}
    # The same sketch with the same seed: the same reward, whichever way it was submitted.
    assert by_id["tools-t2"]["reward"] == by_id["turns-t1"]["reward"] == by_id["single"]["reward"]
    revision = by_id["tools-t2"]["revision"]
    assert revision["renders"] == 3 and revision["first_reward"] == -1.0
    assert revision["improvement"] == pytest.approx(by_id["tools-t2"]["reward"] + 1.0)
    assert by_id["turns-t1"]["revision"]["improvement"] == pytest.approx(
        by_id["turns-t1"]["reward"] - by_id["turns-t0"]["reward"]
    )
    assert "revision" not in by_id["tools-t0"] and "revision" not in by_id["single"]
    page = (out / "index.html").read_text()
    strip = page[page.index('data-episode="tools"') : page.index('data-episode="turns"')]
    images = [by_id[f"tools-t{t}"]["image"] for t in (1, 2)]
    assert all((out / image).is_file() for image in images)
    assert strip.index(images[0]) < strip.index(images[1]) and "no picture" in strip
    assert "3 render(s)" in strip


def test_cli_rollout_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rollout", "--sketches", str(tmp_path / "nope"), "--quiet"]) == 2
    assert "no such folder" in capsys.readouterr().err
    assert main(["rollout", "--scorer", "beauty", "--quiet"]) == 2
    assert "unknown scorer spec" in capsys.readouterr().err
