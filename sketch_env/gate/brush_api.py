"""The p5.brush API, read from the vendored library itself."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache

import tree_sitter

from sketch_env.gate.syntax import node_text, parse


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
    from sketch_env.catalog.assets import vendor_path

    tree = parse(vendor_path("p5.brush/p5.brush.js").read_bytes())
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
        names = set(_exports_of(body, node_text(param)))
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
                    if obj is not None and prop is not None and node_text(obj) == param:
                        yield node_text(prop)


@cache
def brush_version() -> str:
    try:
        from sketch_env.catalog.assets import vendor_path

        manifest = json.loads(vendor_path("VENDORED.json").read_text(encoding="utf-8"))
        return f"p5.brush {manifest['packages']['p5.brush']['version']}"
    except (OSError, KeyError, ValueError):
        return "p5.brush 2.x"
