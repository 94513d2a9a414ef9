"""The names p5.js's global mode puts on ``window``, read from the vendored ``p5.js`` itself."""

from __future__ import annotations

import re
from functools import cache

# p5 2.x defines its API as ``fn.NAME = ...`` (``fn`` is ``p5.prototype``), a few getters with
# ``Object.defineProperty(fn, 'NAME', ...)``, the text functions from one array literal, and
# the constants from one frozen object; global mode binds every one of them onto ``window``.
_FN_ASSIGN = re.compile(rb"\bfn\.([A-Za-z$][\w$]*)\s*=(?!=)")
_FN_PROPERTY = re.compile(rb"defineProperty\(\s*fn\s*,\s*['\"]([A-Za-z$][\w$]*)['\"]")
_TEXT_FUNCTIONS = re.compile(rb"const textFunctions = \[([^\]]*)\]")
_CONSTANTS = re.compile(rb"var constants = /\*#__PURE__\*/Object\.freeze\(\{(.*?)\n  \}\);", re.S)
_CONSTANT_KEY = re.compile(rb"^\s*([A-Za-z_$][\w$]*)\s*:", re.M)
_QUOTED = re.compile(rb"['\"]([A-Za-z$][\w$]*)['\"]")


@cache
def p5_global_names() -> frozenset[str]:
    """The functions, properties and constants p5's global mode defines on ``window``.

    A top-level ``function map() {}`` or ``var hex`` in a sketch makes a non-configurable
    property of ``window``, and p5 then fails at start-up with "Cannot redefine property:
    map"; the gate names the clash before the render does. The names are read from the
    vendored ``p5.js`` so they follow its version.

    Returns:
        The names, e.g. ``map``, ``hex``, ``random``, ``text``, ``PI``.

    Raises:
        FileNotFoundError: If the vendored p5.js cannot be found.
        RuntimeError: If the file does not have the expected shape.
    """
    from sketch_env.catalog.assets import vendor_path

    data = vendor_path("p5/p5.js").read_bytes()
    names = set(_FN_ASSIGN.findall(data)) | set(_FN_PROPERTY.findall(data))
    text = _TEXT_FUNCTIONS.search(data)
    constants = _CONSTANTS.search(data)
    if len(names) < 100 or text is None or constants is None:
        raise RuntimeError("the vendored p5.js does not have the expected shape; has it changed?")
    names |= set(_QUOTED.findall(text.group(1)))
    names |= set(_CONSTANT_KEY.findall(constants.group(1)))
    return frozenset(n.decode() for n in names if not n.startswith(b"_"))
