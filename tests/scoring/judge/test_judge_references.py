"""Reference pictures for the pairwise judge, rendered from a pool by the real renderer."""

from __future__ import annotations

import json
from pathlib import Path

from sketch_env import SketchRenderer
from sketch_env.scoring.judge import (
    load_reference_images,
    render_reference_images,
    save_reference_images,
)
from tests.conftest import GOOD_SKETCH, SEEDED_SKETCH


def _pool(folder: Path) -> Path:
    """A two-task pool of small real sketches (the shipped pool's sketches take seconds each)."""
    folder.mkdir()
    (folder / "good.js").write_text(GOOD_SKETCH)
    (folder / "seeded.js").write_text(SEEDED_SKETCH)
    entries = [
        {
            "id": "good",
            "file": "good.js",
            "task_id": "flowers/watercolour",
            "prompt": "a red rectangle and a blue line",
            "tier": "love",
        },
        {
            "id": "seeded",
            "file": "seeded.js",
            "task_id": "trees/charcoal",
            "prompt": "lines and a green circle",
            "tier": "weak",
        },
    ]
    (folder / "pool.json").write_text(json.dumps({"version": 1, "references": entries}))
    return folder


def test_pool_sketches_render_into_judge_references(
    renderer: SketchRenderer, tmp_path: Path
) -> None:
    pool = _pool(tmp_path / "pool")
    refs = render_reference_images(renderer, path=pool)
    assert [(r.id, r.task_id, r.tier) for r in refs] == [
        ("good", "flowers/watercolour", "love"),
        ("seeded", "trees/charcoal", "weak"),
    ]
    first = refs[0].image()
    assert first.size == (600, 600)
    assert len(first.getcolors(maxcolors=1 << 20) or ()) > 10  # real brush paint, not blank
    assert refs[0].source.startswith(f"pool:{renderer.backend}:seed")
    # The same seed renders the same picture (the references are stable across a run).
    again = render_reference_images(renderer, path=pool, task_ids=["trees/charcoal"])
    assert [r.id for r in again] == ["seeded"]
    if renderer.backend == "llvmpipe":  # bit-identical only within the deterministic backend
        assert again[0].png == refs[1].png
    save_reference_images(refs, tmp_path / "cache")
    assert [r.png for r in load_reference_images(tmp_path / "cache")] == [r.png for r in refs]
