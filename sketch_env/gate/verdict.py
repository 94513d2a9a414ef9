"""The gate's results and configuration: plain data, no parser (light to import)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

from sketch_env.catalog.vocabulary import CANVAS_SIZE, MAX_REPLY_BYTES
from sketch_env.config import JsonConfig

#: Replies larger than this (UTF-8 bytes) are refused unread (the vocabulary's limit).
DEFAULT_MAX_REPLY_BYTES = MAX_REPLY_BYTES


@dataclass(frozen=True, slots=True)
class GateIssue:
    """One reason a sketch fails the gate.

    Args:
        code: Machine-readable kind, e.g. ``"syntax_error"``, ``"unknown_brush_member"``,
            ``"network"``.
        message: What is wrong and how to fix it, in plain words.
        line: 1-based line in the extracted sketch, where one applies.
        column: 1-based column (in characters), where one applies.
        count: How many places the same problem occurs (reported once).
    """

    code: str
    message: str
    line: int | None = None
    column: int | None = None
    count: int = 1

    def to_dict(self) -> dict[str, Any]:
        """Returns a JSON-serialisable view."""
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Extraction:
    """The sketch taken out of a model reply.

    Args:
        source: The sketch, or ``None`` when the reply holds none (see ``error``).
        fenced: Whether the source came from a fenced code block.
        blocks: How many candidate (JavaScript or untagged) code blocks the reply held.
        chosen: Index of the block used among those candidates, or ``None``.
        notes: Things worth knowing that are not failures (several blocks, an unterminated
            fence).
        error: Why no source could be taken, or ``None``.
    """

    source: str | None
    fenced: bool = False
    blocks: int = 0
    chosen: int | None = None
    notes: tuple[str, ...] = ()
    error: GateIssue | None = None

    def to_dict(self) -> dict[str, Any]:
        """Returns a JSON-serialisable view."""
        return {
            "source": self.source,
            "fenced": self.fenced,
            "blocks": self.blocks,
            "chosen": self.chosen,
            "notes": list(self.notes),
            "error": self.error.to_dict() if self.error else None,
        }


@dataclass(frozen=True, slots=True)
class GateVerdict:
    """The gate's answer for one reply or sketch.

    Args:
        passed: Whether the sketch may be rendered.
        issues: Every failure found, in source order within each rule.
        source: The sketch that was checked (``None`` when none could be extracted).
        notes: Non-failing remarks (e.g. "3 code blocks; used block 2").
    """

    passed: bool
    issues: tuple[GateIssue, ...] = ()
    source: str | None = field(default=None, repr=False)
    notes: tuple[str, ...] = ()

    @property
    def reasons(self) -> list[str]:
        """Human-readable reasons, one per issue."""
        return [issue.message for issue in self.issues]

    @property
    def codes(self) -> list[str]:
        """Machine-readable codes, parallel to `reasons`."""
        return [issue.code for issue in self.issues]

    def to_dict(self, include_source: bool = False) -> dict[str, Any]:
        """Returns a JSON-serialisable view.

        Args:
            include_source: Also include the checked source (can be large).

        Returns:
            A dict with ``passed``, ``reasons``, ``codes``, ``issues``, ``notes``.
        """
        out: dict[str, Any] = {
            "passed": self.passed,
            "reasons": self.reasons,
            "codes": self.codes,
            "issues": [issue.to_dict() for issue in self.issues],
            "notes": list(self.notes),
        }
        if include_source:
            out["source"] = self.source
        return out


@dataclass(frozen=True)
class GateConfig(JsonConfig):
    """Which gate rules apply. Serialisable with `to_dict`/`from_dict`/`to_json`/`from_json`.

    Args:
        max_reply_bytes: Replies (and sketches) larger than this many UTF-8 bytes fail unread.
        require_setup: Require a ``setup`` that p5's global mode can find.
        require_webgl_canvas: Require ``createCanvas(w, h, WEBGL)``.
        require_brush_call: Require at least one p5.brush *drawing* call (``brush.line``,
            ``brush.rect``, ``brush.endShape``...; `BRUSH_DRAWING_CALLS`). A setter such as
            ``brush.noStroke()`` or ``brush.set(...)`` alone does not count: it paints nothing.
        reject_unknown_brush: Refuse ``brush.*`` names that p5.brush does not export.
        forbid_escapes: Refuse network, asset, storage, dynamic-code, DOM and graphics escapes,
            built-in overrides, and what the gate cannot read (computed access on the global
            object, ``with``, strings built to name a forbidden API).
        forbid_text: Refuse p5's ``text()`` (on by default: a label naming the subject is
            the cheapest way to please a scorer that reads the prompt).
        max_bare_primitives: At most this many uses of p5's own shapes (`PRIMITIVES`:
            ``ellipse``, ``rect``, ``line``, ``beginShape``/``vertex``, ``image``, 3D
            shapes...). ``0`` (the default) refuses any, naming them and their p5.brush
            replacements; ``None`` for no limit. Issue 13 measured one token brush call plus
            400 random ``ellipse()`` calls at the maximum reward.
        forbid_raw_graphics: Refuse raw canvas, pixel and WebGL access (``drawingContext``,
            ``getContext``, ``loadPixels``/``pixels``/``updatePixels``, p5's ``get``/``set``,
            ``createGraphics``, ``createImage``, WebGL calls). ``background()`` stays allowed.
        allow_try: Allow ``try`` statements and error handlers (``.catch``, ``onerror``). Off
            by default: a sketch that paints and then throws must keep the sketch-error
            penalty instead of hiding the error.
        forbid_p5_name_clash: Refuse a top-level ``function``/``var`` named like a p5 global
            (``map``, ``hex``, ``random``...): p5's global mode then stops with "Cannot
            redefine property" before ``setup`` runs.
        require_brush_paint: At run time (`sketch_env.gate.runtime_check`): a render that
            finished (``ok``/``frame_capped``) without one p5.brush drawing call, or in which
            p5.brush never put paint on the canvas (a zero-length stroke is a drawing call that
            leaves no mark), as measured by the renderer, is refused.
        runtime_forbid_primitives: At run time: a render in which the sketch called plain p5
            drawing functions (``ellipse``, ``rect``, ``text``, ``vertex``…, however aliased)
            is refused.
        runtime_forbid_raw_graphics: At run time: likewise for raw graphics
            (``drawingContext``, ``getContext``, ``loadPixels``/``updatePixels``/``set``,
            ``createGraphics``…).
        canvas_size: At run time: the ``(width, height)`` in pixels a finished render's picture
            must have, else it is refused; ``None`` accepts any size. The instructions ask for
            `sketch_env.catalog.vocabulary.CANVAS_SIZE`; a scorer's statistics depend on the
            size, so a policy free to choose it would pick the size that scores best (the same
            composition earned 9.37 at 64x64 against 6.50 at 600x600 on the heuristic).

    Raises:
        ValueError: If a field has the wrong type or range.

    Examples:
        >>> GateConfig.from_dict({"forbid_text": False}).forbid_text
        False
    """

    max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES
    require_setup: bool = True
    require_webgl_canvas: bool = True
    require_brush_call: bool = True
    reject_unknown_brush: bool = True
    forbid_escapes: bool = True
    forbid_text: bool = True
    max_bare_primitives: int | None = 0
    forbid_raw_graphics: bool = True
    allow_try: bool = False
    forbid_p5_name_clash: bool = True
    require_brush_paint: bool = True
    runtime_forbid_primitives: bool = True
    runtime_forbid_raw_graphics: bool = True
    canvas_size: tuple[int, int] | None = CANVAS_SIZE

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type in ("bool", bool) and not isinstance(value, bool):
                raise ValueError(f"GateConfig.{f.name} must be a bool, got {value!r}")
        if isinstance(self.max_reply_bytes, bool) or not isinstance(self.max_reply_bytes, int):
            raise ValueError(
                f"GateConfig.max_reply_bytes must be an int, got {self.max_reply_bytes!r}"
            )
        if self.max_reply_bytes < 1:
            raise ValueError(f"GateConfig.max_reply_bytes must be >= 1, got {self.max_reply_bytes}")
        limit = self.max_bare_primitives
        if limit is not None and (
            isinstance(limit, bool) or not isinstance(limit, int) or limit < 0
        ):
            raise ValueError(
                f"GateConfig.max_bare_primitives must be None or an int >= 0, got {limit!r}"
            )
        if self.canvas_size is not None:
            size = self.canvas_size
            if (
                isinstance(size, str)
                or not isinstance(size, tuple | list)
                or len(size) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in size)
            ):
                raise ValueError(
                    "GateConfig.canvas_size must be a (width, height) pair of positive ints or "
                    f"None, got {size!r}"
                )
            # JSON gives a list; a tuple keeps the config hashable and equal after a round trip.
            object.__setattr__(self, "canvas_size", (size[0], size[1]))

    def to_dict(self) -> dict[str, Any]:
        """Returns the fields as plain JSON-compatible values."""
        out = asdict(self)
        out["canvas_size"] = list(self.canvas_size) if self.canvas_size is not None else None
        return out
