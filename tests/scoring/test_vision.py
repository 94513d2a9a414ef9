"""The vision scorer: its network and weights, the pool's stored view, held-out refits, specs.

Everything runs the real network on real pictures: renders of the references, or the pool's
stored features of them (`vision.npz`, written by ``sketch-env pool refresh``).
"""

from __future__ import annotations

import asyncio
import math
import shutil
import statistics
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageOps

from sketch_env.catalog.references import find_pool_dir, load_reference_pool
from sketch_env.catalog.tasks import get_task
from sketch_env.scoring.spec import make_scorer
from sketch_env.scoring.vision.network import NetworkView, network
from sketch_env.scoring.vision.pool import VISION_SEEDS, load_negatives, load_pool_vision
from sketch_env.scoring.vision.scorer import VisionScorer
from sketch_env.scoring.vision.weights import (
    WEIGHTS_INSTALL,
    VisionWeightsError,
    load_weights,
    weights_path,
)
from tests.conftest import require_chromium

REFS = load_reference_pool()
VISION = load_pool_vision()
TIER_RANK = {"love": 3, "ok": 2, "weak": 1}


@pytest.fixture(scope="module")
def scorer() -> VisionScorer:
    return VisionScorer()


def _tier_agreement(values: dict[str, float]) -> float:
    """Within-task pairs of different tiers that ``values`` (by reference id) order right, ties
    as half."""
    outcomes = [
        1.0 if values[a.id] > values[b.id] else 0.5 if values[a.id] == values[b.id] else 0.0
        for a in REFS
        for b in REFS
        if a.task_id == b.task_id and TIER_RANK[str(a.tier)] > TIER_RANK[str(b.tier)]
    ]
    return statistics.fmean(outcomes)


def _stored_view(ref_id: str) -> NetworkView:
    """A reference's view as the pool stored it (seed 0), without rendering."""
    i = VISION.ids.index(ref_id)
    return NetworkView(
        VISION.pooled[i, 0], VISION.local[i].astype(np.float32), np.zeros(1000), VISION.colour[i]
    )


def test_the_pool_view_covers_every_reference_at_every_seed_and_the_negatives() -> None:
    assert VISION.ids == tuple(ref.id for ref in REFS)
    assert VISION.pooled.shape == (len(REFS), len(VISION_SEEDS), 1280)
    assert VISION.local.shape == (len(REFS), 49, 192)
    assert VISION.colour.shape == (len(REFS),) and (VISION.colour >= 0).all()
    negatives = load_negatives()
    assert VISION.negative_ids == tuple(n.id for n in negatives)
    assert {n.kind.split("-")[0] for n in negatives} >= {"blind", "collage"}
    assert np.isfinite(VISION.pooled).all() and np.isfinite(VISION.negatives).all()


def test_a_reference_rendered_now_sees_what_the_pool_stored(renderer) -> None:
    # One reference per medium, the quickest: the renderer and the network together must give
    # back the stored features, or every score drifts from its calibration.
    require_chromium()
    quickest: dict[str, object] = {}
    for ref in REFS:
        medium = ref.task_id.split("/")[1]
        best = quickest.get(medium)
        if best is None or ref.metadata["render_ms"] < best.metadata["render_ms"]:  # type: ignore[attr-defined]
            quickest[medium] = ref
    chosen = list(quickest.values())[:3]
    results = renderer.render_many_sync([r.source for r in chosen], seeds=[0] * len(chosen))  # type: ignore[attr-defined]
    if results[0].backend != VISION.backend:
        pytest.skip(
            f"the pool was measured on {VISION.backend}, this renderer is {results[0].backend}"
        )
    for ref, result in zip(chosen, results, strict=True):
        view = network()(result.image())
        k = VISION.ids.index(ref.id)  # type: ignore[attr-defined]
        assert np.abs(view.pooled - VISION.pooled[k, 0]).max() < 1e-3, ref.id
        assert view.colour == pytest.approx(VISION.colour[k], abs=1e-3), ref.id


def test_the_weights_are_the_published_ones_and_a_changed_file_is_refused(tmp_path: Path) -> None:
    weights = load_weights()
    assert weights["_fc.weight"].shape == (1000, 1280)
    altered = tmp_path / "weights.pth"
    shutil.copy(weights_path(), altered)
    with altered.open("r+b") as f:
        f.seek(4096)
        f.write(b"\0\1\2\3")
    with pytest.raises(VisionWeightsError, match=WEIGHTS_INSTALL.split("'")[0].strip()):
        load_weights(altered)


def test_the_network_knows_a_picture_from_blank_paper() -> None:
    # The ImageNet head is kept to check the network is intact: white paper and a painted
    # reference must not look alike to it.
    paper = network()(Image.new("RGB", (600, 600), (250, 248, 240)))
    painted = _stored_view(REFS[0].id)
    cosine = float(
        paper.pooled
        @ painted.pooled
        / np.linalg.norm(paper.pooled)
        / np.linalg.norm(painted.pooled)
    )
    assert cosine < 0.9


def test_the_score_is_a_function_of_the_picture_and_prompt(scorer: VisionScorer) -> None:
    ref = REFS[0]
    view = _stored_view(ref.id)
    first = scorer.score_view(view, ref.prompt)
    again = scorer.score_view(view, ref.prompt)
    assert first == again
    assert 0.0 <= first.value <= 10.0
    terms = dict(first.terms)
    assert set(terms) == {
        "progress",
        "quality",
        "subject",
        "medium",
        "presence",
        "realism",
        "painting",
    }


def test_held_out_refits_leave_the_reference_out_and_its_task_out_of_quality(
    scorer: VisionScorer,
) -> None:
    ref = REFS[0]
    held = scorer.held_out(ref)
    assert held is scorer.held_out(ref), "refits are cached"
    assert ref.id not in {r.id for r in held.references}
    task = {r.id for r in REFS if r.task_id == ref.task_id}
    assert task <= held.excluded_from_quality
    assert held.beta == scorer.beta and held.painting_knee == scorer.painting_knee


def test_spec_parameters_reach_the_scorer_and_unknown_ones_are_refused() -> None:
    tuned = make_scorer("vision?beta=5&painting_knee=0.5&medium_knee=0.5&presence_full=0.2")
    assert isinstance(tuned, VisionScorer)
    assert (tuned.beta, tuned.painting_knee, tuned.medium_knee) == (5.0, 0.5, 0.5)
    assert tuned.presence_full == 0.2
    with pytest.raises(ValueError, match="vision takes"):
        make_scorer("vision?kappa=2")
    with pytest.raises(ValueError, match="painting_knee"):
        VisionScorer(painting_knee=1.5)
    with pytest.raises(ValueError, match="medium_knee"):
        VisionScorer(medium_knee=0.0)
    with pytest.raises(ValueError, match="presence_full"):
        VisionScorer(presence_full=-1.0)


@pytest.fixture(scope="module")
def line() -> VisionScorer:
    """The weak-to-love line through the whole-picture features (the default reading)."""
    return VisionScorer(quality_regions=0)


@pytest.fixture(scope="module")
def regions() -> VisionScorer:
    """Quality read from the picture's regions (docs/reward.md, "A quality that sees parts")."""
    return VisionScorer(quality_regions=16)


@pytest.mark.parametrize("reading", ["regions", "line", "both"])
def test_half_the_quality_factor_lies_between_the_weak_and_the_ok_references(
    reading: str, regions: VisionScorer, line: VisionScorer, both: VisionScorer
) -> None:
    # The default midpoint comes from the pool, not a constant: a painting the pool would
    # grade `ok` earns more than half the quality factor, a typical `weak` one less.
    quality = {"regions": regions, "line": line, "both": both}[reading]
    by_tier: dict[str, list[float]] = {"weak": [], "ok": [], "love": []}
    for ref in REFS:
        by_tier[ref.tier].append(quality.parts(_stored_view(ref.id), ref.prompt).quality)
    assert statistics.fmean(by_tier["weak"]) < 0.5 < statistics.fmean(by_tier["ok"])
    assert statistics.fmean(by_tier["ok"]) < statistics.fmean(by_tier["love"])
    ok = [r for r in REFS if r.tier == "ok"]
    if reading == "line":
        progress = statistics.fmean(line.parts(_stored_view(r.id), r.prompt).progress for r in ok)
    else:
        # The regions read each reference with its own task left out (a reference's regions
        # would find themselves otherwise).
        progress = quality._ok_progress
    assert quality._midpoint == pytest.approx(progress / 2)
    # A held-out refit measures its own midpoint without the task's tiers; a fixed one is
    # an option of the spec.
    held = quality.held_out(ok[0])
    assert held._midpoint != quality._midpoint
    fixed = make_scorer("vision?quality_midpoint=0.5")
    assert isinstance(fixed, VisionScorer) and fixed._midpoint == 0.5
    with pytest.raises(ValueError, match="quality_midpoint"):
        VisionScorer(quality_midpoint=math.nan)


def _pushed_along_line(line: VisionScorer, view: NetworkView, steps: float) -> NetworkView:
    """``view`` with its whole-picture features moved ``steps`` love-means along ``line``'s
    quality direction and its regions left as they were (what the mutant search's edits do)."""
    z = line._standard(view.pooled)
    step = steps * (line._love_at - line._weak_at) / float(line._direction @ line._direction)
    pooled = line._mean + line._std * (z + step * line._direction)
    return NetworkView(pooled, view.local, view.logits, view.colour)


def test_neighbours_quality_stays_within_the_loved_references_where_the_line_does_not(
    line: VisionScorer,
) -> None:
    neighbours = make_scorer("vision?quality_regions=0&quality_neighbours=16")
    assert isinstance(neighbours, VisionScorer) and neighbours.quality_neighbours == 16
    with pytest.raises(ValueError, match="quality_neighbours"):
        VisionScorer(quality_regions=0, quality_neighbours=-1)
    ref = next(r for r in REFS if r.tier == "love")
    view = _stored_view(ref.id)
    on_line = line.parts(view, ref.prompt)
    # Pushed three love-means further along the line, as the mutant search's edits push a
    # painting: the line pays more and more, the neighbours' reading does not pass a love tier.
    pushed = _pushed_along_line(line, view, 3)
    assert line.parts(pushed, ref.prompt).progress == pytest.approx(on_line.progress + 3)
    for picture in (view, pushed):
        parts = neighbours.parts(picture, ref.prompt)
        assert 0.0 <= parts.quality == parts.progress <= 1.0


@pytest.mark.slow
def test_neighbours_quality_tells_tiers_apart_with_the_task_left_out() -> None:
    # The bar for anything fitted to tiers: >= 75 % held out (measured: 90.8 %, as
    # the line alone). Only quality is refitted per task, as `VisionScorer.held_out` does.
    values: dict[str, float] = {}
    for task_id in sorted({ref.task_id for ref in REFS}):
        task = [ref for ref in REFS if ref.task_id == task_id]
        held = VisionScorer(
            quality_regions=0, quality_neighbours=16, exclude_from_quality=[r.id for r in task]
        )
        for ref in task:
            values[ref.id] = held.parts(_stored_view(ref.id), ref.prompt).quality
    assert _tier_agreement(values) >= 0.75


def test_regional_quality_sees_a_damaged_part_and_not_a_push_along_the_line(
    line: VisionScorer, regions: VisionScorer
) -> None:
    from_spec = make_scorer("vision?quality_regions=16")
    assert isinstance(from_spec, VisionScorer) and from_spec.quality_regions == 16
    with pytest.raises(ValueError, match="quality_regions"):
        VisionScorer(quality_regions=-1)
    with pytest.raises(ValueError, match="choose one"):
        VisionScorer(quality_neighbours=16, quality_regions=16)
    love = next(r for r in REFS if r.tier == "love" and r.task_id == "seascape/pastel")
    weak = next(r for r in REFS if r.tier == "weak" and r.task_id == "landscape/pastel")
    view = _stored_view(love.id)
    whole = regions.parts(view, love.prompt)
    # What the references search found: whole-picture features pushed along the line (a wash
    # across a sea) pay the line more; the regions, which the push leaves as they were, do not.
    pushed = _pushed_along_line(line, view, 3)
    assert line.parts(pushed, love.prompt).progress == pytest.approx(
        line.parts(view, love.prompt).progress + 3
    )
    assert regions.parts(pushed, love.prompt).progress == pytest.approx(whole.progress)
    # A part painted like a weak painting (its lower three rows of regions) lowers it.
    local = view.local.copy()
    local[28:] = _stored_view(weak.id).local[28:]
    damaged = NetworkView(view.pooled, local, view.logits, view.colour)
    assert regions.parts(damaged, love.prompt).progress < whole.progress - 0.1
    # Bounded: a picture whose every region is a loved region cannot read above the loved tier.
    weak_at, span = regions._region_scale
    assert whole.progress <= (1.0 - weak_at) / span + 1e-9


@pytest.fixture(scope="module")
def both() -> VisionScorer:
    """Quality as the lower of the line's and the regions' readings."""
    return VisionScorer(quality_regions=16, quality_both=True)


def test_both_readings_take_the_lower_so_neither_a_push_nor_a_collage_of_parts_pays(
    line: VisionScorer, regions: VisionScorer, both: VisionScorer
) -> None:
    from_spec = make_scorer("vision?quality_regions=16&quality_both=1")
    assert isinstance(from_spec, VisionScorer) and from_spec.quality_both
    with pytest.raises(ValueError, match="quality_regions > 0"):
        VisionScorer(quality_regions=0, quality_both=True)
    love = next(r for r in REFS if r.tier == "love" and r.task_id == "seascape/pastel")
    weak = next(r for r in REFS if r.tier == "weak" and r.task_id == "landscape/pastel")
    view = _stored_view(love.id)
    for ref in REFS[::7]:
        seen = _stored_view(ref.id)
        readings = (line.parts(seen, ref.prompt), regions.parts(seen, ref.prompt))
        assert both.parts(seen, ref.prompt).progress == pytest.approx(
            min(r.progress for r in readings)
        )
    # A push along the line (what mutants find) leaves the regions, so it cannot raise the
    # lower reading above them; a damaged part lowers it to where the regions then read.
    before = both.parts(view, love.prompt).progress
    pushed = _pushed_along_line(line, view, 3)
    assert both.parts(pushed, love.prompt).progress <= regions.parts(view, love.prompt).progress
    local = view.local.copy()
    local[28:] = _stored_view(weak.id).local[28:]
    damaged = NetworkView(view.pooled, local, view.logits, view.colour)
    assert both.parts(damaged, love.prompt).progress == pytest.approx(
        regions.parts(damaged, love.prompt).progress
    )
    assert both.parts(damaged, love.prompt).progress < before
    # Its midpoint is half where the ok references read the lower way, each with its task
    # left out of the regions (the line's midpoint is in-sample, as it is for the line alone).
    ok = [r for r in REFS if r.tier == "ok"]
    assert both._midpoint == pytest.approx(both._ok_progress / 2)
    assert both._ok_progress < min(
        regions._ok_progress,
        statistics.fmean(line.parts(_stored_view(r.id), r.prompt).progress for r in ok),
    )


@pytest.mark.slow
def test_regional_quality_tells_tiers_apart_with_the_task_left_out() -> None:
    # Measured: 95.0 % of the 120 pairs for quality by itself (the line 90.8 %).
    values: dict[str, float] = {}
    for task_id in sorted({ref.task_id for ref in REFS}):
        task = [ref for ref in REFS if ref.task_id == task_id]
        held = VisionScorer(quality_regions=16, exclude_from_quality=[r.id for r in task])
        for ref in task:
            values[ref.id] = held.parts(_stored_view(ref.id), ref.prompt).quality
    assert _tier_agreement(values) >= 0.75


#: Passing sketches that are not paintings (tests/data/rendered/README.md): what a policy that
#: found a hole in the discriminator would paint again and again.
NOT_PAINTINGS = ("fatstroke", "darkblob", "stripes", "lettering")
DATA = Path(__file__).parents[1] / "data" / "rendered"


def test_a_refitting_discriminator_learns_what_the_policy_keeps_painting() -> None:
    pictures = [Image.open(DATA / f"{name}.png").convert("RGB") for name in NOT_PAINTINGS]
    prompt = REFS[0].prompt
    fixed = VisionScorer()
    learning = VisionScorer(refit_every=2 * len(pictures), refit_window=64)

    def painting(scores: list) -> list[float]:
        return [dict(score.terms)["painting"] for score in scores]

    before = painting([fixed.score_one(picture, prompt) for picture in pictures])
    # The fixed discriminator takes fat black strokes for a painting (p = 0.95).
    assert max(before) > fixed.painting_knee, before
    first = asyncio.run(learning.score(pictures, [prompt] * len(pictures)))
    # A batch is judged before it joins the negatives: no refit yet, the fixed scorer's view.
    assert learning.refits == 0 and painting(first) == pytest.approx(before)
    for _ in range(3):
        asyncio.run(learning.score(pictures, [prompt] * len(pictures)))
    assert learning.refits == 2
    after = painting([learning.score_one(picture, prompt) for picture in pictures])
    assert all(a < b for a, b in zip(after, before, strict=True)), (before, after)
    assert max(after) < learning.painting_knee, after
    # The references still read as paintings: the refit learnt the policy's look, not "less".
    # (Measured: every reference at p >= 0.65 before and after, the four pictures 0.55-0.95
    # before and 0.11-0.22 after two refits.)
    views = [(_stored_view(ref.id), ref.prompt) for ref in REFS]
    still = [dict(learning.score_view(view, prompt).terms)["painting"] for view, prompt in views]
    assert min(still) >= learning.painting_knee
    # A scorer that is not asked to learn stays a function of the picture and the prompt.
    assert painting([fixed.score_one(picture, prompt) for picture in pictures]) == before


def test_refit_parameters_come_from_the_spec_and_bad_ones_are_refused() -> None:
    learning = make_scorer("vision?refit_every=256&refit_window=512")
    assert isinstance(learning, VisionScorer)
    assert (learning.refit_every, learning.refit_window, learning.refits) == (256, 512, 0)
    assert "refit_every=256" in repr(learning)
    with pytest.raises(ValueError, match="whole number"):
        make_scorer("vision?refit_every=2.5")
    with pytest.raises(ValueError, match="refit_window"):
        VisionScorer(refit_every=8, refit_window=0)


def test_a_pool_without_its_vision_file_says_how_to_measure_it(tmp_path: Path) -> None:
    pool = tmp_path / "pool"
    shutil.copytree(find_pool_dir(), pool, ignore=shutil.ignore_patterns("vision.npz"))
    with pytest.raises(FileNotFoundError, match="sketch-env pool refresh"):
        VisionScorer(pool)


@pytest.fixture(scope="module")
def held_out_scores(scorer: VisionScorer) -> dict[tuple[str, str], float]:
    """Every reference under its own prompt and every other same-medium task's, each scored by
    the scorer refitted without it (quality without its task): what a new painting would earn.
    Keyed by (reference id, task id of the prompt)."""
    values = {}
    for ref in REFS:
        held = scorer.held_out(ref)
        view = _stored_view(ref.id)
        values[(ref.id, ref.task_id)] = held.score_view(view, ref.prompt).value
        for task in scorer.tasks:
            if task.medium == ref.medium and task.id != ref.task_id:
                values[(ref.id, task.id)] = held.score_view(view, task.prompt).value
    return values


@pytest.mark.slow
def test_tiers_are_told_apart_held_out(held_out_scores: dict[tuple[str, str], float]) -> None:
    # Issue 28 asks >= 75 % of within-task tier pairs held out, < a quarter at the maximum.
    values = {ref.id: held_out_scores[(ref.id, ref.task_id)] for ref in REFS}
    assert _tier_agreement(values) >= 0.75
    assert sum(v >= 9.99 for v in values.values()) < len(REFS) / 4


@pytest.mark.slow
def test_a_wrong_subject_is_told_apart_held_out(
    held_out_scores: dict[tuple[str, str], float],
) -> None:
    # Each reference under another same-medium task's prompt against that task's own
    # references (all held out): issue 28 asks that it out-earn the weakest in at most 25 % of
    # the 480 pairs and reach the median in at most 5 %. Measured on the stored seed-0 views,
    # with the shipped negatives and the medium, presence and colour checks: 20.2 % and 2.9 %
    # (the nearest-task term before the subject classifier: 52 % and 10 %).
    own: dict[str, list[float]] = {}
    for ref in REFS:
        own.setdefault(ref.task_id, []).append(held_out_scores[(ref.id, ref.task_id)])
    home = {ref.id: ref.task_id for ref in REFS}
    wrong = [(task, v) for (ref_id, task), v in held_out_scores.items() if task != home[ref_id]]
    assert len(wrong) == 480
    over = sum(v > min(own[task]) for task, v in wrong) / len(wrong)
    at_median = sum(v >= statistics.median(own[task]) for task, v in wrong) / len(wrong)
    assert over <= 0.25 and at_median <= 0.05, (over, at_median)


def test_a_references_own_prompt_names_its_task(scorer: VisionScorer) -> None:
    # Read word by word, 29 of the 96 references' prompts name another subject or none ("a
    # bouquet of pink peonies ... in a glass vase" reads as a still life); the subject term
    # would then judge a flower painting as a still life.
    for ref in REFS:
        assert scorer.parts(_stored_view(ref.id), ref.prompt).anchor == ref.task_id


def test_the_subject_term_prefers_the_pictures_own_subject(scorer: VisionScorer) -> None:
    # In sample (the classifier saw these references): each reference's own subject gets the
    # full share for most of them, and another subject of its medium a small one.
    shares_own, shares_other = [], []
    for ref in REFS:
        for task in scorer.tasks:
            if task.medium != ref.medium:
                continue
            share = scorer.parts(_stored_view(ref.id), task.prompt).subject
            (shares_own if task.id == ref.task_id else shares_other).append(share)
    assert statistics.median(shares_own) == 1.0
    assert statistics.fmean(s == 1.0 for s in shares_own) >= 0.8
    assert statistics.median(shares_other) < 0.1


def test_the_medium_term_prefers_the_pictures_own_medium(scorer: VisionScorer) -> None:
    # In sample: each reference under the prompt of its subject in every medium. Its own
    # medium gets the full share, another medium almost none (the media look nothing alike to
    # the network once the subject's look is taken out).
    shares_own, shares_other = [], []
    for ref in REFS:
        for task in scorer.tasks:
            if task.subject == ref.subject:
                share = scorer.parts(_stored_view(ref.id), task.prompt).medium
                (shares_own if task.id == ref.task_id else shares_other).append(share)
    assert min(shares_own) == 1.0
    assert statistics.median(shares_other) < 0.01


@pytest.mark.slow
def test_a_wrong_medium_is_told_apart_and_a_painting_is_present_held_out(
    scorer: VisionScorer,
) -> None:
    # Each reference left out of the classifiers, under its subject's prompt in every medium.
    # Measured on the stored seed-0 views: its own medium is the best for 95 of 96 (the one
    # missed, a dense ink forest, keeps a share of 0.16), another medium's median share 0.001;
    # under its own prompt, the mean evidence of its subject and medium is 0.17 at the lowest
    # (median 0.41), so the presence factor leaves every reference whole.
    shares_own, shares_other, presence = [], [], []
    for ref in REFS:
        held = scorer.held_out(ref)
        for task in scorer.tasks:
            if task.subject == ref.subject:
                parts = held.parts(_stored_view(ref.id), task.prompt)
                (shares_own if task.id == ref.task_id else shares_other).append(parts.medium)
                if task.id == ref.task_id:
                    presence.append(parts.presence)
    assert statistics.fmean(s == 1.0 for s in shares_own) >= 0.95
    assert statistics.median(shares_other) < 0.01
    assert statistics.fmean(p == 1.0 for p in presence) >= 0.95


def test_a_picture_in_another_medium_earns_little_under_an_ink_prompt(scorer: VisionScorer) -> None:
    # What the adversarial floor's blind search found against this scorer before it judged the
    # medium (the pool's find landscape-ink_hatching-blind-green-hatch, seed 0): a pastel arc
    # and a charcoal-hatched green wedge on green paper, 6.64 against the task's median
    # reference 5.72, every other part near full. The medium term names it pastel, and it is
    # more colourful than any ink reference (0.30 against 0.12 at most).
    picture = Image.open(DATA / "green_hatch.png").convert("RGB")
    task = get_task("landscape/ink_hatching")
    parts = scorer.parts(network()(picture), task.prompt)
    assert parts.subject == 1.0
    assert parts.medium < 0.1
    assert parts.realism < 1.0
    weakest = min(
        scorer.score_view(_stored_view(ref.id), ref.prompt).value
        for ref in REFS
        if ref.task_id == task.id
    )
    assert scorer.value(parts) < weakest


@pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason="a known hole of the default (docs/reward.md, 'A collage the default's own search "
    "missed'): the collage earns 8.16 at seed 0 against the median reference's 7.10",
)
def test_a_collage_another_scorers_search_found_stays_under_the_median_reference(
    scorer: VisionScorer,
) -> None:
    # What the composed search of 500 renders found on still_life/ink_hatching (seed 0) against
    # the scorer with the unused feature's scale fixed (not shipped; the pool's find
    # still_life-ink_hatching-composed-grey-collage): grey washes, hatched blocks, circles and
    # outlines, no pears and no bottle. The shipped scorer's own search at the same seed found
    # 6.53 at best; this collage, scored by it, reads subject 1.00, realism 1.00, painting
    # 0.53, quality 0.80.
    # Strict: when a scorer change holds it, this test says so and the mark must go.
    picture = Image.open(DATA / "ink_collage.png").convert("RGB")
    task = get_task("still_life/ink_hatching")
    median = statistics.median(
        scorer.score_view(_stored_view(ref.id), ref.prompt).value
        for ref in REFS
        if ref.task_id == task.id
    )
    assert scorer.value(scorer.parts(network()(picture), task.prompt)) < median


def test_a_charcoal_prompt_takes_cream_paper_but_not_a_coloured_picture(
    scorer: VisionScorer,
) -> None:
    # The same drawing in grey, on cream paper and in yellow: only the colour differs. The
    # charcoal references are grey (colour 0.05 at most); cream paper measures 0.11, within the
    # tint allowed past them; yellow 0.86, far outside.
    grey = Image.open(DATA / "landscape.png").convert("L")
    prompt = get_task("landscape/charcoal").prompt
    views = {
        "grey": network()(grey.convert("RGB")),
        "cream": network()(ImageOps.colorize(grey, black="#1d1d26", white="#f3ead7")),
        "yellow": network()(ImageOps.colorize(grey, black="#402000", white="#ffd020")),
    }
    assert views["grey"].colour < 0.01 < views["cream"].colour < 0.15 < 0.5 < views["yellow"].colour
    realism = {name: scorer.parts(view, prompt).realism for name, view in views.items()}
    assert realism["grey"] == realism["cream"] == 1.0
    assert realism["yellow"] < 0.01


def test_presence_asks_whether_the_prompts_subject_and_medium_are_there_at_all(
    scorer: VisionScorer,
) -> None:
    # The shares say which subject and medium a picture looks most like, even when it looks
    # like none: a blind search's yellow and brown grounds got full shares. Presence reads the
    # classifiers' evidence itself. Small watercolours of a flower, a garden and a landscape
    # (tests/data/rendered) are present under their own prompt; fat strokes, a dark blob and
    # painted letters, under every subject's prompt but the abstract ones, mostly are not
    # (measured: a mean of 0.14).
    watercolours = {"flower": "flowers", "garden": "flowers", "landscape": "landscape"}
    for name, subject in watercolours.items():
        view = network()(Image.open(DATA / f"{name}.png").convert("RGB"))
        prompt = get_task(f"{subject}/watercolour").prompt
        assert scorer.parts(view, prompt).presence == 1.0, name
    figurative = [t for t in scorer.tasks if t.subject != "abstract"]
    views = [
        network()(Image.open(DATA / f"{name}.png").convert("RGB"))
        for name in ("fatstroke", "darkblob", "lettering")
    ]
    presence = [scorer.parts(view, t.prompt).presence for view in views for t in figurative]
    assert statistics.fmean(presence) < 0.3
