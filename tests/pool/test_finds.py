"""The finds shipped with the pool (`reference_pool/finds/`): what earlier searches found, which
every later `reward-check --search` replays on its tasks (`sketch_env.catalog.finds`).

No rendering here: `tests/rewardcheck/test_reward_search.py` replays finds through a real
search, and `tests/scoring/test_vision.py` scores one of them as the default sees it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sketch_env.catalog.finds import load_finds
from sketch_env.catalog.references import POOL_FILE, ReferencePoolError, find_pool_dir
from sketch_env.catalog.tasks import get_task
from sketch_env.gate import check_sketch

FINDS_DIR = find_pool_dir() / "finds"


def test_every_find_is_listed_on_a_known_task_and_passes_the_gate() -> None:
    finds = load_finds()
    assert finds, f"no finds under {FINDS_DIR}"
    listed = {e["file"] for e in json.loads((FINDS_DIR / "finds.json").read_text("utf-8"))}
    assert listed == {p.name for p in FINDS_DIR.glob("*.js")}
    for find in finds:
        task = get_task(find.task_id)
        # The id names the task, so a report's row says where it was found.
        assert find.id.startswith(f"{task.subject}-{task.medium}-"), find.id
        assert find.found_by.strip() and find.note.strip()
        verdict = check_sketch(find.source)
        assert verdict.passed, (find.id, verdict.reasons)


def _pool_with_finds(tmp_path: Path, entries: object) -> Path:
    tmp_path.mkdir(parents=True)
    shutil.copy(find_pool_dir() / POOL_FILE, tmp_path / POOL_FILE)
    (tmp_path / "finds").mkdir()
    (tmp_path / "finds" / "a.js").write_text("function setup() {}\n", encoding="utf-8")
    (tmp_path / "finds" / "finds.json").write_text(json.dumps(entries), encoding="utf-8")
    return tmp_path


def test_a_malformed_index_is_a_clear_error(tmp_path: Path) -> None:
    entry = {"id": "x", "task_id": "trees/pastel", "file": "a.js", "found_by": "f", "note": "n"}
    assert load_finds(_pool_with_finds(tmp_path / "good", [entry]))[0].id == "x"
    broken = (
        ([{**entry, "file": "missing.js"}], "missing.js"),
        ([{key: v for key, v in entry.items() if key != "note"}], "note"),
        ([entry, entry], "repeats an id"),
    )
    for k, (bad, says) in enumerate(broken):
        with pytest.raises(ReferencePoolError, match=says):
            load_finds(_pool_with_finds(tmp_path / f"bad{k}", bad))


def test_a_pool_without_finds_has_none(tmp_path: Path) -> None:
    shutil.copy(find_pool_dir() / POOL_FILE, tmp_path / POOL_FILE)
    assert load_finds(tmp_path) == ()
