"""Reading judges' replies: the variants accepted, and the ambiguous ones refused."""

from __future__ import annotations

import pytest

from sketch_env.scoring.judge import UnreadableReplyError, parse_mark, parse_verdict

MARKS = [
    ('{"score": 7, "reason": "soft washes"}', 7.0),
    ('```json\n{"score": 8}\n```', 8.0),
    ('{"Score": "6/10"}', 6.0),
    ('{"score": "seven"}', 7.0),
    ('{"score": 7.5}', 7.5),
    ('{"subject": {"note": 3}, "score": 6}', 6.0),  # nested objects belong to their parent
    ('Here you go: {"score": 9} — {"score": 9}', 9.0),  # the same mark repeated is fine
    ("Score: 7", 7.0),
    ("score = 4", 4.0),
    ("**Score:** 8/10", 8.0),
    ("Overall rating is 6 out of 10.", 6.0),
    ("Score (1-10): 5", 5.0),
    ("I'd give it a 7 because the washes bleed nicely.", 7.0),
    ("Score: 7-8", 7.5),
    ("Score: 7 to 8", 7.5),
    ("Score: seven", 7.0),
    ("Subject 8/10, medium 6/10. Overall score: 7", 7.0),
    ("7", 7.0),
    ("**7**", 7.0),
    ("7/10", 7.0),
    ("10", 10.0),
    ("<think>Maybe a 3? No: the washes are good.</think>\nScore: 8", 8.0),
    ("the washes are good.</think>Score: 8", 8.0),  # server stripped the opening tag
]

UNREADABLE = [
    "",
    "What a lovely picture!",
    "There are 3 flowers and 2 leaves; good colours.",  # unlabelled numbers are not marks
    "Score: 0",  # out of range: refused, never clamped
    "Score: 11",
    '{"score": 12}',
    '{"score": true}',
    '{"score": "great"}',
    '{"score": 6} and {"score": 8}',  # two different JSON marks
    "Subject score: 8, medium score: 5",  # different marks, none final
    "Score: 8-7",  # reversed range
    "Final score: 6. Overall score: 8",  # two different 'final' marks
    "<think>Score: 7 would be fair, but",  # thinking cut off before an answer
]


@pytest.mark.parametrize(("reply", "expected"), MARKS)
def test_marks_read(reply: str, expected: float) -> None:
    assert parse_mark(reply) == expected


@pytest.mark.parametrize("reply", UNREADABLE)
def test_unreadable_or_ambiguous_marks_are_refused(reply: str) -> None:
    with pytest.raises(UnreadableReplyError):
        parse_mark(reply)


VERDICTS = [
    ('{"winner": "A"}', "A"),
    ('{"winner": "b"}', "B"),
    ('{"Winner": "Painting B"}', "B"),
    ('{"winner": "tie"}', "tie"),
    ('{"better": "first"}', "A"),
    ('{"winner": 2}', "B"),
    ("Winner: A", "A"),
    ("**Winner:** B", "B"),
    ("The better painting is B.", "B"),
    ("Painting A is clearly better: richer washes.", "A"),
    ("Image B wins.", "B"),
    ("A", "A"),
    ("B.", "B"),
    ("tie", "tie"),
    ("<think>A has more colour, but B...</think>Winner: B", "B"),
]

UNREADABLE_VERDICTS = [
    "",
    "Both are nice.",
    "The winner is a painting with soft edges.",  # 'a' is an article, not painting A
    "Painting A is not better than painting B in every way",  # negation names no winner
    '{"winner": "C"}',
    '{"winner": "A"} {"winner": "B"}',
    "Painting A is better in colour, but painting B is better overall.",
]


@pytest.mark.parametrize(("reply", "expected"), VERDICTS)
def test_verdicts_read(reply: str, expected: str) -> None:
    assert parse_verdict(reply) == expected


@pytest.mark.parametrize("reply", UNREADABLE_VERDICTS)
def test_unreadable_or_contradictory_verdicts_are_refused(reply: str) -> None:
    with pytest.raises(UnreadableReplyError):
        parse_verdict(reply)


def test_docs_quote_the_texts_the_judge_is_sent() -> None:
    """docs/judge.md must show the rubric actually used (a reworded rubric is a new judge)."""
    from pathlib import Path

    from sketch_env.scoring.judge.prompts import (
        PAIRWISE_INSTRUCTIONS,
        POINTWISE_RUBRIC,
        RUBRIC_VERSION,
        SYSTEM_PROMPT,
    )

    doc = (Path(__file__).resolve().parents[2] / "docs" / "judge.md").read_text()
    for text in (POINTWISE_RUBRIC, PAIRWISE_INSTRUCTIONS):
        assert text.format(prompt="{prompt}") in doc
    assert SYSTEM_PROMPT in doc
    assert f"@rubric{RUBRIC_VERSION}" in doc
