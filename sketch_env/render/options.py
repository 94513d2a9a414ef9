"""The renderer's command-line options, declared once for every command that renders.

``sketch-env render``, ``rollout``, ``serve``, ``pool refresh`` and ``doctor`` take the same
``--backend`` (choices from the GL backend registry), ``--pool-size``, ``--deadline``,
``--max-frames`` and, where rendering may leave the machine, ``--renderer``; their defaults are
`RenderConfig`'s, so a flag left out means what the Python API means (or what a
``--config`` file says, where a command takes one: a flag given wins over the file). Errors
name the flag, not the Python field.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import fields, replace
from typing import Any

from sketch_env.render.config import RenderConfig
from sketch_env.render.gl_backends import BACKEND_CHOICES

__all__ = ["add_render_options", "flag_names", "render_config_from_args", "seed_argument"]

#: Option name -> `RenderConfig` field it sets.
_FIELDS = {
    "backend": "backend",
    "pool_size": "pool_size",
    "deadline": "deadline_s",
    "max_frames": "max_frames",
}


def add_render_options(
    parser: argparse.ArgumentParser,
    *,
    renderer_spec: bool = False,
    pool_size: bool = True,
    defaults: dict[str, Any] | None = None,
) -> None:
    """Adds the shared renderer options to a command's parser.

    Args:
        parser: The command's parser.
        renderer_spec: Also add ``--renderer`` (``local`` or ``ray://...``).
        pool_size: Add ``--pool-size`` (a command that fixes its pool leaves it out).
        defaults: Per-command defaults for `RenderConfig` fields (e.g. a longer deadline for
            measurements), shown in ``--help``.
    """
    base = {f.name: f.default for f in fields(RenderConfig)}
    base.update(defaults or {})
    # Defaults are None so that a flag left out can be told from one given: the command's own
    # defaults (`defaults`) and a --config file fill the rest in render_config_from_args.
    parser.set_defaults(_render_defaults=dict(defaults or {}))
    group = parser.add_argument_group("rendering")
    group.add_argument(
        "--backend",
        choices=BACKEND_CHOICES,
        default=None,
        help=f"GL backend (default {base['backend']}: the fastest that gives WebGL2)",
    )
    if pool_size:
        group.add_argument(
            "--pool-size",
            type=int,
            metavar="N",
            default=None,
            help="browsers rendering at once (default: one per core, at most 8)",
        )
    group.add_argument(
        "--deadline",
        type=float,
        metavar="S",
        default=None,
        help=(
            "the sketch's time budget per render, seconds: its own CPU time or time not held "
            f"back by other load (default {base['deadline_s']:g})"
        ),
    )
    group.add_argument(
        "--max-frames",
        type=int,
        metavar="N",
        default=None,
        help=f"frames after which an endless draw() is captured (default {base['max_frames']})",
    )
    if renderer_spec:
        group.add_argument(
            "--renderer",
            default=None,
            help="'local' (browsers on this machine, default) or a Ray cluster: 'ray://auto', "
            "'ray://HOST:PORT'",
        )


def seed_argument(text: str) -> int:
    """An argparse ``type`` for a render seed: `sketch_env.render.base.check_seed`'s rule.

    Args:
        text: The option's text.

    Returns:
        The seed.

    Raises:
        argparse.ArgumentTypeError: With the same message as the Python API's ``ValueError``.
    """
    # Imported here: this module stays importable without the browser library.
    from sketch_env.render.base import check_seed

    value: int | str
    try:
        value = int(text)
    except ValueError:
        value = text
    try:
        return check_seed(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def render_config_from_args(
    args: argparse.Namespace, base: RenderConfig | None = None, **fixed: Any
) -> RenderConfig:
    """Builds the `RenderConfig` the shared options describe.

    Args:
        args: Parsed arguments of a parser given `add_render_options`.
        base: What the flags that were not given fall back to (a ``--config`` file's
            ``render``); `RenderConfig`'s defaults, then the command's own, when ``None``.
        **fixed: Fields the command sets itself (e.g. ``pool_size=1``).

    Returns:
        The configuration.

    Raises:
        ValueError: On a bad value; the message names the flag (``--deadline``), not the
            Python field (``deadline_s``).
    """
    values = {} if base is not None else dict(getattr(args, "_render_defaults", {}))
    values.update(
        {
            field: getattr(args, option)
            for option, field in _FIELDS.items()
            if getattr(args, option, None) is not None
        }
    )
    values.update(fixed)
    try:
        return replace(base, **values) if base is not None else RenderConfig(**values)
    except ValueError as exc:
        raise ValueError(flag_names(str(exc))) from None


def flag_names(message: str) -> str:
    """A `RenderConfig` error message with its field names replaced by the flags that set them.

    Examples:
        >>> flag_names("deadline_s must be positive, got -1")
        '--deadline must be positive, got -1'
    """
    for option, field in _FIELDS.items():
        message = re.sub(rf"\b{field}\b", "--" + option.replace("_", "-"), message)
    return message
