"""The policy's vocabulary: what a sketch may call, what is refused and why, as data.

The one source the instructions (`sketch_env.catalog.instructions`), the static gate
(`sketch_env.gate`) and the run-time check (`sketch_env.gate.runtime`, counting what the
harness measured with the lists of `sketch_env.render.api_calls`) are written from: forbidden
names by rule, p5.brush's renames, the drawing calls, the canvas, and the words that explain
each refusal to the policy.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

#: The canvas every task asks for, in pixels: the instructions name it and the run-time check
#: refuses any other (`GateConfig.canvas_size`). Fixed because the scorers' statistics depend on the
#: size: the same composition earned 9.37 at 64x64 against 6.50 at 600x600.
CANVAS_SIZE = (600, 600)

#: The largest reply (and sketch) a policy may send, in UTF-8 bytes: 256 KiB is ~50x a rich
#: sketch. The one number every size limit derives from: the gate refuses larger replies with a
#: reason (`GateConfig.max_reply_bytes`), the renderer refuses larger sources unrun
#: (`RenderConfig.max_source_bytes`), and the wire models bound what a client can send
#: (`sketch_env.env.models.MAX_ACTION_CHARS`).
MAX_REPLY_BYTES = 256 * 1024

#: p5.brush 1.x names, and what to write in 2.x instead (docs/design.md §3, p5.brush facts).
BRUSH_RENAMED: Mapping[str, str] = {
    "bleed": "it was renamed: use brush.fillBleed(...)",
    "setHatch": "it was renamed: use brush.hatchStyle(...)",
    "segment": "it was renamed: use brush.move(...) between brush.beginStroke() and "
    "brush.endStroke()",
    "push": "it was removed in p5.brush 2.x: use p5's own push()",
    "pop": "it was removed in p5.brush 2.x: use p5's own pop()",
    "rotate": "it was removed in p5.brush 2.x: use p5's own rotate()",
    "scale": "it was removed in p5.brush 2.x: use p5's own scale()",
    "translate": "use p5's own translate()",
    "reDraw": "it was removed in p5.brush 2.x: strokes reach the canvas by themselves at the "
    "end of setup() and draw(); delete the call",
    "reBlend": "it was removed in p5.brush 2.x: strokes reach the canvas by themselves at the "
    "end of setup() and draw(); delete the call",
    "preload": "it was removed in p5.brush 2.x; delete the call",
}

#: The p5.brush exports that put paint down. Read off the vendored 2.x source: each one ends
#: in a stroke's or polygon's ``show()``/``draw()`` (``line``, ``flowLine``, ``spline``,
#: ``endStroke``) or in ``endShape`` (``rect``, ``circle`` and ``polygon`` build a shape and
#: close it). Every other export only sets state (``set``, ``pick``, ``fill``, ``noStroke``,
#: ``seed``, ``field``...), builds a shape without drawing it (``beginShape``, ``vertex``,
#: ``beginStroke``, ``move``) or returns data (``box``, ``listFields``, ``wRand``).
BRUSH_DRAWING_CALLS = frozenset(
    {
        "line",
        "flowLine",
        "spline",
        "rect",
        "circle",
        "arc",
        "polygon",
        "endShape",
        "endStroke",
        "hatchArray",
        "massArray",
    }
)
#: What to tell a policy whose sketch only configures the brush.
BRUSH_DRAWING_HINT = (
    "brush.line, brush.flowLine, brush.spline, brush.rect, brush.circle, brush.arc, "
    "brush.polygon, brush.beginShape/brush.vertex/brush.endShape or "
    "brush.beginStroke/brush.move/brush.endStroke"
)
#: The brushes a sketch may name (``brush.set``, ``brush.pick``, ``brush.hatchStyle``,
#: ``brush.mass``): the standard set of the vendored p5.brush 2.2.2 (its ``brush.box()``). The
#: instructions list them in this order, and the reward search (`sketch_env.rewardcheck.search`)
#: draws from them, so the search paints with exactly what the policy is offered.
BRUSHES: tuple[str, ...] = (
    "pen",
    "rotring",
    "2B",
    "HB",
    "2H",
    "cpencil",
    "pastel",
    "crayon",
    "charcoal",
    "spray",
    "marker",
)
#: The vector fields a sketch may switch on with ``brush.field(name)`` (p5.brush 2.2.2's
#: ``brush.listFields()``), in the order the instructions list them.
VECTOR_FIELDS: tuple[str, ...] = (
    "hand",
    "curved",
    "zigzag",
    "waves",
    "seabed",
    "spiral",
    "columns",
)


#: Forbidden names, by issue code. Bare global uses and ``window.NAME`` uses are caught.
ESCAPE_NAMES: Mapping[str, frozenset[str]] = {
    "network": frozenset(
        {
            "fetch",
            "XMLHttpRequest",
            "WebSocket",
            "WebTransport",
            "EventSource",
            "RTCPeerConnection",
            "webkitRTCPeerConnection",
            "mozRTCPeerConnection",
            "RTCDataChannel",
            "importScripts",
            "Worker",
            "SharedWorker",
            "httpGet",
            "httpPost",
            "httpDo",
        }
    ),
    "asset_load": frozenset(
        {
            "loadImage",
            "loadFont",
            "loadJSON",
            "loadStrings",
            "loadTable",
            "loadXML",
            "loadBytes",
            "loadBlob",
            "loadModel",
            "loadShader",
            "loadFilterShader",
            "loadSound",
            "createImg",
            "createVideo",
            "createCapture",
            "createAudio",
            # The browser's own loaders: `new Image()` with a `data:` src is how a picture is
            # smuggled in (issue 13 measured 7.08 for an embedded copy of a 7.07 reference).
            "Image",
            "Audio",
            "FontFace",
            "createImageBitmap",
        }
    ),
    "dynamic_code": frozenset({"eval", "Function"}),
    "dynamic_access": frozenset({"Reflect", "Proxy"}),
    "storage": frozenset({"localStorage", "sessionStorage", "indexedDB", "caches"}),
    # p5's DOM helpers put their content in as HTML (`createDiv('<img onerror=...>')` runs a
    # string as code), and a painting needs none of them.
    "dom_escape": frozenset(
        {
            "DOMParser",
            "Range",
            "createDiv",
            "createP",
            "createSpan",
            "createA",
            "createButton",
            "createInput",
            "createSelect",
            "createRadio",
            "createCheckbox",
            "createSlider",
            "createColorPicker",
            "createFileInput",
            "select",
            "selectAll",
            # A message to the window comes back with the window as `event.source`.
            "postMessage",
        }
    ),
    "graphics_escape": frozenset({"OffscreenCanvas"}),
}
#: Properties forbidden on any object: nothing in a painting sketch needs them.
ANY_OBJECT_PROPERTIES: Mapping[str, str] = {
    "innerHTML": "dom_escape",
    "outerHTML": "dom_escape",
    "insertAdjacentHTML": "dom_escape",
    "setHTMLUnsafe": "dom_escape",
    "parseHTMLUnsafe": "dom_escape",
    "createContextualFragment": "dom_escape",
    "createElementNS": "dom_escape",
    "srcdoc": "dom_escape",
    "html": "dom_escape",
    "defaultView": "dynamic_access",
    "sendBeacon": "network",
    "serviceWorker": "network",
    "transferControlToOffscreen": "graphics_escape",
    # Each hands out a window: an event's path ends in it, a frame element holds one.
    "composedPath": "dynamic_access",
    "contentWindow": "dynamic_access",
    "contentDocument": "dynamic_access",
    # A function's (or any object's) constructor: `(() => {}).constructor` is `Function`, and
    # `Object.getPrototypeOf(async () => {}).constructor` is `AsyncFunction`.
    "constructor": "dynamic_code",
    "getPrototypeOf": "dynamic_code",
    "__proto__": "builtin_override",
    "setPrototypeOf": "builtin_override",
    "defineProperty": "builtin_override",
    "defineProperties": "builtin_override",
    "__defineGetter__": "builtin_override",
    "__defineSetter__": "builtin_override",
}
#: Names p5 owns, so refused on any object (``this.loadImage``), not only as globals.
ANY_OBJECT_NAMES = ESCAPE_NAMES["asset_load"] - {"Image", "Audio", "FontFace"}
#: Assigning these on ``location`` navigates away from the page.
NAVIGATING_PROPERTIES = frozenset(
    {"href", "hash", "pathname", "search", "host", "hostname", "port", "protocol"}
)
#: Assigning these on any object loads a resource (an element's ``src``).
LOADING_PROPERTIES = frozenset({"src", "srcset", "srcObject"})
#: Elements that load or run something when created from a sketch (``createElement("script")``).
LOADING_ELEMENTS = frozenset(
    {
        "script",
        "iframe",
        "frame",
        "img",
        "image",
        "object",
        "embed",
        "link",
        "meta",
        "base",
        "video",
        "audio",
        "source",
        "track",
        "canvas",
        "style",
        "svg",
        "picture",
    }
)
#: Attributes that load something or run a string as code when set (``onerror``, ``src``).
LOADING_ATTRIBUTES = frozenset({"src", "srcset", "srcdoc", "href", "xlink:href", "data", "style"})
#: Members of ``p5`` that hand out its whole API under another name (``p5.instance.ellipse``).
P5_API_HANDLES = frozenset(
    {"instance", "prototype", "registerAddon", "registerMethod", "registerPreloadMethod"}
)
#: Identifiers that name the global object.
GLOBAL_OBJECTS = frozenset({"window", "globalThis", "self", "top", "parent", "frames", "opener"})
#: Built-in objects and the libraries the sketch runs on: assigning to them (or to their
#: prototypes) changes what every later check and the harness rely on.
PROTECTED_GLOBALS = frozenset(
    {
        "Object",
        "Array",
        "Function",
        "String",
        "Number",
        "Boolean",
        "Symbol",
        "BigInt",
        "Math",
        "JSON",
        "Date",
        "RegExp",
        "Error",
        "TypeError",
        "Promise",
        "Map",
        "Set",
        "WeakMap",
        "WeakSet",
        "Reflect",
        "Proxy",
        "console",
        "p5",
        "brush",
        "HTMLCanvasElement",
        "WebGLRenderingContext",
        "WebGL2RenderingContext",
        "CanvasRenderingContext2D",
        "EventTarget",
        "Node",
        "Element",
        "HTMLElement",
        "Document",
        "Window",
        "eval",
        "setTimeout",
        "setInterval",
        "requestAnimationFrame",
    }
)
#: ``Object.X(target, ...)`` calls that change ``target``: refused when it is built in.
MUTATING_OBJECT_CALLS = frozenset(
    {"assign", "defineProperty", "defineProperties", "setPrototypeOf"}
)

WHY = {
    "network": "network access is not allowed: the sketch runs offline",
    "asset_load": "loading images, fonts, media or files is not allowed: paint everything "
    "with p5.brush",
    "data_uri": "embedded data: URIs are not allowed: paint everything with p5.brush",
    "dynamic_code": "running code built from strings is not allowed",
    "dynamic_access": "reaching globals through a computed name, an alias of the global "
    "object or Reflect is not allowed (the gate cannot read it): call the function by its name",
    "dom_escape": "changing the page outside the canvas is not allowed",
    "graphics_escape": "drawing outside the sketch's canvas is not allowed: paint with p5.brush",
    "builtin_override": "changing built-in objects, their prototypes or the libraries is "
    "not allowed",
    "storage": "browser storage is not allowed",
}

#: p5's own shape calls, and what p5.brush offers instead (refused by default: issue 13
#: measured 400 random `ellipse()`s after one token brush call at the maximum reward).
PRIMITIVE_INSTEAD: Mapping[str, str] = {
    "point": "a short brush.line",
    "line": "brush.line",
    "rect": "brush.rect",
    "square": "brush.rect",
    "ellipse": "brush.circle",
    "circle": "brush.circle",
    "arc": "brush.arc",
    "triangle": "brush.polygon",
    "quad": "brush.polygon",
    "bezier": "brush.spline",
    "curve": "brush.spline",
    "spline": "brush.spline",
    "beginShape": "brush.beginShape",
    "vertex": "brush.vertex",
    "endShape": "brush.endShape",
    "bezierVertex": "brush.vertex",
    "quadraticVertex": "brush.vertex",
    "curveVertex": "brush.vertex",
    "splineVertex": "brush.vertex",
    "beginContour": "separate brush.polygon shapes",
    "endContour": "separate brush.polygon shapes",
    "image": "painting the picture with brush strokes",
    "box": "brush.polygon (p5.brush paints in 2D)",
    "sphere": "brush.circle (p5.brush paints in 2D)",
    "plane": "brush.rect (p5.brush paints in 2D)",
    "cylinder": "brush.polygon (p5.brush paints in 2D)",
    "cone": "brush.polygon (p5.brush paints in 2D)",
    "torus": "brush.circle (p5.brush paints in 2D)",
    "ellipsoid": "brush.circle (p5.brush paints in 2D)",
    "model": "brush.polygon (p5.brush paints in 2D)",
    "buildGeometry": "brush.polygon (p5.brush paints in 2D)",
}
#: p5 shape calls refused by `GateConfig.max_bare_primitives` (0 by default).
PRIMITIVES = frozenset(PRIMITIVE_INSTEAD)

#: p5's text drawing, refused by `GateConfig.forbid_text` (a label naming the subject is the
#: cheapest way to please a prompt-matching scorer).
TEXT_CALLS = frozenset({"text"})
#: What the run-time check counts as plain p5 drawing, however it is reached (aliases, a
#: graphics buffer, the renderer): the shapes and the text calls, one list for both checks.
RUNTIME_PRIMITIVES = tuple(sorted(PRIMITIVES | TEXT_CALLS))

#: p5's shader makers beyond the first few: a filter shader paints the whole canvas from GLSL
#: (it earned the maximum reward, 11.0, after one token brush.line). Their names are p5's alone,
#: so they are refused on any object as well (`RAW_GRAPHICS_PROPERTIES`).
SHADER_NAMES = frozenset(
    {
        "createShader",
        "createFilterShader",
        "filterShader",
        "baseMaterialShader",
        "baseFilterShader",
        "baseNormalShader",
        "baseColorShader",
        "baseStrokeShader",
        "baseComputeShader",
        "buildFilterShader",
        "buildMaterialShader",
        "buildNormalShader",
        "buildColorShader",
        "buildStrokeShader",
        "buildComputeShader",
        "strokeShader",
        "imageShader",
    }
)
#: Raw access to the canvas, its pixels or WebGL, refused by `GateConfig.forbid_raw_graphics`:
#: p5 globals (bare, or on ``window``/``this``)...
RAW_GRAPHICS_GLOBALS = frozenset(
    {
        "drawingContext",
        "loadPixels",
        "updatePixels",
        "pixels",
        "get",
        "set",
        "copy",
        "blend",
        "filter",
        "createGraphics",
        "createImage",
        "createFramebuffer",
        "createShader",
        "createFilterShader",
        "shader",
        "filterShader",
        "baseMaterialShader",
        "baseFilterShader",
        *SHADER_NAMES,
        # p5 then draws its grid and axes on the canvas by itself, every frame.
        "debugMode",
    }
)
#: What the run-time check counts of those (`sketch_env.gate.runtime_check`, through the
#: renderer's accounting): the same names, less ``pixels`` (an array, not a call), plus the
#: canvas's own ``getContext``.
RUNTIME_RAW_GRAPHICS = tuple(sorted((RAW_GRAPHICS_GLOBALS - {"pixels"}) | {"getContext"}))
#: ...and member names on any object (``gl.scissor``, ``ctx.drawImage``, ``this._renderer``).
RAW_GRAPHICS_PROPERTIES = frozenset(
    {
        "drawingContext",
        "getContext",
        "_renderer",
        "loadPixels",
        "updatePixels",
        "pixels",
        "drawImage",
        "getImageData",
        "putImageData",
        "createImageData",
        "scissor",
        "clearColor",
        "readPixels",
        "texImage2D",
        "texSubImage2D",
        "drawArrays",
        "drawElements",
        "bufferData",
        "useProgram",
        "createProgram",
        "blitFramebuffer",
        "createGraphics",
        "createImage",
        "createFramebuffer",
        "Graphics",
        "Framebuffer",
        *SHADER_NAMES,
    }
)
RAW_GRAPHICS_WHY = (
    "raw canvas, pixel and WebGL access is not allowed: paint with p5.brush (brush.line, "
    "brush.rect, brush.circle, brush.polygon, brush.spline, brush.flowLine) and p5's "
    "background()"
)

#: Calls and handlers that swallow errors, refused unless `GateConfig.allow_try`: a sketch that
#: paints and then throws must keep its sketch-error penalty (issue 13: the same picture earned
#: -0.5 when it threw and +1.48 inside try/catch).
ERROR_HANDLER_PROPERTIES = frozenset({"onerror", "onunhandledrejection"})
ERROR_EVENTS = frozenset({"error", "unhandledrejection"})
TRY_WHY = (
    "catching errors is not allowed: a sketch that throws is penalised whether or not it "
    "catches; remove the try/catch and fix the code that throws"
)

DATA_URI = re.compile(r"^\s*data:[a-z0-9.+-]+/[a-z0-9.+-]+[;,]", re.IGNORECASE)
