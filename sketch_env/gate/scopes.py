"""JavaScript scope analysis: which names a sketch declares itself, and where."""

from __future__ import annotations

import tree_sitter

from sketch_env.gate.syntax import name_of, node_text

FUNCTION_TYPES = frozenset(
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
BLOCK_SCOPES = frozenset(
    {"statement_block", "for_statement", "for_in_statement", "catch_clause", "switch_body"}
)
PATTERN_TYPES = frozenset({"object_pattern", "array_pattern", "rest_pattern"})
#: Node types whose children's field names decide what they declare.
DECLARING = frozenset(
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
BINDS_IN_ENCLOSING_SCOPE = frozenset(
    {
        ("function_declaration", "name"),
        ("generator_function_declaration", "name"),
        ("class_declaration", "name"),
    }
)
#: ...and in the node's own scope (a named function expression sees its own name).
BINDS_IN_OWN_SCOPE = frozenset(
    {
        ("function_expression", "name"),
        ("function", "name"),
        ("generator_function", "name"),
        ("arrow_function", "parameter"),
        ("catch_clause", "parameter"),
    }
)


def collect_scopes(root: tree_sitter.Node) -> tuple[dict[int, set[str]], set[int]]:
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
                names.setdefault(target, set()).add(name_of(node))
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
            if kind in PATTERN_TYPES:
                for child in node.named_children:
                    stack.append((child, target, block, func))
                continue
            # Anything else inside a pattern is an expression (a computed key, say).
            target = None

        outer_block = block
        if kind in FUNCTION_TYPES:
            names.setdefault(node.id, set())
            block = func = node.id
        elif kind in BLOCK_SCOPES:
            names.setdefault(node.id, set())
            block = node.id

        # Punctuation and keywords (unnamed nodes) never declare or reference anything.
        for i, child in enumerate(node.named_children):
            field_name = node.field_name_for_named_child(i) if kind in DECLARING else None
            child_target: int | None = None
            if kind == "variable_declarator" and field_name == "name":
                parent = node.parent
                is_var = parent is not None and parent.type == "variable_declaration"
                child_target = func if is_var else block
            elif (kind, field_name) in BINDS_IN_ENCLOSING_SCOPE:
                child_target = outer_block
            elif (kind, field_name) in BINDS_IN_OWN_SCOPE or kind == "formal_parameters":
                child_target = block
            elif kind == "for_in_statement" and field_name == "left":
                declared = node.child_by_field_name("kind")
                if declared is not None:
                    child_target = func if node_text(declared) == "var" else block
            stack.append((child, child_target, block, func))
    return names, binding_ids
