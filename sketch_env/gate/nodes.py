"""What a node of a sketch's syntax tree is, read off the tree alone (no scope chain): the
constant string an expression spells, whether a node is a member's object, an index, a value
handed to a loader, ``this``, and which names the sketch declares as functions or object
literals. The rule visitor (`sketch_env.gate.rules`) asks these."""

from __future__ import annotations

from collections import Counter

import tree_sitter

from sketch_env.gate.syntax import name_of, node_text, string_value, unescape_js

__all__ = [
    "declared_functions_and_objects",
    "fold_string",
    "in_class_body",
    "is_literal_index",
    "is_member_object",
    "is_this",
    "key_name",
    "used_as_resource",
]


def fold_string(node: tree_sitter.Node | None) -> str | None:
    """The constant string an expression spells: a literal, a template whose parts are
    constant, or a ``+`` of such (``'con' + 'structor'``); ``None`` when not constant."""
    if node is None:
        return None
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        return fold_string(node.named_children[0])
    if node.type == "binary_expression":
        operator = node.child_by_field_name("operator")
        if operator is None or node_text(operator) != "+":
            return None
        left = fold_string(node.child_by_field_name("left"))
        right = fold_string(node.child_by_field_name("right"))
        return None if left is None or right is None else left + right
    if node.type == "template_string":
        parts = []
        for child in node.named_children:
            if child.type == "template_substitution":
                inner = child.named_children[0] if child.named_children else None
                value = fold_string(inner)
                if value is None:
                    return None
                parts.append(value)
            else:
                parts.append(unescape_js(node_text(child)))
        return "".join(parts)
    return string_value(node)


def key_name(key: tree_sitter.Node) -> str | None:
    if key.type in ("property_identifier", "identifier"):
        return name_of(key)
    return fold_string(key)


def is_member_object(node: tree_sitter.Node) -> bool:
    """Whether ``node`` is the object of a member access with a readable name (``window.x``,
    ``window['x']``); a computed name is judged by the member rule."""
    parent = node.parent
    while parent is not None and parent.type == "parenthesized_expression":
        node, parent = parent, parent.parent
    if parent is None or parent.type not in ("member_expression", "subscript_expression"):
        return False
    obj = parent.child_by_field_name("object")
    return obj is not None and obj.id == node.id


def is_literal_index(node: tree_sitter.Node) -> bool:
    """Whether ``node`` is the index of ``obj[...]`` (the member rule judges that name)."""
    parent = node.parent
    if parent is None or parent.type != "subscript_expression":
        return False
    index = parent.child_by_field_name("index")
    return index is not None and index.id == node.id


def used_as_resource(node: tree_sitter.Node) -> bool:
    """Whether a ``data:`` string is handed to something that may load it: a call's or a
    constructor's argument, or a value assigned to a property (``img.src = 'data:...'``)."""
    parent = node.parent
    while parent is not None and parent.type == "parenthesized_expression":
        node, parent = parent, parent.parent
    if parent is None:
        return False
    if parent.type == "arguments":
        return True
    if parent.type in ("assignment_expression", "augmented_assignment_expression"):
        left = parent.child_by_field_name("left")
        return left is not None and left.type in ("member_expression", "subscript_expression")
    return False


def declared_functions_and_objects(root: tree_sitter.Node) -> tuple[set[str], set[str]]:
    """Names of the sketch's function declarations, and of variables declared exactly once
    with an object or array literal."""
    functions: set[str] = set()
    declared: Counter[str] = Counter()
    objects: set[str] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        if node.type in ("function_declaration", "generator_function_declaration"):
            name = node.child_by_field_name("name")
            if name is not None:
                functions.add(name_of(name))
        elif node.type == "variable_declarator":
            name = node.child_by_field_name("name")
            value = node.child_by_field_name("value")
            if name is None or name.type != "identifier":
                continue
            text = name_of(name)
            declared[text] += 1
            if value is not None and value.type in ("object", "array"):
                objects.add(text)
            if value is not None and value.type in ("arrow_function", "function_expression"):
                functions.add(text)
    return functions, {n for n in objects if declared[n] == 1}


def is_this(node: tree_sitter.Node | None) -> bool:
    while node is not None and node.type == "parenthesized_expression":
        node = node.named_children[0] if node.named_children else None
    return node is not None and node.type == "this"


def in_class_body(method: tree_sitter.Node) -> bool:
    return method.parent is not None and method.parent.type == "class_body"
