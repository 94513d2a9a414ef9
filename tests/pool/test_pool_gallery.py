"""`sketch-env pool gallery` on a small copy of the pool: real renders, the page read back."""

from __future__ import annotations

import json
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from PIL import Image

from sketch_env.catalog.references import TIERS, Reference, find_pool_dir, load_reference_pool
from sketch_env.pool.gallery import TABLE_PAGE, render_pool_page
from tests.conftest import require_chromium

#: Throws after painting: the page must show it failed, and the command must exit 1.
BROKEN_SKETCH = """// A reference that no longer runs.
function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  brush.set('HB', '#203060', 1);
  brush.line(20, 20, 580, 580);
  notDefinedAnywhere();
}
"""


def _cheapest_task() -> tuple[str, list[Reference]]:
    """The task whose cheapest love, ok and weak cost least to render, with those three."""
    refs = load_reference_pool()
    best: tuple[float, str, list[Reference]] | None = None
    for task_id in sorted({r.task_id for r in refs}):
        picks = []
        for tier in TIERS:
            tiered = [r for r in refs if r.task_id == task_id and r.tier == tier]
            picks.append(min(tiered, key=lambda r: r.metadata["render_ms"]))
        cost = sum(r.metadata["render_ms"] for r in picks)
        if best is None or cost < best[0]:
            best = (cost, task_id, picks)
    assert best is not None
    return best[1], best[2]


class _Cells(HTMLParser):
    """Collects, per (task row, tier column), the reference ids of the cards in that cell."""

    def __init__(self) -> None:
        super().__init__()
        self.task: str | None = None
        self.tier: str | None = None
        self.cells: dict[tuple[str, str], list[str]] = {}
        self.missing: list[tuple[str, str]] = []
        self._in_missing = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        if tag == "tr" and attr.get("data-task"):
            self.task = attr["data-task"]
        elif tag == "td" and attr.get("data-tier") and self.task:
            self.tier = attr["data-tier"]
            self.cells.setdefault((self.task, self.tier), [])
        elif tag == "figure" and self.task and self.tier:
            assert attr["data-tier"] == self.tier, "a card sits in another tier's column"
            self.cells[(self.task, self.tier)].append(str(attr["id"]).removeprefix("ref-"))
        elif tag == "div" and attr.get("class") == "missing":
            assert self.task and self.tier
            self.missing.append((self.task, self.tier))


def test_gallery_shows_every_reference_by_task_and_tier(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sketch_env.cli import main

    require_chromium()
    task_id, picks = _cheapest_task()
    # A second task with a single reference (its other tiers are holes) that fails to render.
    copy = tmp_path / "pool"
    shutil.copytree(find_pool_dir(), copy)
    (copy / "abstract-pastel-broken.js").write_text(BROKEN_SKETCH)
    index = json.loads((copy / "pool.json").read_text())
    kept = [e for e in index["references"] if e["id"] in {r.id for r in picks}]
    broken = {
        "id": "abstract-pastel-broken",
        "file": "abstract-pastel-broken.js",
        "task_id": "abstract/pastel",
        "prompt": "a single pencil line <b>across</b> the page, pastel",
        "tier": "ok",
        "metadata": {},
    }
    index["references"] = [*kept, broken]
    (copy / "pool.json").write_text(json.dumps(index))

    out = tmp_path / "gallery"
    code = main(["pool", "gallery", "--pool-dir", str(copy), "--out", str(out), "--quiet"])
    captured = capsys.readouterr()
    # The broken one makes it exit 1, named; the page is still written and printed.
    assert code == 1
    assert "abstract-pastel-broken" in captured.err
    assert captured.out.strip() == f"gallery: {(out / 'index.html').resolve()}"

    page = (out / "index.html").read_text(encoding="utf-8")
    cells = _Cells()
    cells.feed(page)
    assert cells.cells == {
        **{(task_id, r.tier): [r.id] for r in picks},
        ("abstract/pastel", "love"): [],
        ("abstract/pastel", "ok"): ["abstract-pastel-broken"],
        ("abstract/pastel", "weak"): [],
    }
    assert cells.missing == [("abstract/pastel", "love"), ("abstract/pastel", "weak")]
    # The task set's order: rows follow load_tasks(), so the shipped pool reads subject by
    # subject; the header names the 22 shipped tasks this copy has nothing for.
    assert "shipped tasks with no reference" in page
    # Prompts come from the index file and are shown as text, never as markup.
    assert "a single pencil line &lt;b&gt;across&lt;/b&gt; the page" in page
    assert "<b>across</b>" not in page

    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [r["id"] for r in records] == [*(e["id"] for e in kept), broken["id"]]
    by_id = {r.id: r for r in picks}
    for record in records[:-1]:
        ref = by_id[record["id"]]
        assert record["render"]["status"] == "ok" and record["seed"] == 0
        # Each card shows its picture and what `pool refresh` measured.
        assert f'src="{record["image"]}"' in page
        assert f"{ref.metadata['render_ms']:.0f} ms on {ref.metadata['backend']}" in page
        with Image.open(out / record["image"]) as picture:
            assert picture.size == (600, 600)
    assert records[-1]["render"]["status"] == "js_error"
    assert "js_error" in page and "never" in page  # the broken one was never measured
    # The rollout table of the same renders sits beside the grid, linked from it.
    assert f'href="{TABLE_PAGE}"' in page
    table = (out / TABLE_PAGE).read_text(encoding="utf-8")
    assert all(r["id"] in table for r in records) and 'id="rows"' in table


def test_pool_page_marks_a_task_that_lacks_a_tier() -> None:
    records = [
        {
            "id": "trees-pastel-a",
            "task_id": "trees/pastel",
            "prompt": "p",
            "status": "ok",
            "metadata": {"tier": "love", "measured": {"render_ms": 812.0, "backend": "gpu"}},
        }
    ]
    page = render_pool_page(records, title="t")
    cells = _Cells()
    cells.feed(page)
    assert cells.cells[("trees/pastel", "love")] == ["trees-pastel-a"]
    assert cells.missing == [("trees/pastel", "ok"), ("trees/pastel", "weak")]
    assert "812 ms on gpu" in page and "no picture" in page
