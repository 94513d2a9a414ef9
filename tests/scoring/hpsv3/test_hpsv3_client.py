"""`HPSv3Scorer` behaviour that needs no model: batching, retries, round-robin, error mapping.

These run in the main environment in about two seconds. Where the client must meet a
failure the real service cannot produce on demand (a 503, a hang, a malformed answer), they
use `FakeHPSv3Boundary`, a fake of the *external* service boundary (see its docstring). The
real service, with the real hpsv3 code, is exercised in ``test_service.py``.
"""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time

import pytest
from hpsv3_fake_boundary import FakeHPSv3Boundary, fake_mu
from PIL import Image

from sketch_env.scoring.base import Scorer, ScorerUnavailableError, score_sync
from sketch_env.scoring.hpsv3 import HPSv3Scorer, normalize_url
from sketch_env.scoring.hpsv3 import cli as hpsv3_cli
from sketch_env.scoring.hpsv3.provision import HPSv3VenvMissingError, require_venv


def _picture(level: int) -> Image.Image:
    return Image.new("RGB", (64, 48), (level, level, level))


def _closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def test_implements_the_scorer_protocol() -> None:
    scorer = HPSv3Scorer("127.0.0.1:8765")
    assert isinstance(scorer, Scorer)
    assert scorer.name == "hpsv3"


def test_urls_are_normalised_and_may_be_comma_separated() -> None:
    scorer = HPSv3Scorer("127.0.0.1:1, http://[::1]:2/ ,https://h.example/")
    assert scorer.urls == ["http://127.0.0.1:1", "http://[::1]:2", "https://h.example"]
    assert normalize_url("localhost:8765/") == "http://localhost:8765"
    for bad in ("", "ftp://x:1", "http://"):
        with pytest.raises(ValueError):
            normalize_url(bad)
    with pytest.raises(ValueError):
        HPSv3Scorer([])
    with pytest.raises(ValueError):
        HPSv3Scorer("h:1", max_batch=0)


def test_input_errors_are_value_errors_before_any_request() -> None:
    with FakeHPSv3Boundary() as fake:
        scorer = HPSv3Scorer(fake.url)
        with pytest.raises(ValueError, match="2 images but 1 prompts"):
            score_sync(scorer, [_picture(1), _picture(2)], ["p"])
        with pytest.raises(ValueError, match="not a PIL image"):
            score_sync(scorer, ["not an image"], ["p"])  # type: ignore[list-item]
        with pytest.raises(ValueError, match="not a string"):
            score_sync(scorer, [_picture(1)], [3])  # type: ignore[list-item]
        assert score_sync(scorer, [], []) == []
        assert fake.requests == []


def test_concurrent_calls_are_merged_and_each_gets_its_own_scores() -> None:
    levels = [10, 60, 110, 160, 210]

    async def run(scorer: HPSv3Scorer) -> list:
        async with scorer:
            return await asyncio.gather(*(scorer.score([_picture(v)], ["p"]) for v in levels))

    with FakeHPSv3Boundary() as fake:
        results = asyncio.run(run(HPSv3Scorer(fake.url, max_batch=8, coalesce_s=0.05)))
    assert fake.batch_sizes == [5]  # one request for five concurrent callers
    for level, [score] in zip(levels, results, strict=True):
        assert score.value == pytest.approx(fake_mu(_picture(level)))
        assert score.sigma == 1.0


def test_a_large_call_is_split_into_max_batch_requests_in_order() -> None:
    pictures = [_picture(20 * i) for i in range(10)]
    with FakeHPSv3Boundary() as fake:
        scores = score_sync(HPSv3Scorer(fake.url, max_batch=4), pictures, ["p"] * 10)
    assert sorted(fake.batch_sizes) == [2, 4, 4]
    assert [s.value for s in scores] == pytest.approx([fake_mu(p) for p in pictures])


def test_a_5xx_is_retried_with_backoff() -> None:
    with FakeHPSv3Boundary(script=[503]) as fake:
        started = time.perf_counter()
        scores = score_sync(HPSv3Scorer(fake.url, retries=1, backoff_s=0.2), [_picture(50)], ["p"])
        elapsed = time.perf_counter() - started
    assert [r["action"] for r in fake.requests] == [503, None]
    assert elapsed >= 0.2
    assert scores[0].value == pytest.approx(fake_mu(_picture(50)))


def test_retries_back_off_exponentially_then_report_unavailable() -> None:
    with FakeHPSv3Boundary(script=[500, 503, 502]) as fake:
        scorer = HPSv3Scorer(fake.url, retries=2, backoff_s=0.1)
        started = time.perf_counter()
        with pytest.raises(ScorerUnavailableError) as error:
            score_sync(scorer, [_picture(1)], ["p"])
        elapsed = time.perf_counter() - started
    assert len(fake.requests) == 3
    assert elapsed >= 0.1 + 0.2  # 0.1 s before the first retry, 0.2 s before the second
    message = str(error.value)
    assert fake.url in message and "HTTP 502" in message and "3 attempt" in message
    assert "sketch-env hpsv3 serve" in message


def test_a_4xx_is_the_callers_bug_and_is_not_retried() -> None:
    with (
        FakeHPSv3Boundary(script=[400]) as fake,
        pytest.raises(ValueError, match="scripted HTTP 400"),
    ):
        score_sync(HPSv3Scorer(fake.url, retries=3), [_picture(1)], ["p"])
    assert len(fake.requests) == 1


def test_a_refused_caller_does_not_fail_the_callers_merged_with_it() -> None:
    async def run(scorer: HPSv3Scorer) -> list:
        async with scorer:
            return await asyncio.gather(
                scorer.score([_picture(30)], ["fine"]),
                scorer.score([_picture(40)], ["BAD prompt"]),
                scorer.score([_picture(50)], ["fine too"]),
                return_exceptions=True,
            )

    with FakeHPSv3Boundary(reject_prompt="BAD") as fake:
        good, bad, good_too = asyncio.run(run(HPSv3Scorer(fake.url, coalesce_s=0.05)))
    assert fake.batch_sizes[0] == 3  # they were merged, then resent one caller at a time
    assert isinstance(bad, ValueError) and "BAD" in str(bad)
    assert good[0].value == pytest.approx(fake_mu(_picture(30)))
    assert good_too[0].value == pytest.approx(fake_mu(_picture(50)))


def test_a_timeout_is_unavailable() -> None:
    with (
        FakeHPSv3Boundary(script=["hang"], hang_s=1.5) as fake,
        pytest.raises(ScorerUnavailableError, match="timed out"),
    ):
        score_sync(HPSv3Scorer(fake.url, timeout_s=0.3, retries=0), [_picture(1)], ["p"])


def test_connection_refused_is_unavailable_and_names_the_url_and_the_fix() -> None:
    url = _closed_port_url()
    with pytest.raises(ScorerUnavailableError) as error:
        score_sync(HPSv3Scorer(url, retries=1, backoff_s=0.01), [_picture(1)], ["p"])
    message = str(error.value)
    assert url in message and "ConnectError" in message
    assert "sketch-env hpsv3 serve" in message and "sketch-env hpsv3 setup" in message


def test_a_malformed_answer_is_unavailable() -> None:
    with (
        FakeHPSv3Boundary(script=["garbage"]) as fake,
        pytest.raises(ScorerUnavailableError, match="malformed"),
    ):
        score_sync(HPSv3Scorer(fake.url, retries=0), [_picture(1)], ["p"])


def test_requests_go_round_robin_and_fail_over_to_the_next_url() -> None:
    with FakeHPSv3Boundary() as a, FakeHPSv3Boundary() as b:
        scorer = HPSv3Scorer([a.url, b.url], coalesce_s=0)
        for level in range(4):
            score_sync(scorer, [_picture(level)], ["p"])
        assert (len(a.requests), len(b.requests)) == (2, 2)

        dead = _closed_port_url()
        scorer = HPSv3Scorer([dead, a.url], retries=1, backoff_s=0.01, coalesce_s=0)
        for level in range(3):
            [score] = score_sync(scorer, [_picture(level)], ["p"])
            assert score.value == pytest.approx(fake_mu(_picture(level)))


def test_one_scorer_serves_several_event_loops_in_turn() -> None:
    with FakeHPSv3Boundary() as fake:
        scorer = HPSv3Scorer(fake.url)
        first = score_sync(scorer, [_picture(70)], ["p"])
        second = score_sync(scorer, [_picture(70)], ["p"])
    assert first == second


def test_importing_the_client_never_imports_torch_or_hpsv3() -> None:
    code = (
        "import sys, sketch_env.scoring.hpsv3, sketch_env.scoring.hpsv3.cli;"
        "heavy = [m for m in ('torch', 'transformers', 'hpsv3') if m in sys.modules];"
        "assert not heavy, heavy"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_subcommand_is_registered_in_sketch_env_cli() -> None:
    from sketch_env.cli import SUBCOMMANDS

    assert SUBCOMMANDS["hpsv3"][0] == "sketch_env.scoring.hpsv3.cli"


def test_a_missing_venv_names_the_setup_command(tmp_path, capsys) -> None:
    missing = tmp_path / "no-venv"
    with pytest.raises(HPSv3VenvMissingError, match=r"sketch-env hpsv3 setup --venv"):
        require_venv(missing)
    status = hpsv3_cli.main(
        ["serve", "--venv", str(missing), "--model-dir", "m", "--checkpoint", "c"]
    )
    assert status == 1
    assert "sketch-env hpsv3 setup" in capsys.readouterr().err
