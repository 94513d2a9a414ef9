"""Reading a judge's reply: a 1-10 mark (pointwise) or a winner (pairwise).

Models do not always answer in the format asked for, and a misread answer is worse than none: a
wrong number becomes a reward the policy learns from. So the rules accept the common honest
variants and refuse anything ambiguous, raising `UnreadableReplyError` (the scorer then asks
again, and after its bounded retries reports the picture as unscored, never as 0).

Mark rules, in order (the first rule that finds anything decides):

1. Reasoning in ``<think>...</think>`` is dropped (Qwen3-style thinking models); so is
   everything before a lone ``</think>``.
2. **JSON**: top-level JSON objects anywhere in the reply (a fenced code block is fine) with a
   ``score``/``overall``/``overall_score``/``final_score``/``mark``/``rating`` key. The value
   may be a number or a string such as ``"7"``, ``"7/10"`` or ``"seven"``.
3. **Labelled text**: ``Score: 7``, ``overall rating is 8/10``, ``Mark = 6.5``, ``7/10``,
   ``7 out of 10``, ``I give it a 7``.
4. **Bare**: a reply that is only a number (``"7"``, ``"**7**"``, ``"7/10"``).

Within a rule: a number word (``one`` .. ``ten``) counts as its number; a range such as
``7-8`` or ``7 to 8`` counts as its midpoint; several *different* marks are refused as
ambiguous unless exactly one of them is labelled ``final`` or ``overall`` (``Subject: 8,
Medium: 6, Overall score: 7`` reads 7); the same mark repeated is fine. A mark outside
``[1, 10]`` is refused, never clamped (a judge answering 0 or 11 did not follow the rubric).
Unlabelled numbers in prose (``three flowers, good colours``) are never read as a mark.

Verdict rules mirror them: a JSON ``winner``/``better``/``choice``/``preferred``/``answer``
key, then ``Winner: A`` / ``Painting B is better`` text, then a bare ``A``/``B``/``tie``.
``first``/``second``/``1``/``2`` name A/B; ``tie``/``equal``/``draw``/``both``/``neither``
are a tie. Both A and B named as winners is refused.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from sketch_env.errors import SketchEnvError

__all__ = ["UnreadableReplyError", "Verdict", "parse_mark", "parse_verdict", "strip_thinking"]

#: A pairwise verdict: the first painting shown (A), the second (B), or a tie.
Verdict = Literal["A", "B", "tie"]

MARK_MIN = 1.0
MARK_MAX = 10.0

_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
_NUM = r"(?:\d+(?:\.\d+)?|" + "|".join(_WORDS) + r")"
_RANGE = rf"(?P<a>{_NUM})(?:\s*(?:-|–|—|to)\s*(?P<b>{_NUM}))?"
_OUT_OF = r"\s*(?:/|out\s+of)\s*10(?:\.0+)?\b"

_MARK_KEYS = ("score", "overall", "overall_score", "final_score", "mark", "rating")
_VERDICT_KEYS = ("winner", "better", "choice", "preferred", "answer", "verdict")

# "final score: 7", "Overall rating is 8/10", "mark = 6.5", "score of 7 out of 10".
_LABELLED = re.compile(
    rf"(?P<final>\b(?:final|overall)\s+)?\b(?:score|mark|rating|grade)s?\b"
    # An optional parenthetical such as "(1-10)" between the label and the mark.
    rf"(?:\s*\([^)]{{0,20}}\))?\s*\**\s*(?:is|of|:|=)?\s*\**\s*{_RANGE}\b(?:{_OUT_OF})?",
    re.IGNORECASE,
)
# "7/10", "7 out of 10", "7-8/10" anywhere.
_FRACTION = re.compile(rf"(?<![\w.]){_RANGE}{_OUT_OF}", re.IGNORECASE)
# "I give it a 7", "I'd rate this painting 6".
_GIVE = re.compile(
    rf"\b(?:give|rate|award)\s+(?:it|this(?:\s+(?:painting|picture|one))?)\s+(?:an?\s+)?"
    rf"{_RANGE}\b",
    re.IGNORECASE,
)
_BARE = re.compile(rf"^{_RANGE}(?:{_OUT_OF})?$", re.IGNORECASE)

_A_NAMES = {"a", "painting a", "image a", "first", "the first", "1", "left"}
_B_NAMES = {"b", "painting b", "image b", "second", "the second", "2", "right"}
_TIE_NAMES = {"tie", "equal", "draw", "both", "neither", "same", "a tie"}
# A lone letter must be a capital: "the winner is a painting with..." names no winner.
_SIDE = r"(?:painting\s+|image\s+)?(?P<side>(?-i:A|B)|tie|first|second)"
_VERDICT_LABELLED = re.compile(
    rf"\b(?:winner|better(?:\s+(?:one|painting))?|answer|choice|verdict|preferred)\b\s*\**\s*"
    rf"(?:is|:|=)?\s*\**\s*(?:the\s+)?{_SIDE}\b",
    re.IGNORECASE,
)
_VERDICT_PROSE = re.compile(
    # No free words between the name and "better": "Painting A is not better" names no winner.
    r"\b(?:painting|image)\s+(?P<side>a|b)\b(?:\s+is)?(?:\s+(?:clearly|much|slightly))?\s+"
    r"(?:better|wins|stronger|superior|preferred)\b",
    re.IGNORECASE,
)


class UnreadableReplyError(SketchEnvError, ValueError):
    """The judge's reply holds no readable, unambiguous answer (the message says why)."""


def strip_thinking(text: str) -> str:
    """Removes a reasoning model's thinking from its reply.

    Args:
        text: The reply.

    Returns:
        The reply without ``<think>...</think>`` blocks; where only a closing tag is present
        (some servers strip the opening one), what follows the last closing tag.

    Examples:
        >>> strip_thinking("<think>maybe 3?</think>Score: 7").strip()
        'Score: 7'
    """
    text = re.sub(r"<think>.*?</think>", " ", text, flags=re.DOTALL | re.IGNORECASE)
    if "</think>" in text.lower():
        text = text[text.lower().rindex("</think>") + len("</think>") :]
    elif "<think>" in text.lower():
        # Thinking that never closed (cut off by max_tokens): there is no answer after it.
        text = text[: text.lower().index("<think>")]
    return text


def _json_objects(text: str) -> list[dict[str, Any]]:
    """Top-level JSON objects found anywhere in ``text`` (nested ones are part of their parent)."""
    decoder = json.JSONDecoder()
    found = []
    i = text.find("{")
    while i != -1:
        try:
            value, end = decoder.raw_decode(text, i)
        except ValueError:
            i = text.find("{", i + 1)
            continue
        if isinstance(value, dict):
            found.append(value)
        i = text.find("{", end)
    return found


def _lookup(obj: dict[str, Any], keys: tuple[str, ...]) -> list[Any]:
    lowered = {str(k).strip().lower(): v for k, v in obj.items()}
    return [lowered[k] for k in keys if k in lowered]


def _number(token: str) -> float:
    token = token.strip().lower()
    return float(_WORDS[token]) if token in _WORDS else float(token)


def _range_value(match: re.Match[str]) -> float:
    low = _number(match.group("a"))
    high = _number(match.group("b")) if match.group("b") else low
    for end in (low, high):
        if not MARK_MIN <= end <= MARK_MAX:
            raise UnreadableReplyError(f"mark {end:g} is outside [1, 10]")
    if high < low:
        raise UnreadableReplyError(f"mark range {low:g}-{high:g} is reversed")
    return (low + high) / 2


def _decide(candidates: list[tuple[float, bool]], where: str) -> float:
    """One mark from ``(value, labelled final/overall)`` candidates, or refuses."""
    distinct = sorted({value for value, _ in candidates})
    if len(distinct) == 1:
        return distinct[0]
    finals = sorted({value for value, final in candidates if final})
    if len(finals) == 1:
        return finals[0]
    shown = ", ".join(f"{v:g}" for v in distinct)
    raise UnreadableReplyError(f"ambiguous: several different marks in {where} ({shown})")


def _mark_from_value(value: Any) -> float:
    if isinstance(value, bool):
        raise UnreadableReplyError(f"mark is a boolean ({value})")
    if isinstance(value, int | float):
        if not MARK_MIN <= float(value) <= MARK_MAX:
            raise UnreadableReplyError(f"mark {value:g} is outside [1, 10]")
        return float(value)
    if isinstance(value, str):
        match = _BARE.match(value.strip().strip("*").strip())
        if match:
            return _range_value(match)
    raise UnreadableReplyError(f"mark value {str(value)[:40]!r} is not a number from 1 to 10")


def parse_mark(text: str) -> float:
    """Reads a 1-10 mark from a judge's reply (rules in the module docstring).

    Args:
        text: The reply's text.

    Returns:
        The mark, in ``[1, 10]`` (a half-step for a range such as ``7-8``).

    Raises:
        UnreadableReplyError: If the reply holds no mark, several different ones, or one out
            of range.

    Examples:
        >>> parse_mark('{"score": 7, "reason": "soft washes"}')
        7.0
        >>> parse_mark("Subject 8/10, medium 6/10. Overall score: 7")
        7.0
        >>> parse_mark("Score: 7-8")
        7.5
        >>> parse_mark("Score: eleven")
        Traceback (most recent call last):
        ...
        sketch_env.scoring.judge.parse.UnreadableReplyError: no mark found in the reply
    """
    text = strip_thinking(text)
    values = [v for obj in _json_objects(text) for v in _lookup(obj, _MARK_KEYS)]
    if values:
        return _decide([(_mark_from_value(v), False) for v in values], "the JSON answer")

    candidates: list[tuple[float, bool]] = []
    for pattern in (_LABELLED, _FRACTION, _GIVE):
        for match in pattern.finditer(text):
            final = bool(match.groupdict().get("final"))
            candidates.append((_range_value(match), final))
    if candidates:
        return _decide(candidates, "the reply")

    bare = _BARE.match(text.strip().strip("*`\"'.").strip())
    if bare:
        return _range_value(bare)
    raise UnreadableReplyError("no mark found in the reply")


def _side(token: str | int) -> Verdict | None:
    token = re.sub(r"\s+", " ", str(token).strip().strip("*\"'.").strip().lower())
    if token in _A_NAMES:
        return "A"
    if token in _B_NAMES:
        return "B"
    if token in _TIE_NAMES:
        return "tie"
    return None


def _one_verdict(sides: list[Verdict], where: str) -> Verdict:
    distinct = sorted(set(sides))
    if len(distinct) == 1:
        return distinct[0]
    raise UnreadableReplyError(f"ambiguous: {where} names {' and '.join(distinct)}")


def parse_verdict(text: str) -> Verdict:
    """Reads which of two paintings a judge preferred (rules in the module docstring).

    Args:
        text: The reply's text.

    Returns:
        ``"A"`` (the first painting shown), ``"B"`` (the second) or ``"tie"``.

    Raises:
        UnreadableReplyError: If the reply names no winner or contradicts itself.

    Examples:
        >>> parse_verdict('{"winner": "B"}')
        'B'
        >>> parse_verdict("Painting A is clearly better: richer washes.")
        'A'
    """
    text = strip_thinking(text)
    values = [v for obj in _json_objects(text) for v in _lookup(obj, _VERDICT_KEYS)]
    if values:
        sides = [_side(v) if isinstance(v, str | int) else None for v in values]
        if any(side is None for side in sides):
            raise UnreadableReplyError(f"JSON winner {values[0]!r} is not A, B or tie")
        return _one_verdict([s for s in sides if s is not None], "the JSON answer")

    found: list[Verdict] = []
    for pattern in (_VERDICT_LABELLED, _VERDICT_PROSE):
        for match in pattern.finditer(text):
            side = _side(match.group("side"))
            if side is not None:
                found.append(side)
    if found:
        return _one_verdict(found, "the reply")
    side = _side(text)
    if side is not None:
        return side
    raise UnreadableReplyError("no winner found in the reply")
