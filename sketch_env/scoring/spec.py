"""Scorer spec strings: how a user names a scorer on the command line, in a config or in code.

Valid specs:

- ``"vision"`` (`DEFAULT_SCORER`): the embedded `VisionScorer`, the reference pool's judgement
  of the picture through a small image network (CPU, reads the pool's ``vision.npz``): where it
  lies between the pool's weak and loved paintings, whether it shows the prompt's subject in the
  prompt's medium, and whether it is a painting at all. It ranks paintings and holds under
  search (docs/reward.md). Parameters: ``vision?beta=10&medium_knee=0.25...`` (its arguments of
  the same names; ``refit_every=N`` makes its discriminator keep learning).
- ``"anchored"``: the embedded `AnchoredScorer`, how typical the picture is of its task's
  reference paintings (CPU, reads the pool's ``features.json``): hard to beat by blind search
  but it cannot tell a fine painting from a weak one. Parameters:
  ``anchored?kappa=1&typical_quantile=0.75`` (its arguments of the same names). The reference
  pool the embedded scorers read is `EvaluationConfig.pool_dir` (``make_scorer(...,
  pool_dir=...)``).
- ``"heuristic"``: the embedded `HeuristicScorer` (image statistics and a small text reader on
  the CPU, ignores prompts). Every one of its terms saturates at "busy": a blind search reaches
  its maximum, so it is kept for comparison and tests, not for training. Parameter:
  ``heuristic?read_text=0`` (or ``1``).
- ``"hpsv3"``: the HPSv3 service at ``$SKETCH_ENV_HPSV3_URL``, else `DEFAULT_HPSV3_URL`.
- ``"hpsv3+http://host:port"``: the HPSv3 service at that URL (a bare ``host:port`` means
  ``http://``); several services are given comma-separated
  (``"hpsv3+http://a:8765,http://b:8765"``) and are used round-robin.
- ``"judge+http://host:port/v1?model=NAME[&mode=pairwise&refs=DIR...]"``: a vision-language
  model judge behind an OpenAI-compatible API (`sketch_env.scoring.judge.spec` has the full
  syntax; docs/judge.md the rubric and costs).

Every scorer states its scale (`ScoreScale`); `spec_scale` reads it from a spec without
building the scorer (the manifest's reward range needs it, and no service need be up).

A `Scorer` object passed instead of a string is returned unchanged, so every function that
takes a spec also takes a ready scorer (for tests, or a scorer with non-default options).
"""

from __future__ import annotations

import importlib
import inspect
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from sketch_env.scoring.base import Scorer, ScoreScale, scale_of
from sketch_env.specs import parse_spec

__all__ = [
    "DEFAULT_HPSV3_URL",
    "DEFAULT_SCORER",
    "EMBEDDED_SCORERS",
    "HPSV3_URL_ENV",
    "VALID_SPECS",
    "Embedded",
    "make_scorer",
    "parse_hpsv3_urls",
    "spec_scale",
]

#: The scorer every entry point uses when none is named.
DEFAULT_SCORER = "vision"

#: Where ``sketch-env hpsv3 serve`` listens by default.
DEFAULT_HPSV3_URL = "http://127.0.0.1:8765"
#: Environment variable that overrides the URL behind the bare ``"hpsv3"`` spec.
HPSV3_URL_ENV = "SKETCH_ENV_HPSV3_URL"


@dataclass(frozen=True)
class Embedded:
    """An embedded scorer, as its spec names it: where its class lives and which keyword
    arguments its spec parameters are (a parameter's type reads its text: ``float``, ``int``, or
    ``bool`` as 0/1). A class that takes ``pool_dir`` is given `EvaluationConfig.pool_dir`.

    Args:
        form: The spec's form, as error messages show it.
        module: The module that defines it (imported only when a spec names it).
        cls: The class's name there.
        params: Spec parameter -> its type.
    """

    form: str
    module: str
    cls: str
    params: Mapping[str, type] = field(default_factory=dict)

    def load(self) -> type:
        """The scorer's class."""
        found: type = getattr(importlib.import_module(self.module), self.cls)
        return found


#: The embedded scorers by spec name: a new one is its module and one entry here.
EMBEDDED_SCORERS: Mapping[str, Embedded] = {
    "anchored": Embedded(
        "anchored[?kappa=K&typical_quantile=Q]",
        "sketch_env.scoring.anchored",
        "AnchoredScorer",
        {"kappa": float, "typical_quantile": float},
    ),
    "heuristic": Embedded(
        "heuristic[?read_text=0|1]",
        "sketch_env.scoring.heuristic",
        "HeuristicScorer",
        {"read_text": bool},
    ),
    "vision": Embedded(
        "vision[?beta=B&subject_lambda=L&medium_knee=M&presence_full=F&painting_knee=P&realism_slack=S&quality_midpoint=Q&quality_neighbours=K&quality_regions=R&quality_both=0|1&refit_every=N&refit_window=W]",
        "sketch_env.scoring.vision.scorer",
        "VisionScorer",
        {
            "beta": float,
            "subject_lambda": float,
            "medium_knee": float,
            "presence_full": float,
            "painting_knee": float,
            "realism_slack": float,
            "quality_midpoint": float,
            "quality_neighbours": int,
            "quality_regions": int,
            "quality_both": bool,
            "refit_every": int,
            "refit_window": int,
        },
    ),
}

#: The spec forms, as shown in error messages.
VALID_SPECS = (
    *(embedded.form for embedded in EMBEDDED_SCORERS.values()),
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


def _embedded_params(spec: str, kind: str, params: Mapping[str, str]) -> dict[str, Any]:
    """An embedded scorer's spec parameters as keyword arguments."""
    known = EMBEDDED_SCORERS[kind].params
    unknown = sorted(set(params) - set(known))
    if unknown:
        takes = ", ".join(known) or "no parameters"
        raise ValueError(f"scorer spec {spec!r}: {kind} takes {takes}, not {unknown}")
    out: dict[str, Any] = {}
    for name, text in params.items():
        if known[name] is bool:
            if text.lower() not in ("0", "1", "true", "false"):
                raise ValueError(f"scorer spec {spec!r}: {name} must be 0 or 1, got {text!r}")
            out[name] = text.lower() in ("1", "true")
        elif known[name] is int:
            try:
                out[name] = int(text)
            except ValueError:
                raise ValueError(
                    f"scorer spec {spec!r}: {name} must be a whole number, got {text!r}"
                ) from None
        else:
            try:
                out[name] = float(text)
            except ValueError:
                raise ValueError(
                    f"scorer spec {spec!r}: {name} must be a number, got {text!r}"
                ) from None
    return out


def make_scorer(
    spec: str | Scorer, *, timeout_s: float = 60.0, pool_dir: str | None = None
) -> Scorer:
    """Builds the scorer a spec names.

    Every scorer's module is imported only when a spec asks for it, so the embedded scorers work
    in an installation without the clients' dependencies.

    Args:
        spec: A spec string (see the module docstring) or a ready `Scorer`.
        timeout_s: Per-request timeout for the HPSv3 client, and for a judge whose spec
            gives no ``timeout``; ignored by the embedded scorers.
        pool_dir: The reference pool the embedded scorers read (``None``: the shipped pool,
            or ``$SKETCH_ENV_REFERENCE_POOL``); ignored by the others.

    Returns:
        The scorer.

    Raises:
        ValueError: If the spec is not one of `VALID_SPECS`, a parameter is unknown or bad, or a
            URL in it is malformed.
        TypeError: If ``spec`` is neither a string nor a `Scorer`.

    Examples:
        >>> make_scorer("heuristic?read_text=0").read_text
        False
        >>> make_scorer("preference")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: unknown scorer spec 'preference'; valid specs: anchored[...], \
heuristic[...], vision[...], hpsv3, ...
    """
    if not isinstance(spec, str):
        if isinstance(spec, Scorer):
            return spec
        raise TypeError(f"expected a scorer spec string or a Scorer, got {type(spec).__name__}")
    parsed = parse_spec(spec, what="scorer spec")
    kind = parsed.kind
    if kind in EMBEDDED_SCORERS and not parsed.targets and "+" not in spec:
        options = _embedded_params(spec, kind, parsed.params)
        cls = EMBEDDED_SCORERS[kind].load()
        if "pool_dir" in inspect.signature(cls).parameters:
            options["pool_dir"] = pool_dir
        scorer: Scorer = cls(**options)
        return scorer
    if kind == "hpsv3":
        urls = parse_hpsv3_urls(spec)
        # Imported here: the client pulls in an HTTP stack the embedded scorers never need.
        from sketch_env.scoring.hpsv3 import HPSv3Scorer

        return HPSv3Scorer(urls, timeout_s=timeout_s)
    if kind == "judge":
        # Imported here for the same reason as the HPSv3 client.
        from sketch_env.scoring.judge.spec import judge_from_spec

        return judge_from_spec(spec, timeout_s=timeout_s)
    raise ValueError(f"unknown scorer spec {spec!r}; valid specs: {', '.join(VALID_SPECS)}")


def spec_scale(spec: str | Scorer) -> ScoreScale:
    """The scale of the scorer a spec names, without building it (no service need be up).

    Args:
        spec: A spec string or a ready `Scorer` (its own ``scale``).

    Returns:
        The `ScoreScale`.

    Raises:
        ValueError: If the spec is malformed.

    Examples:
        >>> spec_scale("anchored").full, spec_scale("judge+http://h:1/v1?model=m&mode=pairwise&refs=d").full
        (10.0, 1.0)
    """
    if not isinstance(spec, str):
        return scale_of(spec)
    kind = parse_spec(spec, what="scorer spec").kind
    if kind == "judge":
        from sketch_env.scoring.judge.scorer import SCALES
        from sketch_env.scoring.judge.spec import parse_judge_spec

        return SCALES[parse_judge_spec(spec).get("mode", "pointwise")]
    if kind == "hpsv3":
        from sketch_env.scoring.hpsv3.client import HPSv3Scorer

        return HPSv3Scorer.scale
    if kind in EMBEDDED_SCORERS:
        return scale_of(EMBEDDED_SCORERS[kind].load())
    raise ValueError(f"unknown scorer spec {spec!r}; valid specs: {', '.join(VALID_SPECS)}")
