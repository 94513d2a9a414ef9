"""The page every gallery is drawn in: the shell, the shared stylesheet, escaping, numbers,
status badges and pictures.

The rollout galleries (`sketch_env.rollout.gallery`) and the reference pool's grid
(`sketch_env.pool.gallery`) both draw with these, so their pages look and escape alike.
Everything that reaches a page goes through `esc` (or a helper that calls it): prompts, ids
and errors come from models and sketches.
"""

from __future__ import annotations

import datetime as _dt
import html
import math
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from sketch_env.evaluation.rollout import RolloutStatus

__all__ = [
    "PAGE_CSS",
    "attr",
    "badge",
    "esc",
    "fmt",
    "number",
    "page_shell",
    "picture",
    "status_of",
]

#: The shared stylesheet: the header and its facts, the controls bar, tables (the rollout
#: table's columns), status badges by kind, pictures and their placeholders, and the episode
#: strips. A page adds its own rules through `page_shell`'s ``css``.
PAGE_CSS = """
:root { --ink: #222; --muted: #667; --line: #ddd; --bg: #faf8f3; --ok: #2e7d32; --bad: #b3261e;
        --warn: #b26a00; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif;
       color: var(--ink); background: var(--bg); }
header { padding: 16px 24px 8px; }
h1 { margin: 0 0 4px; font-size: 20px; }
.info { color: var(--muted); font-size: 13px; }
.info span { margin-right: 14px; }
.controls { display: flex; gap: 12px; align-items: center; padding: 8px 24px;
            position: sticky; top: 0; background: var(--bg); border-bottom: 1px solid var(--line);
            z-index: 1; }
.controls input { padding: 4px 8px; width: 260px; }
.counts { color: var(--muted); }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top;
         text-align: left; }
th { font-weight: 600; white-space: nowrap; background: #f1ede4; }
th.sortable { cursor: pointer; user-select: none; }
th.sortable:hover { background: #e7e1d4; }
th[aria-sort="ascending"]::after { content: " \\25B2"; font-size: 10px; }
th[aria-sort="descending"]::after { content: " \\25BC"; font-size: 10px; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.pic { width: 172px; }
td.pic img { width: 160px; height: 160px; object-fit: contain; background: #fff;
             border: 1px solid var(--line); display: block; }
.nopic { width: 160px; height: 160px; display: flex; align-items: center; justify-content: center;
         border: 1px dashed var(--line); color: var(--muted); font-size: 12px; text-align: center; }
.prompt { max-width: 320px; }
.id { font-family: ui-monospace, monospace; font-size: 12px; }
.task { color: var(--muted); font-size: 12px; }
.status { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px;
          background: #eee; white-space: nowrap; }
.kind-scored { background: #e3f1e4; color: var(--ok); }
.kind-refused, .kind-sketch_error { background: #fbe6e4; color: var(--bad); }
.kind-infrastructure { background: #fff1d6; color: var(--warn); }
.comp { font-size: 12px; margin: 0; padding: 0; list-style: none; white-space: nowrap; }
.comp li span { color: var(--muted); }
.problems { font-size: 12px; max-width: 360px; }
.problems li { color: var(--bad); word-break: break-word; }
details summary { cursor: pointer; color: var(--muted); font-size: 12px; }
a { color: #1f4e99; }
.episodes { padding: 8px 24px 16px; }
.episodes h2 { font-size: 16px; margin: 8px 0; }
.episode { margin: 0 0 12px; }
.episode .turns { display: flex; gap: 10px; flex-wrap: wrap; align-items: flex-start; }
.turn { width: 130px; font-size: 12px; }
.turn img, .turn .nopic { width: 128px; height: 128px; }
.turn img { object-fit: contain; background: #fff; border: 1px solid var(--line);
            display: block; }
.arrow { align-self: center; color: var(--muted); }
"""


def esc(value: Any) -> str:
    """``value`` as HTML text, quotes escaped too (``None`` is empty)."""
    return html.escape("" if value is None else str(value), quote=True)


def number(value: Any) -> float | None:
    """``value`` as a float if it is a finite number (not a bool), else ``None``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def fmt(value: Any, digits: int = 3, percent: bool = False) -> str:
    """A number for a table cell (``digits`` decimals, or a percentage); a dash for anything
    that is not a finite number."""
    found = number(value)
    if found is None:
        return "&ndash;"
    found = found or 0.0  # Shows -0.0 (a zero penalty negated) as 0.
    return f"{found:.1%}" if percent else f"{found:.{digits}f}"


def attr(value: Any) -> str:
    """A value for a ``data-`` attribute: a number exactly (for sorting), else escaped text."""
    found = number(value)
    if found is not None:
        return repr(found)
    return esc(value)


def status_of(record: Mapping[str, Any]) -> str:
    """How a ``results.jsonl`` record's rollout ended (`RolloutStatus.from_record`)."""
    return RolloutStatus.from_record(record).value


def badge(status: str) -> str:
    """A status as a coloured label; the colour is the status's kind (`RolloutStatus.kind`)."""
    kind = RolloutStatus(status).kind
    return f'<span class="status kind-{kind}">{esc(status)}</span>'


def picture(record: Mapping[str, Any], status: str, prefix: str = "", lazy: bool = False) -> str:
    """A record's picture linked to the full image, or a placeholder that says why there is
    none.

    Args:
        record: A ``results.jsonl`` record (its ``image`` path, ``id`` and ``seed``).
        status: How its rollout ended, shown when there is no picture.
        prefix: Added before the image path (a step's folder, from a page above it).
        lazy: Let the browser load it when it scrolls into view.

    Returns:
        The HTML.
    """
    image = record.get("image")
    if not image:
        return f'<div class="nopic">no picture<br>({esc(status)})</div>'
    src = esc(quote(prefix + str(image)))
    alt = esc(f"{record.get('id')} (seed {record.get('seed')})")
    loading = ' loading="lazy"' if lazy else ""
    return f'<a href="{src}"><img src="{src}" alt="{alt}"{loading}></a>'


def page_shell(
    title: str, facts: Mapping[str, Any], content: str, script: str, css: str = ""
) -> str:
    """The page every gallery shares: head, title, facts, content and script.

    Args:
        title: The page's title (escaped).
        facts: Shown under the title as ``name: value`` (escaped); the time it was written is
            added.
        content: The page's body, HTML as it is.
        script: JavaScript run at the end of the body.
        css: Rules added after `PAGE_CSS`.

    Returns:
        The HTML text.
    """
    facts = {**facts, "written": _dt.datetime.now().strftime("%Y-%m-%d %H:%M")}
    info_html = "".join(f"<span>{esc(k)}: <b>{esc(v)}</b></span>" for k, v in facts.items())
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)}</title>
<style>{PAGE_CSS}{css}</style>
</head>
<body>
<header><h1>{esc(title)}</h1><div class="info">{info_html}</div></header>
{content}
<script>{script}</script>
</body>
</html>
"""
