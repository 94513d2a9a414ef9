"""Which code made a call: the facts the harness needs to tell the libraries from the sketch.

The harness attributes every call it counts to the code that made it, read from a V8 stack it
captures with Error machinery it locked before any other script ran (``harness.js``,
"provenance"). Two facts about the vendored libraries come from here, computed from the very
bytes the renderer serves:

* **Which scripts are the libraries.** A stack frame's ``getScriptHash()`` is the SHA-256 of
  its script's source (measured: the frames of ``p5.min.js`` report the ``sha256sum`` of the
  file). A sketch cannot write a script with p5.brush's hash, and unlike a file name it cannot
  rename its own code to one (``//# sourceURL=`` changes the name a stack *prints*, measured,
  not the hash).
* **Where the libraries call what.** A library frame reports the line and column of the call it
  is making (measured: ``o.f()`` reports the column of ``f``). A library's own use of p5 (its
  composite pass calling ``rect``) happens at a place in its source that spells the name it
  calls. A function the sketch handed to the library is called somewhere else: a field
  generator at ``t.gen(...)``, a custom tip at ``e.tip(n)``, a ``valueOf`` in the middle of an
  arithmetic expression. So a call from library code counts as the library's own only at a
  position whose source spells the called function's name; anywhere else it is the sketch's
  (a bound ``rect`` given to ``brush.addField`` is the sketch painting with ``rect``).
"""

from __future__ import annotations

import bisect
import hashlib
import re
from collections.abc import Iterable
from functools import cache
from typing import Any

from sketch_env.render.libraries import LIBRARIES, served_library

__all__ = ["LIBRARIES", "call_sites", "harness_provenance", "script_hash"]

#: V8's line terminators (ECMAScript's): lines and columns are counted the way V8 counts them.
_LINE_BREAK = re.compile(r"\r\n|[\n\r\u2028\u2029]")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def script_hash(source: bytes) -> str:
    """What V8's ``CallSite.getScriptHash()`` reports for a script: the SHA-256 of its source.

    Args:
        source: The script as served (UTF-8).

    Returns:
        The lower-case hex digest.
    """
    return hashlib.sha256(source).hexdigest()


def call_sites(source: str, names: Iterable[str]) -> dict[str, list[tuple[int, int]]]:
    """Every place in ``source`` that spells one of ``names`` as an identifier or a property.

    Positions are V8's: 1-based lines split at ECMAScript line terminators, 1-based columns in
    UTF-16 code units (``p5.min.js`` holds characters outside the BMP, which count twice).

    Args:
        source: A library's source text.
        names: The function and getter names to look for.

    Returns:
        Name -> ``(line, column)`` of each occurrence, for the names that occur.
    """
    wanted = sorted(set(names), key=len, reverse=True)
    if not wanted:
        return {}
    spelled = re.compile(r"(?<![\w$])(?:" + "|".join(map(re.escape, wanted)) + r")(?![\w$])")
    starts = [0] + [m.end() for m in _LINE_BREAK.finditer(source)]
    # Characters outside the BMP are two UTF-16 units: a column is the offset into its line
    # plus the number of such characters before it on that line.
    astral = [m.start() for m in _ASTRAL.finditer(source)]
    found: dict[str, list[tuple[int, int]]] = {}
    for match in spelled.finditer(source):
        name = match.group()
        offset = match.start()
        line = bisect.bisect_right(starts, offset) - 1
        start = starts[line]
        wide = bisect.bisect_left(astral, offset) - bisect.bisect_left(astral, start)
        found.setdefault(name, []).append((line + 1, offset - start + wide + 1))
    return found


@cache
def _library(short: str, names: frozenset[str]) -> tuple[str, dict[str, list[tuple[int, int]]]]:
    # The bytes as served (p5.brush's calls are routed, `sketch_env.render.libraries`): what V8
    # hashes and where its frames point.
    raw = served_library(short)
    return script_hash(raw), call_sites(raw.decode("utf-8"), names)


def harness_provenance(names: Iterable[str]) -> dict[str, Any]:
    """The library facts the harness reads from its configuration.

    Args:
        names: Every name the harness attributes calls of (`api_calls.attributed_names`).

    Returns:
        ``{"hashes": {short: sha256}, "sites": [[short, name, line, column], ...]}``.
    """
    wanted = frozenset(names)
    hashes: dict[str, str] = {}
    sites: list[list[Any]] = []
    for short in LIBRARIES:
        digest, found = _library(short, wanted)
        hashes[short] = digest
        for name in sorted(found):
            sites.extend([short, name, line, column] for line, column in found[name])
    return {"hashes": hashes, "sites": sites}
