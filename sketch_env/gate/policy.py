"""What the gate allows and refuses, as data: forbidden names, p5.brush renames, shape
calls, and the words that explain each refusal to the policy."""

from __future__ import annotations

import re
from collections.abc import Mapping

#: p5.brush 1.x names, and what to write in 2.x instead (DESIGN.md §3, p5.brush facts).
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

#: Forbidden names, by issue code. Bare global uses and ``window.NAME`` uses are caught.
ESCAPE_NAMES: Mapping[str, frozenset[str]] = {
    "network": frozenset(
        {
            "fetch",
            "XMLHttpRequest",
            "WebSocket",
            "EventSource",
            "RTCPeerConnection",
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
        }
    ),
    "dynamic_code": frozenset({"eval", "Function"}),
    "storage": frozenset({"localStorage", "sessionStorage", "indexedDB"}),
}
#: Properties forbidden on any object: nothing in a painting sketch needs them.
ANY_OBJECT_PROPERTIES: Mapping[str, str] = {
    "innerHTML": "dom_escape",
    "outerHTML": "dom_escape",
    "insertAdjacentHTML": "dom_escape",
    "srcdoc": "dom_escape",
    "sendBeacon": "network",
    "serviceWorker": "network",
}
#: p5 asset loaders are p5-specific names, so they are refused on any object (``this.loadImage``).
ANY_OBJECT_CODES = frozenset({"asset_load"})
#: Assigning these on ``location`` navigates away from the page.
NAVIGATING_PROPERTIES = frozenset(
    {"href", "hash", "pathname", "search", "host", "hostname", "port", "protocol"}
)
#: Elements that load or run something when created from a sketch (``createElement("script")``).
LOADING_ELEMENTS = frozenset(
    {
        "script",
        "iframe",
        "frame",
        "img",
        "object",
        "embed",
        "link",
        "meta",
        "base",
        "video",
        "audio",
        "source",
    }
)
#: Identifiers that name the global object.
GLOBAL_OBJECTS = frozenset({"window", "globalThis", "self", "top", "parent", "frames"})

WHY = {
    "network": "network access is not allowed: the sketch runs offline",
    "asset_load": "loading images, fonts, media or files is not allowed: paint everything "
    "with p5.brush",
    "data_uri": "embedded data: URIs are not allowed: paint everything with p5.brush",
    "dynamic_code": "running code built from strings is not allowed",
    "dom_escape": "changing the page outside the canvas is not allowed",
    "storage": "browser storage is not allowed",
}

#: Bare p5 shape calls counted by the optional primitive limit.
PRIMITIVES = frozenset(
    {
        "point",
        "line",
        "rect",
        "square",
        "ellipse",
        "circle",
        "arc",
        "triangle",
        "quad",
        "bezier",
        "curve",
        "beginShape",
        "box",
        "sphere",
        "plane",
        "cylinder",
        "cone",
        "torus",
        "ellipsoid",
    }
)

DATA_URI = re.compile(r"^\s*data:[a-z0-9.+-]+/[a-z0-9.+-]+[;,]", re.IGNORECASE)
