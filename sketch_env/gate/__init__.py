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

The rules (each can be switched in `GateConfig`; the defaults are the hardened setting, and
docs/design.md §4.4 lists them in full):

- ``setup`` is defined where p5's global mode finds it: a top-level ``function setup``, a
  top-level ``var setup = ...``, or an assignment to ``window.setup``. ``const``/``let``
  declarations do not create ``window.setup``, so such a sketch never starts (docs/design.md §3.4).
- ``createCanvas(w, h, WEBGL)``: p5.brush only draws on a WebGL canvas (docs/design.md §3.2).
- at least one p5.brush *drawing* call (a setter such as ``brush.noStroke()`` paints nothing),
  and no ``brush.*`` name that p5.brush does not export. The known names are read from the
  vendored ``p5.brush.js`` itself, and the common 1.x names (``bleed``, ``setHatch``,
  ``segment``, ``push``...) get their 2.x replacement in the reason.
- no plain p5 shapes (`PRIMITIVES`), no ``text()``, no raw canvas, pixel or WebGL access, no
  ``try``/``.catch``/error handlers, no top-level name that clashes with a p5 global.
- no network, asset, storage, dynamic-code, DOM or graphics escape, no override of a built-in,
  and nothing the gate cannot read (computed names on ``window``, ``with``, escaped
  identifiers, constructors reached through prototypes): it fails closed.

Layout: `verdict` (results and `GateConfig`, plain data), `extract` (finding the code in a
reply), `syntax` (tree-sitter parsing and positions), `scopes` (which names a sketch declares),
`brush_api` (the names p5.brush exports, read from the vendored file), `p5_api` (the names
p5's global mode defines, read likewise), `rules` (the visitor that applies what
`sketch_env.catalog.vocabulary` refuses, and why, node by node), `nodes` (what a node is, read
off the tree alone), `program` (the rules on the sketch as a whole: ``setup``, the canvas, a
brush drawing call), `issues` (the issues found, one per rule and name) and `check` (the entry
points). Importing
this package is cheap: the parser loads when a sketch is first checked.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sketch_env.catalog.vocabulary import (
        BRUSH_DRAWING_CALLS,
        BRUSH_RENAMED,
        ESCAPE_NAMES,
        PRIMITIVES,
    )
    from sketch_env.gate.brush_api import known_brush_members
    from sketch_env.gate.check import check_sketch, gate_reply
    from sketch_env.gate.extract import JS_FENCE_TAGS, extract_sketch
    from sketch_env.gate.verdict import (
        DEFAULT_MAX_REPLY_BYTES,
        Extraction,
        GateConfig,
        GateIssue,
        GateVerdict,
    )

__all__ = [
    "BRUSH_DRAWING_CALLS",
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

_VOCABULARY = "sketch_env.catalog.vocabulary"
_HOME = {
    "BRUSH_RENAMED": _VOCABULARY,
    "ESCAPE_NAMES": _VOCABULARY,
    "PRIMITIVES": _VOCABULARY,
    "BRUSH_DRAWING_CALLS": _VOCABULARY,
    "JS_FENCE_TAGS": f"{__name__}.extract",
    "extract_sketch": f"{__name__}.extract",
    "known_brush_members": f"{__name__}.brush_api",
    "check_sketch": f"{__name__}.check",
    "gate_reply": f"{__name__}.check",
    "DEFAULT_MAX_REPLY_BYTES": f"{__name__}.verdict",
    "Extraction": f"{__name__}.verdict",
    "GateConfig": f"{__name__}.verdict",
    "GateIssue": f"{__name__}.verdict",
    "GateVerdict": f"{__name__}.verdict",
}


def __getattr__(name: str) -> Any:
    # Lazy, so that the wire models can import `GateConfig`'s module without tree-sitter.
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted(__all__)
