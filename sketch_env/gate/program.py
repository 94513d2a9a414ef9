"""The whole-program rules: what the gate judges of a sketch as a whole, not node by node.

Before the rule visitor's pass (`sketch_env.gate.rules.Checker`), `check_setup_definitions`
looks at where ``setup`` is defined (p5's global mode sees only a top-level ``function`` or
``var``) and at top-level names that clash with p5's globals. The pass records what it saw in a
`Findings`; after it, `whole_program_issues` judges that: a missing or hidden ``setup``,
instance mode, no WEBGL canvas, no brush drawing call, too many plain p5 shapes, and ``text()``
that cannot draw.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import tree_sitter

from sketch_env.catalog.vocabulary import BRUSH_DRAWING_HINT, PRIMITIVE_INSTEAD
from sketch_env.gate.issues import Issues
from sketch_env.gate.p5_api import p5_global_names
from sketch_env.gate.syntax import name_of, node_text
from sketch_env.gate.verdict import GateConfig

__all__ = ["Findings", "check_setup_definitions", "whole_program_issues"]


@dataclass
class Findings:
    """What the rule visitor saw that only the whole program can judge.

    Args:
        setup_ok: A ``setup`` p5's global mode can find was defined.
        setup_problems: ``(code, node, message)`` of each ``setup`` it cannot find, reported
            only when no visible one exists.
        canvas_calls: The ``createCanvas`` calls.
        webgl: One of them asks for WEBGL.
        brush_calls: Calls of any ``brush.*`` member (setters included).
        brush_drawing: Calls of the brush's drawing members (`BRUSH_DRAWING_CALLS`).
        primitives: Plain p5 shapes used, by name.
        first_primitive: Where the first one is.
        text_uses: Where ``text()`` is used.
        text_font: ``textFont`` is used.
        instance_mode: The first ``new p5(...)``, if any.
    """

    setup_ok: bool = False
    setup_problems: list[tuple[str, tree_sitter.Node, str]] = field(default_factory=list)
    canvas_calls: list[tree_sitter.Node] = field(default_factory=list)
    webgl: bool = False
    brush_calls: int = 0
    brush_drawing: int = 0
    primitives: Counter[str] = field(default_factory=Counter)
    first_primitive: tree_sitter.Node | None = None
    text_uses: list[tree_sitter.Node] = field(default_factory=list)
    text_font: bool = False
    instance_mode: tree_sitter.Node | None = None


def check_setup_definitions(
    root: tree_sitter.Node, config: GateConfig, issues: Issues, found: Findings
) -> None:
    """Classifies each definition of ``setup`` by where p5's global mode can see it (into
    ``found``), and reports top-level ``function``/``var`` names that clash with p5's globals."""
    for node in root.named_children:
        if node.type in ("function_declaration", "generator_function_declaration"):
            name = node.child_by_field_name("name")
            if name is not None and name_of(name) == "setup":
                found.setup_ok = True
            _name_clash(config, issues, node, name, "function")
        elif node.type in ("variable_declaration", "lexical_declaration"):
            keyword = node_text(node.children[0]) if node.children else ""
            for declarator in node.named_children:
                name = declarator.child_by_field_name("name")
                if declarator.type != "variable_declarator" or name is None:
                    continue
                if keyword == "var":
                    _name_clash(config, issues, declarator, name, "var")
                if name_of(name) != "setup":
                    continue
                if keyword == "var":
                    found.setup_ok = True
                else:
                    found.setup_problems.append(
                        (
                            "setup_not_global",
                            declarator,
                            f"`{keyword} setup = ...` at {{where}} never runs: p5's global "
                            f"mode looks for window.setup, and `{keyword}` does not create "
                            "it; write `function setup() { ... }` instead",
                        )
                    )
    # A `function setup` nested in a block or another function is invisible to p5.
    stack = [c for c in root.named_children]
    while stack:
        node = stack.pop()
        if node.type in ("function_declaration", "generator_function_declaration"):
            name = node.child_by_field_name("name")
            if name is not None and name_of(name) == "setup" and node.parent != root:
                found.setup_problems.append(
                    (
                        "setup_not_global",
                        node,
                        "`function setup()` at {where} is inside another function or "
                        "block, where p5's global mode cannot find it; define it at the "
                        "top level",
                    )
                )
        stack.extend(node.named_children)


def _name_clash(
    config: GateConfig,
    issues: Issues,
    node: tree_sitter.Node,
    name: tree_sitter.Node | None,
    kind: str,
) -> None:
    """A top-level ``function``/``var`` named like a p5 global stops p5 at start-up."""
    if name is None or name.type != "identifier" or not config.forbid_p5_name_clash:
        return
    text = name_of(name)
    if text not in p5_global_names():
        return
    issues.add(
        "p5_name_clash",
        text,
        node,
        f"`{kind} {text}` at {{where}} has the name of p5's global `{text}`: p5 then stops "
        f'with "Cannot redefine property: {text}" before setup() runs; rename yours '
        f"(e.g. `my{text[:1].upper()}{text[1:]}`)",
    )


def whole_program_issues(config: GateConfig, issues: Issues, found: Findings) -> None:
    """Reports what the sketch as a whole lacks or misuses, from what the pass ``found``."""
    if config.require_setup and not found.setup_ok:
        if found.setup_problems:
            for code, node, message in found.setup_problems:
                issues.add(code, "setup", node, message)
        elif found.instance_mode is not None:
            issues.add(
                "instance_mode",
                "p5",
                found.instance_mode,
                "`new p5(...)` at {where}: instance mode is not supported; write a "
                "global-mode sketch with a top-level `function setup() { ... }`",
            )
        else:
            issues.add(
                "no_setup",
                "setup",
                None,
                "no setup() function: p5 runs nothing without one; define "
                "`function setup() { createCanvas(600, 600, WEBGL); ... }`",
            )
    # An instance-mode sketch calls p.createCanvas; its own issue already says what to do.
    instance_only = found.instance_mode is not None and not found.setup_ok
    if config.require_webgl_canvas and not found.webgl and not instance_only:
        if found.canvas_calls:
            issues.add(
                "no_webgl_canvas",
                "createCanvas",
                found.canvas_calls[0],
                "`createCanvas(...)` at {where} makes a 2D canvas, where nothing p5.brush "
                "draws appears; use `createCanvas(w, h, WEBGL)`",
            )
        else:
            issues.add(
                "no_webgl_canvas",
                "createCanvas",
                None,
                "no `createCanvas(w, h, WEBGL)` call: p5.brush draws only on a WebGL canvas",
            )
    if config.require_brush_call and found.brush_drawing == 0:
        setters = (
            "only p5.brush setters (they choose a brush, colour or fill but paint nothing)"
            if found.brush_calls
            else "no p5.brush call"
        )
        issues.add(
            "no_brush_call",
            "brush",
            None,
            f"{setters}: paint with at least one p5.brush drawing call ({BRUSH_DRAWING_HINT})",
        )
    limit = config.max_bare_primitives
    total = sum(found.primitives.values())
    if limit is not None and total > limit:
        shapes = sorted(found.primitives, key=lambda n: (-found.primitives[n], n))
        names = ", ".join(
            f"{n}" + (f" ({found.primitives[n]}x)" if found.primitives[n] > 1 else "")
            for n in shapes
        )
        instead = "; ".join(f"{n} -> {PRIMITIVE_INSTEAD[n]}" for n in shapes)
        allowed = "are not allowed" if limit == 0 else f"are over the limit of {limit}"
        issues.add(
            "bare_primitives",
            "primitives",
            found.first_primitive,
            f"plain p5 shapes {allowed} (found {total}: {names}; first at {{where}}): "
            f"p5.brush must do the painting; use {instead}",
        )
    if found.text_uses and not config.forbid_text and found.webgl and not found.text_font:
        issues.add(
            "text_draws_nothing",
            "text",
            found.text_uses[0],
            "`text()` at {where} draws nothing on a WEBGL canvas unless a font loaded with "
            "loadFont() is set with textFont() first; without one it fails silently",
        )
