"""Which drawing APIs a sketch called, measured at run time (the names and their categories).

A static check of the source is defeated by aliasing (``const e = ellipse; e(...)``,
``window.ellipse``, ``g.text()`` on a ``createGraphics`` buffer). The harness therefore wraps
these functions before the sketch's first line runs (see ``harness.js``, "runtime
accounting") and reports how often the *sketch* called each one; p5's calls inside another p5
function and p5.brush's own use of p5 are not the sketch's and are not counted. The tables
below are the single list: Python hands them to the harness, and a name the harness reports
that is not in them is a forged result (`sketch_env.render.readback`).

Counts are keyed by name: ``brush.line`` for a p5.brush drawing call, ``brush.Polygon.fill``
for a drawing method of a p5.brush object, ``ellipse`` for a plain p5 primitive (whether it
was reached as ``ellipse``, ``window.ellipse``, ``p5.prototype.ellipse``, a graphics buffer's
``g.ellipse`` or the renderer's ``_renderer.ellipse``), and ``drawingContext``/``getContext``/
``loadPixels``… for raw graphics.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sketch_env.catalog.vocabulary import BRUSH_DRAWING_CALLS

__all__ = [
    "BRUSH_DRAW",
    "BRUSH_OBJECT_DRAW",
    "PRIMITIVES",
    "RAW_GRAPHICS",
    "brush_draw_calls",
    "harness_table",
    "known_names",
    "primitive_calls",
    "raw_graphics_calls",
]

#: p5.brush functions that put paint down: the gate's list, so that what the gate and the
#: instructions call a drawing call is what the renderer counts as one.
BRUSH_DRAW = tuple(sorted(BRUSH_DRAWING_CALLS))
#: Drawing methods of the objects p5.brush hands out (``brush.Polygon``, ``brush.Plot``).
BRUSH_OBJECT_DRAW = ("draw", "fill", "hatch", "wash", "show")
_BRUSH_CLASSES = ("Plot", "Polygon")
#: The rest of p5.brush's functions: library code (p5 calls inside them are p5.brush's), not
#: counted.
_BRUSH_OTHER = (
    "set",
    "stroke",
    "strokeWeight",
    "noStroke",
    "fill",
    "noFill",
    "fillBleed",
    "fillTexture",
    "hatch",
    "noHatch",
    "hatchStyle",
    "wash",
    "noWash",
    "mass",
    "noMass",
    "beginShape",
    "vertex",
    "beginStroke",
    "move",
    "field",
    "noField",
    "addField",
    "refreshField",
    "listFields",
    "wiggle",
    "pick",
    "box",
    "add",
    "clip",
    "noClip",
    "scaleBrushes",
    "seed",
    "noiseSeed",
    "instance",
    "load",
    "wRand",
)

#: Plain p5 drawing functions (2D and 3D shapes, text, images, vertex shapes).
PRIMITIVES = (
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
    "spline",
    "beginShape",
    "vertex",
    "endShape",
    "bezierVertex",
    "curveVertex",
    "quadraticVertex",
    "splineVertex",
    "beginContour",
    "endContour",
    "text",
    "image",
    "plane",
    "box",
    "sphere",
    "cylinder",
    "cone",
    "ellipsoid",
    "torus",
    "model",
)

#: Raw graphics: the canvas's own context, pixel access and offscreen buffers.
RAW_GRAPHICS = (
    "drawingContext",
    "getContext",
    "loadPixels",
    "updatePixels",
    "set",
    "copy",
    "blend",
    "createGraphics",
    "createImage",
)
#: Raw-graphics names the harness counts on p5's prototypes (the other two are a getter and
#: the canvas prototypes' ``getContext``).
_RAW_CALLS = tuple(n for n in RAW_GRAPHICS if n not in ("drawingContext", "getContext"))

#: What p5.brush itself uses from p5 while it paints (measured on the reference pool): its
#: composite pass draws with p5's ``rect`` and ``image``, reads ``drawingContext``, makes
#: 2D surfaces with ``getContext`` and brush tips with ``createGraphics``/``createImage``.
#: Inside a p5.brush call only these are taken for p5.brush's own; anything else the sketch
#: manages to run there (say, from a ``valueOf`` of an argument) still counts.
_BRUSH_INTERNAL = ("rect", "image", "drawingContext", "getContext", "createGraphics", "createImage")

#: p5 functions that call other wrapped functions for their own purposes (a new canvas gets a
#: context, ``filter`` draws the canvas through a shader): not counted, and nothing inside them
#: counts either.
_NEUTRAL = ("resizeCanvas", "createFramebuffer", "filter", "pixelDensity", "background", "clear")
#: p5 functions p5.brush replaced with its own (it flushes buffered strokes in them).
_LIBRARY_METHODS = ("push", "pop")


def harness_table() -> dict[str, Any]:
    """The names the harness wraps, as the JSON object it reads from its configuration."""
    return {
        "brushDraw": list(BRUSH_DRAW),
        "brushObjectDraw": list(BRUSH_OBJECT_DRAW),
        "brushOther": list(_BRUSH_OTHER),
        "primitives": list(PRIMITIVES),
        "rawCalls": list(_RAW_CALLS),
        "neutral": list(_NEUTRAL),
        "libraryMethods": list(_LIBRARY_METHODS),
        "brushInternal": list(_BRUSH_INTERNAL),
    }


def _brush_names() -> frozenset[str]:
    names = {f"brush.{n}" for n in BRUSH_DRAW}
    names |= {f"brush.{c}.{m}" for c in _BRUSH_CLASSES for m in BRUSH_OBJECT_DRAW}
    return frozenset(names)


_BRUSH_NAMES = _brush_names()
_PRIMITIVE_NAMES = frozenset(PRIMITIVES)
_RAW_NAMES = frozenset(RAW_GRAPHICS)


def known_names() -> frozenset[str]:
    """Every name the harness can report a count for."""
    return _BRUSH_NAMES | _PRIMITIVE_NAMES | _RAW_NAMES


def brush_draw_calls(calls: Mapping[str, int]) -> int:
    """Drawing calls the sketch made to p5.brush (setters excluded)."""
    return sum(n for name, n in calls.items() if name in _BRUSH_NAMES)


def primitive_calls(calls: Mapping[str, int]) -> dict[str, int]:
    """The plain p5 drawing functions the sketch called, with their counts."""
    return {name: n for name, n in sorted(calls.items()) if name in _PRIMITIVE_NAMES}


def raw_graphics_calls(calls: Mapping[str, int]) -> dict[str, int]:
    """The raw graphics the sketch used (context, pixels, buffers), with their counts."""
    return {name: n for name, n in sorted(calls.items()) if name in _RAW_NAMES}
