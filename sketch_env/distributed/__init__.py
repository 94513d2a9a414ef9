"""Rendering across a Ray cluster behind the local renderer's API (extra ``ray``).

This module imports without Ray; `RayRenderer` and the actors load Ray when first touched, and
say how to install it if it is missing. `make_renderer` turns a configuration string into a
renderer, so every front end takes ``"local"``, ``"ray://auto"`` or a renderer object alike.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from sketch_env.errors import MissingExtraError
from sketch_env.install import RAY_INSTALL
from sketch_env.render.protocol import Renderer
from sketch_env.specs import parse_spec

if TYPE_CHECKING:
    from sketch_env.distributed.actors import RenderActor, RenderWorker
    from sketch_env.distributed.renderer import RayRenderer

__all__ = [
    "RayRenderer",
    "RenderActor",
    "RenderWorker",
    "Renderer",
    "check_renderer_spec",
    "make_renderer",
]

#: How to get Ray, in every error that needs it (`sketch_env.install.RAY_INSTALL`).
INSTALL_HINT = RAY_INSTALL

#: Integer options a ``ray://`` spec may carry as query parameters.
_INT_OPTIONS = ("num_actors", "actor_pool_size", "max_in_flight_per_actor")
#: Float options a ``ray://`` spec may carry as query parameters.
_FLOAT_OPTIONS = ("start_timeout_s", "call_timeout_s")

_LAZY = {
    "RayRenderer": "sketch_env.distributed.renderer",
    "RenderActor": "sketch_env.distributed.actors",
    "RenderWorker": "sketch_env.distributed.actors",
}


def __getattr__(name: str) -> Any:
    # Lazy: importing this package must work without Ray; only the Ray-backed names need it.
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != "ray" and not (exc.name or "").startswith("ray."):
            raise
        message = f"{name} needs Ray, which is not installed: {INSTALL_HINT}"
        raise MissingExtraError(message) from exc
    return getattr(module, name)


def make_renderer(spec: str | Renderer | None = "local", **options: Any) -> Renderer:
    """Turns a renderer specification into a renderer.

    Args:
        spec: One of

            - ``"local"`` or ``None``: the process-wide `shared_renderer` (browsers on this
              machine); ``options`` are `RenderConfig` fields.
            - ``"ray"``: a `RayRenderer` on the Ray connection this process already has, or a
              private local Ray instance.
            - ``"ray://auto"``: a `RayRenderer` on the cluster started on this machine with
              ``ray start``.
            - ``"ray://HOST:PORT"``: a `RayRenderer` on the cluster whose head's GCS listens
              there (``ray start --head`` prints it; 6379 by default). This is the cluster
              address, not a Ray Client (``ray.init("ray://...")``) address.

            A ``ray`` spec may carry ``num_actors``, ``actor_pool_size``,
            ``max_in_flight_per_actor``, ``start_timeout_s`` and ``call_timeout_s`` as query
            parameters, e.g. ``"ray://auto?num_actors=4&actor_pool_size=2"``.

            Anything else that has ``render`` and ``run_coroutine`` (a `SketchRenderer`, a
            `RayRenderer`, your own) is returned as it is.
        **options: Keyword arguments for the renderer that is created (for ``ray`` specs:
            `RayRenderer` arguments, including `RenderConfig` fields).

    Returns:
        The renderer. A created `RayRenderer` is not started yet: it connects and launches its
        actors on first use.

    Raises:
        ValueError: If the spec string is not understood.
        TypeError: If the spec is neither a string nor a renderer.
        sketch_env.errors.MissingExtraError: If a ``ray`` spec is given and Ray is not installed
            (an `ImportError`, with the install command).

    Examples:
        >>> make_renderer("local") is make_renderer()
        True
        >>> renderer = make_renderer("ray://auto?num_actors=2")  # doctest: +SKIP
    """
    if spec is None or spec == "local":
        from sketch_env.render.renderer import shared_renderer

        return shared_renderer(**options)
    if not isinstance(spec, str):
        if callable(getattr(spec, "render", None)) and callable(
            getattr(spec, "run_coroutine", None)
        ):
            return spec
        raise TypeError(
            f"a renderer must be 'local', 'ray', 'ray://auto', 'ray://HOST:PORT' or an object "
            f"with render() and run_coroutine(); got {type(spec).__name__}"
        )
    address, query = _parse_ray_spec(spec)
    kwargs: dict[str, Any] = dict(query)
    kwargs.update(options)
    from sketch_env.distributed import RayRenderer as ray_renderer_class  # lazy, needs Ray

    return ray_renderer_class(address=address, **kwargs)


def check_renderer_spec(spec: str | None) -> None:
    """Checks a renderer specification string without creating the renderer: it is understood,
    and Ray is installed if it names a ``ray`` renderer. ``sketch-env serve`` calls it before it
    loads the app, so a missing extra is reported in about a second, not after seven.

    Args:
        spec: What `make_renderer` takes as a string (``None`` is ``"local"``).

    Raises:
        ValueError: If the spec string is not understood.
        sketch_env.errors.MissingExtraError: If it names a ``ray`` renderer and Ray is not
            installed (with the install command).
    """
    if spec is None or spec == "local":
        return
    _parse_ray_spec(spec)
    from sketch_env.distributed import RayRenderer  # noqa: F401  (raises without Ray)


def _parse_ray_spec(spec: str) -> tuple[str | None, dict[str, Any]]:
    """Splits ``ray[://address][?k=v&...]`` into the Ray address and `RayRenderer` options."""
    try:
        parsed = parse_spec(spec, what="renderer")
    except ValueError as exc:
        raise ValueError(f"{exc} in {spec!r}") from None
    if parsed.kind != "ray" or (not parsed.url_form and parsed.targets):
        raise ValueError(
            f"unknown renderer {spec!r}: use 'local', 'ray', 'ray://auto' or 'ray://HOST:PORT'"
        )
    address: str | None = None
    if parsed.url_form:
        if len(parsed.targets) != 1 or "/" in parsed.targets[0]:
            raise ValueError(f"cannot read the Ray address in {spec!r}; use ray://HOST:PORT")
        address = parsed.targets[0]
    options: dict[str, Any] = {}
    for key, value in parsed.params.items():
        if key not in _INT_OPTIONS + _FLOAT_OPTIONS:
            raise ValueError(
                f"unknown option {key!r} in {spec!r}; known: "
                f"{', '.join(_INT_OPTIONS + _FLOAT_OPTIONS)}"
            )
        try:
            options[key] = int(value) if key in _INT_OPTIONS else float(value)
        except ValueError:
            raise ValueError(f"option {key}={value!r} in {spec!r} is not a number") from None
    return address, options
