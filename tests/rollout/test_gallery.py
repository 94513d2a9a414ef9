"""The rollout gallery, opened in a real headless Chromium: loads, shows, sorts, filters."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

from sketch_env.evaluation import Evaluator
from sketch_env.render.backends import find_browser
from sketch_env.rollout.runner import RolloutItem, run_rollouts
from tests.conftest import GOOD_SKETCH, SEEDED_SKETCH, require_chromium

#: A prompt that would inject markup and script if the gallery failed to escape it.
HOSTILE_PROMPT = '</script><img src="x" id="injected" onerror="window.__pwned = 1">"\'&'

#: Paints a dark ground, then throws: a picture with a sketch-error reward.
THROWING_SKETCH = """
function setup() {
  createCanvas(200, 200, WEBGL);
  background(20, 40, 90);
  brush.set('HB', '#ffffff', 1);
  brush.line(-80, -80, 80, 80);
  notDefinedAnywhere();
}
"""


@pytest.fixture(scope="module")
def run_dir(renderer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real rollout run: three rendered sketches (one hostile prompt) and one refused."""
    items = [
        RolloutItem("good", GOOD_SKETCH, "a red block", task_id="abstract/watercolour"),
        RolloutItem("seeded", SEEDED_SKETCH, HOSTILE_PROMPT),
        RolloutItem("throws", THROWING_SKETCH, "a night sky"),
        RolloutItem("refused", "no code at all", "anything"),
    ]
    out = tmp_path_factory.mktemp("gallery") / "run"
    run_rollouts(items, out, Evaluator(renderer, "heuristic"), seeds=1, title="Gallery test")
    return out


@pytest.fixture(scope="module")
def page(run_dir: Path) -> Iterator[tuple[Page, list[str]]]:
    """The gallery in headless Chromium, with every console error and page error collected."""
    require_chromium()
    problems: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=find_browser(), headless=True)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: problems.append(str(e)))
            page.on("dialog", lambda d: (problems.append(f"dialog: {d.message}"), d.dismiss()))
            page.goto((run_dir / "index.html").as_uri(), wait_until="load")
            yield page, problems
        finally:
            browser.close()


def _column(page: Page, key: str) -> list[Any]:
    return page.eval_on_selector_all(
        "#rows tr:not([hidden])", f"rows => rows.map(r => r.dataset['{key}'])"
    )


def _rewards(page: Page) -> list[float | None]:
    return [float(v) if v else None for v in _column(page, "reward")]


def test_gallery_loads_every_image(page: tuple[Page, list[str]], run_dir: Path) -> None:
    view, problems = page
    assert view.title() == "Gallery test"
    assert view.locator("#rows tr").count() == 4
    images = view.eval_on_selector_all(
        "#rows img", "imgs => imgs.map(i => [i.getAttribute('src'), i.complete, i.naturalWidth])"
    )
    pictures = sorted(p.name for p in (run_dir / "images").glob("*.png"))
    assert len(images) == len(pictures) == 3
    for src, complete, width in images:
        assert complete and width > 0, src
        assert (run_dir / src).is_file()
    assert view.locator(".nopic").count() == 1
    assert problems == []


def test_gallery_escapes_model_text(page: tuple[Page, list[str]]) -> None:
    view, problems = page
    assert view.locator("#injected").count() == 0
    assert view.evaluate("window.__pwned") is None
    assert view.get_by_text(HOSTILE_PROMPT, exact=True).count() == 1
    records = view.evaluate("JSON.parse(document.getElementById('records').textContent)")
    assert [r["prompt"] for r in records][1] == HOSTILE_PROMPT
    assert problems == []


def test_gallery_sorts_by_reward_and_back(page: tuple[Page, list[str]]) -> None:
    view, problems = page
    header = view.locator('th[data-key="reward"]')
    header.click()
    assert header.get_attribute("aria-sort") == "descending"
    rewards = _rewards(view)
    assert None not in rewards and len(rewards) == 4
    assert rewards == sorted(rewards, reverse=True)
    assert _column(view, "id")[-1] == "refused"  # -1, the lowest reward
    header.click()
    assert header.get_attribute("aria-sort") == "ascending"
    assert _rewards(view) == sorted(rewards)

    view.locator('th[data-key="id"]').click()
    assert _column(view, "id") == ["good", "refused", "seeded", "throws"]
    assert header.get_attribute("aria-sort") is None
    view.locator('th[data-key="n"]').click()  # Numbers sort high to low first.
    assert _column(view, "n") == ["3.0", "2.0", "1.0", "0.0"]
    assert problems == []


def test_gallery_filters_by_status(page: tuple[Page, list[str]]) -> None:
    view, problems = page
    options = view.eval_on_selector_all("#status-filter option", "os => os.map(o => o.value)")
    assert options == ["", "gate_failed", "js_error", "ok"]
    view.select_option("#status-filter", "gate_failed")
    assert _column(view, "id") == ["refused"]
    assert "1 of 4 shown" in view.locator("#shown").inner_text()
    view.select_option("#status-filter", "ok")
    assert sorted(_column(view, "id")) == ["good", "seeded"]
    view.select_option("#status-filter", "")
    view.fill("#text-filter", "night sky")
    assert _column(view, "id") == ["throws"]
    view.fill("#text-filter", "")
    assert len(_column(view, "id")) == 4
    assert problems == []
