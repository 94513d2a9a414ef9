"""The rule visitor: walks a parsed sketch and reports what the `GateConfig` refuses.

`Checker` makes one pass over the syntax tree with the scope chain at hand and applies the
per-node rules (names, members, calls, assignments, strings, ``this``). What only the whole
program can judge (where ``setup`` is, the canvas, a brush drawing call, how many plain shapes)
is recorded in a `Findings` and judged by `sketch_env.gate.program`; the issues are collected by
`sketch_env.gate.issues.Issues`, and the questions about a node that need no scope chain are
`sketch_env.gate.nodes`'.
"""

from __future__ import annotations

import difflib
from collections import Counter

import tree_sitter

from sketch_env.catalog.vocabulary import (
    ANY_OBJECT_NAMES,
    ANY_OBJECT_PROPERTIES,
    BRUSH_DRAWING_CALLS,
    BRUSH_RENAMED,
    DATA_URI,
    ERROR_EVENTS,
    ERROR_HANDLER_PROPERTIES,
    ESCAPE_NAMES,
    GLOBAL_OBJECTS,
    LOADING_ATTRIBUTES,
    LOADING_ELEMENTS,
    LOADING_PROPERTIES,
    MUTATING_OBJECT_CALLS,
    NAVIGATING_PROPERTIES,
    P5_API_HANDLES,
    PRIMITIVES,
    PROTECTED_GLOBALS,
    RAW_GRAPHICS_GLOBALS,
    RAW_GRAPHICS_PROPERTIES,
    RAW_GRAPHICS_WHY,
    TEXT_CALLS,
    TRY_WHY,
    WHY,
)
from sketch_env.gate.brush_api import brush_version, known_brush_members
from sketch_env.gate.issues import Issues
from sketch_env.gate.nodes import (
    declared_functions_and_objects,
    fold_string,
    in_class_body,
    is_literal_index,
    is_member_object,
    is_this,
    key_name,
    used_as_resource,
)
from sketch_env.gate.p5_api import p5_global_names
from sketch_env.gate.program import Findings, check_setup_definitions, whole_program_issues
from sketch_env.gate.scopes import FUNCTION_TYPES, collect_scopes
from sketch_env.gate.syntax import LineIndex, name_of, node_text
from sketch_env.gate.verdict import GateConfig, GateIssue

#: Every name a forbidden API goes by, to escape code or through a computed member.
_ESCAPE_CODE = {name: code for code, names in ESCAPE_NAMES.items() for name in names}
#: A string whose whole value is one of these can only serve to reach it by a computed name on
#: an ordinary object (``f[k]`` with ``k = "constr" + "uctor"``); a sentence that mentions one
#: is fine. Global names need no such list: every computed access to the global object, and
#: every alias of it, is refused already.
_SUSPICIOUS_STRINGS = dict.fromkeys(RAW_GRAPHICS_PROPERTIES, "raw_graphics")
_SUSPICIOUS_STRINGS.update(ANY_OBJECT_PROPERTIES)
_SUSPICIOUS_STRINGS.update(dict.fromkeys(ANY_OBJECT_NAMES, "asset_load"))
_SUSPICIOUS_STRINGS["prototype"] = "builtin_override"
_CONCAT_PARENTS = frozenset({"binary_expression", "template_substitution"})
#: Functions that bind their own ``this`` (an arrow function uses its parent's).
FUNCTION_SCOPES = FUNCTION_TYPES - {"arrow_function"}
#: Escape names that are also ordinary member names (``d3.select``, ``slider.Range``): refused
#: as globals only.
_GENERIC_ESCAPE_NAMES = frozenset({"select", "selectAll", "Range"})


class Checker:
    """One pass over the syntax tree, applying every rule with the scope chain at hand."""

    def __init__(self, root: tree_sitter.Node, data: bytes, config: GateConfig) -> None:
        self.root = root
        self.config = config
        self.issues = Issues(LineIndex(data))
        self.scope_names, self.bindings = collect_scopes(root)
        self.shadowed: Counter[str] = Counter()
        self.known = known_brush_members() if config.reject_unknown_brush else frozenset()
        self.found = Findings()
        self.functions, self.plain_objects = declared_functions_and_objects(root)

    # The scope chain is tracked with a counter of names declared by enclosing scopes, so a
    # lookup costs O(1) however deeply the code nests.
    def is_global(self, name: str) -> bool:
        return self.shadowed[name] == 0

    def global_identifier(self, node: tree_sitter.Node | None, name: str | None = None) -> bool:
        """Whether ``node`` is a reference to the global called ``name`` (or any global)."""
        if node is None or node.type != "identifier" or node.id in self.bindings:
            return False
        text = name_of(node)
        return (name is None or text == name) and self.is_global(text)

    def run(self) -> list[GateIssue]:
        check_setup_definitions(self.root, self.config, self.issues, self.found)
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
        whole_program_issues(self.config, self.issues, self.found)
        return self.issues.result()

    # ----- per-node rules

    def _visit(self, node: tree_sitter.Node) -> None:
        kind = node.type
        if kind == "identifier":
            self._identifier(node)
        elif kind == "shorthand_property_identifier":
            # `{fetch}` in an object literal reads the variable `fetch`.
            self._global_name(node, name_of(node))
        elif kind in ("member_expression", "subscript_expression"):
            self._member(node)
        elif kind == "call_expression":
            self._call(node)
        elif kind == "new_expression":
            self._new(node)
        elif kind in ("assignment_expression", "augmented_assignment_expression"):
            self._assignment(node)
        elif kind in ("string", "template_string", "binary_expression"):
            self._string(node)
        elif kind == "this":
            self._this(node)
        elif kind == "pair":
            key = node.child_by_field_name("key")
            if key is not None and key_name(key) == "__proto__":
                self._escape("builtin_override", "__proto__", node, "`__proto__:` in an object")
        elif kind == "with_statement":
            self._escape("dynamic_access", "with", node, "`with`")
        elif kind == "try_statement" and not self.config.allow_try:
            self.issues.add("try_statement", "try", node, f"`try` at {{where}}: {TRY_WHY}")
        elif kind == "import_statement":
            self._escape("network", "import", node, "`import` statement")

    def _escape(self, code: str, key: str, node: tree_sitter.Node, what: str) -> None:
        if self.config.forbid_escapes:
            self.issues.add(code, key, node, f"{what} at {{where}}: {WHY[code]}")

    def _raw(self, name: str, node: tree_sitter.Node) -> None:
        if self.config.forbid_raw_graphics:
            self.issues.add(
                "raw_graphics", name, node, f"`{name}` at {{where}}: {RAW_GRAPHICS_WHY}"
            )

    def _error_handler(self, what: str, node: tree_sitter.Node) -> None:
        if not self.config.allow_try:
            self.issues.add("error_handler", what, node, f"{what} at {{where}}: {TRY_WHY}")

    def _identifier(self, node: tree_sitter.Node) -> None:
        if node.id in self.bindings:
            return
        name = name_of(node)
        if not self.is_global(name):
            return
        parent = node.parent
        if parent is not None and (
            (parent.type == "unary_expression" and node_text(parent).startswith("typeof"))
            or (name == "Function" and parent.type == "binary_expression")
        ):
            # `typeof fetch`, `x instanceof Function` only inspect; calling or aliasing escapes.
            return
        if name in GLOBAL_OBJECTS and not is_member_object(node):
            self._escape(
                "dynamic_access", name, node, f"`{name}` used as a value (an alias or argument)"
            )
            return
        self._global_name(node, name)

    def _global_name(self, node: tree_sitter.Node, name: str) -> None:
        """Rules for a reference to a global ``name`` (a call, or an alias: `const e = ellipse`)."""
        if not self.is_global(name):
            return
        code = _ESCAPE_CODE.get(name)
        if code is not None:
            self._escape(code, name, node, f"`{name}`")
        else:
            self._p5_use(node, name, f"`{name}`")

    def _p5_use(self, node: tree_sitter.Node, name: str, display: str) -> None:
        """Rules for using p5's global ``name``, bare or as ``window.name``/``this.name``."""
        if name in PRIMITIVES:
            self._primitive(name, node)
        elif name in TEXT_CALLS:
            self._text(name, node)
        elif name in RAW_GRAPHICS_GLOBALS or name in RAW_GRAPHICS_PROPERTIES:
            self._raw(name, node)
        elif name == "textFont":
            self.found.text_font = True
        elif name in ERROR_HANDLER_PROPERTIES:
            self._error_handler(display, node)

    def _primitive(self, name: str, node: tree_sitter.Node) -> None:
        self.found.primitives[name] += 1
        if self.found.first_primitive is None:
            self.found.first_primitive = node

    def _text(self, name: str, node: tree_sitter.Node) -> None:
        self.found.text_uses.append(node)
        if self.config.forbid_text:
            self.issues.add(
                "text_banned",
                name,
                node,
                f"`{name}()` at {{where}}: writing text on the canvas is not allowed; paint the "
                "picture itself with p5.brush (no labels, titles or signatures)",
            )

    def _property(self, node: tree_sitter.Node) -> tuple[tree_sitter.Node | None, str | None]:
        """(object, property name) of ``a.b`` or ``a["b"]``; the name is None when computed."""
        obj = node.child_by_field_name("object")
        if node.type == "member_expression":
            prop = node.child_by_field_name("property")
            return obj, name_of(prop) if prop is not None else None
        index = node.child_by_field_name("index")
        return obj, fold_string(index) if index is not None else None

    def _this_is_global(self, node: tree_sitter.Node) -> bool:
        """Whether ``this`` here is read like ``window`` (``this.rect`` as ``window.rect``):
        everywhere but in a class's own methods and fields, whose ``this.line`` is ordinarily a
        field. An object literal's methods are no exception: a detached one (``const w =
        o.g; w()``) gets the global object as ``this``.

        Wherever ``this`` is, it may be the global object: p5 calls ``setup`` and ``draw`` on
        ``window``, and timers and window listeners hand it over as ``this``, to class methods
        and strict code too (measured). So ``this`` as a value and computed names on it are
        refused everywhere (`_this`, `_member`), and so are escape names (``this.fetch``)."""
        parent = node.parent
        while parent is not None:
            if parent.type in FUNCTION_SCOPES:
                # The nearest function that binds `this` decides (arrows take their parent's).
                return not (parent.type == "method_definition" and in_class_body(parent))
            if parent.type in ("class_body", "field_definition"):
                return False
            parent = parent.parent
        return True

    def _is_global_object(self, node: tree_sitter.Node | None) -> bool:
        """Whether ``node`` names the global object (``window``, ``this`` in a function,
        ``window.self``...)."""
        while node is not None and node.type == "parenthesized_expression":
            node = node.named_children[0] if node.named_children else None
        if node is None:
            return False
        if node.type == "this":
            return self._this_is_global(node)
        if node.type in ("member_expression", "subscript_expression"):
            obj, prop = self._property(node)
            return prop in GLOBAL_OBJECTS and self._is_global_object(obj)
        if node.type != "identifier" or node.id in self.bindings:
            return False
        name = name_of(node)
        return name in GLOBAL_OBJECTS and self.is_global(name)

    def _is_library(self, node: tree_sitter.Node | None, name: str) -> bool:
        """Whether ``node`` is the global ``name`` (``brush``, ``p5``), bare or ``window.name``."""
        if node is None:
            return False
        if node.type in ("member_expression", "subscript_expression"):
            obj, prop = self._property(node)
            return prop == name and self._is_global_object(obj)
        return self.global_identifier(node, name)

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

    def _is_plain_object(self, node: tree_sitter.Node | None) -> bool:
        """Whether ``node`` is rooted in a variable the sketch bound to an object literal
        (``const o = {}; o.innerHTML`` is its own data, not the page's)."""
        while node is not None and node.type in ("member_expression", "subscript_expression"):
            node = node.child_by_field_name("object")
        if node is None or node.type != "identifier":
            return False
        name = name_of(node)
        return name in self.plain_objects and not self.is_global(name)

    def _member(self, node: tree_sitter.Node) -> None:
        obj, prop = self._property(node)
        global_obj = self._is_global_object(obj)
        if prop is None:
            if global_obj or is_this(obj):
                what = f"`{node_text(node)[:40]}`"
                self._escape("dynamic_access", "computed", node, f"computed access {what}")
            return
        display = f"`{node_text(obj)[:40] if obj is not None else ''}.{prop}`"
        if prop in ANY_OBJECT_PROPERTIES:
            if not (prop in ("innerHTML", "outerHTML") and self._is_plain_object(obj)):
                self._escape(ANY_OBJECT_PROPERTIES[prop], prop, node, display)
            return
        if prop in ("write", "writeln") and self._is_document(obj):
            self._escape("dom_escape", "document.write", node, display)
            return
        if prop == "cookie" and self._is_document(obj):
            self._escape("storage", "cookie", node, display)
            return
        code = _ESCAPE_CODE.get(prop)
        if code is not None and (
            global_obj
            or prop in ANY_OBJECT_NAMES
            # The global object may be held under any name (a `this`, an event's path), so a
            # name that only the global object has is refused on anything not the sketch's own.
            or (prop not in _GENERIC_ESCAPE_NAMES and not self._is_plain_object(obj))
        ):
            self._escape(code, prop, node, display)
            return
        if prop.startswith("__") or (
            prop.startswith("_")
            and prop not in RAW_GRAPHICS_PROPERTIES
            and not is_this(obj)
            and not self._is_plain_object(obj)
        ):
            # p5's private members hand out its whole API (`renderer._pInst` is the p5 instance,
            # `_renderer` its raw context), the page's its machinery (`__playwright__binding__`).
            self._escape("dynamic_access", "_", node, f"{display} (a private member)")
            return
        if global_obj:
            if prop == "open":
                self._escape("dom_escape", "open", node, display)
            else:
                self._p5_use(node, prop, display)
            return
        if prop in RAW_GRAPHICS_PROPERTIES:
            self._raw(prop, node)
        elif self._is_library(obj, "brush"):
            self._brush_member(node, prop)
        elif prop in P5_API_HANDLES and self._is_library(obj, "p5"):
            self._escape("dynamic_access", f"p5.{prop}", node, f"`p5.{prop}`")

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
            name = name_of(callee)
            if not self.is_global(name) or callee.id in self.bindings:
                return
            self._global_call(node, name, arg_nodes)
        elif callee.type in ("member_expression", "subscript_expression"):
            obj, prop = self._property(callee)
            if prop is None:
                return
            if self._is_library(obj, "brush"):
                self.found.brush_calls += 1
                if prop in BRUSH_DRAWING_CALLS:
                    self.found.brush_drawing += 1
            elif self._is_global_object(obj):
                self._global_call(node, prop, arg_nodes)
            elif prop in ("assign", "replace", "reload") and self._is_location(obj):
                self._escape("dom_escape", "location", node, f"`location.{prop}(...)`")
            elif prop == "createElement":
                self._element(node, arg_nodes)
            elif prop in ("setAttribute", "setAttributeNS"):
                self._attribute(node, arg_nodes[1:] if prop == "setAttributeNS" else arg_nodes)
            elif prop == "catch":
                self._error_handler("`.catch(...)`", node)
            elif prop == "addEventListener":
                self._listener(node, arg_nodes)
            elif (
                prop in MUTATING_OBJECT_CALLS
                and self.global_identifier(obj, "Object")
                and arg_nodes
                and self._is_protected(arg_nodes[0])
            ):
                self._escape("builtin_override", prop, node, f"`Object.{prop}(...)` on a built-in")

    def _global_call(self, node: tree_sitter.Node, name: str, args: list[tree_sitter.Node]) -> None:
        """Rules for calling the global ``name``, bare or through the global object."""
        if name in ("setTimeout", "setInterval"):
            first = args[0] if args else None
            if first is not None and not self._is_function(first):
                self._escape(
                    "dynamic_code",
                    name,
                    node,
                    f"`{name}` with something other than a function (a string runs as code; "
                    f"write `{name}(() => ..., ms)`)",
                )
        elif name == "open":
            self._escape("dom_escape", "open", node, "`open(...)`")
        elif name == "createElement":
            self._element(node, args)
        elif name in ("addEventListener", "dispatchEvent"):
            self._window_event(node, name, args)
        elif name == "createCanvas":
            self.found.canvas_calls.append(node)
            if self._webgl_argument(args):
                self.found.webgl = True

    def _is_function(self, node: tree_sitter.Node) -> bool:
        if node.type in ("arrow_function", "function_expression", "function"):
            return True
        return node.type == "identifier" and name_of(node) in self.functions

    def _is_protected(self, node: tree_sitter.Node) -> bool:
        """Whether ``node`` is a built-in, the global object, or anything's ``prototype``."""
        if self._is_global_object(node):
            return True
        root = node
        while root.type in ("member_expression", "subscript_expression"):
            obj, prop = self._property(root)
            if prop in ("prototype", "__proto__"):
                return obj is not None and self._is_builtin_root(obj)
            if obj is None:
                return False
            root = obj
        return self.global_identifier(root) and name_of(root) in PROTECTED_GLOBALS

    def _is_builtin_root(self, node: tree_sitter.Node) -> bool:
        """Whether ``node`` is rooted in a global the sketch did not declare (``Array``,
        ``window.Array``), not in its own class or constructor function."""
        root = node
        while root.type in ("member_expression", "subscript_expression"):
            child = root.child_by_field_name("object")
            if child is None:
                return True
            root = child
        if root.type == "identifier":
            return root.id not in self.bindings and self.is_global(name_of(root))
        return root.type != "this" or self._this_is_global(root)

    def _window_event(
        self, node: tree_sitter.Node, name: str, args: list[tree_sitter.Node]
    ) -> None:
        """A listener on (or an event sent to) the global object itself: its ``event.target``
        and ``currentTarget`` are the global object."""
        event = fold_string(args[0]) if args and name == "addEventListener" else None
        if event in ERROR_EVENTS:
            self._listener(node, args)
            return
        self._escape(
            "dom_escape",
            name,
            node,
            f"`{name}(...)` on the window (its events hand the window to the listener)",
        )

    def _listener(self, node: tree_sitter.Node, args: list[tree_sitter.Node]) -> None:
        event = fold_string(args[0]) if args else None
        if event in ERROR_EVENTS:
            self._error_handler(f"`addEventListener('{event}', ...)`", node)

    def _attribute(self, node: tree_sitter.Node, args: list[tree_sitter.Node]) -> None:
        name = fold_string(args[0]) if args else ""
        if name is None or name.strip().lower().startswith("on"):
            what = "setting an event-handler attribute or one whose name is not a plain string"
            self._escape("dynamic_code", "setAttribute", node, what)
        elif name.strip().lower() in LOADING_ATTRIBUTES:
            self._escape("asset_load", "setAttribute", node, f"setting the `{name}` attribute")

    def _element(self, node: tree_sitter.Node, args: list[tree_sitter.Node]) -> None:
        if len(args) > 1 and args[1].type != "object":
            # p5's createElement(tag, content) puts the content in as HTML.
            self._escape("dom_escape", "<content>", node, "an element created with content")
            return
        tag = fold_string(args[0]) if args else ""
        if tag is None:
            self._escape(
                "dom_escape", "<?>", node, "creating an element whose tag is not a plain string"
            )
            return
        tag = tag.strip().lower()
        if tag in LOADING_ELEMENTS:
            self._escape("dom_escape", f"<{tag}>", node, f"creating a <{tag}> element")

    def _new(self, node: tree_sitter.Node) -> None:
        ctor = node.child_by_field_name("constructor")
        if ctor is None:
            return
        if self._is_library(ctor, "p5"):
            self.found.instance_mode = self.found.instance_mode or node
        elif ctor.type == "member_expression":
            obj, _ = self._property(ctor)
            if self._is_library(obj, "brush"):
                self.found.brush_calls += 1

    def _this(self, node: tree_sitter.Node) -> None:
        if is_member_object(node):
            return
        # `this` may be the global object anywhere (`_this_is_global`): passed on, returned or
        # aliased, it would reach any global unread.
        self._escape(
            "dynamic_access",
            "this",
            node,
            "`this` used as a value (only `this.name` is allowed: p5 callbacks, timers and "
            "detached methods get the global object as `this`)",
        )

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
                self.found.setup_ok = True
            elif prop in LOADING_PROPERTIES:
                self._escape("asset_load", prop, node, f"assigning `.{prop}` (it loads a resource)")
            elif prop in ERROR_HANDLER_PROPERTIES:
                return  # reported by the member rule
            elif prop is not None and _is_window_handler(prop) and self._is_global_object(obj):
                self._window_handler(node, prop)
            elif self._overrides_builtin(left):
                what = f"assigning `{node_text(left)[:40]}`"
                self._escape("builtin_override", "assign", node, what)
        elif left.type == "identifier" and self.global_identifier(left):
            name = name_of(left)
            if name == "setup" and node.type == "assignment_expression":
                # A sloppy-mode assignment to an undeclared name creates window.setup.
                self.found.setup_ok = True
            elif name in PROTECTED_GLOBALS or name in _ESCAPE_CODE:
                self._escape("builtin_override", "assign", node, f"assigning `{name}`")
            elif _is_window_handler(name):
                self._window_handler(node, name)

    def _window_handler(self, node: tree_sitter.Node, name: str) -> None:
        self._escape(
            "dom_escape",
            name,
            node,
            f"assigning the window's `{name}` handler (its events hand the window to it)",
        )

    def _overrides_builtin(self, left: tree_sitter.Node) -> bool:
        """Whether assigning ``left`` changes a built-in, a prototype or a library."""
        target = left
        direct = True
        while target.type in ("member_expression", "subscript_expression"):
            obj, prop = self._property(target)
            if obj is None:
                return False
            if prop in ("prototype", "__proto__") and self._is_builtin_root(obj):
                return True
            if direct and self.global_identifier(obj) and name_of(obj) in PROTECTED_GLOBALS:
                return True  # `Math.random = ...`, `brush.line = ...`
            if self._is_global_object(obj):
                # `window.fetch = ...`, `window.random = ...`; `window.setup` and the sketch's
                # own globals are fine.
                return prop is None or (
                    prop in PROTECTED_GLOBALS or prop in _ESCAPE_CODE or prop in p5_global_names()
                )
            target = obj
            direct = False
        return False

    def _string(self, node: tree_sitter.Node) -> None:
        parent = node.parent
        if parent is not None and parent.type in _CONCAT_PARENTS:
            return  # judged as part of the whole expression
        value = fold_string(node)
        if value is None:
            return
        if DATA_URI.match(value) and used_as_resource(node):
            self._escape("data_uri", "data:", node, "a `data:` URI used as a resource")
            return
        code = _SUSPICIOUS_STRINGS.get(value)
        if code is None or is_literal_index(node):
            return
        what = f"a string spelling `{value}` (only useful to reach it by a computed name)"
        if code == "raw_graphics":
            self._raw(value, node)
        else:
            self._escape(code, f"'{value}'", node, what)

    def _webgl_argument(self, args: list[tree_sitter.Node]) -> bool:
        if len(args) < 3:
            return False
        renderer = args[2]
        if renderer.type == "identifier":
            return name_of(renderer) == "WEBGL"
        if renderer.type == "member_expression":
            prop = renderer.child_by_field_name("property")
            return prop is not None and name_of(prop) == "WEBGL"
        value = fold_string(renderer)
        return value is not None and value.lower() == "webgl"


def _is_window_handler(name: str) -> bool:
    """Whether assigning ``name`` on the global object installs an event handler there
    (``onmessage``, ``onclick``); the error handlers have their own rule."""
    return name.startswith("on") and name.islower() and name not in ERROR_HANDLER_PROPERTIES
