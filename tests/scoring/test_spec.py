"""Scorer spec strings: ``make_scorer`` and the HPSv3 URL lists it reads."""

from __future__ import annotations

import pytest

from sketch_env.scoring import HeuristicScorer, make_scorer
from sketch_env.scoring.spec import DEFAULT_HPSV3_URL, HPSV3_URL_ENV, parse_hpsv3_urls


def test_make_scorer_heuristic_and_passthrough() -> None:
    assert isinstance(make_scorer("heuristic"), HeuristicScorer)
    assert isinstance(make_scorer("  Heuristic "), HeuristicScorer)
    ready = HeuristicScorer()
    assert make_scorer(ready) is ready


def test_make_scorer_unknown_lists_valid_specs() -> None:
    with pytest.raises(ValueError, match=r"unknown scorer spec 'preference'.*heuristic.*hpsv3"):
        make_scorer("preference")
    with pytest.raises(ValueError, match="unknown scorer spec"):
        make_scorer("heuristic+http://x:1")
    with pytest.raises(TypeError):
        make_scorer(42)  # type: ignore[arg-type]


def test_hpsv3_specs(monkeypatch: pytest.MonkeyPatch) -> None:
    from sketch_env.scoring.hpsv3 import HPSv3Scorer

    monkeypatch.delenv(HPSV3_URL_ENV, raising=False)
    default = make_scorer("hpsv3")
    assert isinstance(default, HPSv3Scorer)
    assert default.urls == [DEFAULT_HPSV3_URL]

    monkeypatch.setenv(HPSV3_URL_ENV, "http://gpu-box:9000")
    assert make_scorer("hpsv3").urls == ["http://gpu-box:9000"]

    several = make_scorer("hpsv3+http://a:8765, https://b:443/ ,c:8000", timeout_s=5)
    assert several.urls == ["http://a:8765", "https://b:443", "http://c:8000"]
    assert several.timeout_s == 5


@pytest.mark.parametrize(
    "spec", ["hpsv3+", "hpsv3+ftp://host:1", "hpsv3+http://:8765", "hpsv3+http://h:port"]
)
def test_bad_hpsv3_specs(spec: str) -> None:
    with pytest.raises(ValueError, match="scorer spec"):
        parse_hpsv3_urls(spec)
