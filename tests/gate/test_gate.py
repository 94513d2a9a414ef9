"""The gate: extraction from replies, every rule with a passing and a failing sketch, bad input."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from sketch_env.catalog.assets import vendor_path
from sketch_env.gate import (
    BRUSH_RENAMED,
    DEFAULT_MAX_REPLY_BYTES,
    GateConfig,
    check_sketch,
    extract_sketch,
    gate_reply,
    known_brush_members,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "rendered"

GOOD = """\
function setup() {
  createCanvas(600, 600, WEBGL);
  background(245, 240, 230);
  brush.set("2B", "#223344", 1);
  brush.line(-200, 0, 200, 0);
}
"""


def with_body(extra: str) -> str:
    """GOOD with ``extra`` appended inside setup (after the brush calls)."""
    return GOOD.replace(
        "  brush.line(-200, 0, 200, 0);\n", f"  brush.line(-200, 0, 200, 0);\n  {extra}\n"
    )


def codes(source: str, **config: object) -> list[str]:
    return check_sketch(source, GateConfig(**config)).codes  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------- basics


def test_good_sketch_and_rendered_fixtures_pass() -> None:
    verdict = check_sketch(GOOD)
    assert verdict.passed and verdict.reasons == [] and verdict.codes == []
    # darkblob.js is the scorer's dark-mass fixture, painted with a plain p5 circle on purpose.
    primitives_allowed = GateConfig(max_bare_primitives=None)
    for path in sorted(DATA.glob("*.js")):
        assert check_sketch(path.read_text(), primitives_allowed).passed, path.name


def test_comments_and_strings_never_trigger_rules() -> None:
    sketch = with_body(
        "// fetch('http://x'); eval(s); brush.bleed(1); loadImage('a.png'); text('x')\n"
        "  /* new XMLHttpRequest(); document.write('x'); location = 'y' */\n"
        "  const notes = 'brush.bleed fetch eval innerHTML localStorage';\n"
        "  const evaluate = (x) => x; evaluate(notes);\n"
        "  const fetched = `import('x') Function('y')`;"
    )
    verdict = check_sketch(sketch)
    assert verdict.passed, verdict.reasons


def test_syntax_error_reports_line_and_column() -> None:
    verdict = check_sketch(GOOD + "\nfunction draw() {\n  let x = ;\n}\n")
    assert verdict.codes == ["syntax_error"]
    assert verdict.reasons[0].startswith("syntax error at 9:")
    issue = verdict.issues[0]
    assert (issue.line, issue.column) == (9, 9)  # the stray `=`


def test_columns_count_characters_not_bytes() -> None:
    sketch = with_body("const label = 'éèê'; fetch(label);")
    issue = check_sketch(sketch).issues[0]
    assert issue.code == "network"
    assert (issue.line, issue.column) == (6, 24)


def test_repeated_problem_is_reported_once_with_a_count() -> None:
    verdict = check_sketch(with_body("brush.bleed(0.1);\n  brush.bleed(0.2);\n  brush.bleed(0.3);"))
    assert verdict.codes == ["unknown_brush_member"]
    assert verdict.issues[0].count == 3
    assert "(+2 more)" in verdict.reasons[0]


# ---------------------------------------------------------------------------------- setup


@pytest.mark.parametrize(
    "definition",
    [
        "function setup() {",
        "async function setup() {",
        "var setup = function () {",
        "var setup = () => {",
        "window.setup = function () {",
        "globalThis.setup = async () => {",
        "setup = function () {",
    ],
)
def test_setup_forms_p5_global_mode_finds(definition: str) -> None:
    assert check_sketch(GOOD.replace("function setup() {", definition)).passed


@pytest.mark.parametrize("keyword", ["const", "let"])
def test_setup_declared_with_const_or_let_fails_and_says_why(keyword: str) -> None:
    verdict = check_sketch(GOOD.replace("function setup() {", f"{keyword} setup = () => {{"))
    assert verdict.codes == ["setup_not_global"]
    assert "window.setup" in verdict.reasons[0]
    assert f"`{keyword}` does not create it" in verdict.reasons[0]
    assert "function setup()" in verdict.reasons[0]


def test_setup_nested_in_a_function_fails() -> None:
    verdict = check_sketch("function main() {\n" + GOOD + "}\nmain();\n")
    assert verdict.codes == ["setup_not_global"]
    assert "top level" in verdict.reasons[0]


def test_missing_setup_and_instance_mode_fail() -> None:
    assert codes(GOOD.replace("function setup()", "function start()")) == ["no_setup"]
    instance = (
        "new p5((p) => {\n  p.setup = () => {\n    p.createCanvas(600, 600, p.WEBGL);\n"
        "    brush.line(0, 0, 10, 10);\n  };\n});\n"
    )
    assert codes(instance) == ["instance_mode"]
    # The rule can be switched off.
    assert codes(GOOD.replace("function setup()", "function start()"), require_setup=False) == []


# ---------------------------------------------------------------------------------- canvas


@pytest.mark.parametrize("renderer", ["WEBGL", "p5.WEBGL", "'webgl'"])
def test_webgl_canvas_passes(renderer: str) -> None:
    assert check_sketch(GOOD.replace("WEBGL", renderer)).passed


@pytest.mark.parametrize("call", ["createCanvas(600, 600);", "createCanvas(600, 600, P2D);", ""])
def test_2d_or_missing_canvas_fails(call: str) -> None:
    verdict = check_sketch(GOOD.replace("createCanvas(600, 600, WEBGL);", call))
    assert verdict.codes == ["no_webgl_canvas"]
    assert "createCanvas(w, h, WEBGL)" in verdict.reasons[0]
    assert (
        codes(GOOD.replace("createCanvas(600, 600, WEBGL);", call), require_webgl_canvas=False)
        == []
    )


def test_create_canvas_shadowed_by_the_sketch_does_not_count() -> None:
    sketch = GOOD.replace(
        "function setup() {", "function setup() {\n  const createCanvas = () => 0;"
    )
    assert codes(sketch) == ["no_webgl_canvas"]


# ---------------------------------------------------------------------------------- brush


def test_no_brush_call_fails() -> None:
    sketch = GOOD.replace('  brush.set("2B", "#223344", 1);\n  brush.line(-200, 0, 200, 0);\n', "")
    verdict = check_sketch(sketch)
    assert verdict.codes == ["no_brush_call"]
    assert codes(sketch, require_brush_call=False) == []
    # A sketch that declares its own `brush` is not calling p5.brush.
    own = GOOD.replace(
        "function setup() {", "const brush = { set() {}, line() {} };\nfunction setup() {"
    )
    assert codes(own) == ["no_brush_call"]


def test_known_brush_members_come_from_the_vendored_library() -> None:
    known = known_brush_members()
    assert {"fill", "fillBleed", "hatchStyle", "move", "set", "line", "wash"} <= known
    assert not known & set(BRUSH_RENAMED)
    # Every rendered fixture only uses known names (they rendered without errors).
    for path in DATA.glob("*.js"):
        assert check_sketch(path.read_text(), GateConfig(max_bare_primitives=None)).passed


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_known_brush_members_match_loading_the_library_in_node() -> None:
    script = "console.log(JSON.stringify(Object.keys(require(process.argv[1]))))"
    path = vendor_path("p5.brush/p5.brush.js")
    out = subprocess.run(
        ["node", "-e", script, str(path)], capture_output=True, text=True, check=True, timeout=60
    )
    assert set(json.loads(out.stdout)) == set(known_brush_members())


@pytest.mark.parametrize(
    ("old", "hint"),
    [
        ("bleed", "brush.fillBleed"),
        ("setHatch", "brush.hatchStyle"),
        ("segment", "brush.move"),
        ("push", "p5's own push()"),
        ("pop", "p5's own pop()"),
        ("rotate", "p5's own rotate()"),
        ("scale", "p5's own scale()"),
        ("reDraw", "delete the call"),
        ("reBlend", "delete the call"),
        ("preload", "delete the call"),
    ],
)
def test_renamed_and_removed_1x_names_give_the_replacement(old: str, hint: str) -> None:
    verdict = check_sketch(with_body(f"brush.{old}(1);"))
    assert verdict.codes == ["unknown_brush_member"]
    assert f"`brush.{old}`" in verdict.reasons[0]
    assert hint in verdict.reasons[0]


def test_invented_brush_names_fail_with_suggestions() -> None:
    verdict = check_sketch(with_body("brush.fillColor('#fff');\n  brush.qwertyuiop();"))
    assert verdict.codes == ["unknown_brush_member", "unknown_brush_member"]
    assert "did you mean brush.fill" in verdict.reasons[0]
    assert "not part of the library" in verdict.reasons[1]
    # Computed access with a literal name is the same member.
    assert codes(with_body("brush['bleed'](1);")) == ["unknown_brush_member"]
    assert codes(with_body("brush.bleed(1);"), reject_unknown_brush=False) == []


def test_brush_classes_and_non_call_members_are_fine() -> None:
    sketch = with_body("const poly = new brush.Polygon([[0, 0], [10, 0], [5, 5]]);\n  poly.show;")
    assert check_sketch(sketch).passed


# ---------------------------------------------------------------------------------- escapes

ESCAPES = [
    ("fetch('https://example.com')", "network"),
    ("window.fetch('https://example.com')", "network"),
    ("const get = fetch;", "network"),
    ("const api = { fetch };", "network"),
    ("new XMLHttpRequest();", "network"),
    ("new WebSocket('ws://example.com');", "network"),
    ("new EventSource('/events');", "network"),
    ("new RTCPeerConnection();", "network"),
    ("import('https://example.com/m.js');", "network"),
    ("importScripts('x.js');", "network"),
    ("new Worker('w.js');", "network"),
    ("navigator.sendBeacon('/x', 'y');", "network"),
    ("httpGet('/x');", "network"),
    ("loadImage('a.png');", "asset_load"),
    ("loadFont('a.ttf');", "asset_load"),
    ("loadJSON('a.json');", "asset_load"),
    ("loadStrings('a.txt');", "asset_load"),
    ("loadTable('a.csv');", "asset_load"),
    ("loadXML('a.xml');", "asset_load"),
    ("loadBytes('a.bin');", "asset_load"),
    ("loadModel('a.obj');", "asset_load"),
    ("loadShader('a.vert', 'a.frag');", "asset_load"),
    ("loadSound('a.mp3');", "asset_load"),
    ("this.loadImage('a.png');", "asset_load"),
    ("createImg('a.png', 'alt');", "asset_load"),
    ("createVideo('a.mp4');", "asset_load"),
    ("createCapture(VIDEO);", "asset_load"),
    ("createAudio('a.mp3');", "asset_load"),
    ("useUri('data:image/png;base64,iVBORw0KGgo=');", "data_uri"),
    ("useUri(`data:image/svg+xml,${'<svg/>'}`);", "data_uri"),
    ("eval('1 + 1');", "dynamic_code"),
    ("window['eval']('1');", "dynamic_code"),
    ("Function('return 1')();", "dynamic_code"),
    ("new Function('a', 'return a');", "dynamic_code"),
    ("(() => {}).constructor('return 1')();", "dynamic_code"),
    ("setTimeout('brush.line(0, 0, 1, 1)', 10);", "dynamic_code"),
    ("setInterval(`draw()`, 10);", "dynamic_code"),
    ("window.setTimeout('x()', 1);", "dynamic_code"),
    ("document.body.innerHTML = '<img src=x>';", "dom_escape"),
    ("document.body.outerHTML = '';", "dom_escape"),
    ("document.write('<script src=x></script>');", "dom_escape"),
    ("window.open('https://example.com');", "dom_escape"),
    ("location = 'https://example.com';", "dom_escape"),
    ("location.href = 'https://example.com';", "dom_escape"),
    ("window.location.assign('https://example.com');", "dom_escape"),
    ("document.createElement('script');", "dom_escape"),
    ("localStorage.setItem('k', 'v');", "storage"),
    ("window.sessionStorage.clear();", "storage"),
    ("indexedDB.open('db');", "storage"),
    ("document.cookie = 'a=b';", "storage"),
]


@pytest.mark.parametrize(("line", "code"), ESCAPES, ids=[e[0][:40] for e in ESCAPES])
def test_escape_fails(line: str, code: str) -> None:
    verdict = check_sketch(with_body(line))
    assert verdict.codes == [code], verdict.reasons
    assert "not allowed" in verdict.reasons[0]
    assert codes(with_body(line), forbid_escapes=False) == []


def test_static_import_fails() -> None:
    assert codes("import x from 'https://example.com/x.js';\n" + GOOD) == ["network"]


SAFE_LOOKALIKES = [
    "setTimeout(() => brush.line(0, 0, 1, 1), 10);",
    "const evaluate = (v) => v; evaluate(1);",
    "function fetchColour() { return '#fff'; } fetchColour();",
    "let location = createVector(1, 2); location.x = 3;",
    "const o = { fetch: 1, eval: 2 }; o.fetch;",
    "function fetch(u) { return u; } fetch('local');",
    "const paint = (fetch) => fetch(1);",
    "const { eval: ev } = { eval: 1 };",
    "if (x instanceof Function) {}",
    "const label = 'data: 42';",
    "const el = document.getElementById('x');",
]


# ---------------------------------------------------------------------------------- fail closed
# What the gate cannot read is refused (issue 12): computed names on the global object, aliases
# of it, `with`, escaped identifiers, constructors reached through prototypes, string timers,
# built-in overrides, the browser's own loaders and parsers.

UNREADABLE = [
    ("window['fe' + 'tch']('x');", "network"),
    ("globalThis[name]();", "dynamic_access"),
    ("self[key];", "dynamic_access"),
    ("window[`ev${'al'}`]('1');", "dynamic_code"),
    ("this['fe' + 'tch']('x');", "network"),
    ("const w = window; w.fetch('x');", "dynamic_access"),
    ("Object.values(globalThis);", "dynamic_access"),
    ("Reflect.apply(f, null, []);", "dynamic_access"),
    ("document.defaultView.fetch('x');", "dynamic_access"),
    ("with (obj) { paint(); }", "dynamic_access"),
    ("\\u0066etch('x');", "network"),
    ("\\u{65}val('1');", "dynamic_code"),
    ("window.\\u0065val('1');", "dynamic_code"),
    ("window['\\x65val']('1');", "dynamic_code"),
    ("const F = (() => {}).constructor; new F('return 1');", "dynamic_code"),
    ("Object.getPrototypeOf(async () => {}).constructor;", "dynamic_code"),
    ("f['constr' + 'uctor']('x');", "dynamic_code"),
    ("const k = 'constructor';", "dynamic_code"),
    ("new Image();", "asset_load"),
    ("new Audio('a.mp3');", "asset_load"),
    ("el.src = url;", "asset_load"),
    ("createElement(tagName);", "dom_escape"),
    ("document.createElement('scr' + 'ipt');", "dom_escape"),
    ("new DOMParser();", "dom_escape"),
    ("document.body.setHTMLUnsafe('<b>x</b>');", "dom_escape"),
    ("document.createRange().createContextualFragment('<b>x</b>');", "dom_escape"),
    ("const code = 'fetch(1)'; setTimeout(code, 10);", "dynamic_code"),
    ("setInterval(obj.method, 10);", "dynamic_code"),
    ("Array.prototype.map = function () {};", "builtin_override"),
    ("Object.defineProperty(Array.prototype, 'x', { value: 1 });", "builtin_override"),
    ("Object.assign(Math, { random: () => 0.5 });", "builtin_override"),
    ("o.__proto__ = null;", "builtin_override"),
    ("const o = { __proto__: base };", "builtin_override"),
    ("Math.random = () => 0.5;", "builtin_override"),
    ("brush.line = () => 0;", "builtin_override"),
    ("window.random = () => 0.5;", "builtin_override"),
    ("new webkitRTCPeerConnection();", "network"),
    ("new RTCPeerConnection({ iceServers: [] });", "network"),
    ("new OffscreenCanvas(10, 10);", "graphics_escape"),
    ("const g = (function () { return this; })(); g.fetch('x');", "dynamic_access"),
    ("p5.instance.ellipse(0, 0, 9, 9);", "dynamic_access"),
    ("p5.prototype.text.call(null, 'x', 0, 0);", "dynamic_access"),
    ("window.p5.instance.rect(0, 0, 9, 9);", "dynamic_access"),
    ("p5.registerAddon((lib, fn) => fn.ellipse(0, 0, 9, 9));", "dynamic_access"),
    ("createDiv('<img src=x onerror=\"paint()\">');", "dom_escape"),
    ("createElement('div', '<img src=x onerror=y>');", "dom_escape"),
    ("select('body').html('<b>x</b>');", "dom_escape"),
    ("el.setAttribute('onclick', 'paint()');", "dynamic_code"),
    ("el.setAttribute(name, value);", "dynamic_code"),
    ("el.setAttribute('src', 'x.png');", "asset_load"),
    ("canvasElement.transferControlToOffscreen();", "graphics_escape"),
]


@pytest.mark.parametrize(("line", "code"), UNREADABLE, ids=[e[0][:40] for e in UNREADABLE])
def test_what_the_gate_cannot_read_fails_closed(line: str, code: str) -> None:
    verdict = check_sketch(with_body(line))
    assert code in verdict.codes, verdict.reasons
    assert all("not allowed" in reason for reason in verdict.reasons), verdict.reasons
    assert codes(with_body(line), forbid_escapes=False) == []


def test_a_picture_smuggled_in_through_a_split_data_string_is_refused() -> None:
    # Issue 13's measured hack: a reference painting embedded as a JPEG, its `data:` prefix split
    # off so no literal matches, drawn through `new Image()` and the raw context.
    smuggled = with_body(
        "const parts = ['da', 'ta:image/jpeg;base64,', '/9j/4AAQSkZJRg=='];\n"
        "  const picture = new Image();\n"
        "  picture.onload = () => drawingContext.drawImage(picture, 0, 0);\n"
        "  picture.src = parts.join('');"
    )
    assert set(codes(smuggled)) == {"asset_load", "raw_graphics"}


def test_eval_override_is_refused_for_both_reasons() -> None:
    assert set(codes(with_body("eval = (s) => s;"))) == {"builtin_override", "dynamic_code"}
    assert set(codes(with_body("window.eval = 1;"))) == {"builtin_override", "dynamic_code"}


ORDINARY = [
    "const kind = typeof Function;",
    "if (typeof window !== 'undefined') { noLoop(); }",
    "const o = { innerHTML: '' }; o.innerHTML = 'x';",
    "const uri = 'data:image/png;base64,iVBORw0KGgo=';",
    "const palette = ['#264653', '#2a9d8f']; const c = palette[int(random(2))];",
    "const pts = []; for (let i = 0; i < 3; i++) pts[i] = [i, i];",
    "function later() {} setTimeout(later, 10);",
    "class Petal { constructor(x) { this.x = x; } draw() { brush.circle(this.x, 0, 5); } }",
    "function Leaf(x) { this.x = x; }\n  Leaf.prototype.draw = function () { return this.x; };",
    "window.draw = () => noLoop();",
    "const m = new Map(); m.set('a', 1); m.get('a');",
    "const toCanvas = (v) => map(v, 0, 1, 0, 600);",
    "noStroke(); fill(255); push(); translate(1, 2); rotate(0.1); pop(); background('#fff');",
    "const words = 'the top of the hill';",
    "function Leaf(x) { this.x = x; }\n  const leaf = new Leaf(1);",
    "el.setAttribute('title', 'a painting');",
    "document.createElement('div');",
    "const v = p5.Vector.fromAngle(1);",
]


# The global object under another name (brief 20A): through it every name the gate refuses as a
# global passed (`w.eval`, `w.fetch`, `w.localStorage`, `w.createFilterShader`...). `this` is
# the global object wherever a caller hands it over: a detached method called bare, and p5
# callbacks, timers and window listeners, which pass it to class methods and strict code too
# (measured: `var draw = new A().m` ran `m` with `this === window`, with "use strict" as well).
# The class is closed at both ends: the ways to hold the global object, and the names only it
# has, refused on anything that is not the sketch's own object.
GLOBAL_OBJECT_ROUTES = [
    ("const w = ({ g() { return this; } }).g;\n  w().fetch('x');", "dynamic_access"),
    ("const o = { g() { return this.eval('1'); } };", "dynamic_code"),
    ("const o = { get w() { return this; } };", "dynamic_access"),
    ("const o = { g(k) { return this[k]; } };", "dynamic_access"),
    ("const o = { g() { this.rect(0, 0, 600, 600); } };", "bare_primitives"),
    ("class Painter { fetch() { return this.fetch; } }", "network"),
    ("class A { m() { return this; } }", "dynamic_access"),
    ("class A { m(k) { return this[k]; } }", "dynamic_access"),
    ("class A { m() { return this.localStorage; } }", "storage"),
    ("class A { m() { new this.Worker('w.js'); } }", "network"),
    ("w.eval('1');", "dynamic_code"),
    ("w.Function('return 1');", "dynamic_code"),
    ("w.fetch('https://example.com');", "network"),
    ("new w.Worker('w.js');", "network"),
    ("w.localStorage.setItem('k', 'v');", "storage"),
    ("w.createFilterShader('void main() {}');", "raw_graphics"),
    ("w.buildFilterShader(() => {});", "raw_graphics"),
    ("renderer._pInst.rect(0, 0, 9, 9);", "dynamic_access"),
    ("brushThing._renderer.GL.clear(0);", "raw_graphics"),
    ("obj.__playwright__binding__('x');", "dynamic_access"),
    ("this.__sketchenv.run(0, 't');", "dynamic_access"),
    ("document.addEventListener('x', (e) => e.composedPath()[1]);", "dynamic_access"),
    ("frameEl.contentWindow.eval('1');", "dynamic_access"),
    ("const w = opener;", "dynamic_access"),
    ("addEventListener('x', (e) => e.target);", "dom_escape"),
    ("dispatchEvent(new Event('x'));", "dom_escape"),
    ("onmessage = (e) => e.source;", "dom_escape"),
    ("window.onclick = (e) => e.view;", "dom_escape"),
    ("postMessage('x', '*');", "dom_escape"),
]


@pytest.mark.parametrize(
    ("line", "code"), GLOBAL_OBJECT_ROUTES, ids=[e[0][:40] for e in GLOBAL_OBJECT_ROUTES]
)
def test_the_global_object_under_another_name_is_refused(line: str, code: str) -> None:
    verdict = check_sketch(with_body(line))
    assert code in verdict.codes, verdict.reasons


def test_the_reason_for_this_as_a_value_says_what_is_allowed() -> None:
    (reason,) = check_sketch(with_body("const o = { g() { return this; } };")).reasons
    assert "only `this.name` is allowed" in reason and "global object" in reason


#: What the routes above must not take with them: `this` for a sketch's own fields, private
#: fields of its own objects, names like `fetch` on its own object literals, p5-looking field
#: names in its classes, and ordinary listeners on the document.
OWN_OBJECTS = [
    "const flower = { x: 1, draw() { brush.circle(this.x, 0, 5); } };\n  flower.draw();",
    "const o = { n: 0, tick() { this.n += 1; } };",
    "class Petal { constructor() { this._size = 3; } draw() { brush.circle(0, 0, this._size); } }",
    "class Leaf { constructor() { this.line = [[0, 0], [1, 1]]; this.image = null; } }",
    "const cache = { _seen: 1 }; cache._seen += 1;",
    "const pts = [[0, 0]]; pts.filter((p) => p[0] > 0).map((p) => p[1]);",
    "document.addEventListener('keydown', (e) => e.key);",
    "const api = { fetch: 1 }; api.fetch += 1;",
]


@pytest.mark.parametrize("line", OWN_OBJECTS, ids=[s[:40] for s in OWN_OBJECTS])
def test_the_sketchs_own_objects_are_not_taken_for_the_global_object(line: str) -> None:
    verdict = check_sketch(with_body(line))
    assert verdict.passed, verdict.reasons


@pytest.mark.parametrize(
    "line", SAFE_LOOKALIKES + ORDINARY, ids=[s[:40] for s in SAFE_LOOKALIKES + ORDINARY]
)
def test_lookalikes_and_ordinary_code_are_not_false_alarms(line: str) -> None:
    verdict = check_sketch(with_body(line))
    assert verdict.passed, verdict.reasons


# ---------------------------------------------------------------------------------- issue 13
# The hardened defaults: paint with p5.brush, not around it. Each rule is a switch.


@pytest.mark.parametrize(
    ("line", "names", "replacement"),
    [
        ("ellipse(0, 0, 10, 10);", ["ellipse"], "brush.circle"),
        ("rect(0, 0, 10, 10);\n  square(0, 0, 5);", ["rect", "square"], "brush.rect"),
        ("line(0, 0, 10, 10);", ["line"], "brush.line"),
        (
            "triangle(0, 0, 1, 1, 2, 0);\n  quad(0, 0, 1, 0, 1, 1, 0, 1);",
            ["triangle", "quad"],
            "brush.polygon",
        ),
        (
            "beginShape();\n  vertex(0, 0);\n  vertex(9, 9);\n  endShape(CLOSE);",
            ["beginShape", "vertex (2x)", "endShape"],
            "brush.vertex",
        ),
        ("point(1, 1);", ["point"], "brush.line"),
        ("arc(0, 0, 9, 9, 0, PI);", ["arc"], "brush.arc"),
        ("circle(0, 0, 9);", ["circle"], "brush.circle"),
        ("image(pic, 0, 0);", ["image"], "painting the picture"),
        ("plane(9);\n  box(9);\n  sphere(9);", ["box", "plane", "sphere"], "paints in 2D"),
        (
            "bezier(0, 0, 1, 1, 2, 2, 3, 3);\n  curve(0, 0, 1, 1, 2, 2, 3, 3);",
            ["bezier", "curve"],
            "brush.spline",
        ),
        ("const e = ellipse;\n  e(0, 0, 5, 5);", ["ellipse"], "brush.circle"),
        ("window.rect(0, 0, 1, 1);", ["rect"], "brush.rect"),
        ("this.line(0, 0, 1, 1);", ["line"], "brush.line"),
    ],
)
def test_plain_p5_shapes_are_refused_with_the_names_found(
    line: str, names: list[str], replacement: str
) -> None:
    verdict = check_sketch(with_body(line))
    assert verdict.codes == ["bare_primitives"], verdict.reasons
    reason = verdict.reasons[0]
    for name in names:
        assert name in reason
    assert replacement in reason and "p5.brush" in reason
    assert check_sketch(with_body(line), GateConfig(max_bare_primitives=None)).passed


def test_primitive_limit_counts_every_use() -> None:
    sketch = with_body("rect(0, 0, 10, 10);\n  circle(5, 5, 5);\n  circle(8, 8, 5);")
    assert check_sketch(sketch, GateConfig(max_bare_primitives=3)).passed
    verdict = check_sketch(sketch, GateConfig(max_bare_primitives=2))
    assert verdict.codes == ["bare_primitives"]
    assert "found 3: circle (2x), rect" in verdict.reasons[0]
    assert "over the limit of 2" in verdict.reasons[0]
    # brush.* shapes and the sketch's own helpers are not p5's primitives.
    fine = with_body("brush.rect(0, 0, 10, 10);\n  function line() {}\n  line();")
    assert check_sketch(fine).passed
    dark = (DATA / "darkblob.js").read_text()
    assert check_sketch(dark).codes == ["bare_primitives"]


def test_text_is_refused_by_default_and_an_allowed_text_without_a_font_is_named() -> None:
    sketch = with_body("textSize(40);\n  text('FLOWERS', 0, 0);")
    verdict = check_sketch(sketch)
    assert verdict.codes == ["text_banned"]
    assert "writing text on the canvas is not allowed" in verdict.reasons[0]
    assert codes(with_body("const label = text;\n  label('x', 0, 0);")) == ["text_banned"]
    # Allowed, it still draws nothing on WEBGL without a loaded font: the gate says so.
    loose = GateConfig(forbid_text=False)
    verdict = check_sketch(sketch, loose)
    assert verdict.codes == ["text_draws_nothing"]
    assert "draws nothing on a WEBGL canvas" in verdict.reasons[0]
    assert "loadFont()" in verdict.reasons[0] and "textFont()" in verdict.reasons[0]
    with_font = with_body("textFont(font);\n  text('FLOWERS', 0, 0);")
    assert check_sketch(with_font, loose).passed
    # A sketch's own `text` helper is not p5's.
    assert check_sketch(with_body("const text = (s) => s; text('hello');")).passed


RAW = [
    ("drawingContext.clearColor(1, 0, 0, 1);", "drawingContext"),
    ("const gl = drawingContext;\n  gl.scissor(0, 0, 9, 9);", "drawingContext"),
    ("document.querySelector('canvas').getContext('webgl');", "getContext"),
    ("loadPixels();", "loadPixels"),
    ("pixels[0] = 255;", "pixels"),
    ("updatePixels();", "updatePixels"),
    ("set(1, 1, 0);", "set"),
    ("const c = get(1, 1);", "get"),
    ("const g = createGraphics(10, 10);", "createGraphics"),
    ("const im = createImage(10, 10);", "createImage"),
    ("this._renderer.GL.clear(0);", "_renderer"),
    ("window.drawingContext.clear(0);", "drawingContext"),
]


@pytest.mark.parametrize(("line", "name"), RAW, ids=[r[0][:40] for r in RAW])
def test_raw_graphics_are_refused_and_the_reason_names_brush(line: str, name: str) -> None:
    verdict = check_sketch(with_body(line))
    assert set(verdict.codes) == {"raw_graphics"}, verdict.reasons
    assert any(f"`{name}`" in reason for reason in verdict.reasons)
    assert "brush.line" in verdict.reasons[0] and "background()" in verdict.reasons[0]
    assert check_sketch(with_body(line), GateConfig(forbid_raw_graphics=False)).passed


def test_background_and_p5_state_calls_stay_allowed() -> None:
    sketch = with_body("background(20, 30, 40);\n  noStroke();\n  fill(255);\n  push();\n  pop();")
    assert check_sketch(sketch).passed


@pytest.mark.parametrize(
    "line",
    [
        "try {\n    brush.rect(0, 0, 9, 9);\n    missing.paint();\n  } catch (e) {}",
        "try { brush.rect(0, 0, 9, 9); } finally { noLoop(); }",
        "window.onerror = () => true;",
        "onunhandledrejection = () => true;",
        "addEventListener('error', (e) => e.preventDefault());",
        "window.addEventListener('unhandledrejection', (e) => e.preventDefault());",
        "Promise.resolve().catch(() => 0);",
    ],
)
def test_swallowing_errors_is_refused_unless_allowed(line: str) -> None:
    verdict = check_sketch(with_body(line))
    assert set(verdict.codes) <= {"try_statement", "error_handler"} and verdict.codes
    assert "remove the try/catch" in verdict.reasons[0]
    assert check_sketch(with_body(line), GateConfig(allow_try=True)).passed


@pytest.mark.parametrize(
    "calls",
    [
        "brush.noStroke();",
        "brush.set('2B', '#223344', 1);\n  brush.pick('HB');\n  brush.seed(1);",
        "brush.fill('#c8402a', 200);\n  brush.beginShape(0);\n  brush.vertex(0, 0);",
        "const p = new brush.Polygon([[0, 0], [9, 0], [5, 5]]);",
    ],
)
def test_brush_setters_alone_do_not_count_as_painting(calls: str) -> None:
    sketch = GOOD.replace(
        '  brush.set("2B", "#223344", 1);\n  brush.line(-200, 0, 200, 0);\n', f"  {calls}\n"
    )
    verdict = check_sketch(sketch)
    assert verdict.codes == ["no_brush_call"]
    assert "only p5.brush setters" in verdict.reasons[0]
    assert "brush.line" in verdict.reasons[0] and "brush.endShape" in verdict.reasons[0]
    assert check_sketch(sketch, GateConfig(require_brush_call=False)).passed


def test_each_brush_drawing_call_counts() -> None:
    from sketch_env.catalog.vocabulary import BRUSH_DRAWING_CALLS

    assert known_brush_members() >= BRUSH_DRAWING_CALLS
    for name in sorted(BRUSH_DRAWING_CALLS):
        sketch = GOOD.replace("brush.line(-200, 0, 200, 0)", f"brush.{name}()")
        assert check_sketch(sketch).passed, name


@pytest.mark.parametrize(
    ("definition", "name"),
    [
        ("function map(v) { return v; }", "map"),
        ("function hex(v) { return v; }", "hex"),
        ("var random = 4;", "random"),
        ("function color(r, g, b) { return [r, g, b]; }", "color"),
    ],
)
def test_a_top_level_name_clashing_with_a_p5_global_is_named(definition: str, name: str) -> None:
    verdict = check_sketch(definition + "\n" + GOOD)
    assert verdict.codes == ["p5_name_clash"]
    assert f'"Cannot redefine property: {name}"' in verdict.reasons[0]
    assert "rename yours" in verdict.reasons[0]
    assert check_sketch(definition + "\n" + GOOD, GateConfig(forbid_p5_name_clash=False)).passed


def test_names_that_do_not_clash_with_p5() -> None:
    # let/const do not create window properties, and nested helpers are local.
    ok = "let map = 1;\nconst hex = 2;\nfunction paintPetal() {}\n" + GOOD.replace(
        "function setup() {", "function setup() {\n  function random() { return 0; }"
    )
    assert check_sketch(ok).passed


def test_the_p5_global_names_come_from_the_vendored_library() -> None:
    from sketch_env.gate.p5_api import p5_global_names

    names = p5_global_names()
    assert {"map", "hex", "random", "color", "text", "ellipse", "PI", "WEBGL", "width"} <= names
    assert not {"setup", "draw", "brush"} & names


# ---------------------------------------------------------------------------------- extraction


def test_extracts_tagged_untagged_and_tilde_fences() -> None:
    for fence in (
        "```js",
        "```javascript",
        "```p5",
        "```",
        "```JavaScript title=sketch.js",
        "~~~js",
    ):
        close = fence[:3]
        reply = f"Here is the sketch:\n{fence}\n{GOOD}{close}\nIt paints a line."
        extraction = extract_sketch(reply)
        assert extraction.source == GOOD.rstrip("\n"), fence
        assert extraction.fenced
        assert gate_reply(reply).passed


def test_several_blocks_prefer_the_one_defining_setup() -> None:
    palette = "const palette = ['#264653', '#2a9d8f', '#e9c46a', '#f4a261', '#e76f51', '#8ab17d'];"
    reply = f"```js\n{palette}\n```\nThen:\n```js\n{GOOD}```\n```js\n// done\n```"
    extraction = extract_sketch(reply)
    assert extraction.source == GOOD.rstrip("\n")
    assert (extraction.blocks, extraction.chosen) == (3, 1)
    verdict = gate_reply(reply)
    assert verdict.passed
    assert verdict.notes == ("3 code blocks; used block 2 (defines setup)",)


def test_several_blocks_without_setup_take_the_largest() -> None:
    small = "brush.line(0, 0, 1, 1);"
    large = "createCanvas(600, 600, WEBGL);\nbrush.line(0, 0, 1, 1);\nbrush.line(1, 1, 2, 2);"
    extraction = extract_sketch(f"```js\n{small}\n```\n```js\n{large}\n```")
    assert extraction.source == large
    assert "largest" in extraction.notes[0]
    # A comment that mentions setup does not count as defining it.
    commented = f"```js\n// function setup() goes here\n{small}\n```\n```js\n{large}\n```"
    assert extract_sketch(commented).source == large


def test_non_js_blocks_are_skipped_and_html_script_is_used() -> None:
    reply = f"```bash\nnpm install p5\n```\n```js\n{GOOD}```"
    assert extract_sketch(reply).source == GOOD.rstrip("\n")
    html = f"```html\n<html><script src='p5.js'></script>\n<script>\n{GOOD}</script></html>\n```"
    verdict = gate_reply(html)
    assert verdict.passed, verdict.reasons
    assert "inline <script>" in verdict.notes[0]


def test_unterminated_fence_is_taken_with_a_note() -> None:
    extraction = extract_sketch(f"```js\n{GOOD}")
    assert extraction.source is not None and "function setup()" in extraction.source
    assert any("cut off" in note for note in extraction.notes)
    cut = gate_reply(f"```js\n{GOOD[:60]}")
    assert cut.codes == ["syntax_error"]


def test_unfenced_code_is_taken_whole() -> None:
    verdict = gate_reply(GOOD)
    assert verdict.passed
    assert "no code fence" in verdict.notes[0]


# ---------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("reply", ["", "   \n\t\n", None, b""])
def test_empty_reply(reply: str | bytes | None) -> None:
    verdict = gate_reply(reply)
    assert not verdict.passed
    assert verdict.codes == ["empty_reply"]
    assert "empty" in verdict.reasons[0]


@pytest.mark.parametrize(
    "reply",
    [
        "I'm sorry, I can't help with that.",
        "Sure",
        "Here is a description of a watercolour hibiscus: soft peach petals.",
    ],
)
def test_reply_without_code(reply: str) -> None:
    verdict = gate_reply(reply)
    assert verdict.codes == ["no_code"]
    assert "no ```js code block" in verdict.reasons[0]


def test_reply_with_only_other_languages_or_an_empty_block() -> None:
    verdict = gate_reply("```python\nprint('hi')\n```")
    assert verdict.codes == ["no_code"]
    assert "none is JavaScript" in verdict.reasons[0] and "python" in verdict.reasons[0]
    assert gate_reply("```js\n\n```").codes == ["no_code"]


def test_enormous_reply_is_refused_unread() -> None:
    huge = "```js\n" + GOOD + "// " + "x" * DEFAULT_MAX_REPLY_BYTES + "\n```"
    verdict = gate_reply(huge)
    assert verdict.codes == ["reply_too_large"]
    assert "262,144-byte limit" in verdict.reasons[0]
    assert gate_reply(huge.encode()).codes == ["reply_too_large"]
    # Multi-byte characters count as bytes, and the limit is configurable.
    assert gate_reply("é" * 600, GateConfig(max_reply_bytes=1000)).codes == ["reply_too_large"]
    assert gate_reply("```js\n" + GOOD + "```", GateConfig(max_reply_bytes=10_000)).passed
    direct = check_sketch(GOOD + "//" + "x" * 2000, GateConfig(max_reply_bytes=1000))
    assert direct.codes == ["reply_too_large"]


def test_non_utf8_bytes() -> None:
    verdict = gate_reply(b"```js\n\xff\xfe function setup() {}\n```")
    assert verdict.codes == ["not_utf8"]
    assert verdict.reasons == ["the reply is not valid UTF-8 (byte 0xff at offset 6)"]
    assert gate_reply(("```js\n" + GOOD + "```").encode("utf-8")).passed
    # A str holding a lone surrogate (from a bad decode upstream) cannot be UTF-8 either.
    assert gate_reply("```js\n\ud800\n```").codes == ["not_utf8"]


def test_pathological_nesting_does_not_raise() -> None:
    deep = "function setup() { createCanvas(1, 1, WEBGL); brush.line(0, 0, 1, 1); const a = "
    deep += "[" * 5000 + "]" * 5000 + "; }"
    assert check_sketch(deep).passed
    blocks = "function setup() { createCanvas(1, 1, WEBGL); brush.line(0, 0, 1, 1); "
    blocks += "{" * 3000 + "fetch('x');" + "}" * 3000 + " }"
    assert check_sketch(blocks).codes == ["network"]


def test_wrong_type_is_a_programming_error() -> None:
    with pytest.raises(TypeError):
        gate_reply(12)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        check_sketch(b"function setup() {}")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------- config


def test_gate_config_round_trips_and_validates() -> None:
    config = GateConfig(forbid_text=True, max_bare_primitives=2, max_reply_bytes=4096)
    assert GateConfig.from_json(config.to_json()) == config
    assert GateConfig.from_dict(config.to_dict()) == config
    with pytest.raises(ValueError, match="unknown GateConfig keys"):
        GateConfig.from_dict({"forbid_txt": True})
    with pytest.raises(ValueError):
        GateConfig(max_reply_bytes=0)
    with pytest.raises(ValueError):
        GateConfig(max_bare_primitives=-1)
    with pytest.raises(ValueError):
        GateConfig(forbid_text="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        GateConfig.from_json("[1, 2]")


def test_verdict_to_dict_is_json_serialisable() -> None:
    verdict = gate_reply("```js\n" + with_body("fetch('x');") + "```")
    data = json.loads(json.dumps(verdict.to_dict(include_source=True)))
    assert data["passed"] is False
    assert data["codes"] == ["network"]
    assert data["issues"][0]["line"] == 6
    assert data["source"].startswith("function setup()")
