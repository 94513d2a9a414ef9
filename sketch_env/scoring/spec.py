"""Scorer spec strings: how a user names a scorer on the command line, in a config or in code.

Valid specs:

- ``"anchored"`` (`DEFAULT_SCORER`): the embedded `AnchoredScorer`, how typical the picture is
  of its task's reference paintings (CPU, reads the pool's ``features.json``); the only
  embedded scorer a search does not beat (docs/reward.md, "What search finds").
- ``"heuristic"``: the embedded `HeuristicScorer` (image statistics and a small text reader on
  the CPU, ignores prompts). Every one of its terms saturates at "busy": a blind search reaches
  its maximum, so it is kept for comparison and tests, not for training.
- ``"hpsv3"``: the HPSv3 service at ``$SKETCH_ENV_HPSV3_URL``, else `DEFAULT_HPSV3_URL`.
- ``"hpsv3+http://host:port"``: the HPSv3 service at that URL (a bare ``host:port`` means
  ``http://``); several services are given comma-separated
  (``"hpsv3+http://a:8765,http://b:8765"``) and are used round-robin.
- ``"judge+http://host:port/v1?model=NAME[&mode=pairwise&refs=DIR...]"``: a vision-language
  model judge behind an OpenAI-compatible API (`sketch_env.scoring.judge.spec` has the full
  syntax; docs/judge.md the rubric and costs).

A `Scorer` object passed instead of a string is returned unchanged, so every function that
takes a spec also takes a ready scorer (for tests, or a scorer with non-default options).
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from sketch_env.scoring.base import Scorer
from sketch_env.scoring.heuristic import HeuristicScorer
from sketch_env.specs import parse_spec

__all__ = [
    "DEFAULT_HPSV3_URL",
    "DEFAULT_SCORER",
    "HPSV3_URL_ENV",
    "VALID_SPECS",
    "make_scorer",
    "parse_hpsv3_urls",
]

#: The scorer every entry point uses when none is named.
DEFAULT_SCORER = "anchored"

#: Where ``sketch-env hpsv3 serve`` listens by default.
DEFAULT_HPSV3_URL = "http://127.0.0.1:8765"
#: Environment variable that overrides the URL behind the bare ``"hpsv3"`` spec.
HPSV3_URL_ENV = "SKETCH_ENV_HPSV3_URL"
#: The spec forms, as shown in error messages.
VALID_SPECS = (
    "anchored",
    "heuristic",
    "hpsv3",
    "hpsv3+http://host:port[,http://host2:port...]",
    "judge+http://host:port/v1?model=NAME[&mode=pairwise&refs=DIR...]",
)


def parse_hpsv3_urls(spec: str) -> list[str]:
    """Returns the service URLs named by an ``hpsv3`` spec.

    Args:
        spec: ``"hpsv3"`` or ``"hpsv3+URL[,URL...]"``.

    Returns:
        One or more ``http(s)://host:port`` URLs without a trailing slash.

    Raises:
        ValueError: If the spec is not an ``hpsv3`` spec or a URL is malformed.

    Examples:
        >>> parse_hpsv3_urls("hpsv3+http://10.0.0.2:8765, 10.0.0.3:8765/")
        ['http://10.0.0.2:8765', 'http://10.0.0.3:8765']
    """
    parsed = parse_spec(spec, what="scorer spec")
    if parsed.kind != "hpsv3" or parsed.url_form:
        raise ValueError(f"not an hpsv3 scorer spec: {spec!r}")
    if parsed.params:
        raise ValueError(f"scorer spec {spec!r}: hpsv3 takes no parameters")
    urls = [url.rstrip("/") for url in parsed.targets]
    if not urls:
        if "+" in spec:
            raise ValueError(f"scorer spec {spec!r} names no URL after 'hpsv3+'")
        urls = [(os.environ.get(HPSV3_URL_ENV) or DEFAULT_HPSV3_URL).rstrip("/")]
    # A bare host:port means plain HTTP, as the client itself reads it.
    urls = [url if "://" in url else f"http://{url}" for url in urls]
    for url in urls:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"scorer spec {spec!r}: {url!r} is not an http(s)://host:port URL")
        try:
            parts.port  # noqa: B018 - urlsplit validates the port only when it is read.
        except ValueError as err:
            raise ValueError(f"scorer spec {spec!r}: bad port in {url!r}") from err
    return urls


def make_scorer(spec: str | Scorer, *, timeout_s: float = 60.0) -> Scorer:
    """Builds the scorer a spec names.

    The HPSv3 and judge clients are imported only when a spec asks for them, so the heuristic
    scorer works in an installation without the clients' dependencies.

    Args:
        spec: A spec string (see the module docstring) or a ready `Scorer`.
        timeout_s: Per-request timeout for the HPSv3 client, and for a judge whose spec
            gives no ``timeout``; ignored by the heuristic scorer.

    Returns:
        The scorer.

    Raises:
        ValueError: If the spec is not one of `VALID_SPECS` or a URL in it is malformed.
        TypeError: If ``spec`` is neither a string nor a `Scorer`.

    Examples:
        >>> make_scorer("heuristic").name
        'heuristic'
        >>> make_scorer("preference")
        Traceback (most recent call last):
        ...
        ValueError: unknown scorer spec 'preference'; valid specs: anchored, heuristic, hpsv3, \
hpsv3+http://host:port[,http://host2:port...], \
judge+http://host:port/v1?model=NAME[&mode=pairwise&refs=DIR...]
    """
    if not isinstance(spec, str):
        if isinstance(spec, Scorer):
            return spec
        raise TypeError(f"expected a scorer spec string or a Scorer, got {type(spec).__name__}")
    kind = parse_spec(spec, what="scorer spec").kind
    if kind == "heuristic" and spec.strip().lower() == "heuristic":
        return HeuristicScorer()
    if kind == "anchored" and spec.strip().lower() == "anchored":
        # Imported here: it reads the pool's features when built.
        from sketch_env.scoring.anchored import AnchoredScorer

        return AnchoredScorer()
    if kind == "hpsv3":
        urls = parse_hpsv3_urls(spec)
        # Imported here: the client pulls in an HTTP stack the heuristic path never needs.
        from sketch_env.scoring.hpsv3 import HPSv3Scorer

        return HPSv3Scorer(urls, timeout_s=timeout_s)
    if kind == "judge":
        # Imported here for the same reason as the HPSv3 client.
        from sketch_env.scoring.judge.spec import judge_from_spec

        return judge_from_spec(spec, timeout_s=timeout_s)
    raise ValueError(f"unknown scorer spec {spec!r}; valid specs: {', '.join(VALID_SPECS)}")
