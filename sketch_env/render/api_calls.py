"""Which drawing APIs a sketch called, measured at run time (the names and their categories).

A static check of the source is defeated by aliasing (``const e = ellipse; e(...)``,
``window.ellipse``, ``g.text()`` on a ``createGraphics`` buffer). The harness therefore wraps
these functions before the sketch's first line runs (see ``harness.js``, "runtime
accounting") and reports how often the *sketch's code* called each one, wherever that code
runs (inside a p5.brush call too): each call is attributed to the code that made it, from its
stack (`sketch_env.render.provenance`), so p5's and p5.brush's own use of p5 is not counted and
a function the sketch hands a library to call is. What the policy may not draw with (the
primitives, the raw graphics, the brush drawing calls) comes from the policy vocabulary
(`sketch_env.catalog.vocabulary`), the lists the static gate and the instructions use; how it
is measured (context methods, p5.brush's own names) is listed here. Python hands every table to
the harness, and a name the harness reports that is not in them is a forged result
(`sketch_env.render.readback`).

Counts are keyed by name: ``brush.line`` for a p5.brush drawing call, ``brush.Polygon.fill``
for a drawing method of a p5.brush object, ``ellipse`` for a plain p5 primitive (whether it
was reached as ``ellipse``, ``window.ellipse``, ``p5.prototype.ellipse``, a graphics buffer's
``g.ellipse`` or the renderer's ``_renderer.ellipse``), ``drawingContext``/``getContext``/
``loadPixels``/``createFilterShader``… for raw graphics, ``webgl.clear``/``2d.fillText``… for a
context's own methods, and ``brush:paint`` for the draws p5.brush itself made onto the canvas.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sketch_env.catalog.vocabulary import (
    BRUSH_DRAWING_CALLS,
    RUNTIME_PRIMITIVES,
    RUNTIME_RAW_GRAPHICS,
)

__all__ = [
    "BITMAP_PAINT",
    "BRUSH_DRAW",
    "BRUSH_OBJECT_DRAW",
    "BRUSH_PAINT",
    "CONTEXT_2D_PAINT",
    "PRIMITIVES",
    "RAW_GRAPHICS",
    "WEBGL_DRAWS",
    "WEBGL_EXTENSION_DRAWS",
    "WEBGL_PAINT",
    "attributed_names",
    "brush_draw_calls",
    "brush_paint",
    "harness_table",
    "known_names",
    "library_routed_names",
    "primitive_calls",
    "raw_graphics_calls",
]

#: p5.brush functions that put paint down: the gate's list, so that what the gate and the
#: instructions call a drawing call is what the renderer counts as one.
BRUSH_DRAW = tuple(sorted(BRUSH_DRAWING_CALLS))
#: Drawing methods of the objects p5.brush hands out (``brush.Polygon``, ``brush.Plot``): every
#: method the vendored build puts on their prototypes, and ``draw``/``show``. ``mass`` was missing
#: until 2026-12-05: the paint of ``poly.mass()`` (a quarter of the canvas in the test) counted
#: no drawing call, so a sketch whose only paint that ran was such a call was refused by the
#: runtime gate as unpainted.
BRUSH_OBJECT_DRAW = ("draw", "fill", "hatch", "mass", "wash", "show")
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

#: Plain p5 drawing functions (2D and 3D shapes, text, images, vertex shapes): the policy
#: vocabulary's list, the same the static gate refuses.
PRIMITIVES = RUNTIME_PRIMITIVES

#: Raw graphics: the canvas's own context, pixel access, offscreen buffers, filters and shaders
#: (a filter shader paints the whole canvas from GLSL: it scored the maximum, 11.0, with one
#: token brush.line): the policy vocabulary's list, the same the static gate refuses.
RAW_GRAPHICS = RUNTIME_RAW_GRAPHICS
#: Raw-graphics names the harness counts on p5's prototypes (the other two are a getter and
#: the canvas prototypes' ``getContext``).
_RAW_CALLS = tuple(n for n in RAW_GRAPHICS if n not in ("drawingContext", "getContext"))

#: p5 functions the sketch may call that do graphics work of their own (a new canvas gets a
#: context, ``background`` clears the canvas): not counted, and the WebGL and 2D calls p5 makes
#: inside them are theirs. A p5 *drawing* function called inside one (``background(img)`` draws
#: the image with ``image``) still counts as the sketch's.
_NEUTRAL = ("resizeCanvas", "pixelDensity", "background", "clear")
#: p5 functions p5.brush replaced with its own (it flushes buffered strokes in them).
_LIBRARY_METHODS = ("push", "pop")

#: Methods of a WebGL context (1 and 2) that change pixels, or where they land (``scissor``):
#: reached through a raw context (``drawingContext``, ``_renderer.GL``, ``getContext``) a
#: sketch could clear and draw on the canvas unseen. Counted as ``webgl.<name>`` when the
#: sketch calls them; p5's and p5.brush's own calls are theirs.
WEBGL_PAINT = (
    "clear",
    "clearBufferfv",
    "clearBufferiv",
    "clearBufferuiv",
    "clearBufferfi",
    "drawArrays",
    "drawElements",
    "drawArraysInstanced",
    "drawElementsInstanced",
    "drawRangeElements",
    "blitFramebuffer",
    "copyTexImage2D",
    "copyTexSubImage2D",
    "copyTexSubImage3D",
    "texImage2D",
    "texSubImage2D",
    "texImage3D",
    "texSubImage3D",
    "compressedTexImage2D",
    "compressedTexSubImage2D",
    "compressedTexImage3D",
    "compressedTexSubImage3D",
    "scissor",
)
#: The draw calls among them: a draw p5.brush makes onto the sketch's canvas is its paint.
WEBGL_DRAWS = (
    "drawArrays",
    "drawElements",
    "drawArraysInstanced",
    "drawElementsInstanced",
    "drawRangeElements",
)
#: Draw calls of the WebGL extensions that have them (``gl.getExtension(...)``), counted as
#: ``webgl.<name>`` like the context's own.
WEBGL_EXTENSION_DRAWS = (
    "drawArraysInstancedANGLE",
    "drawElementsInstancedANGLE",
    "multiDrawArraysWEBGL",
    "multiDrawElementsWEBGL",
    "multiDrawArraysInstancedWEBGL",
    "multiDrawElementsInstancedWEBGL",
    "drawArraysInstancedBaseInstanceWEBGL",
    "drawElementsInstancedBaseVertexBaseInstanceWEBGL",
    "multiDrawArraysInstancedBaseInstanceWEBGL",
    "multiDrawElementsInstancedBaseVertexBaseInstanceWEBGL",
)
#: Methods of a 2D context (a canvas's or an OffscreenCanvas's) that paint: canvas text
#: (``fillText``) and pictures (``drawImage``, ``putImageData``) among them. Counted as
#: ``2d.<name>``; the bitmap renderer's one painting method as ``bitmap.<name>``.
CONTEXT_2D_PAINT = (
    "fillRect",
    "strokeRect",
    "clearRect",
    "fill",
    "stroke",
    "fillText",
    "strokeText",
    "drawImage",
    "putImageData",
    "drawFocusIfNeeded",
    "reset",
)
BITMAP_PAINT = ("transferFromImageBitmap",)
_CONTEXT_RAW = tuple(
    [f"webgl.{n}" for n in (*WEBGL_PAINT, *WEBGL_EXTENSION_DRAWS)]
    + [f"2d.{n}" for n in CONTEXT_2D_PAINT]
    + [f"bitmap.{n}" for n in BITMAP_PAINT]
)
#: Draws p5.brush itself made onto the sketch's canvas (its compositing passes): the measure of
#: "p5.brush painted". A zero-length stroke is a drawing call that paints nothing, and makes
#: none (measured: ``brush.line(0, 0, 0, 0)`` gives 0, one short line gives 1 or more).
BRUSH_PAINT = "brush:paint"


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
        "webglPaint": list(WEBGL_PAINT),
        "webglDraws": list(WEBGL_DRAWS),
        "webglExtensionDraws": list(WEBGL_EXTENSION_DRAWS),
        "context2dPaint": list(CONTEXT_2D_PAINT),
        "bitmapPaint": list(BITMAP_PAINT),
        "brushPaint": BRUSH_PAINT,
        "known": sorted(known_names() - {BRUSH_PAINT}),
    }


def attributed_names() -> frozenset[str]:
    """Every function or getter name whose calls the harness attributes to the code making them:
    the names whose library call sites `sketch_env.render.provenance` looks up."""
    names = {*BRUSH_DRAW, *BRUSH_OBJECT_DRAW, *_BRUSH_OTHER, *PRIMITIVES, *RAW_GRAPHICS}
    names |= {*_NEUTRAL, *_LIBRARY_METHODS, "createCanvas", "setAttributes"}
    names |= {*WEBGL_PAINT, *WEBGL_EXTENSION_DRAWS, *CONTEXT_2D_PAINT, *BITMAP_PAINT}
    return frozenset(names)


def library_routed_names() -> frozenset[str]:
    """The function names the harness wraps with a call wrapper (p5's drawing functions, raw
    graphics calls, p5.brush's drawing calls and objects, context methods): the calls the
    served p5.brush routes through the harness's helper (`sketch_env.render.libraries`)."""
    names = {*PRIMITIVES, *_RAW_CALLS, *_NEUTRAL, *BRUSH_DRAW, *BRUSH_OBJECT_DRAW}
    names |= {*WEBGL_PAINT, *WEBGL_EXTENSION_DRAWS, *CONTEXT_2D_PAINT, *BITMAP_PAINT}
    return frozenset(names)


def _brush_names() -> frozenset[str]:
    names = {f"brush.{n}" for n in BRUSH_DRAW}
    names |= {f"brush.{c}.{m}" for c in _BRUSH_CLASSES for m in BRUSH_OBJECT_DRAW}
    return frozenset(names)


_BRUSH_NAMES = _brush_names()
_PRIMITIVE_NAMES = frozenset(PRIMITIVES)
_RAW_NAMES = frozenset(RAW_GRAPHICS) | frozenset(_CONTEXT_RAW)


def known_names() -> frozenset[str]:
    """Every name the harness can report a count for."""
    return _BRUSH_NAMES | _PRIMITIVE_NAMES | _RAW_NAMES | {BRUSH_PAINT}


def brush_draw_calls(calls: Mapping[str, int]) -> int:
    """Drawing calls the sketch made to p5.brush (setters excluded)."""
    return sum(n for name, n in calls.items() if name in _BRUSH_NAMES)


def primitive_calls(calls: Mapping[str, int]) -> dict[str, int]:
    """The plain p5 drawing functions the sketch called, with their counts."""
    return {name: n for name, n in sorted(calls.items()) if name in _PRIMITIVE_NAMES}


def brush_paint(calls: Mapping[str, int]) -> int:
    """Draws p5.brush made onto the sketch's canvas (0: no brush mark reached it)."""
    return int(calls.get(BRUSH_PAINT, 0))


def raw_graphics_calls(calls: Mapping[str, int]) -> dict[str, int]:
    """The raw graphics the sketch used (context, pixels, buffers), with their counts."""
    return {name: n for name, n in sorted(calls.items()) if name in _RAW_NAMES}
