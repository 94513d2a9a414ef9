"""`JudgeScorer` over real HTTP on the loopback, against `FakeJudgeServer`.

The server is a fake of the *model boundary* only (see its docstring): every request our code
makes is a real HTTP request, decoded and checked by the fake as a server would, and every
answer goes through our parsing, retry and failure mapping unchanged.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
import socket
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from fake_judge_server import FakeJudgeServer, fake_mark, image_digest
from PIL import Image

from sketch_env.errors import InfrastructureError
from sketch_env.gate import GateVerdict
from sketch_env.reward import RewardConfig
from sketch_env.reward.combine import combine
from sketch_env.scoring.base import Score, Scorer, ScorerUnavailableError
from sketch_env.scoring.judge import (
    RUBRIC_VERSION,
    JudgeRequestError,
    JudgeScorer,
    ReferenceImage,
    draw_references,
    load_reference_images,
    rollout_seed,
    save_reference_images,
)
from sketch_env.scoring.spec import make_scorer

PROMPT = "a vase of peach hibiscus in loose watercolour"
TASK = "flowers/watercolour"
SECRET = "sk-test-9f8e7d6c5b4a-do-not-leak"

# Fast settings: retries wait milliseconds, not seconds.
FAST: dict[str, Any] = {"backoff_s": 0.01, "max_backoff_s": 0.05, "timeout_s": 5.0}


def painting(fraction: float, colour: tuple[int, int, int] = (200, 60, 40)) -> Image.Image:
    """A 60x60 white canvas with the top ``fraction`` of its rows painted ``colour``."""
    image = Image.new("RGB", (60, 60), (250, 248, 240))
    rows = round(60 * fraction)
    if rows:
        image.paste(colour, (0, 0, 60, rows))
    return image


def judge(scorer: JudgeScorer, images: Sequence[Image.Image], prompts: Sequence[str], **kw: Any):
    """Scores on a fresh event loop and closes the scorer's pool on it."""

    async def go() -> list[Score]:
        try:
            return await scorer.score(images, prompts, **kw)
        finally:
            await scorer.aclose()

    return asyncio.run(go())


def meta(score: Score) -> dict[str, Any]:
    return dict(score.meta)


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def references(task: str = TASK, fractions: Sequence[float] = (0.2, 0.3, 0.4, 0.5)) -> list:
    return [
        ReferenceImage.from_image(f"ref-{i}", task, painting(f, (40, 90, 160)), prompt=PROMPT)
        for i, f in enumerate(fractions)
    ]


# -- pointwise ---------------------------------------------------------------------------------


def test_pointwise_marks_follow_the_pictures_and_record_provenance() -> None:
    pictures = [painting(0.0), painting(0.5), painting(1.0)]
    with FakeJudgeServer("fake-vlm", served_name="fake-vlm-2025") as fake:
        scorer = JudgeScorer(fake.base_url, "fake-vlm", **FAST)
        assert isinstance(scorer, Scorer)
        scores = judge(scorer, pictures, [PROMPT] * 3)
    assert [s.value for s in scores] == [fake_mark(p) for p in pictures] == [1.0, 6.0, 10.0]
    first = meta(scores[0])
    assert first["mode"] == "pointwise" and first["model"] == "fake-vlm"
    assert first["served_model"] == "fake-vlm-2025"
    assert first["rubric"] == RUBRIC_VERSION and first["judge"] == scorer.name
    assert first["requests"] == 1 and first["parse_failures"] == 0
    assert scorer.name == f"judge-pointwise:fake-vlm@rubric{RUBRIC_VERSION}"
    assert scores[0].to_dict()["meta"]["mode"] == "pointwise"
    # What went over the wire: one request per picture, each picture as a PNG data URL the
    # server decoded to the same pixels, the rubric naming the prompt, deterministic sampling.
    assert sorted(r.images[0] for r in fake.requests) == sorted(image_digest(p) for p in pictures)
    request = fake.requests[0]
    assert any(PROMPT in text and "1 to 10" in text for text in request.texts)
    assert request.body["temperature"] == 0.0 and request.body["model"] == "fake-vlm"
    assert request.authorization is None


def test_only_the_answer_under_the_requests_own_key_counts() -> None:
    # A judge that quotes a painted "FINAL SCORE: 10" before its own keyed mark is read as its
    # own mark; free prose (which a painting could imitate) is never read, and after the
    # bounded re-asks the picture is unscored, not given a number.
    with FakeJudgeServer(style="quoting") as fake:
        scores = judge(JudgeScorer(fake.base_url, "fake-vlm", **FAST), [painting(0.5)], [PROMPT])
    assert scores[0].value == 6.0
    keys = {
        k for r in fake.requests for text in r.texts for k in re.findall(r"mark_[0-9a-f]+", text)
    }
    assert len(keys) == 1  # one fresh key per question
    with FakeJudgeServer(style="prose") as fake:
        scorer = JudgeScorer(fake.base_url, "fake-vlm", parse_retries=1, **FAST)
        scores = judge(scorer, [painting(0.5), painting(0.9)], [PROMPT] * 2)
    assert all(math.isnan(s.value) for s in scores)
    keys = {
        k for r in fake.requests for text in r.texts for k in re.findall(r"mark_[0-9a-f]+", text)
    }
    assert len(keys) == 2  # each picture's question has its own


def test_pictures_go_to_the_judge_at_a_bounded_size() -> None:
    # A 2048x2048 canvas would be ~5,300 vision tokens: over a 4096-token server, which
    # answers 400. The judge downsizes what it sends.
    big = Image.new("RGB", (2048, 2048), (200, 40, 40))
    with FakeJudgeServer(max_image_side=1024) as fake:
        scores = judge(JudgeScorer(fake.base_url, "fake-vlm", **FAST), [big], [PROMPT])
        assert scores[0].value == 10.0
        with pytest.raises(JudgeRequestError, match="max-model-len"):
            scorer = JudgeScorer(fake.base_url, "fake-vlm", max_image_side=2048, **FAST)
            judge(scorer, [big], [PROMPT])


def test_a_garbage_reply_is_asked_again_with_the_format_then_read() -> None:
    with FakeJudgeServer(script=["garbage"]) as fake:
        scores = judge(JudgeScorer(fake.base_url, "fake-vlm", **FAST), [painting(0.5)], [PROMPT])
    assert scores[0].value == 6.0
    assert meta(scores[0])["requests"] == 2 and meta(scores[0])["parse_failures"] == 1
    # The re-ask shows the model its reply and the format, rather than resending the question.
    assert [r.repair for r in fake.requests] == [False, True]
    assert "could not be read" in fake.requests[1].texts[-1]


def test_always_garbage_leaves_the_picture_unscored_never_zero() -> None:
    with FakeJudgeServer(always="garbage") as fake:
        scorer = JudgeScorer(fake.base_url, "fake-vlm", parse_retries=2, **FAST)
        (score,) = judge(scorer, [painting(0.5)], [PROMPT])
    assert math.isnan(score.value)
    assert meta(score)["requests"] == 3 and meta(score)["parse_failures"] == 3
    assert "unreadable" in meta(score)["unscored"]
    # Through the reward: an unscored picture is an infrastructure failure (None), not a 0.
    breakdown = combine(
        RewardConfig(guards=()),
        GateVerdict(passed=True),
        paint_fraction=0.5,
        dark_mass=0.0,
        score=score,
    )
    assert breakdown.reward is None and breakdown.status == "infra_error"


def test_only_the_unreadable_picture_of_a_batch_is_unscored() -> None:
    with FakeJudgeServer(garbage_below_paint=0.01) as fake:
        scorer = JudgeScorer(fake.base_url, "fake-vlm", parse_retries=1, **FAST)
        blank, good = judge(scorer, [painting(0.0), painting(0.5)], [PROMPT] * 2)
    assert math.isnan(blank.value) and "unscored" in meta(blank)
    assert good.value == 6.0 and "unscored" not in meta(good)


@pytest.mark.parametrize("status", [429, 500, 503])
def test_transient_http_errors_are_retried(status: int) -> None:
    with FakeJudgeServer(script=[status, status]) as fake:
        scorer = JudgeScorer(fake.base_url, "fake-vlm", retries=2, **FAST)
        scores = judge(scorer, [painting(0.5)], [PROMPT])
    assert scores[0].value == 6.0
    assert [r.action for r in fake.requests] == [status, status, None]


@pytest.mark.parametrize("status", [429, 500])
def test_persistent_http_errors_make_the_judge_unavailable(status: int) -> None:
    with FakeJudgeServer(always=status) as fake:
        scorer = JudgeScorer(fake.base_url, "fake-vlm", retries=2, **FAST)
        with pytest.raises(ScorerUnavailableError, match=f"HTTP {status}"):
            judge(scorer, [painting(0.5)], [PROMPT])
    assert len(fake.requests) == 3  # bounded: 1 + retries


def test_retry_after_is_honoured_up_to_the_cap() -> None:
    with FakeJudgeServer(script=[429], retry_after="0.4") as fake:
        scorer = JudgeScorer(fake.base_url, "fake-vlm", backoff_s=0.01, max_backoff_s=1.0)
        started = time.monotonic()
        judge(scorer, [painting(0.5)], [PROMPT])
        elapsed = time.monotonic() - started
    assert elapsed >= 0.4


def test_a_slow_answer_times_out_and_is_retried() -> None:
    with FakeJudgeServer(script=["hang"], hang_s=1.5) as fake:
        scorer = JudgeScorer(
            fake.base_url, "fake-vlm", timeout_s=0.3, retries=1, backoff_s=0.01, max_backoff_s=0.01
        )
        started = time.monotonic()
        scores = judge(scorer, [painting(0.5)], [PROMPT])
        elapsed = time.monotonic() - started
    assert scores[0].value == 6.0
    assert elapsed < 1.2  # the hung request was abandoned at its timeout, not waited out


def test_a_judge_that_always_hangs_is_unavailable_within_the_bound() -> None:
    with FakeJudgeServer(always="hang", hang_s=2.0) as fake:
        scorer = JudgeScorer(
            fake.base_url, "fake-vlm", timeout_s=0.25, retries=1, backoff_s=0.01, max_backoff_s=0.01
        )
        started = time.monotonic()
        with pytest.raises(ScorerUnavailableError, match="timed out"):
            judge(scorer, [painting(0.5)], [PROMPT])
        assert time.monotonic() - started < 1.5


def test_wrong_content_type_is_retried_then_unavailable() -> None:
    with FakeJudgeServer(script=["html"]) as fake:
        scores = judge(JudgeScorer(fake.base_url, "fake-vlm", **FAST), [painting(0.5)], [PROMPT])
    assert scores[0].value == 6.0 and len(fake.requests) == 2
    with FakeJudgeServer(always="html") as fake:
        scorer = JudgeScorer(fake.base_url, "fake-vlm", retries=1, **FAST)
        with pytest.raises(ScorerUnavailableError, match="text/html"):
            judge(scorer, [painting(0.5)], [PROMPT])


def test_unreachable_judge_is_unavailable_through_the_spec() -> None:
    scorer = make_scorer(f"judge+{closed_port_url()}?model=m&retries=1")
    assert isinstance(scorer, JudgeScorer)
    started = time.monotonic()
    with pytest.raises(ScorerUnavailableError, match="ConnectError"):
        judge(scorer, [painting(0.5)], [PROMPT])
    assert time.monotonic() - started < 5


def test_a_refused_request_is_not_retried_and_is_an_infrastructure_failure() -> None:
    # A 4xx is not worth retrying; in an evaluation it costs the rollouts it hit (reward
    # None, logged), never the whole batch: one picture the server refuses must not lose the
    # other seven of its group (tests/scoring/judge/test_judge_end_to_end.py).
    with FakeJudgeServer("the-real-model") as fake:
        scorer = JudgeScorer(fake.base_url, "a-misspelt-model", **FAST)
        with pytest.raises(JudgeRequestError, match="does not exist") as info:
            judge(scorer, [painting(0.5)], [PROMPT])
    assert isinstance(info.value, ScorerUnavailableError)
    assert isinstance(info.value, InfrastructureError)
    assert len(fake.requests) == 1  # not retried


def test_a_failing_judge_stops_the_whole_call_at_once() -> None:
    with FakeJudgeServer(always=500) as fake:
        scorer = JudgeScorer(fake.base_url, "fake-vlm", concurrency=1, retries=1, **FAST)
        with pytest.raises(ScorerUnavailableError):
            judge(scorer, [painting(f / 10) for f in range(6)], [PROMPT] * 6)
        seen = len(fake.requests)
        time.sleep(0.3)
        # The other pictures' requests were cancelled, not left retrying in the background.
        assert len(fake.requests) == seen < 12


def test_concurrency_is_limited_and_used() -> None:
    pictures = [painting(f / 10) for f in range(6)]
    with FakeJudgeServer(delay_s=0.15) as fake:
        started = time.monotonic()
        judge(JudgeScorer(fake.base_url, "fake-vlm", concurrency=2, **FAST), pictures, [PROMPT] * 6)
        elapsed = time.monotonic() - started
    assert fake.max_in_flight == 2
    assert elapsed >= 3 * 0.15
    with FakeJudgeServer(delay_s=0.15) as fake:
        judge(JudgeScorer(fake.base_url, "fake-vlm", concurrency=6, **FAST), pictures, [PROMPT] * 6)
    assert fake.max_in_flight > 2


# -- the API key ---------------------------------------------------------------------------------


def test_api_key_is_sent_as_bearer_and_never_shown(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("JUDGE_TEST_KEY", SECRET)
    caplog.set_level(logging.DEBUG)
    with FakeJudgeServer(script=["garbage"]) as fake:
        scorer = make_scorer(f"judge+{fake.base_url}?model=fake-vlm&api_key_env=JUDGE_TEST_KEY")
        assert isinstance(scorer, JudgeScorer)
        judge(scorer, [painting(0.5)], [PROMPT])
    assert {r.authorization for r in fake.requests} == {f"Bearer {SECRET}"}
    assert "JUDGE_TEST_KEY" in repr(scorer)
    for text in (repr(scorer), str(vars(scorer)), scorer.name):
        assert SECRET not in text

    # A server (or proxy) that echoes the header back in its error body.
    with FakeJudgeServer(always="echo_auth") as fake:
        scorer = JudgeScorer(
            fake.base_url, "fake-vlm", api_key_env="JUDGE_TEST_KEY", retries=1, **FAST
        )
        with pytest.raises(ScorerUnavailableError) as info:
            judge(scorer, [painting(0.5)], [PROMPT])
    assert fake.requests[0].authorization == f"Bearer {SECRET}"  # it really did echo the key
    assert SECRET not in str(info.value) and "Bearer ***" in str(info.value)
    assert SECRET not in caplog.text
    assert any("judge" in r.getMessage() for r in caplog.records)  # logs were captured


def test_missing_key_variable_and_keys_in_specs_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("JUDGE_TEST_KEY", raising=False)
    with pytest.raises(ValueError, match=r"\$JUDGE_TEST_KEY"):
        JudgeScorer("http://127.0.0.1:1/v1", "m", api_key_env="JUDGE_TEST_KEY")
    with pytest.raises(ValueError, match="api_key_env") as info:
        make_scorer(f"judge+http://127.0.0.1:1/v1?model=m&api_key={SECRET}")
    assert SECRET not in str(info.value)


# -- pairwise ------------------------------------------------------------------------------------


def test_pairwise_win_rate_asks_every_comparison_in_both_orders() -> None:
    refs = references()  # paint 0.2 .. 0.5
    with FakeJudgeServer() as fake:
        scorer = JudgeScorer(
            fake.base_url, "fake-vlm", mode="pairwise", references=refs, num_references=3, **FAST
        )
        strong, weak = judge(scorer, [painting(0.9), painting(0.05)], [PROMPT] * 2)
    assert strong.value == 1.0 and weak.value == 0.0
    info = meta(strong)
    assert info["mode"] == "pairwise" and info["comparisons"] == 3 and info["requests"] == 6
    assert info["splits"] == 0 and info["dropped"] == 0
    assert scorer.name.startswith("judge-pairwise:fake-vlm")
    # Each drawn reference met the picture once as A and once as B.
    candidate = image_digest(painting(0.9))
    by_id = {r.id: image_digest(r.image()) for r in refs}
    shown = {tuple(r.images) for r in fake.requests if candidate in r.images}
    for ref_id in info["references"].split(","):
        assert (candidate, by_id[ref_id]) in shown and (by_id[ref_id], candidate) in shown


def test_a_judge_that_always_prefers_the_first_image_gives_exactly_one_half() -> None:
    with FakeJudgeServer(always="first") as fake:
        scorer = JudgeScorer(
            fake.base_url,
            "fake-vlm",
            mode="pairwise",
            references=references(),
            num_references=4,
            **FAST,
        )
        strong, weak = judge(scorer, [painting(0.9), painting(0.05)], [PROMPT] * 2)
    # Asked in one order only, this judge would give 1.0 to both; both orders cancel it.
    assert strong.value == weak.value == 0.5
    assert meta(strong)["splits"] == 4 and meta(strong)["comparisons"] == 4


def test_ties_and_mixed_results_average() -> None:
    refs = references(fractions=(0.2, 0.5, 0.8))
    with FakeJudgeServer() as fake:
        scorer = JudgeScorer(
            fake.base_url, "fake-vlm", mode="pairwise", references=refs, num_references=3, **FAST
        )
        (score,) = judge(scorer, [painting(0.5)], [PROMPT])
    # Beats 0.2 (1), ties 0.5 in both orders (0.5), loses to 0.8 (0).
    assert score.value == pytest.approx(0.5)
    assert meta(score)["ties"] == 2 and meta(score)["splits"] == 0


def test_pairwise_unreadable_everywhere_is_unscored() -> None:
    with FakeJudgeServer(always="garbage") as fake:
        scorer = JudgeScorer(
            fake.base_url,
            "fake-vlm",
            mode="pairwise",
            references=references(),
            num_references=2,
            parse_retries=0,
            **FAST,
        )
        (score,) = judge(scorer, [painting(0.5)], [PROMPT])
    assert math.isnan(score.value)
    assert meta(score)["dropped"] == 2 and meta(score)["comparisons"] == 0


def test_same_rollout_meets_the_same_references() -> None:
    refs = references(fractions=(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7))
    pictures = [painting(0.35, (i * 30 % 255, 80, 120)) for i in range(8)]

    def drawn(scorer_refs: Sequence[ReferenceImage], **kw: Any) -> list[str]:
        with FakeJudgeServer() as fake:
            scorer = JudgeScorer(
                fake.base_url,
                "fake-vlm",
                mode="pairwise",
                references=scorer_refs,
                num_references=2,
                **FAST,
            )
            scores = judge(scorer, pictures, [PROMPT] * len(pictures), **kw)
        return [meta(s)["references"] for s in scores]

    first = drawn(refs)
    assert drawn(list(reversed(refs))) == first  # neither a rerun nor the pool's order matters
    assert len(set(first)) > 1  # different rollouts do meet different references
    seeds = [rollout_seed(PROMPT, p) for p in pictures]
    assert first == [",".join(r.id for r in draw_references(refs, TASK, 2, seed)) for seed in seeds]
    # An explicit seed replaces the picture's hash.
    explicit = drawn(refs, seeds=[7] * len(pictures))
    assert set(explicit) == {",".join(r.id for r in draw_references(refs, TASK, 2, 7))}


def test_pairwise_task_comes_from_task_ids_or_known_prompts() -> None:
    from sketch_env.catalog.tasks import get_task

    refs = references() + references("trees/charcoal", (0.9,))
    refs[-1] = ReferenceImage("tree-ref", "trees/charcoal", refs[-1].png)
    with FakeJudgeServer() as fake:
        scorer = JudgeScorer(
            fake.base_url, "fake-vlm", mode="pairwise", references=refs, num_references=4, **FAST
        )
        # The shipped task's prompt is recognised; an explicit task id overrides it.
        task_prompt = get_task(TASK).prompt
        by_prompt, by_id = judge(
            scorer, [painting(0.9)] * 2, [task_prompt] * 2, task_ids=[None, "trees/charcoal"]
        )
        assert "tree-ref" not in meta(by_prompt)["references"]
        assert meta(by_id)["references"] == "tree-ref" and by_id.value == 0.5  # a tie
        before = len(fake.requests)
        with pytest.raises(ValueError, match="cannot tell the task"):
            judge(scorer, [painting(0.5)], ["a prompt no task has"])
        with pytest.raises(ValueError, match="no reference painting for task"):
            judge(scorer, [painting(0.5)], [PROMPT], task_ids=["seascape/pastel"])
        assert len(fake.requests) == before  # refused before asking the judge anything


# -- specs and reference folders -------------------------------------------------------------------


def test_spec_parameters(tmp_path: Path) -> None:
    scorer = make_scorer(
        "judge+http://127.0.0.1:8000/v1/?model=Qwen%2FQwen2.5-VL-7B-Instruct&concurrency=3"
        "&timeout=12.5&retries=0&max_tokens=64"
    )
    assert isinstance(scorer, JudgeScorer)
    assert scorer.base_url == "http://127.0.0.1:8000/v1"
    assert scorer.model == "Qwen/Qwen2.5-VL-7B-Instruct"
    assert (scorer.concurrency, scorer.timeout_s, scorer.retries, scorer.max_tokens) == (
        3,
        12.5,
        0,
        64,
    )
    assert make_scorer("judge+http://h:1/v1?model=a+b").model == "a+b"  # '+' is not a space
    assert make_scorer("judge+http://h:1/v1?model=m", timeout_s=7).timeout_s == 7

    folder = tmp_path / "refs"
    save_reference_images(references(), folder)
    pairwise = make_scorer(f"judge+http://h:1/v1?model=m&mode=pairwise&refs={folder}&k=2")
    assert pairwise.mode == "pairwise" and pairwise.num_references == 2
    assert [r.id for r in pairwise.references] == [r.id for r in references()]

    for bad, message in [
        ("judge+http://h:1/v1", "model=NAME"),
        ("judge+http://h:1/v1?model=m&colour=red", "unknown parameter 'colour'"),
        ("judge+http://h:1/v1?model=m&model=n", "given twice"),
        ("judge+http://h:1/v1?model=m&mode=elo", "mode must be one of"),
        ("judge+http://h:1/v1?model=m&mode=pairwise", "needs refs=DIR"),
        (f"judge+http://h:1/v1?model=m&refs={folder}", "only apply with mode=pairwise"),
        ("judge+ftp://h:1/v1?model=m", "not an http"),
        ("judge+http://h:99999/v1?model=m", "bad port"),
        ("judge+http://h:1/v1?model=m&concurrency=many", "must be an integer"),
        ("judge+http://h:1/v1?model=m&concurrency=0", "out of range"),
    ]:
        with pytest.raises(ValueError, match=message):
            make_scorer(bad)


def test_reference_folders_round_trip_and_are_checked(tmp_path: Path) -> None:
    refs = references()
    manifest = save_reference_images(refs, tmp_path)
    loaded = load_reference_images(tmp_path)
    assert [(r.id, r.task_id, r.png, r.prompt) for r in loaded] == [
        (r.id, r.task_id, r.png, r.prompt) for r in refs
    ]
    (tmp_path / "ref-0.png").write_bytes(references(fractions=(0.9,))[0].png)
    with pytest.raises(ValueError, match="sha256"):
        load_reference_images(tmp_path)
    manifest.write_text('{"references": [{"id": "x", "task_id": "a/b", "file": "../x.png"}]}')
    with pytest.raises(ValueError, match="not found"):
        load_reference_images(tmp_path)
    with pytest.raises(ValueError, match=r"references\.json"):
        load_reference_images(tmp_path / "nowhere")
