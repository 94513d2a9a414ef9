"""The reward probes shipped with the pool (`reference_pool/probes/<subject>-<medium>/`): each
folder's `probe.json` follows the schema issue 28's measurements read, and every sketch it names
passes the default gate. No rendering here: the probes' renders are checked with the pool's.

The probes are hand-ordered ladders, free compositions and outcome sketches, written by eye and
never scored while they were made; these tests hold their shape, not their order.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sketch_env.catalog.references import find_pool_dir
from sketch_env.catalog.tasks import get_task
from sketch_env.gate import check_sketch

PROBES_DIR = find_pool_dir() / "probes"
PROBE_DIRS = sorted(p for p in PROBES_DIR.iterdir() if p.is_dir()) if PROBES_DIR.is_dir() else []

KINDS = {"crude", "line_drawing", "plain", "competent", "reference"}
OUTCOMES = {"line_drawing", "token_stroke", "empty"}
#: The issue asks for five rungs or more; six leaves a margin.
MIN_RUNGS = 6
MIN_FREE = 2


def _load(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "probe.json").read_text(encoding="utf-8"))
    return data


def _files(probe: dict[str, Any]) -> list[str]:
    rungs = [r["file"] for r in probe["ladder"]["rungs"]]
    free = [f["file"] for f in probe["free"]]
    outcome = [o["file"] for o in probe["outcome"].values()]
    return rungs + free + outcome


def test_there_are_probes() -> None:
    assert PROBE_DIRS, f"no probe folders under {PROBES_DIR}"


@pytest.mark.parametrize("folder", PROBE_DIRS, ids=lambda p: p.name)
def test_probe_schema(folder: Path) -> None:
    probe = _load(folder)
    task = get_task(probe["task_id"])
    assert folder.name == f"{task.subject}-{task.medium}"

    ladder = probe["ladder"]
    prompt = ladder["prompt"]
    assert isinstance(prompt, str) and prompt.strip()
    rungs = ladder["rungs"]
    assert len(rungs) >= MIN_RUNGS
    for i, rung in enumerate(rungs, start=1):
        assert rung["id"] == f"{folder.name}-ladder-{i}"
        assert rung["kind"] in KINDS, rung["id"]
        assert isinstance(rung["props"], bool), rung["id"]
        assert rung["note"].strip(), rung["id"]
    # The ladder starts where a beginner starts, and shows the subject without the props.
    assert rungs[0]["kind"] == "crude"
    assert any(r["kind"] in {"competent", "reference"} and not r["props"] for r in rungs)

    assert len(probe["free"]) >= MIN_FREE
    for i, free in enumerate(probe["free"], start=1):
        assert free["id"] == f"{folder.name}-free-{i}"
        assert free["prompt"].strip() and free["note"].strip()

    assert set(probe["outcome"]) == OUTCOMES
    for outcome in probe["outcome"].values():
        assert outcome["prompt"] == prompt
        assert outcome["note"].strip()

    files = _files(probe)
    assert len(files) == len(set(files)), "a sketch is named twice"
    # Every sketch in the folder is one the probe names, and every one named is there.
    assert sorted(files) == sorted(p.name for p in folder.glob("*.js"))


@pytest.mark.parametrize("folder", PROBE_DIRS, ids=lambda p: p.name)
def test_probe_sketches_pass_the_gate(folder: Path) -> None:
    for name in _files(_load(folder)):
        source = (folder / name).read_text(encoding="utf-8")
        assert source.startswith("//"), f"{name} opens without a comment describing it"
        verdict = check_sketch(source)
        assert verdict.passed, f"{name}: {verdict.reasons}"
