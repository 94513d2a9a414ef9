"""Parsing JavaScript with tree-sitter, and turning its positions and errors into words."""

from __future__ import annotations

from collections import Counter
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


class Issues:
    """Collects issues, one per (code, key), keeping the first place and counting the rest."""

    def __init__(self, lines: LineIndex) -> None:
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
