r"""`Issues`: what the rule visitor found, one issue per (code, key), as `GateIssue`\ s."""

from __future__ import annotations

from collections import Counter

import tree_sitter

from sketch_env.gate.syntax import LineIndex
from sketch_env.gate.verdict import GateIssue

__all__ = ["Issues"]


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
