"""The gate: take the sketch out of a model's reply and check it before anything renders it.

Two steps, both pure and cheap (milliseconds for an ordinary sketch):

1. `extract_sketch` finds the code in a reply: fenced blocks tagged ``js``/``javascript``/``p5``
   or untagged (and the inline ``<script>`` of an ``html`` block), preferring a block that
   defines ``setup``, else the largest; with no fence at all, the whole reply.
2. `check_sketch` parses the source with tree-sitter-javascript and applies the rules of a
   `GateConfig`. Because the rules look at the syntax tree, comments and strings never trigger
   them (a comment saying "fetch" is fine, ``evaluate`` is not ``eval``, the string
   ``"brush.bleed"`` is not a call), and a name the sketch declares itself (its own ``line``
   helper, say) is not mistaken for the global of that name.

`gate_reply` does both and never raises on bad input: empty replies, replies without code,
oversized replies and bytes that are not UTF-8 all come back as a failed `GateVerdict` whose
``reasons`` say what was wrong in words a policy (or a person) can act on, with a parallel list
of machine ``codes``.

The rules (each can be switched in `GateConfig`):

- ``setup`` is defined where p5's global mode finds it: a top-level ``function setup``, a
  top-level ``var setup = ...``, or an assignment to ``window.setup``. ``const``/``let``
  declarations do not create ``window.setup``, so such a sketch never starts (DESIGN.md §3.4).
- ``createCanvas(w, h, WEBGL)``: p5.brush only draws on a WebGL canvas (DESIGN.md §3.2).
- at least one ``brush.*`` call, and no ``brush.*`` name that p5.brush does not export. The
  known names are read from the vendored ``p5.brush.js`` itself, and the common 1.x names
  (``bleed``, ``setHatch``, ``segment``, ``push``...) get their 2.x replacement in the reason.
- no network, asset, storage, dynamic-code or DOM escape (`ESCAPE_NAMES` lists them).
- optionally no ``text()`` and at most N bare p5 shape calls (``rect``, ``circle``...).
"""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field, fields
from functools import cache
from typing import Any

import tree_sitter
import tree_sitter_javascript

from sketch_env.scoring.base import JsonConfig

__all__ = [
    "BRUSH_RENAMED",
    "DEFAULT_MAX_REPLY_BYTES",
    "ESCAPE_NAMES",
    "JS_FENCE_TAGS",
    "PRIMITIVES",
    "Extraction",
    "GateConfig",
    "GateIssue",
    "GateVerdict",
    "check_sketch",
    "extract_sketch",
    "gate_reply",
    "known_brush_members",
]

#: Replies larger than this (UTF-8 bytes) are refused unread: 256 KiB is ~50x a rich sketch.
DEFAULT_MAX_REPLY_BYTES = 256 * 1024

#: Fence info-string tags taken as JavaScript; ``""`` is an untagged fence.
JS_FENCE_TAGS = frozenset({"", "js", "javascript", "p5", "p5js", "p5.js", "jsx"})
_HTML_FENCE_TAGS = frozenset({"html", "htm", "xhtml"})

#: p5.brush 1.x names, and what to write in 2.x instead (DESIGN.md §3, p5.brush facts).
BRUSH_RENAMED: Mapping[str, str] = {
    "bleed": "it was renamed: use brush.fillBleed(...)",
    "setHatch": "it was renamed: use brush.hatchStyle(...)",
    "segment": "it was renamed: use brush.move(...) between brush.beginStroke() and "
    "brush.endStroke()",
    "push": "it was removed in p5.brush 2.x: use p5's own push()",
    "pop": "it was removed in p5.brush 2.x: use p5's own pop()",
    "rotate": "it was removed in p5.brush 2.x: use p5's own rotate()",
    "scale": "it was removed in p5.brush 2.x: use p5's own scale()",
    "translate": "use p5's own translate()",
    "reDraw": "it was removed in p5.brush 2.x: strokes reach the canvas by themselves at the "
    "end of setup() and draw(); delete the call",
    "reBlend": "it was removed in p5.brush 2.x: strokes reach the canvas by themselves at the "
    "end of setup() and draw(); delete the call",
    "preload": "it was removed in p5.brush 2.x; delete the call",
}

#: Forbidden names, by issue code. Bare global uses and ``window.NAME`` uses are caught.
ESCAPE_NAMES: Mapping[str, frozenset[str]] = {
    "network": frozenset(
        {
            "fetch",
            "XMLHttpRequest",
            "WebSocket",
            "EventSource",
            "RTCPeerConnection",
            "importScripts",
            "Worker",
            "SharedWorker",
            "httpGet",
            "httpPost",
            "httpDo",
        }
    ),
    "asset_load": frozenset(
        {
            "loadImage",
            "loadFont",
            "loadJSON",
            "loadStrings",
            "loadTable",
            "loadXML",
            "loadBytes",
            "loadBlob",
            "loadModel",
            "loadShader",
            "loadFilterShader",
            "loadSound",
            "createImg",
            "createVideo",
            "createCapture",
            "createAudio",
        }
    ),
    "dynamic_code": frozenset({"eval", "Function"}),
    "storage": frozenset({"localStorage", "sessionStorage", "indexedDB"}),
}
#: Properties forbidden on any object: nothing in a painting sketch needs them.
_ANY_OBJECT_PROPERTIES: Mapping[str, str] = {
    "innerHTML": "dom_escape",
    "outerHTML": "dom_escape",
    "insertAdjacentHTML": "dom_escape",
    "srcdoc": "dom_escape",
    "sendBeacon": "network",
    "serviceWorker": "network",
}
#: p5 asset loaders are p5-specific names, so they are refused on any object (``this.loadImage``).
_ANY_OBJECT_CODES = frozenset({"asset_load"})
#: Assigning these on ``location`` navigates away from the page.
_NAVIGATING_PROPERTIES = frozenset(
    {"href", "hash", "pathname", "search", "host", "hostname", "port", "protocol"}
)
#: Elements that load or run something when created from a sketch (``createElement("script")``).
_LOADING_ELEMENTS = frozenset(
    {
        "script",
        "iframe",
        "frame",
        "img",
        "object",
        "embed",
        "link",
        "meta",
        "base",
        "video",
        "audio",
        "source",
    }
)
#: Identifiers that name the global object.
_GLOBAL_OBJECTS = frozenset({"window", "globalThis", "self", "top", "parent", "frames"})

_WHY = {
    "network": "network access is not allowed: the sketch runs offline",
    "asset_load": "loading images, fonts, media or files is not allowed: paint everything "
    "with p5.brush",
    "data_uri": "embedded data: URIs are not allowed: paint everything with p5.brush",
    "dynamic_code": "running code built from strings is not allowed",
    "dom_escape": "changing the page outside the canvas is not allowed",
    "storage": "browser storage is not allowed",
}

#: Bare p5 shape calls counted by the optional primitive limit.
PRIMITIVES = frozenset(
    {
        "point",
        "line",
        "rect",
        "square",
        "ellipse",
        "circle",
        "arc",
        "triangle",
        "quad",
        "bezier",
        "curve",
        "beginShape",
        "box",
        "sphere",
        "plane",
        "cylinder",
        "cone",
        "torus",
        "ellipsoid",
    }
)

_DATA_URI = re.compile(r"^\s*data:[a-z0-9.+-]+/[a-z0-9.+-]+[;,]", re.IGNORECASE)
_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc\s*=)[^>]*>(.*?)</script\s*>", re.I | re.S)

_FUNCTION_TYPES = frozenset(
    {
        "function_declaration",
        "function_expression",
        "function",
        "generator_function_declaration",
        "generator_function",
        "arrow_function",
        "method_definition",
    }
)
_BLOCK_SCOPES = frozenset(
    {"statement_block", "for_statement", "for_in_statement", "catch_clause", "switch_body"}
)
_PATTERN_TYPES = frozenset({"object_pattern", "array_pattern", "rest_pattern"})
#: Node types whose children's field names decide what they declare.
_DECLARING = frozenset(
    {
        "variable_declarator",
        "function_declaration",
        "generator_function_declaration",
        "class_declaration",
        "function_expression",
        "function",
        "generator_function",
        "arrow_function",
        "catch_clause",
        "for_in_statement",
    }
)
#: (node type, field) whose identifier declares a name in the scope around the node...
_BINDS_IN_ENCLOSING_SCOPE = frozenset(
    {
        ("function_declaration", "name"),
        ("generator_function_declaration", "name"),
        ("class_declaration", "name"),
    }
)
#: ...and in the node's own scope (a named function expression sees its own name).
_BINDS_IN_OWN_SCOPE = frozenset(
    {
        ("function_expression", "name"),
        ("function", "name"),
        ("generator_function", "name"),
        ("arrow_function", "parameter"),
        ("catch_clause", "parameter"),
    }
)


@cache
def _parser() -> tree_sitter.Parser:
    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_javascript.language()))


def _parse(source: bytes) -> tree_sitter.Tree:
    # A fresh parser per call: tree-sitter parsers are not safe to share across threads.
    return tree_sitter.Parser(_parser().language).parse(source)


# --------------------------------------------------------------------------------------------
# The p5.brush API, read from the vendored library


@cache
def known_brush_members() -> frozenset[str]:
    """The names p5.brush exports as ``brush.*``, read from the vendored ``p5.brush.js``.

    The UMD build wraps the library in a factory ``function(t) {...}`` whose top-level
    statements end with ``t.name = value`` assignments, one per export. We parse the file with
    tree-sitter and take the function with the most such assignments, so the set follows the
    vendored version without evaluating any of its code or keeping a hand-written list.

    Returns:
        The exported names, e.g. ``fill``, ``fillBleed``, ``hatchStyle``.

    Raises:
        FileNotFoundError: If the vendored library cannot be found.
        RuntimeError: If the file does not have the expected shape (no exports found).
    """
    from sketch_env.render.assets import vendor_path

    tree = _parse(vendor_path("p5.brush/p5.brush.js").read_bytes())
    best: set[str] = set()
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.type not in ("function_expression", "function"):
            continue
        params = node.child_by_field_name("parameters")
        body = node.child_by_field_name("body")
        if params is None or body is None or params.named_child_count != 1:
            continue
        param = params.named_children[0]
        if param.type != "identifier":
            continue
        names = set(_exports_of(body, _text(param)))
        if len(names) > len(best):
            best = names
    if not best:
        raise RuntimeError("found no exports in the vendored p5.brush.js; has its build changed?")
    return frozenset(best)


def _exports_of(body: tree_sitter.Node, param: str) -> Iterator[str]:
    """Yields ``NAME`` for each top-level ``param.NAME = ...`` in a function body."""
    for statement in body.named_children:
        if statement.type != "expression_statement":
            continue
        pending = list(statement.named_children)
        while pending:
            expr = pending.pop()
            if expr.type == "sequence_expression":
                pending.extend(expr.named_children)
            elif expr.type == "assignment_expression":
                left = expr.child_by_field_name("left")
                if left is not None and left.type == "member_expression":
                    obj = left.child_by_field_name("object")
                    prop = left.child_by_field_name("property")
                    if obj is not None and prop is not None and _text(obj) == param:
                        yield _text(prop)


@cache
def _brush_version() -> str:
    try:
        from sketch_env.render.assets import vendor_path

        manifest = json.loads(vendor_path("VENDORED.json").read_text(encoding="utf-8"))
        return f"p5.brush {manifest['packages']['p5.brush']['version']}"
    except (OSError, KeyError, ValueError):
        return "p5.brush 2.x"


# --------------------------------------------------------------------------------------------
# Results


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
        require_brush_call: Require at least one ``brush.*`` call.
        reject_unknown_brush: Refuse ``brush.*`` names that p5.brush does not export.
        forbid_escapes: Refuse network, asset, storage, dynamic-code and DOM escapes.
        forbid_text: Refuse ``text()`` (off by default: some prompts ask for lettering).
        max_bare_primitives: At most this many bare p5 shape calls (`PRIMITIVES`); ``None``
            (the default) for no limit, ``0`` to refuse any. Off by default because a few
            p5 shapes under brush work are legitimate; turn it on against the reward hack of
            drawing with p5 primitives instead of p5.brush.

    Raises:
        ValueError: If a field has the wrong type or range.

    Examples:
        >>> GateConfig.from_dict({"forbid_text": True}).forbid_text
        True
    """

    max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES
    require_setup: bool = True
    require_webgl_canvas: bool = True
    require_brush_call: bool = True
    reject_unknown_brush: bool = True
    forbid_escapes: bool = True
    forbid_text: bool = False
    max_bare_primitives: int | None = None

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


# --------------------------------------------------------------------------------------------
# Extraction


@dataclass(slots=True)
class _Block:
    tag: str
    text: str
    closed: bool


def _fenced_blocks(text: str) -> list[_Block]:
    """Splits out fenced code blocks, CommonMark style (``` or ~~~, closed by a longer-or-equal
    run of the same character); an unterminated fence runs to the end of the reply."""
    blocks: list[_Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        match = _FENCE_OPEN.match(lines[i])
        if match is None or (match.group(1)[0] == "`" and "`" in match.group(2)):
            i += 1
            continue
        fence, info = match.group(1), match.group(2).strip()
        tag = info.split()[0].lower() if info else ""
        body: list[str] = []
        i += 1
        closed = False
        while i < len(lines):
            stripped = lines[i].strip()
            if (
                stripped
                and set(stripped) == {fence[0]}
                and len(stripped) >= len(fence)
                and len(lines[i]) - len(lines[i].lstrip(" ")) <= 3
            ):
                closed = True
                i += 1
                break
            body.append(lines[i])
            i += 1
        blocks.append(_Block(tag=tag, text="\n".join(body), closed=closed))
    return blocks


def _decode(reply: str | bytes | bytearray | memoryview | None, max_bytes: int) -> str | GateIssue:
    if reply is None:
        return GateIssue(
            "empty_reply", "the reply is empty: write a p5.brush sketch in a ```js block"
        )
    if isinstance(reply, str):
        # Characters never outnumber UTF-8 bytes, so this refuses a huge string unencoded.
        size = len(reply) if len(reply) > max_bytes else len(reply.encode("utf-8", "surrogatepass"))
        raw = None
    elif isinstance(reply, bytes | bytearray | memoryview):
        raw = bytes(reply)
        size = len(raw)
    else:
        raise TypeError(f"a reply must be str or bytes, got {type(reply).__name__}")
    if size > max_bytes:
        return GateIssue(
            "reply_too_large",
            f"the reply is {size:,} bytes, over the {max_bytes:,}-byte limit: "
            "write one sketch of ordinary size",
        )
    if raw is not None:
        try:
            reply = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            return GateIssue(
                "not_utf8",
                f"the reply is not valid UTF-8 (byte 0x{raw[err.start]:02x} at offset {err.start})",
            )
    assert isinstance(reply, str)
    try:
        reply.encode("utf-8")
    except UnicodeEncodeError as err:
        return GateIssue(
            "not_utf8",
            f"the reply holds a character that is not valid Unicode text at offset {err.start}",
        )
    return reply.removeprefix("\ufeff")


def extract_sketch(
    reply: str | bytes | bytearray | memoryview | None,
    *,
    max_bytes: int = DEFAULT_MAX_REPLY_BYTES,
) -> Extraction:
    """Takes the sketch out of a model reply. Never raises on bad content.

    Candidates are fenced blocks tagged ``js``, ``javascript``, ``p5``, ``p5js``, ``jsx`` or
    untagged, plus the inline ``<script>`` bodies of ``html`` blocks. Among several, the largest
    one that defines ``setup`` wins, else the largest. With no fence at all the whole reply is
    the candidate (`gate_reply` then reports "no code" if it does not parse).

    Args:
        reply: The model's reply, as text or bytes.
        max_bytes: Size limit in UTF-8 bytes.

    Returns:
        An `Extraction`; ``source`` is ``None`` and ``error`` set when there is no sketch
        (empty reply, too large, not UTF-8, only non-JavaScript code blocks, empty block).

    Raises:
        TypeError: If ``reply`` is not text, bytes or ``None`` (a programming error).

    Examples:
        >>> extract_sketch("Here:\\n```js\\nfunction setup() {}\\n```").source
        'function setup() {}'
    """
    text = _decode(reply, max_bytes)
    if isinstance(text, GateIssue):
        return Extraction(source=None, error=text)
    if not text.strip():
        return Extraction(
            source=None,
            error=GateIssue(
                "empty_reply", "the reply is empty: write a p5.brush sketch in a ```js block"
            ),
        )

    blocks = _fenced_blocks(text)
    if not blocks:
        return Extraction(source=text, notes=("no code fence: the whole reply was taken as code",))

    notes: list[str] = []
    candidates: list[_Block] = []
    for block in blocks:
        if block.tag in JS_FENCE_TAGS:
            candidates.append(block)
        elif block.tag in _HTML_FENCE_TAGS:
            scripts = [s for s in _SCRIPT.findall(block.text) if s.strip()]
            if scripts:
                candidates.append(_Block(tag="html", text="\n".join(scripts), closed=block.closed))
                notes.append("took the inline <script> of an html block")
    if not candidates:
        tags = sorted({b.tag for b in blocks})
        return Extraction(
            source=None,
            fenced=True,
            error=GateIssue(
                "no_code",
                f"the reply has {len(blocks)} code block(s) but none is JavaScript "
                f"(tagged {', '.join(tags)}): put the sketch in a ```js block",
            ),
        )

    with_setup = [i for i, b in enumerate(candidates) if _defines_setup(b.text)]
    pool = with_setup or list(range(len(candidates)))
    # Largest wins; on a tie the later block, since a corrected version usually comes last.
    chosen = max(pool, key=lambda i: (len(candidates[i].text.strip()), i))
    block = candidates[chosen]
    if len(candidates) > 1:
        why = "defines setup" if with_setup else "largest"
        notes.append(f"{len(candidates)} code blocks; used block {chosen + 1} ({why})")
    if not block.closed:
        notes.append("the code block is not closed: the reply may have been cut off")
    if not block.text.strip():
        return Extraction(
            source=None,
            fenced=True,
            blocks=len(candidates),
            chosen=chosen,
            notes=tuple(notes),
            error=GateIssue("no_code", "the code block is empty: write the sketch inside it"),
        )
    return Extraction(
        source=block.text,
        fenced=True,
        blocks=len(candidates),
        chosen=chosen,
        notes=tuple(notes),
    )


def _defines_setup(source: str) -> bool:
    """Whether a block defines ``setup`` in any form (parsed, so comments do not count)."""
    try:
        data = source.encode("utf-8")
    except UnicodeEncodeError:
        return False
    if b"setup" not in data:
        return False
    stack = [_parse(data).root_node]
    while stack:
        node = stack.pop()
        if node.type in ("function_declaration", "variable_declarator", "assignment_expression"):
            target = node.child_by_field_name("name") or node.child_by_field_name("left")
            if target is not None and _text(target).rsplit(".", 1)[-1] == "setup":
                return True
        stack.extend(node.named_children)
    return False


# --------------------------------------------------------------------------------------------
# Checking


def _text(node: tree_sitter.Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


class _Lines:
    """Converts tree-sitter's (row, byte column) to 1-based (line, character column)."""

    def __init__(self, data: bytes) -> None:
        self._lines = data.split(b"\n")

    def at(self, node: tree_sitter.Node) -> tuple[int, int]:
        row, byte_col = node.start_point
        line = self._lines[row] if row < len(self._lines) else b""
        return row + 1, len(line[:byte_col].decode("utf-8", "replace")) + 1


class _Issues:
    """Collects issues, one per (code, key), keeping the first place and counting the rest."""

    def __init__(self, lines: _Lines) -> None:
        self._lines = lines
        self._first: dict[tuple[str, str], tuple[int, int, str]] = {}
        self._count: Counter[tuple[str, str]] = Counter()

    def add(self, code: str, key: str, node: tree_sitter.Node | None, message: str) -> None:
        slot = (code, key)
        self._count[slot] += 1
        if slot not in self._first:
            line, col = self._lines.at(node) if node is not None else (0, 0)
            self._first[slot] = (line, col, message)

    def __contains__(self, code: str) -> bool:
        return any(c == code for c, _ in self._first)

    def result(self) -> list[GateIssue]:
        out = []
        for slot, (line, col, message) in self._first.items():
            count = self._count[slot]
            where = f"{line}:{col}" if line else ""
            if where and count > 1:
                where += f" (+{count - 1} more)"
            text = (
                message.replace("{where}", where) if where else message.replace(" at {where}", "")
            )
            out.append(GateIssue(slot[0], text, line or None, col or None, count))
        return out


def _syntax_error(root: tree_sitter.Node, lines: _Lines) -> GateIssue | None:
    """The first ERROR or MISSING node in source order, as an issue."""
    if not root.has_error:
        return None
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_missing or node.is_error:
            line, col = lines.at(node)
            if node.is_missing:
                detail = f"missing {node.type!r}"
            else:
                snippet = _text(node).strip().splitlines()
                token = snippet[0][:30] if snippet else ""
                detail = f"unexpected {token!r}" if token else "unexpected input"
            return GateIssue("syntax_error", f"syntax error at {line}:{col} ({detail})", line, col)
        if node.has_error:
            stack.extend(reversed(node.children))
    line, col = lines.at(root)
    return GateIssue("syntax_error", f"syntax error at {line}:{col}", line, col)


def _collect_scopes(root: tree_sitter.Node) -> tuple[dict[int, set[str]], set[int]]:
    """Finds every scope's declared names and every identifier node that is a declaration.

    JavaScript hoists ``var`` and function declarations, so a name may be used before the line
    that declares it: the whole tree is read before any reference is judged.

    Returns:
        (scope node id -> names declared there, ids of declaring identifier nodes)
    """
    names: dict[int, set[str]] = {}
    binding_ids: set[int] = set()
    # (node, scope that bindings under it go to or None, innermost block scope, function scope)
    stack: list[tuple[tree_sitter.Node, int | None, int, int]] = [(root, None, root.id, root.id)]
    names[root.id] = set()
    while stack:
        node, target, block, func = stack.pop()
        kind = node.type
        if target is not None:
            if kind in ("identifier", "shorthand_property_identifier_pattern"):
                names.setdefault(target, set()).add(_text(node))
                binding_ids.add(node.id)
                continue
            if kind in ("assignment_pattern", "object_assignment_pattern"):
                for i, child in enumerate(node.named_children):
                    side = node.field_name_for_named_child(i)
                    stack.append((child, target if side == "left" else None, block, func))
                continue
            if kind == "pair_pattern":
                for i, child in enumerate(node.named_children):
                    side = node.field_name_for_named_child(i)
                    stack.append((child, target if side == "value" else None, block, func))
                continue
            if kind in _PATTERN_TYPES:
                for child in node.named_children:
                    stack.append((child, target, block, func))
                continue
            # Anything else inside a pattern is an expression (a computed key, say).
            target = None

        outer_block = block
        if kind in _FUNCTION_TYPES:
            names.setdefault(node.id, set())
            block = func = node.id
        elif kind in _BLOCK_SCOPES:
            names.setdefault(node.id, set())
            block = node.id

        # Punctuation and keywords (unnamed nodes) never declare or reference anything.
        for i, child in enumerate(node.named_children):
            field_name = node.field_name_for_named_child(i) if kind in _DECLARING else None
            child_target: int | None = None
            if kind == "variable_declarator" and field_name == "name":
                parent = node.parent
                is_var = parent is not None and parent.type == "variable_declaration"
                child_target = func if is_var else block
            elif (kind, field_name) in _BINDS_IN_ENCLOSING_SCOPE:
                child_target = outer_block
            elif (kind, field_name) in _BINDS_IN_OWN_SCOPE or kind == "formal_parameters":
                child_target = block
            elif kind == "for_in_statement" and field_name == "left":
                declared = node.child_by_field_name("kind")
                if declared is not None:
                    child_target = func if _text(declared) == "var" else block
            stack.append((child, child_target, block, func))
    return names, binding_ids


class _Checker:
    """One pass over the syntax tree, applying every rule with the scope chain at hand."""

    def __init__(self, root: tree_sitter.Node, data: bytes, config: GateConfig) -> None:
        self.root = root
        self.config = config
        self.issues = _Issues(_Lines(data))
        self.scope_names, self.bindings = _collect_scopes(root)
        self.shadowed: Counter[str] = Counter()
        self.known = known_brush_members() if config.reject_unknown_brush else frozenset()
        self.setup_ok = False
        self.setup_problems: list[tuple[str, tree_sitter.Node, str]] = []
        self.canvas_calls: list[tree_sitter.Node] = []
        self.webgl = False
        self.brush_calls = 0
        self.primitives: Counter[str] = Counter()
        self.first_primitive: tree_sitter.Node | None = None
        self.instance_mode: tree_sitter.Node | None = None

    # The scope chain is tracked with a counter of names declared by enclosing scopes, so a
    # lookup costs O(1) however deeply the code nests.
    def is_global(self, name: str) -> bool:
        return self.shadowed[name] == 0

    def global_identifier(self, node: tree_sitter.Node | None, name: str | None = None) -> bool:
        """Whether ``node`` is a reference to the global called ``name`` (or any global)."""
        if node is None or node.type != "identifier" or node.id in self.bindings:
            return False
        text = _text(node)
        return (name is None or text == name) and self.is_global(text)

    def run(self) -> list[GateIssue]:
        self._check_top_level_setup()
        stack: list[tuple[tree_sitter.Node, bool]] = [(self.root, True)]
        while stack:
            node, entering = stack.pop()
            declared = self.scope_names.get(node.id)
            if not entering:
                if declared:
                    self.shadowed.subtract(declared)
                continue
            if declared:
                self.shadowed.update(declared)
            stack.append((node, False))
            self._visit(node)
            stack.extend((child, True) for child in reversed(node.named_children))
        self._finish()
        return self.issues.result()

    # ----- per-node rules

    def _visit(self, node: tree_sitter.Node) -> None:
        kind = node.type
        if kind == "identifier":
            self._identifier(node)
        elif kind == "shorthand_property_identifier":
            # `{fetch}` in an object literal reads the variable `fetch`.
            self._global_name(node, _text(node))
        elif kind in ("member_expression", "subscript_expression"):
            self._member(node)
        elif kind == "call_expression":
            self._call(node)
        elif kind == "new_expression":
            self._new(node)
        elif kind in ("assignment_expression", "augmented_assignment_expression"):
            self._assignment(node)
        elif kind in ("string", "template_string"):
            self._string(node)
        elif kind == "import_statement":
            self._escape("network", "import", node, "`import` statement")

    def _escape(self, code: str, key: str, node: tree_sitter.Node, what: str) -> None:
        if self.config.forbid_escapes:
            self.issues.add(code, key, node, f"{what} at {{where}}: {_WHY[code]}")

    def _identifier(self, node: tree_sitter.Node) -> None:
        if node.id in self.bindings:
            return
        name = _text(node)
        parent = node.parent
        if name == "Function" and parent is not None and parent.type == "binary_expression":
            # `x instanceof Function` only inspects; calling or aliasing it is what escapes.
            return
        self._global_name(node, name)

    def _global_name(self, node: tree_sitter.Node, name: str) -> None:
        if not self.is_global(name):
            return
        for code, names in ESCAPE_NAMES.items():
            if name in names:
                self._escape(code, name, node, f"`{name}`")
                return

    def _property(self, node: tree_sitter.Node) -> tuple[tree_sitter.Node | None, str | None]:
        """(object, property name) of ``a.b`` or ``a["b"]``; the name is None when computed."""
        obj = node.child_by_field_name("object")
        if node.type == "member_expression":
            prop = node.child_by_field_name("property")
            return obj, _text(prop) if prop is not None else None
        index = node.child_by_field_name("index")
        if index is not None and index.type == "string":
            return obj, _string_value(index)
        return obj, None

    def _is_global_object(self, node: tree_sitter.Node | None) -> bool:
        """Whether ``node`` names the global object (``window``, ``globalThis``, ``self``...)."""
        if node is None or node.type != "identifier" or node.id in self.bindings:
            return False
        name = _text(node)
        return name in _GLOBAL_OBJECTS and self.is_global(name)

    def _is_document(self, node: tree_sitter.Node | None) -> bool:
        if node is None:
            return False
        if self.global_identifier(node, "document"):
            return True
        if node.type in ("member_expression", "subscript_expression"):
            obj, prop = self._property(node)
            return prop == "document" and self._is_global_object(obj)
        return False

    def _is_location(self, node: tree_sitter.Node | None) -> bool:
        if node is None:
            return False
        if self.global_identifier(node, "location"):
            return True
        if node.type in ("member_expression", "subscript_expression"):
            obj, prop = self._property(node)
            return prop == "location" and (self._is_global_object(obj) or self._is_document(obj))
        return False

    def _member(self, node: tree_sitter.Node) -> None:
        obj, prop = self._property(node)
        if prop is None:
            return
        display = f"`{_text(obj)[:40] if obj is not None else ''}.{prop}`"
        if prop in _ANY_OBJECT_PROPERTIES:
            self._escape(_ANY_OBJECT_PROPERTIES[prop], prop, node, display)
            return
        if prop in ("write", "writeln") and self._is_document(obj):
            self._escape("dom_escape", "document.write", node, display)
            return
        if prop == "cookie" and self._is_document(obj):
            self._escape("storage", "cookie", node, display)
            return
        global_obj = self._is_global_object(obj)
        for code, names in ESCAPE_NAMES.items():
            if prop in names and (global_obj or code in _ANY_OBJECT_CODES):
                self._escape(code, prop, node, display)
                return
        if global_obj and prop == "open":
            self._escape("dom_escape", "open", node, display)
            return
        if self.global_identifier(obj, "brush"):
            self._brush_member(node, prop)

    def _brush_member(self, node: tree_sitter.Node, prop: str) -> None:
        if not self.config.reject_unknown_brush or prop in self.known:
            return
        version = _brush_version()
        if prop in BRUSH_RENAMED:
            hint = BRUSH_RENAMED[prop]
        else:
            close = difflib.get_close_matches(prop, sorted(self.known), n=3, cutoff=0.6)
            hint = (
                "did you mean " + " or ".join(f"brush.{c}" for c in close) + "?"
                if close
                else "it is not part of the library"
            )
        self.issues.add(
            "unknown_brush_member",
            prop,
            node,
            f"`brush.{prop}` at {{where}} does not exist in {version}: {hint}",
        )

    def _call(self, node: tree_sitter.Node) -> None:
        callee = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        if callee is None:
            return
        if callee.type == "import":
            self._escape("network", "import()", node, "`import(...)`")
            return
        arg_nodes = [a for a in args.named_children if a.type != "comment"] if args else []
        if callee.type == "identifier":
            name = _text(callee)
            if not self.is_global(name):
                return
            if name in ("setTimeout", "setInterval") and _is_string_node(arg_nodes[:1]):
                self._escape("dynamic_code", name, node, f"`{name}` with a string")
            elif name == "open":
                self._escape("dom_escape", "open", node, "`open(...)`")
            elif name == "createElement":
                self._element(node, arg_nodes)
            elif name == "createCanvas":
                self.canvas_calls.append(node)
                if self._webgl_argument(arg_nodes):
                    self.webgl = True
            elif name == "text" and self.config.forbid_text:
                self.issues.add(
                    "text_banned",
                    "text",
                    node,
                    "`text()` at {where}: writing text on the canvas is not allowed here; "
                    "paint the picture instead",
                )
            elif name in PRIMITIVES:
                self.primitives[name] += 1
                if self.first_primitive is None:
                    self.first_primitive = node
        elif callee.type in ("member_expression", "subscript_expression"):
            obj, prop = self._property(callee)
            if self.global_identifier(obj, "brush"):
                self.brush_calls += 1
            elif prop in ("setTimeout", "setInterval") and self._is_global_object(obj):
                if _is_string_node(arg_nodes[:1]):
                    self._escape("dynamic_code", prop, node, f"`{prop}` with a string")
            elif prop in ("assign", "replace", "reload") and self._is_location(obj):
                self._escape("dom_escape", "location", node, f"`location.{prop}(...)`")
            elif prop == "createElement" and self._is_document(obj):
                self._element(node, arg_nodes)
            elif prop == "constructor":
                # `(() => {}).constructor("code")` builds a Function without naming it.
                self._escape("dynamic_code", "constructor", node, "`.constructor(...)`")

    def _element(self, node: tree_sitter.Node, args: list[tree_sitter.Node]) -> None:
        if args and args[0].type == "string":
            tag = _string_value(args[0]).strip().lower()
            if tag in _LOADING_ELEMENTS:
                self._escape("dom_escape", f"<{tag}>", node, f"creating a <{tag}> element")

    def _new(self, node: tree_sitter.Node) -> None:
        ctor = node.child_by_field_name("constructor")
        if ctor is None:
            return
        if self.global_identifier(ctor, "p5"):
            self.instance_mode = self.instance_mode or node
        elif ctor.type == "member_expression":
            obj, _ = self._property(ctor)
            if self.global_identifier(obj, "brush"):
                self.brush_calls += 1

    def _assignment(self, node: tree_sitter.Node) -> None:
        left = node.child_by_field_name("left")
        if left is None:
            return
        if self._is_location(left):
            self._escape("dom_escape", "location", node, "assigning `location`")
            return
        if left.type in ("member_expression", "subscript_expression"):
            obj, prop = self._property(left)
            if prop in _NAVIGATING_PROPERTIES and self._is_location(obj):
                self._escape("dom_escape", "location", node, f"assigning `location.{prop}`")
            elif prop == "setup" and self._is_global_object(obj):
                self.setup_ok = True
        elif self.global_identifier(left, "setup") and node.type == "assignment_expression":
            # A sloppy-mode assignment to an undeclared name creates window.setup.
            self.setup_ok = True

    def _string(self, node: tree_sitter.Node) -> None:
        if node.type == "string":
            value = _string_value(node)
        else:
            first = next((c for c in node.named_children if c.type == "string_fragment"), None)
            value = _text(first) if first is not None and first == node.named_children[0] else ""
        if value and _DATA_URI.match(value):
            self._escape("data_uri", "data:", node, "a `data:` URI")

    def _webgl_argument(self, args: list[tree_sitter.Node]) -> bool:
        if len(args) < 3:
            return False
        renderer = args[2]
        if renderer.type == "identifier":
            return _text(renderer) == "WEBGL"
        if renderer.type == "member_expression":
            prop = renderer.child_by_field_name("property")
            return prop is not None and _text(prop) == "WEBGL"
        if renderer.type == "string":
            return _string_value(renderer).lower() == "webgl"
        return False

    # ----- whole-program rules

    def _check_top_level_setup(self) -> None:
        """Classifies each definition of ``setup`` by where p5's global mode can see it."""
        for node in self.root.named_children:
            if node.type in ("function_declaration", "generator_function_declaration"):
                name = node.child_by_field_name("name")
                if name is not None and _text(name) == "setup":
                    self.setup_ok = True
            elif node.type in ("variable_declaration", "lexical_declaration"):
                keyword = _text(node.children[0]) if node.children else ""
                for declarator in node.named_children:
                    name = declarator.child_by_field_name("name")
                    if declarator.type != "variable_declarator" or name is None:
                        continue
                    if _text(name) != "setup":
                        continue
                    if keyword == "var":
                        self.setup_ok = True
                    else:
                        self.setup_problems.append(
                            (
                                "setup_not_global",
                                declarator,
                                f"`{keyword} setup = ...` at {{where}} never runs: p5's global "
                                f"mode looks for window.setup, and `{keyword}` does not create "
                                "it; write `function setup() { ... }` instead",
                            )
                        )
        # A `function setup` nested in a block or another function is invisible to p5.
        stack = [c for c in self.root.named_children]
        while stack:
            node = stack.pop()
            if node.type in ("function_declaration", "generator_function_declaration"):
                name = node.child_by_field_name("name")
                if name is not None and _text(name) == "setup" and node.parent != self.root:
                    self.setup_problems.append(
                        (
                            "setup_not_global",
                            node,
                            "`function setup()` at {where} is inside another function or "
                            "block, where p5's global mode cannot find it; define it at the "
                            "top level",
                        )
                    )
            stack.extend(node.named_children)

    def _finish(self) -> None:
        cfg = self.config
        if cfg.require_setup and not self.setup_ok:
            if self.setup_problems:
                for code, node, message in self.setup_problems:
                    self.issues.add(code, "setup", node, message)
            elif self.instance_mode is not None:
                self.issues.add(
                    "instance_mode",
                    "p5",
                    self.instance_mode,
                    "`new p5(...)` at {where}: instance mode is not supported; write a "
                    "global-mode sketch with a top-level `function setup() { ... }`",
                )
            else:
                self.issues.add(
                    "no_setup",
                    "setup",
                    None,
                    "no setup() function: p5 runs nothing without one; define "
                    "`function setup() { createCanvas(600, 600, WEBGL); ... }`",
                )
        # An instance-mode sketch calls p.createCanvas; its own issue already says what to do.
        instance_only = self.instance_mode is not None and not self.setup_ok
        if cfg.require_webgl_canvas and not self.webgl and not instance_only:
            if self.canvas_calls:
                self.issues.add(
                    "no_webgl_canvas",
                    "createCanvas",
                    self.canvas_calls[0],
                    "`createCanvas(...)` at {where} makes a 2D canvas, where nothing p5.brush "
                    "draws appears; use `createCanvas(w, h, WEBGL)`",
                )
            else:
                self.issues.add(
                    "no_webgl_canvas",
                    "createCanvas",
                    None,
                    "no `createCanvas(w, h, WEBGL)` call: p5.brush draws only on a WebGL canvas",
                )
        if cfg.require_brush_call and self.brush_calls == 0:
            self.issues.add(
                "no_brush_call",
                "brush",
                None,
                "no p5.brush call: paint with `brush.*` functions (brush.set, brush.line, "
                "brush.fill, brush.rect, brush.circle...)",
            )
        limit = cfg.max_bare_primitives
        total = sum(self.primitives.values())
        if limit is not None and total > limit:
            names = ", ".join(f"{n}()" for n, _ in self.primitives.most_common(4))
            self.issues.add(
                "bare_primitives",
                "primitives",
                self.first_primitive,
                f"{total} bare p5 shape call{'s' if total != 1 else ''} ({names}; first at "
                f"{{where}}), more than the {limit} allowed: paint with p5.brush instead "
                "(brush.line, brush.rect, brush.circle, brush.polygon...)",
            )


def _string_value(node: tree_sitter.Node) -> str:
    """The text between a string literal's quotes (escapes left as written)."""
    raw = _text(node)
    return raw[1:-1] if len(raw) >= 2 else ""


def _is_string_node(nodes: list[tree_sitter.Node]) -> bool:
    return bool(nodes) and nodes[0].type in ("string", "template_string")


def check_sketch(source: str, config: GateConfig | None = None) -> GateVerdict:
    """Checks one sketch against the gate's rules.

    Args:
        source: The sketch's JavaScript.
        config: Which rules apply; the defaults when ``None``.

    Returns:
        A `GateVerdict`. A syntax error is reported alone (the other rules would be judging a
        broken tree); otherwise every rule that fails adds one issue.

    Raises:
        TypeError: If ``source`` is not a string.
        FileNotFoundError: If ``reject_unknown_brush`` is on and the vendored p5.brush is
            missing (a broken installation, not a bad sketch).

    Examples:
        >>> sketch = '''
        ... function setup() {
        ...   createCanvas(600, 600, WEBGL);
        ...   brush.set("2B", "#223344", 1);
        ...   brush.line(-200, 0, 200, 0);
        ... }'''
        >>> check_sketch(sketch).passed
        True
        >>> check_sketch(sketch.replace("brush.set", "brush.setBrush")).reasons[0][:37]
        '`brush.setBrush` at 4:3 does not exis'
    """
    if not isinstance(source, str):
        raise TypeError(f"source must be str, got {type(source).__name__}")
    config = config or GateConfig()
    try:
        data = source.encode("utf-8")
    except UnicodeEncodeError as err:
        issue = GateIssue(
            "not_utf8", f"the sketch holds a character that is not valid Unicode at {err.start}"
        )
        return GateVerdict(passed=False, issues=(issue,), source=source)
    if len(data) > config.max_reply_bytes:
        issue = GateIssue(
            "reply_too_large",
            f"the sketch is {len(data):,} bytes, over the {config.max_reply_bytes:,}-byte limit",
        )
        return GateVerdict(passed=False, issues=(issue,), source=source)
    if not source.strip():
        issue = GateIssue("no_code", "the sketch is empty")
        return GateVerdict(passed=False, issues=(issue,), source=source)
    tree = _parse(data)
    syntax = _syntax_error(tree.root_node, _Lines(data))
    if syntax is not None:
        return GateVerdict(passed=False, issues=(syntax,), source=source)
    issues = _Checker(tree.root_node, data, config).run()
    return GateVerdict(passed=not issues, issues=tuple(issues), source=source)


def gate_reply(
    reply: str | bytes | bytearray | memoryview | None, config: GateConfig | None = None
) -> GateVerdict:
    """Extracts the sketch from a model reply and checks it. Never raises on bad content.

    Args:
        reply: The model's reply, as text or bytes (``None`` counts as empty).
        config: Which rules apply; the defaults when ``None``.

    Returns:
        A `GateVerdict` whose ``source`` is the extracted sketch (``None`` when there was
        none) and whose ``notes`` carry the extraction's remarks.

    Raises:
        TypeError: If ``reply`` is not text, bytes or ``None`` (a programming error).
        FileNotFoundError: If the vendored p5.brush is missing (see `check_sketch`).

    Examples:
        >>> gate_reply("").codes
        ['empty_reply']
        >>> gate_reply(b"\\xff\\xfe").reasons
        ['the reply is not valid UTF-8 (byte 0xff at offset 0)']
    """
    config = config or GateConfig()
    extraction = extract_sketch(reply, max_bytes=config.max_reply_bytes)
    if extraction.source is None:
        assert extraction.error is not None
        return GateVerdict(passed=False, issues=(extraction.error,), notes=extraction.notes)
    verdict = check_sketch(extraction.source, config)
    if not extraction.fenced and not verdict.passed:
        # Without a fence the "sketch" is usually prose, and a syntax error or a list of
        # missing functions would misdescribe it.
        first = verdict.issues[0]
        message = None
        if first.code == "syntax_error":
            message = (
                "no code found: the reply has no ```js code block and its text is not "
                f"JavaScript (syntax error at {first.line}:{first.column})"
            )
        elif {"no_setup", "no_brush_call"} <= set(verdict.codes):
            message = (
                "no sketch found: the reply has no ```js code block, and its text defines no "
                "setup() and calls no brush.* function"
            )
        if message is not None:
            issue = GateIssue("no_code", message, first.line, first.column)
            return GateVerdict(
                passed=False, issues=(issue,), source=extraction.source, notes=extraction.notes
            )
    return GateVerdict(
        passed=verdict.passed,
        issues=verdict.issues,
        source=extraction.source,
        notes=extraction.notes + verdict.notes,
    )
