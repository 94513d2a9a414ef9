"""The real HPSv3 service, end to end, through the real ``hpsv3`` 1.0.0 code on CPU.

A tiny random Qwen2-VL (built by ``tinymodel.py`` in the HPSv3 venv) is served by
``service.py`` in its own process and venv; the tests talk to it over HTTP, through
`HPSv3Scorer` and through raw requests. The numbers are meaningless (random weights); shapes,
batching, determinism, isolation of concurrent requests and error handling are what is tested.

Run as its own stage: ``sketch-env hpsv3 setup`` then ``pytest -m hpsv3``.
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import math
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image, ImageDraw

from sketch_env.scoring.base import Score, ScorerUnavailableError, score_sync
from sketch_env.scoring.hpsv3 import HPSv3Scorer, provision

pytestmark = pytest.mark.hpsv3

PROMPTS = [
    "a peach hibiscus in loose watercolour",
    "a quiet harbour at dusk, charcoal",
    "sun",
    "",
    "three pears on a blue cloth, pastel and crayon, thick strokes and soft washes",
    "a garden",
    "x" * 300,
    "an orange cat asleep on a windowsill",
]


def painting(seed: int, size: tuple[int, int] = (600, 600)) -> Image.Image:
    """A distinct, deterministic picture per seed: a paper tone and a few coloured shapes."""
    rng = random.Random(seed)
    image = Image.new("RGB", size, tuple(rng.randrange(200, 256) for _ in range(3)))
    draw = ImageDraw.Draw(image)
    w, h = size
    for _ in range(12):
        x0, y0 = rng.randrange(w), rng.randrange(h)
        x1, y1 = x0 + rng.randrange(20, w // 2), y0 + rng.randrange(20, h // 2)
        colour = tuple(rng.randrange(256) for _ in range(3))
        if rng.random() < 0.5:
            draw.ellipse((x0, y0, x1, y1), fill=colour)
        else:
            draw.line((x0, y0, x1, y1), fill=colour, width=rng.randrange(2, 12))
    return image


PICTURES = [painting(seed) for seed in range(len(PROMPTS))]


def png_b64(image: Image.Image) -> str:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return base64.b64encode(buffer.getvalue()).decode()


def post(url: str, payload: Any = None, content: bytes | None = None) -> httpx.Response:
    if content is None:
        content = json.dumps(payload).encode()
    return httpx.post(url + "/score", content=content, timeout=120, trust_env=False)


def one_by_one(url: str) -> list[Score]:
    scorer = HPSv3Scorer(url, coalesce_s=0)
    return [score_sync(scorer, [p], [t])[0] for p, t in zip(PICTURES, PROMPTS, strict=True)]


@pytest.fixture(scope="module")
def reference(hpsv3_service: provision.ServiceProcess) -> list[Score]:
    """Every picture scored alone: the numbers every other path must reproduce exactly."""
    return one_by_one(hpsv3_service.url)


def test_health_reports_the_loaded_model(hpsv3_service: provision.ServiceProcess) -> None:
    health = httpx.get(hpsv3_service.url + "/health", trust_env=False).json()
    assert health["status"] == "ok" and health["model_loaded"] is True
    assert health["device"] == "cpu"
    assert health["versions"]["hpsv3"] == "1.0.0"
    assert health["versions"]["transformers"] == "4.45.2"
    assert health["versions"]["torch"].startswith("2.13.0")
    assert health["model"]["dtype"] == "bfloat16"  # hpsv3's own config: bf16 body, fp32 head
    assert health["max_batch"] == 4
    assert health["limits"]["max_images"] == 12


def test_scores_have_one_finite_mu_and_positive_sigma_per_picture(
    hpsv3_service: provision.ServiceProcess, reference: list[Score]
) -> None:
    assert len(reference) == len(PICTURES)
    for score in reference:
        assert isinstance(score, Score)
        assert math.isfinite(score.value)
        assert score.sigma is not None and score.sigma > 0
    # Distinct pictures must score differently, or the mixing tests below would prove nothing.
    assert len({s.value for s in reference}) == len(reference)

    response = post(
        hpsv3_service.url, {"prompts": PROMPTS[:3], "images": [png_b64(p) for p in PICTURES[:3]]}
    )
    assert response.status_code == 200
    rows = response.json()["scores"]
    assert len(rows) == 3
    for row, score in zip(rows, reference[:3], strict=True):
        assert row["mu"] == score.value
        assert row["sigma"] == math.exp(row["log_sigma"]) == score.sigma


def test_a_batch_scores_bit_identically_to_one_by_one(
    hpsv3_service: provision.ServiceProcess, reference: list[Score]
) -> None:
    # max_batch is 4 on the service and 8 here: 8 pictures of different prompt lengths go as
    # one request, in two forward passes of 4 with right padding.
    scores = score_sync(HPSv3Scorer(hpsv3_service.url, max_batch=8), PICTURES, PROMPTS)
    assert scores == reference


def test_scores_are_deterministic_across_calls(
    hpsv3_service: provision.ServiceProcess, reference: list[Score]
) -> None:
    scorer = HPSv3Scorer(hpsv3_service.url)
    for _ in range(2):
        assert score_sync(scorer, PICTURES[:3], PROMPTS[:3]) == reference[:3]


def test_concurrent_requests_never_mix_pictures(
    hpsv3_service: provision.ServiceProcess, reference: list[Score]
) -> None:
    url = hpsv3_service.url
    before = httpx.get(url + "/health", trust_env=False).json()["stats"]

    async def separate_clients() -> list[list[float]]:
        # Eight independent clients (separate connections), all at once: only the service's
        # queue can merge them, and it must hand every score back to its own request.
        async def one(i: int) -> list[float]:
            async with httpx.AsyncClient(timeout=120, trust_env=False) as client:
                body = {"prompts": [PROMPTS[i]], "images": [png_b64(PICTURES[i])]}
                response = await client.post(url + "/score", json=body)
                response.raise_for_status()
                return [row["mu"] for row in response.json()["scores"]]

        return await asyncio.gather(*(one(i) for i in reversed(range(len(PICTURES)))))

    results = list(reversed(asyncio.run(separate_clients())))
    assert [r[0] for r in results] == [s.value for s in reference]
    after = httpx.get(url + "/health", trust_env=False).json()
    assert after["stats"]["requests"] - before["requests"] == len(PICTURES)
    # Fewer forward passes than requests: the service merged concurrent requests.
    assert after["stats"]["batches"] - before["batches"] < len(PICTURES)

    async def one_scorer() -> list[list[Score]]:
        # One client, eight concurrent calls of mixed sizes: the client merges and splits.
        async with HPSv3Scorer(url, max_batch=4) as scorer:
            calls = [(0, 1), (1, 4), (4, 5), (5, 8)]
            return await asyncio.gather(
                *(scorer.score(PICTURES[a:b], PROMPTS[a:b]) for a, b in calls)
            )

    merged = [s for part in asyncio.run(one_scorer()) for s in part]
    assert merged == reference


def test_bad_input_gets_a_4xx_with_a_message(hpsv3_service: provision.ServiceProcess) -> None:
    url = hpsv3_service.url
    good = png_b64(PICTURES[0])
    jpeg = io.BytesIO()
    PICTURES[0].save(jpeg, format="JPEG")
    damaged = base64.b64decode(good)[:200]
    # 1000x1000 random pixels stored uncompressed: under the pixel limit, over 2 MiB of PNG.
    noise = io.BytesIO()
    Image.frombytes("RGB", (1000, 1000), os.urandom(3_000_000)).save(noise, "PNG", compress_level=0)
    noisy = base64.b64encode(noise.getvalue()).decode()
    cases: list[tuple[Any, int, str]] = [
        (
            {"prompts": ["p"], "images": [base64.b64encode(jpeg.getvalue()).decode()]},
            400,
            "not a PNG",
        ),
        ({"prompts": ["p"], "images": ["%%% not base64 %%%"]}, 400, "not valid base64"),
        ({"prompts": ["p"], "images": [base64.b64encode(damaged).decode()]}, 400, "damaged PNG"),
        ({"prompts": ["p", "q"], "images": [good]}, 400, "count mismatch: 1 images but 2 prompts"),
        ({"prompts": [], "images": []}, 400, "empty batch"),
        ({"prompts": [7], "images": [good]}, 400, "prompts[0] must be a string"),
        ({"prompts": ["p"], "images": [good], "extra": 1}, 400, "unknown fields"),
        ([1, 2], 400, "JSON object"),
        ({"prompts": ["p"] * 13, "images": [good] * 13}, 413, "over the limit of 12"),
        ({"prompts": ["p" * 2001], "images": [good]}, 413, "over 2000"),
        ({"prompts": ["p"], "images": [png_b64(Image.new("RGB", (1300, 1000)))]}, 413, "1300x1000"),
        ({"prompts": ["p"], "images": [noisy]}, 413, "over the 2097152-byte limit"),
    ]
    for payload, status, message in cases:
        response = post(url, payload)
        assert response.status_code == status, (
            payload if len(str(payload)) < 200 else message,
            response.text,
        )
        assert message in response.json()["detail"]

    response = post(url, content=b"{not json")
    assert response.status_code == 400 and "not valid JSON" in response.json()["detail"]
    response = post(url, content=b" " * (6 * 1024 * 1024 + 1))
    assert response.status_code == 413 and "limit" in response.json()["detail"]

    # The service still scores after all that.
    assert post(url, {"prompts": ["p"], "images": [good]}).status_code == 200


def test_the_client_maps_a_refusal_to_value_error(hpsv3_service: provision.ServiceProcess) -> None:
    scorer = HPSv3Scorer(hpsv3_service.url, retries=2)
    with pytest.raises(ValueError, match="over 2000"):
        score_sync(scorer, [PICTURES[0]], ["p" * 2001])
    with pytest.raises(ValueError, match="1 images but 2 prompts"):
        score_sync(scorer, [PICTURES[0]], ["p", "q"])


def test_a_second_process_started_by_the_cli_gives_identical_scores_and_round_robin_works(
    hpsv3_service: provision.ServiceProcess,
    tiny_model: dict[str, Any],
    reference: list[Score],
    tmp_path: Path,
) -> None:
    ready = tmp_path / "ready.json"
    log = open(tmp_path / "cli_service.log", "wb")  # noqa: SIM115 (closed below)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sketch_env.scoring.hpsv3.cli",
            "serve",
            "--model-dir",
            tiny_model["model_dir"],
            "--checkpoint",
            tiny_model["checkpoint"],
            "--device",
            "cpu",
            "--port",
            "0",
            "--ready-file",
            str(ready),
            "--log-level",
            "warning",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 240
        while not ready.exists():
            assert process.poll() is None, (tmp_path / "cli_service.log").read_text()
            assert time.monotonic() < deadline, "the CLI-started service never became ready"
            time.sleep(0.1)
        second = json.loads(ready.read_text())["url"]
        assert json.loads(ready.read_text())["pid"] == process.pid  # serve exec()s the service

        # Same weights, another process: bit-identical scores.
        assert one_by_one(second) == reference

        # Round-robin over both services: each gets half of the requests.
        urls = [hpsv3_service.url, second]
        counts = [
            httpx.get(u + "/health", trust_env=False).json()["stats"]["requests"] for u in urls
        ]
        scorer = HPSv3Scorer(urls, coalesce_s=0)
        for i in range(4):
            assert score_sync(scorer, [PICTURES[i]], [PROMPTS[i]]) == [reference[i]]
        new_counts = [
            httpx.get(u + "/health", trust_env=False).json()["stats"]["requests"] for u in urls
        ]
        assert [n - c for n, c in zip(new_counts, counts, strict=True)] == [2, 2]
    finally:
        process.terminate()
        process.wait(30)
        log.close()

    # That service is gone now: alone it is unavailable; beside a live one, it is failed over.
    with pytest.raises(ScorerUnavailableError) as error:
        score_sync(HPSv3Scorer(second, retries=1, backoff_s=0.05), [PICTURES[0]], [PROMPTS[0]])
    assert second in str(error.value) and "sketch-env hpsv3 serve" in str(error.value)
    scorer = HPSv3Scorer([second, hpsv3_service.url], retries=1, backoff_s=0.05, coalesce_s=0)
    for i in range(2):
        assert score_sync(scorer, [PICTURES[i]], [PROMPTS[i]]) == [reference[i]]


def test_the_tiny_model_is_reproducible_and_small(
    tiny_model: dict[str, Any], tmp_path: Path
) -> None:
    assert tiny_model["bytes"] < 4 * 1024 * 1024
    assert tiny_model["vocab_size"] < 700
    assert tiny_model["reward_token_id"] == tiny_model["vocab_size"]  # the added <|Reward|>
    # Rebuilt through the command line, which prints the manifest.
    command = [sys.executable, "-m", "sketch_env.scoring.hpsv3.cli", "make-tiny"]
    command += ["--out", str(tmp_path / "again"), "--seed", str(tiny_model["seed"])]
    rebuilt = json.loads(subprocess.run(command, capture_output=True, check=True).stdout)
    same = Path(tiny_model["checkpoint"]).read_bytes() == Path(rebuilt["checkpoint"]).read_bytes()
    assert same, "the same seed must give the same checkpoint, byte for byte"
    assert rebuilt["smoke_scores"] == tiny_model["smoke_scores"]


def test_the_service_never_touches_the_network_for_the_model(tiny_model: dict[str, Any]) -> None:
    config = Path(tiny_model["config"]).read_text()
    assert f"model_name_or_path: {tiny_model['model_dir']}" in config
    assert "Qwen/" not in config
    assert os.path.isabs(tiny_model["model_dir"])
