"""`check_sketch` and `gate_reply`: the gate's two entry points."""

from __future__ import annotations

from sketch_env.gate.extract import extract_sketch
from sketch_env.gate.rules import Checker
from sketch_env.gate.syntax import LineIndex, parse, syntax_error
from sketch_env.gate.verdict import GateConfig, GateIssue, GateVerdict


def check_sketch(source: str, config: GateConfig | None = None) -> GateVerdict:
    """Checks one sketch against the gate's rules.

    Args:
        source: The sketch's JavaScript.
        config: Which rules apply; the defaults when ``None``.

    Returns:
        A `GateVerdict`. A syntax error is reported alone (the other rules would be judging a
        broken tree); otherwise every rule that fails adds one issue.

    Raises:
        TypeError: If ``source`` is not a string.
        FileNotFoundError: If ``reject_unknown_brush`` is on and the vendored p5.brush is
            missing (a broken installation, not a bad sketch).

    Examples:
        >>> sketch = '''
        ... function setup() {
        ...   createCanvas(600, 600, WEBGL);
        ...   brush.set("2B", "#223344", 1);
        ...   brush.line(-200, 0, 200, 0);
        ... }'''
        >>> check_sketch(sketch).passed
        True
        >>> check_sketch(sketch.replace("brush.set", "brush.setBrush")).reasons[0][:37]
        '`brush.setBrush` at 4:3 does not exis'
    """
    if not isinstance(source, str):
        raise TypeError(f"source must be str, got {type(source).__name__}")
    config = config or GateConfig()
    try:
        data = source.encode("utf-8")
    except UnicodeEncodeError as err:
        issue = GateIssue(
            "not_utf8", f"the sketch holds a character that is not valid Unicode at {err.start}"
        )
        return GateVerdict(passed=False, issues=(issue,), source=source)
    if len(data) > config.max_reply_bytes:
        issue = GateIssue(
            "reply_too_large",
            f"the sketch is {len(data):,} bytes, over the {config.max_reply_bytes:,}-byte limit",
        )
        return GateVerdict(passed=False, issues=(issue,), source=source)
    if not source.strip():
        issue = GateIssue("no_code", "the sketch is empty")
        return GateVerdict(passed=False, issues=(issue,), source=source)
    tree = parse(data)
    syntax = syntax_error(tree.root_node, LineIndex(data))
    if syntax is not None:
        return GateVerdict(passed=False, issues=(syntax,), source=source)
    issues = Checker(tree.root_node, data, config).run()
    return GateVerdict(passed=not issues, issues=tuple(issues), source=source)


def gate_reply(
    reply: str | bytes | bytearray | memoryview | None, config: GateConfig | None = None
) -> GateVerdict:
    """Extracts the sketch from a model reply and checks it. Never raises on bad content.

    Args:
        reply: The model's reply, as text or bytes (``None`` counts as empty).
        config: Which rules apply; the defaults when ``None``.

    Returns:
        A `GateVerdict` whose ``source`` is the extracted sketch (``None`` when there was
        none) and whose ``notes`` carry the extraction's remarks.

    Raises:
        TypeError: If ``reply`` is not text, bytes or ``None`` (a programming error).
        FileNotFoundError: If the vendored p5.brush is missing (see `check_sketch`).

    Examples:
        >>> gate_reply("").codes
        ['empty_reply']
        >>> gate_reply(b"\\xff\\xfe").reasons
        ['the reply is not valid UTF-8 (byte 0xff at offset 0)']
    """
    config = config or GateConfig()
    extraction = extract_sketch(reply, max_bytes=config.max_reply_bytes)
    if extraction.source is None:
        assert extraction.error is not None
        return GateVerdict(passed=False, issues=(extraction.error,), notes=extraction.notes)
    verdict = check_sketch(extraction.source, config)
    if not extraction.fenced and not verdict.passed:
        # Without a fence the "sketch" is usually prose, and a syntax error or a list of
        # missing functions would misdescribe it.
        first = verdict.issues[0]
        message = None
        if first.code == "syntax_error":
            message = (
                "no code found: the reply has no ```js code block and its text is not "
                f"JavaScript (syntax error at {first.line}:{first.column})"
            )
        elif {"no_setup", "no_brush_call"} <= set(verdict.codes):
            message = (
                "no sketch found: the reply has no ```js code block, and its text defines no "
                "setup() and calls no brush.* function"
            )
        if message is not None:
            issue = GateIssue("no_code", message, first.line, first.column)
            return GateVerdict(
                passed=False, issues=(issue,), source=extraction.source, notes=extraction.notes
            )
    return GateVerdict(
        passed=verdict.passed,
        issues=verdict.issues,
        source=extraction.source,
        notes=extraction.notes + verdict.notes,
    )
