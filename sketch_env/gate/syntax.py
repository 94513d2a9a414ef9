"""Parsing JavaScript with tree-sitter, and turning its positions and errors into words."""

from __future__ import annotations

import re
from functools import cache

import tree_sitter
import tree_sitter_javascript

from sketch_env.gate.verdict import GateIssue


@cache
def parser() -> tree_sitter.Parser:
    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_javascript.language()))


def parse(source: bytes) -> tree_sitter.Tree:
    # A fresh parser per call: tree-sitter parsers are not safe to share across threads.
    return tree_sitter.Parser(parser().language).parse(source)


def node_text(node: tree_sitter.Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


class LineIndex:
    """Converts tree-sitter's (row, byte column) to 1-based (line, character column)."""

    def __init__(self, data: bytes) -> None:
        self._lines = data.split(b"\n")

    def at(self, node: tree_sitter.Node) -> tuple[int, int]:
        row, byte_col = node.start_point
        line = self._lines[row] if row < len(self._lines) else b""
        return row + 1, len(line[:byte_col].decode("utf-8", "replace")) + 1


_ESCAPE = re.compile(
    r"\\(?:u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(\r\n|[\s\S]))"
)
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def _unescape(match: re.Match[str]) -> str:
    braced, four, two, other = match.groups()
    code = braced or four or two
    if code is not None:
        value = int(code, 16)
        return chr(value) if value <= 0x10FFFF else ""
    if other in ("\n", "\r", "\r\n", "\u2028", "\u2029"):
        return ""  # a line continuation
    return _SIMPLE_ESCAPES.get(other, other)


def unescape_js(text: str) -> str:
    """Decodes JavaScript escapes (``\\u0066``, ``\\u{66}``, ``\\x66``, ``\\n``...).

    Identifiers may hold ``\\uXXXX`` escapes and run as the name they spell
    (``\\u0066etch(...)`` calls ``fetch``), so names are compared after decoding.
    """
    return _ESCAPE.sub(_unescape, text) if "\\" in text else text


def name_of(node: tree_sitter.Node) -> str:
    """An identifier's (or property name's) name, escapes decoded."""
    return unescape_js(node_text(node))


def string_value(node: tree_sitter.Node) -> str | None:
    """The value of a string literal or a template without substitutions, escapes decoded;
    ``None`` for anything else."""
    if node.type == "string":
        return unescape_js(node_text(node)[1:-1])
    if node.type == "template_string" and all(
        c.type in ("string_fragment", "escape_sequence") for c in node.named_children
    ):
        return unescape_js(node_text(node)[1:-1])
    return None


def syntax_error(root: tree_sitter.Node, lines: LineIndex) -> GateIssue | None:
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
                snippet = node_text(node).strip().splitlines()
                token = snippet[0][:30] if snippet else ""
                detail = f"unexpected {token!r}" if token else "unexpected input"
            return GateIssue("syntax_error", f"syntax error at {line}:{col} ({detail})", line, col)
        if node.has_error:
            stack.extend(reversed(node.children))
    line, col = lines.at(root)
    return GateIssue("syntax_error", f"syntax error at {line}:{col}", line, col)
