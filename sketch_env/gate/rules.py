"""The rule visitor: walks a parsed sketch and reports what the `GateConfig` refuses."""

from __future__ import annotations

import difflib
from collections import Counter

import tree_sitter

from sketch_env.gate.brush_api import brush_version, known_brush_members
from sketch_env.gate.policy import (
    ANY_OBJECT_CODES,
    ANY_OBJECT_PROPERTIES,
    BRUSH_RENAMED,
    DATA_URI,
    ESCAPE_NAMES,
    GLOBAL_OBJECTS,
    LOADING_ELEMENTS,
    NAVIGATING_PROPERTIES,
    PRIMITIVES,
    WHY,
)
from sketch_env.gate.scopes import (
    collect_scopes,
)
from sketch_env.gate.syntax import LineIndex, node_text
from sketch_env.gate.verdict import GateConfig, GateIssue


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


class Checker:
    """One pass over the syntax tree, applying every rule with the scope chain at hand."""

    def __init__(self, root: tree_sitter.Node, data: bytes, config: GateConfig) -> None:
        self.root = root
        self.config = config
        self.issues = Issues(LineIndex(data))
        self.scope_names, self.bindings = collect_scopes(root)
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
        text = node_text(node)
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
            self._global_name(node, node_text(node))
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
            self.issues.add(code, key, node, f"{what} at {{where}}: {WHY[code]}")

    def _identifier(self, node: tree_sitter.Node) -> None:
        if node.id in self.bindings:
            return
        name = node_text(node)
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
            return obj, node_text(prop) if prop is not None else None
        index = node.child_by_field_name("index")
        if index is not None and index.type == "string":
            return obj, _string_value(index)
        return obj, None

    def _is_global_object(self, node: tree_sitter.Node | None) -> bool:
        """Whether ``node`` names the global object (``window``, ``globalThis``, ``self``...)."""
        if node is None or node.type != "identifier" or node.id in self.bindings:
            return False
        name = node_text(node)
        return name in GLOBAL_OBJECTS and self.is_global(name)

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
        display = f"`{node_text(obj)[:40] if obj is not None else ''}.{prop}`"
        if prop in ANY_OBJECT_PROPERTIES:
            self._escape(ANY_OBJECT_PROPERTIES[prop], prop, node, display)
            return
        if prop in ("write", "writeln") and self._is_document(obj):
            self._escape("dom_escape", "document.write", node, display)
            return
        if prop == "cookie" and self._is_document(obj):
            self._escape("storage", "cookie", node, display)
            return
        global_obj = self._is_global_object(obj)
        for code, names in ESCAPE_NAMES.items():
            if prop in names and (global_obj or code in ANY_OBJECT_CODES):
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
        version = brush_version()
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
            name = node_text(callee)
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
            if tag in LOADING_ELEMENTS:
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
            if prop in NAVIGATING_PROPERTIES and self._is_location(obj):
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
            value = (
                node_text(first) if first is not None and first == node.named_children[0] else ""
            )
        if value and DATA_URI.match(value):
            self._escape("data_uri", "data:", node, "a `data:` URI")

    def _webgl_argument(self, args: list[tree_sitter.Node]) -> bool:
        if len(args) < 3:
            return False
        renderer = args[2]
        if renderer.type == "identifier":
            return node_text(renderer) == "WEBGL"
        if renderer.type == "member_expression":
            prop = renderer.child_by_field_name("property")
            return prop is not None and node_text(prop) == "WEBGL"
        if renderer.type == "string":
            return _string_value(renderer).lower() == "webgl"
        return False

    # ----- whole-program rules

    def _check_top_level_setup(self) -> None:
        """Classifies each definition of ``setup`` by where p5's global mode can see it."""
        for node in self.root.named_children:
            if node.type in ("function_declaration", "generator_function_declaration"):
                name = node.child_by_field_name("name")
                if name is not None and node_text(name) == "setup":
                    self.setup_ok = True
            elif node.type in ("variable_declaration", "lexical_declaration"):
                keyword = node_text(node.children[0]) if node.children else ""
                for declarator in node.named_children:
                    name = declarator.child_by_field_name("name")
                    if declarator.type != "variable_declarator" or name is None:
                        continue
                    if node_text(name) != "setup":
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
                if name is not None and node_text(name) == "setup" and node.parent != self.root:
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
    raw = node_text(node)
    return raw[1:-1] if len(raw) >= 2 else ""


def _is_string_node(nodes: list[tree_sitter.Node]) -> bool:
    return bool(nodes) and nodes[0].type in ("string", "template_string")
