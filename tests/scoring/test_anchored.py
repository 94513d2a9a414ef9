"""The anchored scorer: features, the pool's feature file, prompt anchoring and the score line.

The tests that need every reference's fresh render (the stored features match the pictures;
half of each task's references at the typical line) share the pool's one render in
``tests/pool/test_reference_pool.py``.
"""

from __future__ import annotations

import inspect
import json
import pickle
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from sketch_env import Evaluator, SketchEnvironment
from sketch_env.catalog.references import find_pool_dir, load_reference_pool
from sketch_env.catalog.tasks import get_task, load_tasks
from sketch_env.evaluation.cache import SketchEvaluation
from sketch_env.evaluation.config import EvaluationConfig
from sketch_env.scoring.anchored import (
    FEATURES_FILE,
    GROUPS,
    AnchoredScorer,
    PictureFeatures,
    load_reference_features,
    picture_features,
    resolve_anchor,
)
from sketch_env.scoring.base import score_sync
from sketch_env.scoring.spec import DEFAULT_SCORER, make_scorer
from sketch_env.trl.tool_env import SketchToolEnv

DATA = Path(__file__).resolve().parents[1] / "data" / "rendered"
TASKS = ("flowers/watercolour", "landscape/charcoal", "still_life/ink_hatching", "seascape/pastel")


@pytest.fixture(scope="module")
def scorer() -> AnchoredScorer:
    return AnchoredScorer()


def _junk(seed: int) -> dict[str, Image.Image]:
    """Pictures that paint nothing: paper, a flat fill, noise, random boxes and lines."""
    rng = np.random.default_rng(seed)
    paper = Image.new("RGB", (600, 600), (246, 240, 226))
    fill = Image.new("RGB", (600, 600), (40, 90, 160))
    noise = Image.fromarray(rng.integers(0, 256, (600, 600, 3), dtype=np.uint8))
    boxes = paper.copy()
    draw = ImageDraw.Draw(boxes)
    for _ in range(40):
        x, y = rng.integers(0, 560, 2)
        w, h = rng.integers(10, 200, 2)
        draw.rectangle((x, y, x + w, y + h), fill=tuple(int(c) for c in rng.integers(0, 256, 3)))
    lines = paper.copy()
    draw = ImageDraw.Draw(lines)
    for _ in range(120):
        x0, y0, x1, y1 = (int(v) for v in rng.integers(0, 600, 4))
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        draw.line((x0, y0, x1, y1), fill=colour, width=int(rng.integers(1, 6)))
    return {"paper": paper, "fill": fill, "noise": noise, "boxes": boxes, "lines": lines}


def test_every_front_takes_the_one_default_scorer() -> None:
    assert DEFAULT_SCORER in {"anchored", "vision"}
    for front in (Evaluator, SketchEnvironment, SketchEvaluation):
        default = inspect.signature(front).parameters["scorer"].default
        assert default == DEFAULT_SCORER, front
    assert SketchToolEnv.scorer == EvaluationConfig().scorer == DEFAULT_SCORER


def test_it_is_made_by_its_spec_and_pickles(scorer: AnchoredScorer) -> None:
    assert isinstance(make_scorer("anchored"), AnchoredScorer)
    copy = pickle.loads(pickle.dumps(scorer))
    picture = Image.open(DATA / "flower.png").convert("RGB")
    prompt = get_task("flowers/watercolour").prompt
    assert copy.score_one(picture, prompt) == scorer.score_one(picture, prompt)
    with pytest.raises(ValueError, match="kappa"):
        AnchoredScorer(kappa=0)


def test_features_describe_the_picture_not_its_size() -> None:
    picture = Image.open(DATA / "garden.png").convert("RGB")
    big, small = picture_features(picture), picture_features(picture.resize((300, 300)))
    assert big.paint_share > 0.1 and abs(sum(big.palette) - 1) < 1e-9
    assert abs(sum(big.orientations) - 1) < 1e-9 and abs(sum(big.marks) - 1) < 1e-9
    again = PictureFeatures.from_dict(json.loads(json.dumps(big.to_dict())))
    assert again.palette == pytest.approx(big.palette, abs=1e-5)
    with pytest.raises(ValueError, match="palette"):
        PictureFeatures.from_dict({**big.to_dict(), "palette": [0.0]})
    # A half-size copy keeps the colour statistics close; it is no different picture.
    assert abs(big.paint_share - small.paint_share) < 0.05
    assert np.allclose(big.paper, small.paper, atol=2.0)


def test_the_feature_file_covers_the_pool_and_is_refused_when_stale(tmp_path: Path) -> None:
    refs = load_reference_pool()
    stored = load_reference_features()
    assert [r.id for r in stored] == [r.id for r in refs]
    body = json.loads((find_pool_dir() / FEATURES_FILE).read_text())
    metadata = {r.id: r.metadata.get("png_sha256") for r in refs}
    # Each entry was measured on the very picture the pool's metadata records.
    assert all(body["references"][i]["png_sha256"] == metadata[i] for i in metadata)

    copy = tmp_path / "pool"
    shutil.copytree(find_pool_dir(), copy)
    (copy / FEATURES_FILE).unlink()
    with pytest.raises(FileNotFoundError, match="sketch-env pool refresh"):
        AnchoredScorer(copy)
    body["feature_version"] = 0
    (copy / FEATURES_FILE).write_text(json.dumps(body))
    with pytest.raises(ValueError, match="feature version"):
        AnchoredScorer(copy)
    body["feature_version"] = 1
    del body["references"][refs[0].id]
    (copy / FEATURES_FILE).write_text(json.dumps(body))
    with pytest.raises(FileNotFoundError, match=refs[0].id):
        AnchoredScorer(copy)


def test_prompts_anchor_to_their_task_or_their_words() -> None:
    tasks = load_tasks()
    refs = load_reference_features()
    for task in tasks:
        assert resolve_anchor(task.prompt, refs, tasks)[0] == task.id
        assert resolve_anchor("  " + task.prompt.upper() + " ", refs, tasks)[0] == task.id
    for ref in refs:
        assert resolve_anchor(ref.prompt, refs, tasks)[0] == ref.task_id
    assert resolve_anchor("a charcoal study of storm waves", refs, tasks)[0] == "seascape/charcoal"
    assert resolve_anchor("something in soft pastel", refs, tasks)[0] == "medium/pastel"
    assert resolve_anchor("an oak tree", refs, tasks)[0] == "subject/trees"
    # The word named first decides, not the order of the word lists.
    assert resolve_anchor("a lone oak tree in an open field, ink", refs, tasks)[0] == (
        "trees/ink_hatching"
    )
    assert resolve_anchor("a sunset over a calm sea with a boat", refs, tasks)[0] == (
        "subject/seascape"
    )
    # ... except that an abstract picture's motifs are not its subject.
    assert resolve_anchor("rose and gold circles, abstract watercolour", refs, tasks)[0] == (
        "abstract/watercolour"
    )
    assert resolve_anchor("my cat", refs, tasks)[0] == "pool"


def test_any_prompt_gets_a_score(scorer: AnchoredScorer) -> None:
    picture = Image.open(DATA / "landscape.png").convert("RGB")
    prompts = ["my cat", "something in soft pastel", "an oak tree", get_task(TASKS[0]).prompt]
    scores = score_sync(scorer, [picture] * len(prompts), prompts)
    for score in scores:
        assert 0.0 <= score.value <= 10.0
        terms = dict(score.terms)
        assert {f"{g}_distance" for g in GROUPS} <= set(terms)
        assert terms["distance"] == pytest.approx(sum(terms[f"{g}_distance"] for g in GROUPS))


@pytest.mark.parametrize("task_id", TASKS)
def test_pictures_that_paint_nothing_score_far_below_the_line(
    scorer: AnchoredScorer, task_id: str
) -> None:
    prompt = get_task(task_id).prompt
    for seed in (0, 1):
        for name, picture in _junk(seed).items():
            score = scorer.score_one(picture, prompt)
            assert score.value < 2.5, (task_id, name, seed, score.value)


def test_a_reference_is_measured_against_the_others(scorer: AnchoredScorer) -> None:
    # Its nearest reference is itself; leaving the nearest out measures it to the next one,
    # which is what it scores when it is left out of the pool altogether (up to the units).
    ref = load_reference_pool()[0]
    stored = {r.id: r for r in scorer.references}[ref.id]
    mine = scorer._measure(stored.features, scorer._anchor(ref.prompt))
    assert all(d > 0 for d in mine.values()), mine
    without = AnchoredScorer(exclude=[ref.id])
    theirs = without._measure(stored.features, without._anchor(ref.prompt))
    for group in GROUPS:
        if GROUPS[group] == "task":
            # Without it, the task keeps three; the second nearest of those is further.
            assert theirs[group] * without._scale[group] >= mine[group] * scorer._scale[group]
