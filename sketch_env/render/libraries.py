"""The library scripts as the renderer serves them: p5 as vendored, p5.brush with a fast path.

The harness attributes every wrapped call to the code that made it, from a V8 stack
(`sketch_env.render.provenance`). Under Playwright a stack is dear: any DevTools session with
the Runtime domain enabled (Playwright's own, on every page it drives) makes V8 collect up to
200 frames for the inspector on *every* ``Error.captureStackTrace``, whatever
``Error.stackTraceLimit`` says. Measured in Chromium: under 3 µs a capture at any depth with no
session, 8.4 µs at 20 frames deep and 17.5 µs at 60 with Playwright's; a session's
``Runtime.setMaxCallStackSizeToCapture(0)`` does not help while another session asks for 200.
p5.brush's watercolour fills draw their texture with one 2D ``fill()`` per dab: the hibiscus
reference made 62,000 of them, each attributed from a stack ~19 frames deep, and renders took
twice as long as before attribution (issue 29: 0.8 against 2.1 CPU-s of JavaScript).

Those calls are p5.brush's own by the attribution rule itself: a call made *from p5.brush's
code, at a place whose source spells the called name*, is p5.brush's (a function the sketch
handed p5.brush is called somewhere else). So the served p5.brush states it at those places
instead of leaving the harness to find it out: each call ``OBJ.NAME(ARGS)`` whose ``NAME`` the
harness wraps becomes ``__sketchenvLibraryCall(OBJ, "NAME").NAME(ARGS)``. The helper, handed to
p5.brush by the harness when the library loads, looks ``OBJ.NAME`` up once: when it is a
harness wrapper *for that very name*, it returns an object whose ``NAME`` runs the wrapped
function exactly as the wrapper would for p5.brush's own call (not counted, paint measured,
owned by p5.brush), without a stack; anything else (p5.brush's own objects, a function the
sketch put there, another wrapper under this name) gets ``OBJ`` back, and the call is made,
from p5.brush's code at a place spelling ``NAME``, as before. Nothing the sketch runs can use
the helper: it lives in a block-scoped constant of p5.brush's script, and the harness hands it
only to a caller whose stack frame is this script (by its SHA-256; a frozen or overflowed stack
gets nothing, and p5.brush then calls through the wrappers as before).

Pictures are byte for byte the same (the same calls, on the same objects, in the same order).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

import tree_sitter
import tree_sitter_javascript

from sketch_env.catalog.assets import read_vendor_bytes

__all__ = ["HELPER", "KIT_PROLOGUE", "LIBRARIES", "route_library_calls", "served_library"]

#: The library scripts every frame loads, by the short name the harness uses for them.
LIBRARIES = {"p5": "p5/p5.min.js", "brush": "p5.brush/p5.brush.js"}
#: The helper's name inside the served p5.brush (a block-scoped constant: no global).
HELPER = "__sketchenvLibraryCall"
#: What the served p5.brush runs first: it asks the harness for the helper (which checks that
#: its caller is this script) and falls back to calling through the wrappers without it. The
#: harness object is named bare, not through ``globalThis`` (which a script may reassign): it
#: is a non-configurable global, which no script can shadow or replace.
KIT_PROLOGUE = (
    f"{{const {HELPER}=(()=>{{try{{return __sketchenv.libraryCalls()}}"
    "catch(_){return null}})()||(o=>o);"
)


def _parser() -> tree_sitter.Parser:
    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_javascript.language()))


def _sites(tree: tree_sitter.Tree, names: frozenset[str]) -> list[tuple[tree_sitter.Node, str]]:
    """``(object node, name)`` of every plain method call ``OBJ.NAME(...)`` with a wanted name."""
    found: list[tuple[tree_sitter.Node, str]] = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.type != "call_expression":
            continue
        callee = node.child_by_field_name("function")
        if callee is None or callee.type != "member_expression":
            continue
        obj = callee.child_by_field_name("object")
        prop = callee.child_by_field_name("property")
        # Optional chains (`a?.b()`, `a.b?.()`) short-circuit on null: left as they are, as are
        # `super.x()` (no value to hand over) and private names.
        optional = any(c.type == "optional_chain" for c in (*callee.children, *node.children))
        if obj is None or prop is None or optional or obj.type == "super":
            continue
        name = (prop.text or b"").decode("utf-8")
        if prop.type == "property_identifier" and name in names:
            found.append((obj, name))
    return found


def route_library_calls(source: bytes, names: Iterable[str]) -> bytes:
    """Rewrites a library so that its own calls to ``names`` go through the harness's helper.

    ``OBJ.NAME(ARGS)`` becomes ``HELPER(OBJ, "NAME").NAME(ARGS)`` (``OBJ`` evaluated once, the
    arguments untouched), and the script is wrapped in a block that declares the helper.

    Args:
        source: The library as vendored (UTF-8).
        names: The function names the harness wraps (`sketch_env.render.api_calls`).

    Returns:
        The script to serve.

    Raises:
        ValueError: If the source does not parse, starts with a directive, or declares names
            at its top level that a block would hide (``let``, ``const``, classes, functions).
    """
    tree = _parser().parse(source)
    if tree.root_node.has_error:
        raise ValueError("the library does not parse as JavaScript")
    top = tree.root_node.named_children
    if top and top[0].type == "expression_statement":
        head = top[0].named_children[0] if top[0].named_child_count else None
        if head is not None and head.type == "string":
            raise ValueError("the library starts with a directive prologue")
    # In a block, `var` still declares globals, but `let`/`const`/`class` and function
    # declarations would be the block's own: a library with them is not wrapped.
    scoped = ("lexical_declaration", "class_declaration", "function_declaration")
    if any(node.type in scoped for node in top):
        raise ValueError("the library declares block-scoped names at its top level")
    # (offset, order, text): at one offset a closing insertion comes before an opening one,
    # and of two openings the outer call's (the larger object) first.
    edits: list[tuple[int, int, bytes]] = []
    for obj, name in _sites(tree, frozenset(names)):
        edits.append((obj.start_byte, 1 + (1 << 40) - (obj.end_byte - obj.start_byte), b""))
        edits.append((obj.end_byte, 0, f',"{name}")'.encode()))
    out = bytearray(KIT_PROLOGUE.encode())
    done = 0
    for offset, order, text in sorted(edits):
        out += source[done:offset]
        out += HELPER.encode() + b"(" if order else text
        done = offset
    out += source[done:] + b"\n}\n"
    return bytes(out)


@cache
def served_library(short: str) -> bytes:
    """The bytes the renderer serves for a library (``"p5"`` or ``"brush"``).

    Args:
        short: A key of `LIBRARIES`.

    Returns:
        p5 as vendored; p5.brush with its calls to wrapped functions routed through the
        harness's helper (`route_library_calls`).
    """
    raw = read_vendor_bytes(LIBRARIES[short])
    if short != "brush":
        return raw
    from sketch_env.render.api_calls import library_routed_names

    return route_library_calls(raw, library_routed_names())
