"""What crosses from the page into Python, and the checks it passes on arrival.

The harness reports through one CDP binding (``Runtime.addBinding``) whose name is a secret of
the host page and which it takes off the global object before any other script of the frame
runs; every message carries the per-render token that ``run()`` received. Nothing the sketch's
realm can change is trusted beyond that: a message is a JSON object of a fixed shape, bounded
in size, with typed and capped fields, and the picture is a PNG whose header is checked against
the canvas caps *before* anything decodes it. A message that fails any check makes the render
``harness_violation`` (`ReadbackError`); nothing in it is used.
"""

from __future__ import annotations

import base64
import binascii
import json
import struct
from dataclasses import dataclass, field
from typing import Any

from sketch_env.errors import SketchEnvError
from sketch_env.render.api_calls import known_names
from sketch_env.render.config import RenderConfig

__all__ = ["HarnessReport", "ReadbackError", "check_png", "message_limit", "parse_message"]

#: Bound on the error list and each error's text; the harness applies the same caps.
MAX_ERRORS = 50
MAX_ERROR_CHARS = 2000
#: Bound on the count of any one drawing API (a render cannot make more calls than this in its
#: deadline; a larger number is not a count).
MAX_API_COUNT = 2**40

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_DATA_URL_PREFIX = "data:image/png;base64,"
_KINDS = ("start", "done", "salvage")
_REASONS = ("complete", "frame_cap", "error", "no_p5")
_PHASES = ("loading", "ready", "running", "done")
_CANVAS_KINDS = ("webgl", "2d")


class ReadbackError(SketchEnvError, ValueError):
    """A message from the page that is not a result the harness could have sent."""


@dataclass(frozen=True)
class HarnessReport:
    """A validated message from the harness.

    Args:
        kind: ``start`` (run() began), ``done`` (the render finished) or ``salvage`` (the
            canvas read after the deadline).
        phase: The harness phase when it was sent.
        reason: Why the render finished (``complete``, ``frame_cap``, ``error``, ``no_p5``).
        errors: JavaScript errors and harness notes, capped.
        frames: ``draw`` frames completed.
        started: Whether p5 started (presetup ran for the genuine instance).
        canvas_kind: ``webgl`` or ``2d``, when a canvas was read.
        user_canvas: Whether the sketch called ``createCanvas`` itself.
        width: Canvas width.
        height: Canvas height.
        violation: Whether the harness caught the sketch tampering with it.
        api_calls: Drawing API name -> calls the sketch made (see `sketch_env.render.api_calls`).
        png: The picture, a PNG whose header passed `check_png`, or ``None``.
    """

    kind: str
    phase: str = "done"
    reason: str | None = None
    errors: tuple[str, ...] = ()
    frames: int = 0
    started: bool = False
    canvas_kind: str | None = None
    user_canvas: bool = False
    width: int = 0
    height: int = 0
    violation: bool = False
    api_calls: dict[str, int] = field(default_factory=dict)
    png: bytes | None = None


def message_limit(config: RenderConfig) -> int:
    """The largest message (characters) a genuine harness can send under ``config``.

    The picture dominates: a PNG of the largest canvas allowed, incompressible (4 bytes a pixel
    plus a filter byte a row and chunk overhead), in base64, plus the capped errors.
    """
    png = 4 * config.max_canvas_pixels + config.max_canvas_side + 65_536
    return 4 * (png // 3 + 1) + MAX_ERRORS * (MAX_ERROR_CHARS * 6 + 8) + 65_536


def check_png(png: bytes, config: RenderConfig) -> tuple[int, int]:
    """Reads a PNG's size from its header and checks it against the canvas caps.

    Nothing is decompressed: a forged header of 20000 x 20000 is refused here, before any
    decoder allocates for it.

    Args:
        png: The bytes.
        config: The caps (``max_canvas_side``, ``max_canvas_pixels``).

    Returns:
        ``(width, height)``.

    Raises:
        ReadbackError: If it is not a PNG, or it is larger than any canvas may be.
    """
    if len(png) < 33 or not png.startswith(_PNG_SIGNATURE) or png[12:16] != b"IHDR":
        raise ReadbackError("the picture is not a PNG")
    length, width, height = struct.unpack(">I4xII", png[8:24])
    if length != 13:
        raise ReadbackError("the picture's PNG header is malformed")
    side = config.max_canvas_side
    if not (0 < width <= side and 0 < height <= side) or width * height > config.max_canvas_pixels:
        raise ReadbackError(
            f"the picture is {width}x{height}, beyond the canvas caps ({side} px a side, "
            f"{config.max_canvas_pixels} px in all)"
        )
    return width, height


def _int(data: dict[str, Any], key: str, high: int) -> int:
    value = data.get(key, 0)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise ReadbackError(f"{key} is not an integer in [0, {high}]: {str(value)[:40]}")
    return value


def _bool(data: dict[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise ReadbackError(f"{key} is not a boolean")
    return value


def _choice(data: dict[str, Any], key: str, allowed: tuple[str, ...]) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if value not in allowed:
        raise ReadbackError(f"{key} is not one of {allowed}: {str(value)[:40]}")
    return str(value)


def _errors(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > MAX_ERRORS:
        raise ReadbackError(f"errors is not a list of at most {MAX_ERRORS} entries")
    if not all(isinstance(e, str) and len(e) <= MAX_ERROR_CHARS + 64 for e in value):
        raise ReadbackError("errors holds a non-string or an over-long entry")
    return tuple(value)


def _api_calls(value: Any) -> dict[str, int]:
    names = known_names()
    if not isinstance(value, dict) or len(value) > len(names):
        raise ReadbackError("api is not a table of drawing API counts")
    calls: dict[str, int] = {}
    for name in value:
        if name not in names:
            raise ReadbackError(f"api names an unknown drawing API: {str(name)[:40]}")
        calls[name] = _int(value, name, MAX_API_COUNT)
    return dict(sorted(calls.items()))


def _picture(value: Any, width: int, height: int, config: RenderConfig) -> bytes | None:
    if value is None or value == "data:,":
        return None  # No canvas, or an empty (0 x 0) one.
    if not isinstance(value, str) or not value.startswith(_DATA_URL_PREFIX):
        raise ReadbackError("image is not a PNG data URL")
    try:
        png = base64.b64decode(value[len(_DATA_URL_PREFIX) :], validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ReadbackError(f"image is not valid base64: {exc}") from None
    size = check_png(png, config)
    if size != (width, height):
        raise ReadbackError(
            f"the picture is {size[0]}x{size[1]} but the canvas was reported {width}x{height}"
        )
    return png


def parse_message(payload: Any, token: str, config: RenderConfig) -> HarnessReport:
    """Parses and checks one binding message for the render holding ``token``.

    Args:
        payload: The binding's payload (a string, as CDP delivers it).
        token: The render's token; a message without it did not come from its harness.
        config: The caps the harness ran under.

    Returns:
        The `HarnessReport`.

    Raises:
        ReadbackError: On anything a genuine harness could not have sent.
    """
    if not isinstance(payload, str):
        raise ReadbackError("the message is not text")
    if len(payload) > message_limit(config):
        raise ReadbackError(f"the message is {len(payload)} characters, over the limit")
    try:
        data = json.loads(payload, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as exc:
        raise ReadbackError(f"the message is not JSON: {str(exc)[:100]}") from None
    if not isinstance(data, dict):
        raise ReadbackError("the message is not an object")
    if data.get("t") != token:
        raise ReadbackError("the message does not carry this render's token")
    kind = _choice(data, "k", _KINDS)
    if kind is None:
        raise ReadbackError("the message has no kind")
    if kind == "start":
        return HarnessReport(kind="start", phase="running")
    side = config.max_canvas_side
    width, height = _int(data, "width", side), _int(data, "height", side)
    return HarnessReport(
        kind=kind,
        phase=_choice(data, "phase", _PHASES) or "done",
        reason=_choice(data, "reason", _REASONS),
        errors=_errors(data.get("errors", [])),
        frames=_int(data, "frames", max(config.max_frames, 0) + 1),
        started=_bool(data, "started"),
        canvas_kind=_choice(data, "canvasKind", _CANVAS_KINDS),
        user_canvas=_bool(data, "userCanvas"),
        width=width,
        height=height,
        violation=_bool(data, "violation"),
        api_calls=_api_calls(data.get("api", {})),
        png=_picture(data.get("image"), width, height, config),
    )


def _refuse_constant(name: str) -> float:
    # NaN and Infinity are not JSON; the harness never writes them.
    raise ValueError(f"{name} is not a number")
