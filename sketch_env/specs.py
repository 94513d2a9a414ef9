"""Spec strings: how a scorer or a renderer is named in one line, parsed in one place.

Every spec has the same shape, ``KIND[+TARGET[,TARGET...]][?NAME=VALUE&...]``, where ``ray``
also takes the URL-like form ``ray://ADDRESS``::

    heuristic
    hpsv3+http://10.0.0.2:8765,http://10.0.0.3:8765
    judge+http://127.0.0.1:8000/v1?model=Qwen/Qwen2.5-VL-7B-Instruct&mode=pairwise&refs=DIR
    local
    ray://auto?num_actors=4

`parse_spec` splits a spec into its kind, its targets and its parameters (percent-decoding
them, refusing a parameter given twice); what each kind accepts is decided by the code that
builds it (`sketch_env.scoring.spec.make_scorer`, `sketch_env.distributed.make_renderer`), so
the syntax is written once and every error about it reads alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from urllib.parse import unquote

__all__ = ["Spec", "parse_spec"]


@dataclass(frozen=True)
class Spec:
    """A parsed spec string.

    Args:
        kind: The lower-cased word before ``+``, ``://`` or ``?`` (``"hpsv3"``, ``"ray"``).
        targets: What follows ``+`` (comma-separated) or ``://``, stripped; empty when none.
        params: The query's parameters, names lower-cased, values percent-decoded (a ``+``
            stays a plus sign: model names and URLs contain them).
        text: The spec as given (for messages; never log it if it may hold a secret).
        url_form: Whether the targets came after ``://`` (``ray://auto``).
    """

    kind: str
    targets: tuple[str, ...] = ()
    params: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    text: str = ""
    url_form: bool = False


def parse_spec(text: str, *, what: str = "spec") -> Spec:
    """Splits a spec string into kind, targets and parameters.

    Args:
        text: The spec.
        what: What the spec names, for error messages (``"scorer spec"``).

    Returns:
        The `Spec`.

    Raises:
        ValueError: If the spec is empty, has no kind, repeats a parameter or has a parameter
            without a name.
        TypeError: If ``text`` is not a string.

    Examples:
        >>> parse_spec("hpsv3+http://a:1, http://b:2").targets
        ('http://a:1', 'http://b:2')
        >>> spec = parse_spec("ray://auto?num_actors=2")
        >>> spec.kind, spec.targets, dict(spec.params), spec.url_form
        ('ray', ('auto',), {'num_actors': '2'}, True)
        >>> dict(parse_spec("judge+http://h:1/v1?model=a%2Fb+c").params)
        {'model': 'a/b+c'}
    """
    if not isinstance(text, str):
        raise TypeError(f"a {what} must be a string, got {type(text).__name__}")
    spec = text.strip()
    if not spec:
        raise ValueError(f"empty {what}")
    head, _, query = spec.partition("?")
    url_form = False
    targets: tuple[str, ...]
    kind, sep, rest = head.partition("://")
    if sep and "+" not in kind:
        url_form = True
        targets = (rest.strip(),) if rest.strip() else ()
    else:
        kind, _, rest = head.partition("+")
        targets = tuple(part.strip() for part in rest.split(",") if part.strip())
    kind = kind.strip().lower()
    if not kind:
        raise ValueError(f"{what} {spec!r} has no kind before '+', '://' or '?'")
    params: dict[str, str] = {}
    for item in query.split("&"):
        if not item:
            continue
        name, _, value = item.partition("=")
        name = unquote(name).strip().lower()
        if not name:
            raise ValueError(f"{what}: a parameter without a name in its query")
        if name in params:
            raise ValueError(f"{what}: parameter {name!r} given twice")
        params[name] = unquote(value).strip()
    return Spec(kind, targets, MappingProxyType(params), spec, url_form)
