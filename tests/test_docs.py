"""The docs name every status the code can report, where they list statuses, and the README's
test command is the one CI runs."""

from __future__ import annotations

import re
from pathlib import Path

from sketch_env.evaluation.rollout import RolloutStatus
from sketch_env.render.result import RenderStatus
from sketch_env.trl.metrics import _FAILURE_STATUSES

ROOT = Path(__file__).resolve().parent.parent


def _paragraph(text: str, start: str) -> str:
    """The text from ``start`` to the next blank line."""
    begin = text.index(start)
    end = text.find("\n\n", begin)
    return text[begin : end if end != -1 else len(text)]


def _codes(text: str) -> set[str]:
    return set(re.findall(r"`([a-z_]+)`", text))


def test_usage_lists_every_rollout_status_in_the_gallery_and_the_metrics() -> None:
    usage = (ROOT / "docs" / "usage.md").read_text("utf-8")
    gallery = usage[usage.index("by status from the menu") :]
    gallery = gallery[: gallery.index("## Training with TRL")]
    missing = {s.value for s in RolloutStatus} - _codes(gallery)
    assert not missing, f"docs/usage.md's gallery status list lacks {sorted(missing)}"
    failures = _paragraph(usage, "`sketch/failures/<status>` counts")
    missing = {s.value for s in _FAILURE_STATUSES} - _codes(failures)
    assert not missing, f"docs/usage.md's sketch/failures/<status> list lacks {sorted(missing)}"


def test_readme_status_table_has_every_render_status() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    rows = set(re.findall(r"^\| `([a-z_]+)` \|", readme, flags=re.MULTILINE))
    assert rows == {s.value for s in RenderStatus}


def test_the_readme_runs_the_tests_as_ci_does() -> None:
    # Both tiers, the fast one first, with the same options: a contributor who follows the
    # README runs what CI runs.
    def pytest_lines(text: str) -> list[str]:
        return [line.strip() for line in text.splitlines() if line.startswith("python3 -m pytest")]

    ci = pytest_lines((ROOT / ".ci" / "run").read_text("utf-8"))
    readme = pytest_lines((ROOT / "README.md").read_text("utf-8"))
    assert ci and readme[: len(ci)] == ci
    (line,) = ci
    assert line.index('-m "not slow"') < line.index("-m slow")


def test_every_picture_in_the_docs_is_in_the_repository_and_small() -> None:
    # The docs' pictures (drawn by scripts/docs_pictures.py from reward-check reports) travel
    # with the clone and the sdist: a missing one is a broken page, a big one a heavy clone.
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    shown = [
        (page, target)
        for page in pages
        for target in re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", page.read_text("utf-8"))
    ]
    assert shown, "the docs show their measurements with pictures"
    for page, target in shown:
        assert not target.startswith(("http:", "https:")), f"{page.name}: {target} is remote"
        picture = (page.parent / target).resolve()
        assert picture.is_file(), f"{page.name}: {target} is missing"
        assert picture.stat().st_size < 400_000, f"{page.name}: {target} is over 400 KB"
