"""The ``judge+URL?...`` scorer spec.

Syntax::

    judge+http://HOST:PORT/v1?model=NAME[&mode=pointwise|pairwise][&refs=DIR][&k=4]
        [&api_key_env=VAR][&concurrency=16][&timeout=60][&retries=3][&parse_retries=2]
        [&max_tokens=256][&trust_env=0|1][&max_side=768]

The URL is the API's base (requests go to ``URL/chat/completions``); ``https`` works too.
The general spec syntax is `sketch_env.specs.parse_spec`'s. Parameters (percent-encoding is
decoded; ``+`` stays a plus sign):

- ``model`` (required): the served model name.
- ``mode``: ``pointwise`` (default) or ``pairwise``.
- ``refs``: pairwise only, required there: a folder written by `save_reference_images`.
- ``k``: references per rollout in pairwise mode (default 4).
- ``api_key_env``: the *name* of the environment variable that holds the API key. The key
  itself is refused in a spec: specs are printed, logged and stored with results.
- ``concurrency``, ``timeout`` (seconds), ``retries``, ``parse_retries``, ``max_tokens``,
  ``trust_env``: as the `JudgeScorer` arguments of the same names; ``max_side``: its
  ``max_image_side``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from sketch_env.scoring.judge.references import load_reference_images
from sketch_env.scoring.judge.scorer import MODES, JudgeScorer
from sketch_env.specs import parse_spec

__all__ = ["SPEC_SYNTAX", "judge_from_spec", "parse_judge_spec"]

#: The spec form, as shown in error messages.
SPEC_SYNTAX = "judge+http://host:port/v1?model=NAME[&mode=pairwise&refs=DIR&k=4&api_key_env=VAR]"

_INT_PARAMS = {
    "max_side": "max_image_side",
    "k": "num_references",
    "concurrency": "concurrency",
    "retries": "retries",
    "parse_retries": "parse_retries",
    "max_tokens": "max_tokens",
}
_KNOWN = ("model", "mode", "refs", "api_key_env", "timeout", "trust_env", *_INT_PARAMS)
_SECRET_NAMES = ("api_key", "key", "token", "apikey", "access_token", "authorization")


def parse_judge_spec(spec: str) -> dict[str, Any]:
    """Reads a ``judge+URL?...`` spec into `JudgeScorer` keyword arguments.

    References are not loaded here: ``refs`` comes back as a folder path under ``"refs"``.

    Args:
        spec: The spec string.

    Returns:
        ``{"base_url": ..., "model": ..., ...}`` with only the parameters given.

    Raises:
        ValueError: If the spec is malformed, lacks ``model``, repeats or misspells a
            parameter, has a bad value, or carries a key (the message never repeats the
            spec's query, so a key pasted into one is not echoed into a log).

    Examples:
        >>> parse_judge_spec("judge+http://127.0.0.1:8000/v1?model=Qwen/Qwen2.5-VL-7B-Instruct")
        {'base_url': 'http://127.0.0.1:8000/v1', 'model': 'Qwen/Qwen2.5-VL-7B-Instruct'}
    """
    parsed = parse_spec(spec, what="judge spec")
    if parsed.kind != "judge" or parsed.url_form or not parsed.targets:
        raise ValueError(f"not a judge scorer spec; expected {SPEC_SYNTAX}")
    if len(parsed.targets) != 1:
        raise ValueError("judge spec: give one API base URL (run several judges behind one URL)")
    base_url = parsed.targets[0].rstrip("/")
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"judge spec: {base_url!r} is not an http(s)://host:port URL")
    try:
        parts.port  # noqa: B018 - urlsplit validates the port only when it is read.
    except ValueError as err:
        raise ValueError(f"judge spec: bad port in {base_url!r}") from err
    params = dict(parsed.params)
    for name in params:
        if name in _SECRET_NAMES:
            raise ValueError(
                "judge spec: an API key must not be written into a spec (specs are logged); "
                "put it in an environment variable and name that with api_key_env=VAR"
            )
        if name not in _KNOWN:
            raise ValueError(f"judge spec: unknown parameter {name!r}; known: {', '.join(_KNOWN)}")
    if not params.get("model"):
        raise ValueError(f"judge spec needs model=NAME: {SPEC_SYNTAX}")

    out: dict[str, Any] = {"base_url": base_url, "model": params.pop("model")}
    if "mode" in params:
        mode = params.pop("mode").lower()
        if mode not in MODES:
            raise ValueError(f"judge spec: mode must be one of {MODES}, got {mode!r}")
        out["mode"] = mode
    for name, arg in _INT_PARAMS.items():
        if name in params:
            try:
                out[arg] = int(params.pop(name))
            except ValueError:
                raise ValueError(f"judge spec: {name} must be an integer") from None
    if "timeout" in params:
        try:
            out["timeout_s"] = float(params.pop("timeout"))
        except ValueError:
            raise ValueError("judge spec: timeout must be a number of seconds") from None
    if "trust_env" in params:
        flag = params.pop("trust_env").lower()
        if flag not in ("0", "1", "true", "false"):
            raise ValueError("judge spec: trust_env must be 0 or 1")
        out["trust_env"] = flag in ("1", "true")
    for name in ("refs", "api_key_env"):
        if name in params:
            value = params.pop(name)
            if not value:
                raise ValueError(f"judge spec: {name} is empty")
            out[name] = value
    if out.get("mode", "pointwise") == "pointwise" and ("refs" in out or "num_references" in out):
        # Most likely a forgotten mode=pairwise: say so rather than silently judge pointwise.
        raise ValueError("judge spec: refs and k only apply with mode=pairwise")
    if out.get("mode", "pointwise") == "pairwise" and "refs" not in out:
        raise ValueError(
            "judge spec: mode=pairwise needs refs=DIR, a folder of reference pictures written "
            "by save_reference_images (see docs/judge.md)"
        )
    return out


def judge_from_spec(spec: str, *, timeout_s: float | None = None) -> JudgeScorer:
    """Builds the `JudgeScorer` a spec names (loading its reference pictures, if any).

    Args:
        spec: A ``judge+URL?...`` spec.
        timeout_s: Per-request timeout when the spec gives none.

    Returns:
        The scorer.

    Raises:
        ValueError: If the spec is malformed, its reference folder unreadable, or its
            ``api_key_env`` variable unset.
    """
    kwargs = parse_judge_spec(spec)
    refs = kwargs.pop("refs", None)
    if refs is not None:
        kwargs["references"] = load_reference_images(refs)
    if timeout_s is not None:
        kwargs.setdefault("timeout_s", timeout_s)
    return JudgeScorer(**kwargs)
