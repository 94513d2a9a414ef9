"""One contract for the policy: the instructions it reads state exactly the gate's rules.

Every snippet the instructions show passes the gate, every name they forbid the gate refuses,
and every name the gate refuses by default is forbidden in their text (the list is written from
the gate's own constants, so the two cannot drift apart silently).
"""

from __future__ import annotations

import re

import pytest

from sketch_env.catalog.instructions import EXAMPLE_SKETCH, POLICY_INSTRUCTIONS, REFUSED_HEADING
from sketch_env.catalog.vocabulary import (
    BRUSH_DRAWING_CALLS,
    CANVAS_SIZE,
    ESCAPE_NAMES,
    PRIMITIVES,
    RAW_GRAPHICS_GLOBALS,
    RAW_GRAPHICS_PROPERTIES,
    TEXT_CALLS,
)
from sketch_env.gate import GateConfig, check_sketch, gate_reply
from sketch_env.gate.runtime import runtime_check
from sketch_env.render.result import Render, RenderStatus
from tests.conftest import GOOD_SKETCH

_SPAN = re.compile(r"`([^`\n]+)`")
_FENCE = re.compile(r"```javascript\n(.*?)```", re.S)


def _sections() -> tuple[str, str]:
    """(what the instructions allow, the refused list)."""
    before, _, after = POLICY_INSTRUCTIONS.partition(REFUSED_HEADING)
    refused, _, rest = after.partition("\n\n")
    assert refused.strip() and rest.strip(), "the refused list is missing from the instructions"
    return before + rest, refused


def _in_sketch(statement: str) -> str:
    """GOOD_SKETCH with ``statement`` inside setup, after its painting."""
    head, _, tail = GOOD_SKETCH.rpartition("}")
    return f"{head}  {statement};\n}}{tail}"


def test_the_instructions_example_passes_the_gate() -> None:
    blocks = _FENCE.findall(POLICY_INSTRUCTIONS)
    assert blocks == [EXAMPLE_SKETCH]
    verdict = gate_reply(f"```javascript\n{blocks[0]}```")
    assert verdict.passed, verdict.reasons


def test_every_snippet_the_instructions_allow_passes_the_gate() -> None:
    allowed, _ = _sections()
    checked = 0
    for span in _SPAN.findall(allowed):
        verdict = check_sketch(_in_sketch(span))
        if verdict.codes == ["syntax_error"]:
            continue  # a fragment such as `brush.vertex(x, y)`... or `const setup = ...`
        checked += 1
        assert verdict.passed, (span, verdict.reasons)
    assert checked >= 40, checked


def test_every_name_the_instructions_refuse_is_refused_by_the_gate() -> None:
    _, refused = _sections()
    names = [s.removesuffix("()") for s in _SPAN.findall(refused)]
    assert len(names) >= 60, names
    for name in names:
        if name in ("eval", "window", "with"):
            continue  # keywords and the global object: their own rules, tested in test_gate.py
        # Methods of the canvas or its context are refused on any object; the rest as globals.
        target = f"canvasElement.{name}" if name in RAW_GRAPHICS_PROPERTIES else name
        verdict = check_sketch(_in_sketch(f"const probe = {target}"))
        assert not verdict.passed, name


def test_every_rule_the_gate_applies_by_default_is_in_the_instructions() -> None:
    _, refused = _sections()
    for name in PRIMITIVES | TEXT_CALLS:
        assert f"`{name}()`" in refused, name
    for name in RAW_GRAPHICS_GLOBALS | ESCAPE_NAMES["asset_load"] | {"getContext"}:
        assert f"`{name}`" in refused, name
    for name in BRUSH_DRAWING_CALLS:
        assert f"`brush.{name}()`" in POLICY_INSTRUCTIONS, name
    for phrase in ("`try`/`catch`", "Cannot redefine property", "`eval`", "`with`"):
        assert phrase in POLICY_INSTRUCTIONS, phrase
    # The rules the instructions state are the defaults the gate applies.
    defaults = GateConfig()
    assert defaults.max_bare_primitives == 0 and defaults.forbid_text
    assert defaults.forbid_raw_graphics and not defaults.allow_try
    assert defaults.require_brush_call and defaults.forbid_p5_name_clash


@pytest.mark.parametrize(
    "statement",
    ["ellipse(0, 0, 9, 9)", "text('x', 0, 0)", "loadPixels()", "try { noLoop(); } catch (e) {}"],
)
def test_a_sketch_breaking_a_stated_rule_is_refused(statement: str) -> None:
    assert not check_sketch(_in_sketch(statement)).passed


def test_the_canvas_the_instructions_ask_for_is_the_one_the_reward_accepts() -> None:
    # The run-time check refuses any other canvas (GateConfig.canvas_size); the instructions
    # and their example must name exactly that one, and say that others fail.
    width, height = CANVAS_SIZE
    call = f"createCanvas({width}, {height}, WEBGL)"
    assert call in POLICY_INSTRUCTIONS and call in EXAMPLE_SKETCH
    assert "any other size (or pixel density) is refused" in POLICY_INSTRUCTIONS
    assert GateConfig().canvas_size == CANVAS_SIZE
    calls = {"brush.line": 1, "brush:paint": 1}

    def painted(size: tuple[int, int]) -> Render:
        return Render(RenderStatus.OK, api_calls=calls, width=size[0], height=size[1])

    assert runtime_check(painted(CANVAS_SIZE)) == ()
    assert runtime_check(painted((width // 2, height))) != ()
