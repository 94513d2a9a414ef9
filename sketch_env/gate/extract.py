"""Taking the sketch out of a model's reply: fenced blocks, inline scripts, bare code."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sketch_env.gate.syntax import node_text, parse
from sketch_env.gate.verdict import DEFAULT_MAX_REPLY_BYTES, Extraction, GateIssue

#: Fence info-string tags taken as JavaScript; ``""`` is an untagged fence.
JS_FENCE_TAGS = frozenset({"", "js", "javascript", "p5", "p5js", "p5.js", "jsx"})
_HTML_FENCE_TAGS = frozenset({"html", "htm", "xhtml"})
_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc\s*=)[^>]*>(.*?)</script\s*>", re.I | re.S)


@dataclass(slots=True)
class _Block:
    tag: str
    text: str
    closed: bool


def _fenced_blocks(text: str) -> list[_Block]:
    """Splits out fenced code blocks, CommonMark style (``` or ~~~, closed by a longer-or-equal
    run of the same character); an unterminated fence runs to the end of the reply."""
    blocks: list[_Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        match = _FENCE_OPEN.match(lines[i])
        if match is None or (match.group(1)[0] == "`" and "`" in match.group(2)):
            i += 1
            continue
        fence, info = match.group(1), match.group(2).strip()
        tag = info.split()[0].lower() if info else ""
        body: list[str] = []
        i += 1
        closed = False
        while i < len(lines):
            stripped = lines[i].strip()
            if (
                stripped
                and set(stripped) == {fence[0]}
                and len(stripped) >= len(fence)
                and len(lines[i]) - len(lines[i].lstrip(" ")) <= 3
            ):
                closed = True
                i += 1
                break
            body.append(lines[i])
            i += 1
        blocks.append(_Block(tag=tag, text="\n".join(body), closed=closed))
    return blocks


def _decode(reply: str | bytes | bytearray | memoryview | None, max_bytes: int) -> str | GateIssue:
    if reply is None:
        return GateIssue(
            "empty_reply", "the reply is empty: write a p5.brush sketch in a ```js block"
        )
    if isinstance(reply, str):
        # Characters never outnumber UTF-8 bytes, so this refuses a huge string unencoded.
        size = len(reply) if len(reply) > max_bytes else len(reply.encode("utf-8", "surrogatepass"))
        raw = None
    elif isinstance(reply, bytes | bytearray | memoryview):
        raw = bytes(reply)
        size = len(raw)
    else:
        raise TypeError(f"a reply must be str or bytes, got {type(reply).__name__}")
    if size > max_bytes:
        return GateIssue(
            "reply_too_large",
            f"the reply is {size:,} bytes, over the {max_bytes:,}-byte limit: "
            "write one sketch of ordinary size",
        )
    if raw is not None:
        try:
            reply = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            return GateIssue(
                "not_utf8",
                f"the reply is not valid UTF-8 (byte 0x{raw[err.start]:02x} at offset {err.start})",
            )
    assert isinstance(reply, str)
    try:
        reply.encode("utf-8")
    except UnicodeEncodeError as err:
        return GateIssue(
            "not_utf8",
            f"the reply holds a character that is not valid Unicode text at offset {err.start}",
        )
    return reply.removeprefix("\ufeff")


def extract_sketch(
    reply: str | bytes | bytearray | memoryview | None,
    *,
    max_bytes: int = DEFAULT_MAX_REPLY_BYTES,
) -> Extraction:
    """Takes the sketch out of a model reply. Never raises on bad content.

    Candidates are fenced blocks tagged ``js``, ``javascript``, ``p5``, ``p5js``, ``jsx`` or
    untagged, plus the inline ``<script>`` bodies of ``html`` blocks. Among several, the largest
    one that defines ``setup`` wins, else the largest. With no fence at all the whole reply is
    the candidate (`gate_reply` then reports "no code" if it does not parse).

    Args:
        reply: The model's reply, as text or bytes.
        max_bytes: Size limit in UTF-8 bytes.

    Returns:
        An `Extraction`; ``source`` is ``None`` and ``error`` set when there is no sketch
        (empty reply, too large, not UTF-8, only non-JavaScript code blocks, empty block).

    Raises:
        TypeError: If ``reply`` is not text, bytes or ``None`` (a programming error).

    Examples:
        >>> extract_sketch("Here:\\n```js\\nfunction setup() {}\\n```").source
        'function setup() {}'
    """
    text = _decode(reply, max_bytes)
    if isinstance(text, GateIssue):
        return Extraction(source=None, error=text)
    if not text.strip():
        return Extraction(
            source=None,
            error=GateIssue(
                "empty_reply", "the reply is empty: write a p5.brush sketch in a ```js block"
            ),
        )

    blocks = _fenced_blocks(text)
    if not blocks:
        return Extraction(source=text, notes=("no code fence: the whole reply was taken as code",))

    notes: list[str] = []
    candidates: list[_Block] = []
    for block in blocks:
        if block.tag in JS_FENCE_TAGS:
            candidates.append(block)
        elif block.tag in _HTML_FENCE_TAGS:
            scripts = [s for s in _SCRIPT.findall(block.text) if s.strip()]
            if scripts:
                candidates.append(_Block(tag="html", text="\n".join(scripts), closed=block.closed))
                notes.append("took the inline <script> of an html block")
    if not candidates:
        tags = sorted({b.tag for b in blocks})
        return Extraction(
            source=None,
            fenced=True,
            error=GateIssue(
                "no_code",
                f"the reply has {len(blocks)} code block(s) but none is JavaScript "
                f"(tagged {', '.join(tags)}): put the sketch in a ```js block",
            ),
        )

    with_setup = [i for i, b in enumerate(candidates) if defines_setup(b.text)]
    pool = with_setup or list(range(len(candidates)))
    # Largest wins; on a tie the later block, since a corrected version usually comes last.
    chosen = max(pool, key=lambda i: (len(candidates[i].text.strip()), i))
    block = candidates[chosen]
    if len(candidates) > 1:
        why = "defines setup" if with_setup else "largest"
        notes.append(f"{len(candidates)} code blocks; used block {chosen + 1} ({why})")
    if not block.closed:
        notes.append("the code block is not closed: the reply may have been cut off")
    if not block.text.strip():
        return Extraction(
            source=None,
            fenced=True,
            blocks=len(candidates),
            chosen=chosen,
            notes=tuple(notes),
            error=GateIssue("no_code", "the code block is empty: write the sketch inside it"),
        )
    return Extraction(
        source=block.text,
        fenced=True,
        blocks=len(candidates),
        chosen=chosen,
        notes=tuple(notes),
    )


def defines_setup(source: str) -> bool:
    """Whether a block defines ``setup`` in any form (parsed, so comments do not count)."""
    try:
        data = source.encode("utf-8")
    except UnicodeEncodeError:
        return False
    if b"setup" not in data:
        return False
    stack = [parse(data).root_node]
    while stack:
        node = stack.pop()
        if node.type in ("function_declaration", "variable_declarator", "assignment_expression"):
            target = node.child_by_field_name("name") or node.child_by_field_name("left")
            if target is not None and node_text(target).rsplit(".", 1)[-1] == "setup":
                return True
        stack.extend(node.named_children)
    return False
