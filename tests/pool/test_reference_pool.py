"""The reference pool: loader, gate, real renders of every sketch, heuristic ranking, refresh,
and the pool against the reward (the anchored scorer's features, the guards, any scorer)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from PIL import Image

from sketch_env import Evaluator, Render, RenderStatus, SketchRenderer
from sketch_env.catalog.probes import load_probes
from sketch_env.catalog.references import (
    POOL_ENV,
    TIERS,
    Reference,
    ReferencePoolError,
    find_pool_dir,
    get_reference,
    load_reference_pool,
    pairwise_references,
)
from sketch_env.catalog.tasks import MEDIA, SUBJECTS, get_task, load_tasks
from sketch_env.gate.runtime import runtime_check
from sketch_env.picture.measures import measure_picture
from sketch_env.picture.reading import TextReader
from sketch_env.pool.refresh import refresh_reference_pool
from sketch_env.reward import RewardConfig
from sketch_env.reward.guards import guard_factors
from sketch_env.rewardcheck.degrade import PICTURE_DEGRADATIONS
from sketch_env.scoring import HeuristicScorer, check_sketch
from sketch_env.scoring.anchored import (
    AnchoredScorer,
    _group_distances,
    load_reference_features,
    picture_features,
)
from sketch_env.scoring.base import Score
from tests.conftest import require_chromium

REFS = load_reference_pool()
REF_IDS = [ref.id for ref in REFS]
#: The probes that are paintings (issue 28's free compositions and the competent and
#: reference-quality rungs of the ladders): no guard may touch them either. The crude rungs may
#: be near blank, one flat mass or markless, which is what the guards are for.
PAINTED_PROBES = {
    sketch.id: sketch.source
    for probe in load_probes()
    for sketch in (
        *probe.free,
        *(r for r in probe.ladder if r.kind in ("competent", "reference")),
    )
}

# The one render of the whole pool (`pool_renders`) runs in the setup of whichever test asks
# for it first, and pytest-timeout counts setup: 96 references, about 650 s of single-browser
# render time as measured on llvmpipe, on two browsers, take longer than the suite's 300 s
# default on a loaded 2-core machine. A hang still fails, later.
pytestmark = pytest.mark.timeout(1500)
#: Below this paint fraction the reward calls a picture blank. A sparse weak ink drawing
#: paints about 1.5 % of its paper; every reference must stay above the line.
BLANK_BELOW = RewardConfig().blank_below

#: A valid sketch that paints nothing on its paper.
BLANK_SKETCH = """
function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f5efe1');
  brush.noStroke();
}
"""

#: The reward hack seen in public runs: one fat black mass in the middle of the page.
BLACK_BLOB_SKETCH = """
function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background('#f5efe1');
  brush.noStroke();
  brush.wash('#000000', 255);
  brush.circle(300, 300, 210);
  brush.noWash();
}
"""


@pytest.fixture(scope="module")
def pool_renderer() -> Iterator[SketchRenderer]:
    """Two browsers with a deadline well above the heaviest reference."""
    require_chromium()
    # Twice the slowest measured render, and never under 60 s: the glazed watercolours take
    # 6-8 s on a quiet 2-core machine but were measured at up to 96 s on a loaded one, and a
    # fixed 60 s failed them there although they paint the picture their metadata records.
    slowest_s = max(ref.metadata["render_ms"] for ref in REFS) / 1000
    with SketchRenderer(pool_size=2, deadline_s=max(60.0, 2 * slowest_s)) as renderer:
        yield renderer


@pytest.fixture(scope="module")
def pool_renders(pool_renderer: SketchRenderer) -> dict[str, Render]:
    """Every reference, the painted probes, the blank sketch and the black blob, rendered once
    with seed 0."""
    sources = [ref.source for ref in REFS] + [BLANK_SKETCH, BLACK_BLOB_SKETCH]
    sources += list(PAINTED_PROBES.values())
    results = pool_renderer.render_many_sync(sources, seeds=0)
    return dict(zip([*REF_IDS, "_blank", "_blob", *PAINTED_PROBES], results, strict=True))


#: The fast tier's slice of the pool: the quickest reference to render of each medium.
CHEAPEST_OF_EACH_MEDIUM = [
    min((ref for ref in REFS if ref.medium == medium), key=lambda r: r.metadata["render_ms"])
    for medium in MEDIA
]


@pytest.fixture(scope="module")
def medium_renders(pool_renderer: SketchRenderer) -> dict[str, Render]:
    """`CHEAPEST_OF_EACH_MEDIUM`, rendered with seed 0 as `pool_renders` renders them."""
    sources = [ref.source for ref in CHEAPEST_OF_EACH_MEDIUM]
    results = pool_renderer.render_many_sync(sources, seeds=0)
    return dict(zip([ref.id for ref in CHEAPEST_OF_EACH_MEDIUM], results, strict=True))


# --- Loader ---------------------------------------------------------------------------------


#: The word for each medium that a reference's prompt must contain.
MEDIUM_WORD = {
    "watercolour": "watercolour",
    "charcoal": "charcoal",
    "ink_hatching": "ink",
    "pastel": "pastel",
}


def test_pool_covers_every_task_with_every_tier() -> None:
    expected_tasks = {task.id for task in load_tasks()}
    assert expected_tasks == {f"{s}/{m}" for s in SUBJECTS for m in MEDIA}
    by_task: dict[str, Counter[str]] = {}
    for ref in REFS:
        by_task.setdefault(ref.task_id, Counter())[ref.tier] += 1
    assert set(by_task) == expected_tasks
    for task_id, tiers in by_task.items():
        # At least four references a task, and the pool spans quality within every task: a
        # scorer's tier ranking is then measured task by task, not only across subjects.
        assert sum(tiers.values()) >= 4, (task_id, tiers)
        assert set(tiers) == set(TIERS), (task_id, tiers)


def test_entries_follow_the_naming_and_prompt_rules() -> None:
    assert len(set(REF_IDS)) == len(REF_IDS)
    prompts = [ref.prompt for ref in REFS]
    assert len(set(prompts)) == len(prompts), "two references share a prompt"
    for ref in REFS:
        assert isinstance(ref, Reference)
        assert ref.tier in TIERS
        assert f"{ref.subject}/{ref.medium}" == ref.task_id
        # id = <subject>-<medium>-<slug>, and the file is named after it.
        prefix = f"{ref.subject}-{ref.medium}-"
        assert ref.id.startswith(prefix) and len(ref.id) > len(prefix), ref.id
        assert ref.file == f"{ref.id}.js", ref.id
        assert ref.source.strip() and "function setup" in ref.source, ref.id
        # The leading comment describes the painting (the file's own note, for raters).
        assert ref.source.startswith("// "), ref.id
        # Prompts describe the scene the sketch paints and name its medium; the weak ones
        # are short and vague, as a careless request would be.
        assert MEDIUM_WORD[ref.medium] in ref.prompt, ref.id
        words = len(ref.prompt.split())
        assert words >= (3 if ref.tier == "weak" else 10), (ref.id, words)


def test_metadata_is_measured() -> None:
    for ref in REFS:
        meta = ref.metadata
        assert isinstance(meta["render_ms"], float) and meta["render_ms"] > 0, ref.id
        assert isinstance(meta["backend"], str) and meta["backend"], ref.id
        assert BLANK_BELOW < meta["paint_coverage"] <= 1, ref.id
        assert 0 <= meta["heuristic_score"] <= 10, ref.id
        assert meta["status"] == "ok", ref.id
        # HPSv3 is measured on a GPU only; the keys exist either way.
        assert "hpsv3_mu" in meta and "hpsv3_sigma" in meta, ref.id
    with pytest.raises(TypeError):
        REFS[0].metadata["render_ms"] = 1.0  # type: ignore[index]


def test_filters_and_lookup() -> None:
    love = load_reference_pool(tier="love")
    assert love and all(ref.tier == "love" for ref in love)
    both = load_reference_pool(tier=["ok", "weak"])
    assert len(love) + len(both) == len(REFS)
    task = load_reference_pool(task_id="trees/charcoal")
    assert task and all(ref.task_id == "trees/charcoal" for ref in task)
    assert get_reference(REFS[3].id) == REFS[3]
    with pytest.raises(KeyError, match="did you mean"):
        get_reference(REFS[3].id + "x")
    with pytest.raises(ReferencePoolError, match="unknown tier"):
        load_reference_pool(tier="great")
    # Nothing measured by HPSv3 yet is an empty list, not an error.
    assert all(len(pair) == 2 for pair in pairwise_references())


def _copy_pool(tmp_path: Path) -> Path:
    target = tmp_path / "pool"
    shutil.copytree(find_pool_dir(), target)
    return target


def test_pool_found_by_path_env_and_packaged_layout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = _copy_pool(tmp_path)
    index = json.loads((copy / "pool.json").read_text())
    index["references"] = index["references"][:2]
    (copy / "pool.json").write_text(json.dumps(index))
    assert [r.id for r in load_reference_pool(copy)] == REF_IDS[:2]
    monkeypatch.setenv(POOL_ENV, str(copy))
    assert find_pool_dir() == copy
    assert len(load_reference_pool()) == 2
    monkeypatch.delenv(POOL_ENV)
    # The default search covers both the wheel's folder and the checkout's.
    from sketch_env.catalog import references as module

    names = [(p.parent.name, p.name) for p in module._candidate_dirs()]
    assert ("sketch_env", "_reference_pool") in names
    assert names[-1][1] == "reference_pool"
    monkeypatch.setenv(POOL_ENV, str(tmp_path / "nowhere"))
    with pytest.raises(ReferencePoolError, match="no reference pool found"):
        find_pool_dir()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"tier": "great"}, "tier 'great'"),
        ({"task_id": "flowers"}, "not 'subject/medium'"),
        ({"file": "../pyproject.toml"}, "not found"),
        ({"file": "missing.js"}, "not found"),
        ({"prompt": ""}, "'prompt' must be"),
        ({"id": "Bad Id"}, "lower-case"),
    ],
)
def test_malformed_index_is_refused(tmp_path: Path, change: dict, message: str) -> None:
    copy = _copy_pool(tmp_path)
    index = json.loads((copy / "pool.json").read_text())
    index["references"][1].update(change)
    (copy / "pool.json").write_text(json.dumps(index))
    with pytest.raises(ReferencePoolError, match=message):
        load_reference_pool(copy)


def test_duplicate_ids_are_refused(tmp_path: Path) -> None:
    copy = _copy_pool(tmp_path)
    index = json.loads((copy / "pool.json").read_text())
    index["references"].append(dict(index["references"][0]))
    (copy / "pool.json").write_text(json.dumps(index))
    with pytest.raises(ReferencePoolError, match="duplicate id"):
        load_reference_pool(copy)


# --- Gate and renders -----------------------------------------------------------------------


@pytest.mark.parametrize("ref_id", REF_IDS)
def test_reference_passes_the_gate(ref_id: str) -> None:
    verdict = check_sketch(get_reference(ref_id).source)
    assert verdict.passed, verdict.reasons


def _assert_renders_ok_with_paint(result: Render) -> None:
    assert result.status is RenderStatus.OK, (result.status, result.errors)
    assert result.errors == ()
    assert (result.width, result.height) == (600, 600)
    assert result.paint_fraction > BLANK_BELOW, result.paint_fraction


def _assert_brush_alone_and_the_same_picture(ref_id: str, result: Render, backend: str) -> None:
    # The run-time accounting takes none of p5.brush's own work for the sketch's, and sees
    # p5.brush put paint on the canvas; watching changes no pixel: on the backend the pool was
    # measured on, the picture is byte for byte the one its metadata records.
    assert result.api_calls is not None
    assert result.primitive_calls == {} and result.raw_graphics_calls == {}, result.api_calls
    assert result.brush_draw_calls > 0 and result.brush_paint > 0, result.api_calls
    assert runtime_check(result) == ()
    meta = get_reference(ref_id).metadata
    if backend == meta["backend"] and meta["deterministic"]:
        assert result.png is not None
        assert hashlib.sha256(result.png).hexdigest() == meta["png_sha256"]


def _assert_stored_features_match(ref_ids: Sequence[str], renders: dict[str, Render]) -> None:
    # The anchored scorer compares with `features.json`: a reference edited without a refresh
    # would be compared as the picture it used to paint.
    stored = {r.id: r.features for r in load_reference_features()}
    measured_on = {
        ref_id: entry["png_sha256"]
        for ref_id, entry in json.loads((find_pool_dir() / "features.json").read_text())[
            "references"
        ].items()
    }
    scorer = AnchoredScorer()
    for ref_id in ref_ids:
        fresh = picture_features(renders[ref_id].image())
        apart = {
            group: d / scorer._scale[group]
            for group, d in _group_distances(fresh, stored[ref_id]).items()
        }
        png = renders[ref_id].png
        same_picture = png is not None and hashlib.sha256(png).hexdigest() == measured_on[ref_id]
        # Byte-identical pictures measure the same up to the file's five decimals (rounding
        # alone moved the hibiscus's marks, the group with the smallest unit, by 0.0015 of
        # it); another GL backend or CPU moves pixels a little, never a tenth of a unit.
        limit = 5e-3 if same_picture else 0.1
        assert max(apart.values()) < limit, (ref_id, apart)


def _guards_touched(ref_ids: Sequence[str], renders: dict[str, Render]) -> dict[str, dict]:
    """The guards below 1 on each of these pictures (none should be)."""
    touched = {}
    for ref_id in ref_ids:
        factors = guard_factors(measure_picture(renders[ref_id].image()))
        low = {name: round(f, 3) for name, f in factors.items() if f < 1.0}
        if low:
            touched[ref_id] = low
    return touched


@pytest.mark.parametrize("ref_id", REF_IDS)
def test_reference_renders_ok_with_paint(pool_renders: dict[str, Render], ref_id: str) -> None:
    _assert_renders_ok_with_paint(pool_renders[ref_id])


@pytest.mark.parametrize("ref_id", REF_IDS)
def test_reference_paints_with_p5_brush_alone_and_the_same_picture(
    pool_renderer: SketchRenderer, pool_renders: dict[str, Render], ref_id: str
) -> None:
    _assert_brush_alone_and_the_same_picture(ref_id, pool_renders[ref_id], pool_renderer.backend)


@pytest.mark.parametrize("ref_id", [ref.id for ref in CHEAPEST_OF_EACH_MEDIUM])
def test_the_quickest_reference_of_each_medium_renders_as_recorded(
    pool_renderer: SketchRenderer, medium_renders: dict[str, Render], ref_id: str
) -> None:
    # The fast tier's slice of the whole-pool checks below: the same checks, one reference a
    # medium (the whole pool is the slow tier's).
    result = medium_renders[ref_id]
    _assert_renders_ok_with_paint(result)
    _assert_brush_alone_and_the_same_picture(ref_id, result, pool_renderer.backend)
    _assert_stored_features_match([ref_id], medium_renders)
    assert _guards_touched([ref_id], medium_renders) == {}


def test_heuristic_ranks_love_above_blank_and_blob(pool_renders: dict[str, Render]) -> None:
    scorer = HeuristicScorer()
    blank = pool_renders["_blank"]
    blob = pool_renders["_blob"]
    assert blank.ok and blob.ok
    assert blank.paint_fraction < 0.01 and blob.paint_fraction > 0.3
    love = [scorer.score_one(pool_renders[r.id].image()).value for r in REFS if r.tier == "love"]
    love_mean = sum(love) / len(love)
    assert love_mean > scorer.score_one(blank.image()).value
    assert love_mean > scorer.score_one(blob.image()).value


def test_no_reference_reads_as_text_and_a_label_over_any_of_them_does(
    pool_renders: dict[str, Render],
) -> None:
    # The heuristic's lettering factor must never fire on a real painting (its detector alone
    # fires on several; the recogniser's reading is what decides) and must fire on a label.
    reader = TextReader()
    label, _ = PICTURE_DEGRADATIONS["text_label"]

    def read(ref: Reference) -> tuple[str, list[object], float]:
        image = pool_renders[ref.id].image()
        return ref.id, list(reader.read(image)), reader.text_fraction(label(image, 0))

    # The reader runs on one core (onnxruntime, one thread, for determinism): two at once
    # halve the 38 s that 192 readings took on two cores.
    with ThreadPoolExecutor(max_workers=2) as pool:
        for ref_id, regions, labelled in pool.map(read, REFS):
            assert regions == [], ref_id
            assert labelled > 0.03, ref_id


# --- Refresh and the command line -----------------------------------------------------------


def test_refresh_rewrites_metadata_of_the_chosen_references(
    tmp_path: Path, pool_renderer: SketchRenderer
) -> None:
    copy = _copy_pool(tmp_path)
    before = json.loads((copy / "pool.json").read_text())
    cheap = min(REFS, key=lambda r: r.metadata["render_ms"]).id
    report = refresh_reference_pool(pool_renderer, "heuristic", repeats=2, path=copy, ids=[cheap])
    assert report.ok and report.written and report.backend == pool_renderer.backend
    (row,) = report.rows
    assert row.id == cheap and len(row.render_ms_runs) == 2 and row.paint_coverage > BLANK_BELOW
    assert cheap in report.table()
    after = json.loads((copy / "pool.json").read_text())
    assert after["reference_backend"] == pool_renderer.backend
    for old, new in zip(before["references"], after["references"], strict=True):
        assert {k: v for k, v in old.items() if k != "metadata"} == {
            k: v for k, v in new.items() if k != "metadata"
        }
        if old["id"] == cheap:
            meta = new["metadata"]
            assert meta["repeats"] == 2 and meta["render_ms_runs"] == list(row.render_ms_runs)
            assert meta["measured_at"] != old["metadata"].get("measured_at")
            assert meta["hpsv3_mu"] is None
        else:
            assert old == new
    reloaded = get_reference(cheap, copy)
    assert reloaded.metadata["repeats"] == 2
    with pytest.raises(ValueError, match="unknown reference"):
        refresh_reference_pool(pool_renderer, repeats=1, path=copy, ids=["nope"], write=False)
    with pytest.raises(ValueError, match="repeats"):
        refresh_reference_pool(pool_renderer, repeats=0, path=copy)


def test_cli_lists_the_pool(capsys: pytest.CaptureFixture[str]) -> None:
    from sketch_env.cli import main

    assert main(["pool", "list", "--json", "--tier", "weak"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert {item["id"] for item in listed} == {r.id for r in REFS if r.tier == "weak"}
    assert main(["pool", "list"]) == 0
    out = capsys.readouterr().out
    assert all(ref_id in out for ref_id in REF_IDS)


# --- The pool against the reward: the anchored scorer's features, the guards, any scorer ----


def test_the_stored_features_are_those_of_the_fresh_pictures(
    pool_renders: dict[str, Render],
) -> None:
    _assert_stored_features_match(REF_IDS, pool_renders)


def test_no_guard_touches_any_reference(pool_renders: dict[str, Render]) -> None:
    assert _guards_touched(REF_IDS, pool_renders) == {}


def test_no_guard_touches_a_painted_probe(pool_renders: dict[str, Render]) -> None:
    # Measured when the patchwork guard came in: its first thresholds touched a free
    # composition of translucent watercolour circles (many mixed hues, soft edges).
    assert all(pool_renders[i].status is RenderStatus.OK for i in PAINTED_PROBES)
    assert _guards_touched(list(PAINTED_PROBES), pool_renders) == {}


class ConstantScorer:
    """A test double for a scorer that rates every picture the same (10): with it the reward's
    guards alone stand between a degenerate picture and the maximum."""

    name = "constant"

    async def score(self, images: Sequence[Image.Image], prompts: Sequence[str]) -> list[Score]:
        return [Score(10.0) for _ in images]


def _gullible_mark(image: Image.Image) -> int:
    # The fake of a judge model that reads painted words as a verdict: top marks for any
    # picture with writing in it, a middling 5 for the rest.
    return 10 if TextReader().text_fraction(image) > 0.005 else 5


#: Painted words (three layouts) and noise (tiny strokes in random colours, random lines,
#: confetti washes): what a constant scorer or a judge that reads would pay for.
WORD_AND_NOISE_HACKS = (
    "brush_lettered_label",
    "brush_lettered_column",
    "brush_lettered_scattered",
    "tiny_stroke_noise",
    "random_brush_lines",
    "brush_wash_confetti",
)


@pytest.mark.parametrize("scorer_kind", ["constant", "gullible_judge"])
def test_words_and_noise_earn_less_than_every_reference_whatever_the_scorer(
    pool_renderer: SketchRenderer, pool_renders: dict[str, Render], scorer_kind: str
) -> None:
    from sketch_env.rewardcheck import hacks
    from tests.scoring.judge.fake_judge_server import FakeJudgeServer

    with contextlib.ExitStack() as stack:
        scorer: ConstantScorer | str
        if scorer_kind == "constant":
            scorer = ConstantScorer()
        else:
            judge = stack.enter_context(FakeJudgeServer("fake-vlm", mark_fn=_gullible_mark))
            scorer = f"judge+{judge.base_url}?model=fake-vlm&timeout=30"
        evaluator = Evaluator(pool_renderer, scorer)
        prompts = [get_task(ref.task_id).prompt for ref in REFS]
        references = evaluator.score_pictures_sync(
            [pool_renders[ref.id].image() for ref in REFS], prompts
        )
        assert all(r.reward is not None for r in references)
        replies = [
            f"```javascript\n{getattr(hacks, name)(seed)}\n```"
            for name in WORD_AND_NOISE_HACKS
            for seed in (0, 1)
        ]
        hacked = evaluator.evaluate_sync(replies, [prompts[0]] * len(replies), seeds=0)
    if scorer_kind == "gullible_judge":
        # The judge was taken in: the words earned its top mark...
        lettered = [h for h in hacked[:6] if h.score is not None]
        assert lettered and all(h.score.value >= 9 for h in lettered), [h.score for h in hacked[:6]]
    worst_reference = min(r.reward for r in references if r.reward is not None)
    for name, rollout in zip(
        [n for n in WORD_AND_NOISE_HACKS for _ in (0, 1)], hacked, strict=True
    ):
        assert rollout.reward.reward is not None, (name, rollout.status)
        # ...and the reward was not.
        assert rollout.reward.reward < worst_reference, (name, rollout.reward, worst_reference)
