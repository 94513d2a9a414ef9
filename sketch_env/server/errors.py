"""Error payloads the server sends back: validation errors that quote at most an excerpt of
what the client sent.

pydantic's ``errors()`` carries each offending ``input`` verbatim, and FastAPI and OpenEnv
return those lists as they are: a 5 MB sketch over the length limit came back as a 5 MB error.
Everything the server reports about a bad request goes through `cap_errors`, which also makes
what it quotes encodable: an input of ``NaN`` or with a lone surrogate made the 422 itself fail
to encode, and the client got a 500 (`json_safe`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from fastapi.encoders import jsonable_encoder

__all__ = ["MAX_EXCERPT_CHARS", "cap_errors", "excerpt", "json_safe", "one_line_errors"]

#: Characters of a client's input quoted back in an error.
MAX_EXCERPT_CHARS = 200


def json_safe(value: Any) -> Any:
    """Returns ``value`` with what strict JSON cannot carry spelled out as text.

    Non-finite floats become ``"nan"``, ``"inf"`` or ``"-inf"``; a string (or key) holding a
    lone surrogate gets it as a ``\\udXXX`` escape. Dicts, lists and tuples are copied.

    Args:
        value: A JSON-like value (after ``jsonable_encoder``).

    Returns:
        A value ``json.dumps(..., allow_nan=False)`` and UTF-8 encoding both accept.

    Examples:
        >>> json_safe({"seed": float("nan"), "prompt": "a \\ud800 kite"})
        {'seed': 'nan', 'prompt': 'a \\\\ud800 kite'}
    """
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, str):
        if value.isascii():
            return value
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {json_safe(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value


def excerpt(value: Any, limit: int = MAX_EXCERPT_CHARS) -> Any:
    """Returns ``value`` as it can be quoted in an error: itself when small, else the first
    ``limit`` characters of its JSON text with its full size.

    Args:
        value: What the client sent.
        limit: Characters kept.

    Returns:
        ``value`` (JSON-encodable) or a string such as ``"function setup() {... [5242880
        characters]"``.

    Examples:
        >>> excerpt("x" * 1000, limit=5)
        'xxxxx... [1000 characters]'
    """
    encoded = json_safe(jsonable_encoder(value))
    text = encoded if isinstance(encoded, str) else json.dumps(encoded, default=str)
    if len(text) <= limit:
        return encoded
    return f"{text[:limit]}... [{len(text)} characters]"


def cap_errors(errors: Sequence[Any], limit: int = MAX_EXCERPT_CHARS) -> list[dict[str, Any]]:
    """Returns pydantic/FastAPI error entries with every ``input`` cut to an excerpt.

    Args:
        errors: ``ValidationError.errors()`` or ``RequestValidationError.errors()``.
        limit: Characters kept of each input.

    Returns:
        JSON-encodable entries (``type``, ``loc``, ``msg``, ``input`` and ``ctx``, capped),
        strictly: no ``NaN``, no lone surrogates (`json_safe`).
    """
    capped: list[dict[str, Any]] = []
    for error in errors:
        entry = dict(error) if isinstance(error, dict) else {"msg": str(error)}
        entry.pop("url", None)
        if "input" in entry:
            entry["input"] = excerpt(entry["input"], limit)
        ctx = entry.get("ctx")
        if isinstance(ctx, dict):
            entry["ctx"] = {k: excerpt(v, limit) for k, v in ctx.items()}
        capped.append(json_safe(jsonable_encoder(entry)))
    return capped


def one_line_errors(errors: Sequence[Any]) -> str:
    """Summarises validation errors in one line: ``"action.sketch: String should have at
    most 1048576 characters"``; a JSON decode error carries the parser's reason (``"invalid
    JSON at character 12: Expecting value"``).

    Args:
        errors: Error entries as `cap_errors` takes them.

    Returns:
        The messages, ``"; "``-separated.
    """
    parts = []
    for error in errors:
        if not isinstance(error, dict):
            parts.append(str(error))
            continue
        loc = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
        msg = str(error.get("msg", "invalid"))
        ctx = error.get("ctx")
        if error.get("type") == "json_invalid" and isinstance(ctx, dict) and "error" in ctx:
            # FastAPI's entry: loc ("body", position), the parser's reason in ctx.
            where = f" at character {loc}" if loc.isdigit() else ""
            parts.append(f"invalid JSON{where}: {ctx['error']}")
            continue
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "; ".join(parts) or "invalid request"
