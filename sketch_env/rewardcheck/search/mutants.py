"""Mutating a reference's own source (`mutate_source`): the ``references`` search's operator.

It edits the sketch's syntax tree (tree-sitter): numeric and colour literals, duplicating,
removing and reordering the statements of ``setup``, and inserting random brush marks
(`sketch_env.rewardcheck.search.compiler.mark_calls`). Mutants are not repaired: one the gate
refuses is evaluated anyway and earns the gate's penalty.
"""

from __future__ import annotations

import math
import random

import tree_sitter
import tree_sitter_javascript

from sketch_env.rewardcheck.search.compiler import mark_calls
from sketch_env.rewardcheck.search.genome import hex_colour, jitter_rgb, random_mark, random_rgb

__all__ = ["mutate_source"]


_LANGUAGE = tree_sitter.Language(tree_sitter_javascript.language())
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def _parse(source: bytes) -> tree_sitter.Node:
    return tree_sitter.Parser(_LANGUAGE).parse(source).root_node


def _walk(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    found = []
    stack = [node]
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(reversed(current.children))
    return found


def _setup_body(root: tree_sitter.Node) -> tree_sitter.Node | None:
    for child in root.named_children:
        name = child.child_by_field_name("name")
        if child.type == "function_declaration" and name is not None and name.text == b"setup":
            return child.child_by_field_name("body")
    return None


def _in_create_canvas(node: tree_sitter.Node) -> bool:
    current: tree_sitter.Node | None = node
    while current is not None:
        if current.type == "call_expression":
            callee = current.child_by_field_name("function")
            if callee is not None and callee.text == b"createCanvas":
                return True
        current = current.parent
    return False


def _is_colour(text: bytes) -> bool:
    value = text[1:-1]
    return (
        len(text) >= 2
        and text[:1] in (b"'", b'"')
        and value[:1] == b"#"
        and len(value) in (4, 7, 9)
        and all(chr(c) in _HEX_DIGITS for c in value[1:])
    )


def _splice(data: bytes, start: int, end: int, text: str) -> bytes:
    return data[:start] + text.encode("utf-8") + data[end:]


def _new_number(rng: random.Random, text: str) -> str | None:
    try:
        value = float(text)
    except ValueError:
        return None  # hex, octal, bigint literals: left alone
    if value == 0.0:
        new = rng.uniform(-1.0, 1.0)
    else:
        # Symmetric in log: halving is as likely as doubling.
        new = value * math.exp(rng.uniform(-math.log(2.0), math.log(2.0)))
    if all(c.isdigit() for c in text):
        whole = round(new)
        return str(whole if whole != int(value) else int(value) + rng.choice((-1, 1)))
    return repr(round(new, 3))


def _source_colours(root: tree_sitter.Node) -> list[str]:
    colours = []
    for node in _walk(root):
        text = node.text or b""
        if node.type == "string" and _is_colour(text):
            value = text[1:-1].decode()
            if len(value) == 7:
                colours.append(value)
    return colours


def mutate_source(source: str, rng: random.Random) -> tuple[str, tuple[str, ...]]:
    """One to three source-level mutations of a sketch (geometrically many).

    Operators: ``number`` (a numeric literal times 0.5-2, log-uniform; integers stay
    integers), ``colour`` (a ``'#rrggbb'`` literal jittered or replaced), ``duplicate``,
    ``remove`` and ``reorder`` (a top-level statement of ``setup``), and ``insert`` (a random
    brush mark, `random_mark` in colours taken from the sketch, at a random place in
    ``setup``). The statement holding ``createCanvas`` and its arguments are never touched:
    without them no sketch passes the gate, so mutating them would only spend the budget on
    known −1s. The result is not gated here and may fail the gate.

    Args:
        source: The sketch.
        rng: The generator.

    Returns:
        The mutant and the operators applied. A source without ``function setup`` comes back
        unchanged with no operators.
    """
    ops: list[str] = []
    data = source.encode("utf-8")
    for _ in range(3):
        data, op = _mutate_source_once(data, rng)
        if op is None:
            break
        ops.append(op)
        if rng.random() < 0.5:
            break
    return data.decode("utf-8", "replace"), tuple(ops)


def _mutate_source_once(data: bytes, rng: random.Random) -> tuple[bytes, str | None]:
    root = _parse(data)
    body = _setup_body(root)
    if body is None:
        return data, None
    statements = [s for s in body.named_children if s.type != "comment"]
    anchor = next((i for i, s in enumerate(statements) if b"createCanvas" in (s.text or b"")), -1)
    movable = [s for i, s in enumerate(statements) if i != anchor]
    numbers = [n for n in _walk(root) if n.type == "number" and not _in_create_canvas(n)]
    colours = [n for n in _walk(root) if n.type == "string" and _is_colour(n.text or b"")]
    choices = ["insert"]
    if numbers:
        choices += ["number", "number"]  # the commonest literal: twice the weight
    if colours:
        choices.append("colour")
    if movable:
        choices += ["duplicate", "remove", "reorder"]
    op = rng.choice(choices)
    if op == "number":
        node = rng.choice(numbers)
        new = _new_number(rng, (node.text or b"").decode())
        if new is None:
            return data, "number"
        return _splice(data, node.start_byte, node.end_byte, new), op
    if op == "colour":
        node = rng.choice(colours)
        text = (node.text or b"").decode()
        quote, value = text[0], text[1:-1]
        if len(value) == 4:
            value = "#" + "".join(c * 2 for c in value[1:])
        alpha = value[7:9]
        old = (int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16))
        new_rgb = random_rgb(rng) if rng.random() < 0.3 else jitter_rgb(rng, old)
        literal = quote + hex_colour(new_rgb) + alpha + quote
        return _splice(data, node.start_byte, node.end_byte, literal), op
    texts = [(s.text or b"").decode("utf-8", "replace") for s in statements]
    floor = anchor + 1  # new and moved statements go after createCanvas
    if op == "insert":
        palette = _source_colours(root) or [hex_colour(random_rgb(rng)) for _ in range(3)]
        picked = [rng.choice(palette) for _ in range(3)]
        block = "{ " + " ".join(mark_calls(random_mark(rng), picked)) + " }"
        texts.insert(rng.randint(floor, len(texts)), block)
    else:
        index = rng.choice([i for i in range(len(statements)) if i != anchor])
        if op == "duplicate":
            texts.insert(rng.randint(max(floor, 0), len(texts)), texts[index])
        elif op == "remove":
            texts.pop(index)
        else:  # reorder
            moved = texts.pop(index)
            new_anchor = anchor - (1 if index < anchor else 0)
            texts.insert(rng.randint(new_anchor + 1, len(texts)), moved)
    inner = "\n  " + "\n  ".join(texts) + "\n"
    return data[: body.start_byte + 1] + inner.encode("utf-8") + data[body.end_byte - 1 :], op
