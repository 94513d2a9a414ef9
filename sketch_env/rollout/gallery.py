"""A self-contained HTML gallery of a rollout run.

``index.html`` has its CSS and JavaScript inline and links the pictures as relative paths
(``images/...png``), so the run folder can be copied, zipped or served as it is and opened
from disk. One row per rollout: thumbnail (linked to the full picture), id and task, prompt,
reward, every reward component, status, render time, seed, and the gate's reasons or the
JavaScript errors. Clicking a column header sorts by it (again to reverse); a menu filters by
status and a box filters by text. Everything shown is escaped: prompts and errors come from
models and sketches.
"""

from __future__ import annotations

import datetime as _dt
import html
import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sketch_env.evaluation.rollout import RolloutStatus

__all__ = ["render_gallery", "write_gallery"]

_CSS = """
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
.status-ok, .status-frame_capped { background: #e3f1e4; color: var(--ok); }
.status-gate_failed, .status-js_error, .status-timeout, .status-unfinished,
.status-no_canvas, .status-rejected, .status-memory_exceeded,
.status-leftover_work { background: #fbe6e4; color: var(--bad); }
.status-crashed, .status-infra_error { background: #fff1d6; color: var(--warn); }
.comp { font-size: 12px; margin: 0; padding: 0; list-style: none; white-space: nowrap; }
.comp li span { color: var(--muted); }
.problems { font-size: 12px; max-width: 360px; }
.problems li { color: var(--bad); word-break: break-word; }
details summary { cursor: pointer; color: var(--muted); font-size: 12px; }
a { color: #1f4e99; }
"""

_JS = """
(function () {
  const tbody = document.getElementById('rows');
  const rows = Array.from(tbody.querySelectorAll('tr'));
  const headers = Array.from(document.querySelectorAll('th.sortable'));
  const statusFilter = document.getElementById('status-filter');
  const textFilter = document.getElementById('text-filter');
  const shown = document.getElementById('shown');

  function value(row, key, type) {
    const raw = row.dataset[key];
    if (raw === undefined || raw === '') return null;
    return type === 'num' ? Number(raw) : raw.toLowerCase();
  }

  function sortBy(th, direction) {
    const key = th.dataset.key;
    const type = th.dataset.type;
    headers.forEach(h => { if (h !== th) h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', direction > 0 ? 'ascending' : 'descending');
    const sorted = rows.slice().sort((a, b) => {
      const va = value(a, key, type), vb = value(b, key, type);
      // Missing values (no reward, no picture) always go last, whichever the direction.
      if (va === null && vb === null) return Number(a.dataset.n) - Number(b.dataset.n);
      if (va === null) return 1;
      if (vb === null) return -1;
      if (va < vb) return -direction;
      if (va > vb) return direction;
      return Number(a.dataset.n) - Number(b.dataset.n);
    });
    sorted.forEach(row => tbody.appendChild(row));
  }

  headers.forEach(th => th.addEventListener('click', () => {
    const current = th.getAttribute('aria-sort');
    // Numbers start high-to-low (best reward first), text starts A-Z.
    const first = th.dataset.type === 'num' ? -1 : 1;
    const direction = current === null ? first : (current === 'ascending' ? -1 : 1);
    sortBy(th, direction);
  }));

  function applyFilters() {
    const status = statusFilter.value;
    const text = textFilter.value.trim().toLowerCase();
    let count = 0;
    rows.forEach(row => {
      const okStatus = !status || row.dataset.status === status;
      const okText = !text || row.textContent.toLowerCase().includes(text);
      row.hidden = !(okStatus && okText);
      if (!row.hidden) count += 1;
    });
    shown.textContent = count + ' of ' + rows.length + ' shown';
  }
  statusFilter.addEventListener('change', applyFilters);
  textFilter.addEventListener('input', applyFilters);
  applyFilters();
})();
"""

#: (data key, header, type) of the sortable columns, in table order after the picture.
_SORTABLE = (
    ("n", "#", "num"),
    ("id", "Sketch", "text"),
    ("prompt", "Prompt", "text"),
    ("reward", "Reward", "num"),
    ("preference", "Preference", "num"),
    ("coverage", "Coverage", "num"),
    ("darkmass", "Dark mass", "num"),
    ("status", "Status", "text"),
    ("ms", "Render ms", "num"),
    ("seed", "Seed", "num"),
)


def _esc(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _num(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _fmt(value: Any, digits: int = 3, percent: bool = False) -> str:
    number = _num(value)
    if number is None:
        return "&ndash;"
    number = number or 0.0  # Shows -0.0 (a zero penalty negated) as 0.
    return f"{number:.1%}" if percent else f"{number:.{digits}f}"


def _attr(value: Any) -> str:
    number = _num(value)
    if number is not None:
        return repr(number)
    return _esc(value)


def _status_of(record: Mapping[str, Any]) -> str:
    return RolloutStatus.from_record(record).value


def _problems(record: Mapping[str, Any]) -> list[str]:
    gate = record.get("gate") or {}
    render = record.get("render") or {}
    components = record.get("components") or {}
    problems = [str(r) for r in gate.get("reasons") or []]
    problems += [str(e) for e in render.get("errors") or [] if e]
    for key in ("sketch_error", "infra_error"):
        text = str(components.get(key) or "")
        # The sketch error repeats the first JavaScript error with its status in front.
        if text and not any(text in p or p in text for p in problems):
            problems.append(f"{key.replace('_', ' ')}: {text}")
    return problems


def _row(record: Mapping[str, Any]) -> str:
    components = record.get("components") or {}
    render = record.get("render") or {}
    status = _status_of(record)
    n = record.get("n", 0)
    data = {
        "n": n,
        "id": record.get("id"),
        "prompt": record.get("prompt"),
        "reward": record.get("reward"),
        "preference": components.get("preference"),
        "coverage": components.get("coverage"),
        "darkmass": components.get("dark_mass"),
        "status": status,
        "ms": render.get("elapsed_ms"),
        "seed": record.get("seed"),
    }
    attrs = " ".join(f'data-{key}="{_attr(value)}"' for key, value in data.items())

    image = record.get("image")
    if image:
        src = _esc(quote(str(image)))
        alt = _esc(f"{record.get('id')} (seed {record.get('seed')})")
        picture = f'<a href="{src}"><img src="{src}" alt="{alt}"></a>'
    else:
        picture = f'<div class="nopic">no picture<br>({_esc(status)})</div>'

    task = record.get("task_id")
    sketch = record.get("sketch")
    ident = f'<div class="id">{_esc(record.get("id"))}</div>'
    if task:
        ident += f'<div class="task">{_esc(task)}</div>'
    if sketch:
        ident += f'<div><a href="{_esc(quote(str(sketch)))}">source</a></div>'

    items = [
        f"<li><span>{_esc(name)}</span> {_fmt(value)}</li>"
        for name, value in (components.get("contributions") or {}).items()
    ]
    terms = (record.get("score") or {}).get("terms") or components.get("scorer_terms") or {}
    comp = f'<ul class="comp">{"".join(items)}</ul>' if items else ""
    if terms:
        term_items = "".join(f"<li><span>{_esc(k)}</span> {_fmt(v)}</li>" for k, v in terms.items())
        comp += (
            f"<details><summary>{_esc(record.get('scorer') or 'scorer')} terms</summary>"
            f'<ul class="comp">{term_items}</ul></details>'
        )

    problems = _problems(record)
    problem_html = ""
    if problems:
        shown = "".join(f"<li>{_esc(p)}</li>" for p in problems[:3])
        problem_html = f'<ul class="problems">{shown}</ul>'
        if len(problems) > 3:
            more = "".join(f"<li>{_esc(p)}</li>" for p in problems[3:])
            problem_html += (
                f"<details><summary>{len(problems) - 3} more</summary>"
                f'<ul class="problems">{more}</ul></details>'
            )

    return (
        f"<tr {attrs}>"
        f'<td class="num">{_esc(n)}</td>'
        f'<td class="pic">{picture}</td>'
        f"<td>{ident}</td>"
        f'<td class="prompt">{_esc(record.get("prompt"))}</td>'
        f'<td class="num reward">{_fmt(record.get("reward"))}</td>'
        f'<td class="num">{_fmt(components.get("preference"))}</td>'
        f'<td class="num">{_fmt(components.get("coverage"), percent=True)}</td>'
        f'<td class="num">{_fmt(components.get("dark_mass"), percent=True)}</td>'
        f'<td><span class="status status-{_esc(status)}">{_esc(status)}</span></td>'
        f'<td class="num">{_fmt(render.get("elapsed_ms"), digits=0)}</td>'
        f'<td class="num">{_esc(record.get("seed"))}</td>'
        f"<td>{comp}</td>"
        f"<td>{problem_html}</td>"
        "</tr>"
    )


def render_gallery(
    records: Sequence[Mapping[str, Any]],
    title: str | None = None,
    info: Mapping[str, Any] | None = None,
) -> str:
    """Builds the gallery page.

    Args:
        records: ``results.jsonl`` records (see `sketch_env.rollout.runner`).
        title: The page title.
        info: Run facts shown under the title (scorer, backend, seconds...).

    Returns:
        The HTML text.
    """
    title = title or "sketch_env rollouts"
    statuses = Counter(_status_of(r) for r in records)
    rewards = [v for r in records if (v := _num(r.get("reward"))) is not None]
    facts = {
        "rollouts": len(records),
        "mean reward": f"{sum(rewards) / len(rewards):.3f}" if rewards else "none",
        **(info or {}),
        "written": _dt.datetime.now().strftime("%Y-%m-%d %H:%M"),
    }
    info_html = "".join(f"<span>{_esc(k)}: <b>{_esc(v)}</b></span>" for k, v in facts.items())
    options = '<option value="">all statuses</option>' + "".join(
        f'<option value="{_esc(s)}">{_esc(s)} ({c})</option>' for s, c in sorted(statuses.items())
    )
    headers = ['<th class="sortable" data-key="n" data-type="num">#</th>', "<th>Picture</th>"]
    headers += [
        f'<th class="sortable" data-key="{key}" data-type="{kind}">{_esc(label)}</th>'
        for key, label, kind in _SORTABLE[1:]
    ]
    headers += ["<th>Components</th>", "<th>Problems</th>"]
    body = "\n".join(_row(r) for r in records)
    # The records are also embedded as JSON for scripts; "<" is escaped so that no string in
    # them (a prompt saying "</script>") can end the script element.
    payload = json.dumps(list(records), ensure_ascii=False, default=str).replace("<", "\\u003c")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_esc(title)}</title>
<style>{_CSS}</style>
</head>
<body>
<header><h1>{_esc(title)}</h1><div class="info">{info_html}</div></header>
<div class="controls">
  <label>Status <select id="status-filter">{options}</select></label>
  <input id="text-filter" type="search" placeholder="filter by text (prompt, id, error)">
  <span class="counts" id="shown"></span>
  <span class="counts">click a column header to sort</span>
</div>
<table>
<thead><tr>{"".join(headers)}</tr></thead>
<tbody id="rows">
{body}
</tbody>
</table>
<script type="application/json" id="records">{payload}</script>
<script>{_JS}</script>
</body>
</html>
"""


def write_gallery(
    out_dir: str | Path,
    records: Sequence[Mapping[str, Any]],
    title: str | None = None,
    info: Mapping[str, Any] | None = None,
) -> Path:
    """Writes ``index.html`` into a run folder.

    Args:
        out_dir: The run folder (image paths in the records are relative to it).
        records: The ``results.jsonl`` records.
        title: The page title.
        info: Run facts shown under the title.

    Returns:
        The path of ``index.html``.
    """
    path = Path(out_dir) / "index.html"
    path.write_text(render_gallery(records, title=title, info=info), encoding="utf-8")
    return path
