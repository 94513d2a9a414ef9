"""p5.brush's own calls skip the stack attribution, and nothing else does (issue 29).

The served p5.brush routes each of its calls to a wrapped function through a helper the
harness hands only to p5.brush's script (`sketch_env.render.libraries`): 62,000 stack captures
fewer in one watercolour, which had made heavy renders twice as slow. These tests hold the
rewrite to plain method calls, keep the helper out of the sketch's reach, and check that
routing changes neither a picture nor a count: the same sketches rendered with the vendored
p5.brush, served as it is in another process, give the same PNG bytes and the same counts.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import tree_sitter
import tree_sitter_javascript

from sketch_env import RenderStatus, SketchRenderer
from sketch_env.render.api_calls import library_routed_names
from sketch_env.render.libraries import HELPER, KIT_PROLOGUE, route_library_calls, served_library
from tests.conftest import BARE_SKETCH, GOOD_SKETCH

ROOT = Path(__file__).resolve().parents[2]


def _routed(source: str) -> str:
    out = route_library_calls(source.encode(), {"fill", "rect"}).decode()
    assert out.startswith(KIT_PROLOGUE) and out.endswith("\n}\n")
    return out[len(KIT_PROLOGUE) : -3]


def test_only_plain_method_calls_with_a_wrapped_name_are_routed() -> None:
    h = HELPER
    assert _routed("a.fill();") == f'{h}(a,"fill").fill();'
    assert _routed("t%5!=0&&bt.ctx.fill()") == f't%5!=0&&{h}(bt.ctx,"fill").fill()'
    # The object is evaluated once and the arguments are left as they are, nested calls too.
    assert _routed("f().rect(1, g.fill(x), ...y)") == (
        f'{h}(f(),"rect").rect(1, {h}(g,"fill").fill(x), ...y)'
    )
    assert _routed("a.b.fill().rect()") == f'{h}({h}(a.b,"fill").fill(),"rect").rect()'
    # Optional chains, computed names, bare calls, other names and `super` are left alone.
    for kept in ("a?.fill();", "a.fill?.();", 'a["fill"]();', "fill();", "a.stroke();"):
        assert _routed(kept) == kept
    method = "class A extends B { m() { super.fill(); } }"
    assert _routed(f"var C = {method};") == f"var C = {method};"


def test_a_library_a_block_would_change_is_refused() -> None:
    for source in ('"use strict"; a.fill();', "let x = 1;", "function f() {}", "class K {}"):
        with pytest.raises(ValueError):
            route_library_calls(source.encode(), {"fill"})
    with pytest.raises(ValueError, match="parse"):
        route_library_calls(b"a.fill(", {"fill"})


def test_the_served_p5_brush_routes_its_own_calls() -> None:
    served = served_library("brush")
    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_javascript.language()))
    assert not parser.parse(served).root_node.has_error
    assert served.startswith(KIT_PROLOGUE.encode())
    # Its texture dabs (2D fills), strokes and calls into p5 are among them.
    calls = served.count(HELPER.encode() + b"(")
    assert calls >= 50, calls
    for name in ("fill", "stroke", "rect", "clearRect", "drawImage"):
        assert name in library_routed_names()
        assert f'"{name}").{name}('.encode() in served, name
    assert served_library("p5") == (ROOT / "vendor/p5/p5.min.js").read_bytes()


#: The sketch asks for the helper in every way it can reach the harness, and paints a 2D
#: canvas through whatever it got.
ASKS_FOR_THE_HELPER = """
function setup() {
  createCanvas(600, 600, WEBGL);
  background(245, 240, 228);
  brush.set('2B', '#1f2f7a', 2);
  brush.line(-290, -290, -280, -284);
  const frame = document.createElement('iframe');
  document.body.appendChild(frame);
  const asks = [
    () => __sketchenv.libraryCalls(),
    () => window.__sketchenv.libraryCalls.call(null),
    () => frame.contentWindow.__sketchenv.libraryCalls(),
    () => Reflect.apply(__sketchenv.libraryCalls, __sketchenv, []),
  ];
  const ctx = new OffscreenCanvas(20, 20).getContext('2d');
  for (const ask of asks) {
    const helper = ask();
    (helper ? helper(ctx, 'fillRect') : ctx).fillRect(0, 0, 5, 5);
  }
}
"""


def test_the_sketch_cannot_get_the_helper(renderer: SketchRenderer) -> None:
    result = renderer.render_sync(ASKS_FOR_THE_HELPER, seed=0)
    assert result.status is RenderStatus.OK, result.errors
    # Each fill went through the wrapper and counted: no ask handed the sketch the helper.
    assert result.raw_graphics_calls.get("2d.fillRect") == 4, result.api_calls


#: Sketches whose pictures and counts must not move: honest ones, the heaviest reference, and
#: sketch code run inside p5.brush calls (a valueOf, a field generator), which must still count.
COMPARED = {
    "good": GOOD_SKETCH,
    "bare": BARE_SKETCH,
    "value_of": """
function setup() {
  createCanvas(600, 600, WEBGL);
  background(250);
  brush.set('2B', '#1f2f7a', 2);
  brush.line({ valueOf() { rect(-300, -300, 50, 50); return -200; } }, -200, 100, 100);
}
""",
    "field": """
function setup() {
  createCanvas(600, 600, WEBGL);
  background(250);
  brush.addField('paint', (t, field) => { ellipse(0, 0, 40, 40); return field; });
  brush.field('paint');
  brush.set('2B', '#1f2f7a', 2);
  brush.flowLine(-200, -200, 300, 0);
}
""",
}


def _renders(sources: dict[str, str]) -> dict[str, tuple[str, str, dict[str, int]]]:
    """The status, PNG hash and counts of each sketch, rendered with the vendored p5.brush
    served as it is, in a process of its own (the served bytes are cached per process)."""
    script = """
import hashlib, json, sys
from sketch_env.catalog.assets import read_vendor_bytes
import sketch_env.render.host as host
import sketch_env.render.provenance as provenance
from sketch_env import SketchRenderer
def vendored(short):
    return read_vendor_bytes({"p5": "p5/p5.min.js", "brush": "p5.brush/p5.brush.js"}[short])
host.served_library = provenance.served_library = vendored
sources = json.loads(sys.stdin.read())
with SketchRenderer(pool_size=1, deadline_s=120) as renderer:
    out = {}
    for name, source in sources.items():
        r = renderer.render_sync(source, seed=3)
        digest = hashlib.sha256(r.png or b"").hexdigest()
        out[name] = [r.status.value, digest, r.api_calls or {}]
print(json.dumps(out))
"""
    proc = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps(sources),
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        timeout=600,
        check=True,
    )
    answer: dict[str, list] = json.loads(proc.stdout.strip().splitlines()[-1])
    return {name: (a[0], a[1], a[2]) for name, a in answer.items()}


def test_routing_changes_no_picture_and_no_count() -> None:
    from sketch_env.catalog.references import load_reference_pool

    sources = dict(COMPARED)
    refs = {r.id: r.source for r in load_reference_pool()}
    for name in ("flowers-watercolour-hibiscus", "trees-pastel-cherry-looking-up"):
        sources[name] = refs[name]
    unrouted = _renders(sources)
    with SketchRenderer(pool_size=1, deadline_s=120) as renderer:
        for name, source in sources.items():
            r = renderer.render_sync(source, seed=3)
            routed = (r.status.value, hashlib.sha256(r.png or b"").hexdigest(), r.api_calls or {})
            assert routed == unrouted[name], name
    # The attacks still count, routed or not.
    assert unrouted["value_of"][2].get("rect", 0) >= 1
    assert unrouted["field"][2].get("ellipse", 0) >= 1
