"""Self-contained HTML galleries: of one rollout run, and of a training run's steps.

``index.html`` has its CSS and JavaScript inline and links the pictures as relative paths
(``images/...png``), so the run folder can be copied, zipped or served as it is and opened
from disk. One row per rollout: thumbnail (linked to the full picture), id and task, prompt,
reward, every reward component, status, render time, seed, and the gate's reasons or the
JavaScript errors. Clicking a column header sorts by it (again to reverse); a menu filters by
status and a box filters by text. Multi-turn episodes (records with ``episode`` and ``turn``)
also get a strip each above the table: the episode's renders in turn order, each with its
reward, and the improvement from the first render to the last. Everything shown is escaped:
prompts and errors come from models and sketches.

`write_steps_gallery` does the same for one training run's folder written during training
(`sketch_env.trl.ArtifactConfig`): one ``step-NNNNNN`` folder per logged step, each a run folder
of its own (``results.jsonl``, ``images/``, ``sketches/``, and its table page from
`write_gallery`). Its ``index.html`` picks a step (menu, buttons, arrow keys or
``#step-N`` in the address) and shows its groups side by side: the completions of one prompt
in a row of pictures, each with its reward, status, coverage, dark mass, render and queue time.

`write_runs_gallery` does it for an artifacts directory, which holds one folder per training
run: each run gets its steps page, and the directory's ``index.html`` lists the runs apart
(latest first) to choose one, so two runs into one directory are never shown as one.
"""

from __future__ import annotations

import datetime as _dt
import json
import statistics
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sketch_env.evaluation.runs import (
    RESULTS_FILE,
    STEP_DIR_PREFIX,
    load_runs,
    load_steps,
    step_dir_name,
)
from sketch_env.reward.breakdown import component_value
from sketch_env.rollout.page import (
    attr,
    badge,
    esc,
    fmt,
    number,
    page_shell,
    picture,
    status_of,
)

__all__ = [
    "render_gallery",
    "render_runs_gallery",
    "render_steps_gallery",
    "write_gallery",
    "write_runs_gallery",
    "write_steps_gallery",
]

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
    ("queue", "Queue ms", "num"),
    ("seed", "Seed", "num"),
)


def _render_ms(render: Mapping[str, Any]) -> Any:
    # Records written before queue time was split out carry only the total (queueing included).
    return render.get("render_ms", render.get("elapsed_ms"))


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
    status = status_of(record)
    n = record.get("n", 0)
    data = {
        "n": n,
        "id": record.get("id"),
        "prompt": record.get("prompt"),
        "reward": record.get("reward"),
        "preference": component_value(components, "preference"),
        "coverage": component_value(components, "coverage"),
        "darkmass": component_value(components, "dark_mass"),
        "status": status,
        "ms": _render_ms(render),
        "queue": render.get("queue_ms"),
        "seed": record.get("seed"),
    }
    attrs = " ".join(f'data-{key}="{attr(value)}"' for key, value in data.items())

    thumb = picture(record, status)

    task = record.get("task_id")
    sketch = record.get("sketch")
    ident = f'<div class="id">{esc(record.get("id"))}</div>'
    if task:
        ident += f'<div class="task">{esc(task)}</div>'
    if sketch:
        ident += f'<div><a href="{esc(quote(str(sketch)))}">source</a></div>'

    items = [
        f"<li><span>{esc(name)}</span> {fmt(value)}</li>"
        for name, value in (components.get("contributions") or {}).items()
    ]
    terms = (record.get("score") or {}).get("terms") or components.get("scorer_terms") or {}
    comp = f'<ul class="comp">{"".join(items)}</ul>' if items else ""
    if terms:
        term_items = "".join(f"<li><span>{esc(k)}</span> {fmt(v)}</li>" for k, v in terms.items())
        comp += (
            f"<details><summary>{esc(record.get('scorer') or 'scorer')} terms</summary>"
            f'<ul class="comp">{term_items}</ul></details>'
        )

    problems = _problems(record)
    problem_html = ""
    if problems:
        shown = "".join(f"<li>{esc(p)}</li>" for p in problems[:3])
        problem_html = f'<ul class="problems">{shown}</ul>'
        if len(problems) > 3:
            more = "".join(f"<li>{esc(p)}</li>" for p in problems[3:])
            problem_html += (
                f"<details><summary>{len(problems) - 3} more</summary>"
                f'<ul class="problems">{more}</ul></details>'
            )

    return (
        f"<tr {attrs}>"
        f'<td class="num">{esc(n)}</td>'
        f'<td class="pic">{thumb}</td>'
        f"<td>{ident}</td>"
        f'<td class="prompt">{esc(record.get("prompt"))}</td>'
        f'<td class="num reward">{fmt(record.get("reward"))}</td>'
        f'<td class="num">{fmt(component_value(components, "preference"))}</td>'
        f'<td class="num">{fmt(component_value(components, "coverage"), percent=True)}</td>'
        f'<td class="num">{fmt(component_value(components, "dark_mass"), percent=True)}</td>'
        f"<td>{badge(status)}</td>"
        f'<td class="num">{fmt(_render_ms(render), digits=0)}</td>'
        f'<td class="num">{fmt(render.get("queue_ms"), digits=0)}</td>'
        f'<td class="num">{esc(record.get("seed"))}</td>'
        f"<td>{comp}</td>"
        f"<td>{problem_html}</td>"
        "</tr>"
    )


_ARROW = '<span class="arrow">&rarr;</span>'


def _episodes(records: Sequence[Mapping[str, Any]]) -> str:
    # One strip per (episode, seed), turns in order, in the order episodes first appear.
    strips: dict[tuple[str, Any], list[Mapping[str, Any]]] = {}
    for record in records:
        if record.get("episode") is not None:
            strips.setdefault((str(record["episode"]), record.get("seed")), []).append(record)
    if not strips:
        return ""
    parts = []
    for (episode, seed), turns in strips.items():
        turns = sorted(turns, key=lambda r: int(r.get("turn") or 0))
        cells = [
            f'<div class="turn">{picture(r, status_of(r))}'
            f"<div>turn {esc(r.get('turn'))}: reward "
            f"{fmt(r.get('reward'))}</div>{badge(status_of(r))}</div>"
            for r in turns
        ]
        revision = turns[-1].get("revision") or {}
        gain = revision.get("improvement")
        summary = f"improvement {fmt(gain)}" if gain is not None else "improvement n/a"
        parts.append(
            f'<div class="episode" data-episode="{attr(episode)}">'
            f"<div><b>{esc(episode)}</b> (seed {esc(seed)}): {len(turns)} render(s), "
            f"{esc(summary)}</div>"
            f'<div class="turns">{_ARROW.join(cells)}</div></div>'
        )
    return f'<section class="episodes"><h2>Episodes</h2>{"".join(parts)}</section>'


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
    statuses = Counter(status_of(r) for r in records)
    rewards = [v for r in records if (v := number(r.get("reward"))) is not None]
    facts = {
        "rollouts": len(records),
        "mean reward": f"{sum(rewards) / len(rewards):.3f}" if rewards else "none",
        **(info or {}),
    }
    options = '<option value="">all statuses</option>' + "".join(
        f'<option value="{esc(s)}">{esc(s)} ({c})</option>' for s, c in sorted(statuses.items())
    )
    headers = ['<th class="sortable" data-key="n" data-type="num">#</th>', "<th>Picture</th>"]
    headers += [
        f'<th class="sortable" data-key="{key}" data-type="{kind}">{esc(label)}</th>'
        for key, label, kind in _SORTABLE[1:]
    ]
    headers += ["<th>Components</th>", "<th>Problems</th>"]
    body = "\n".join(_row(r) for r in records)
    # The records are also embedded as JSON for scripts; "<" is escaped so that no string in
    # them (a prompt saying "</script>") can end the script element.
    payload = json.dumps(list(records), ensure_ascii=False, default=str).replace("<", "\\u003c")
    content = f"""{_episodes(records)}
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
<script type="application/json" id="records">{payload}</script>"""
    return page_shell(title, facts, content, _JS)


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


# ---------------------------------------------------------------------------- across steps

_STEPS_CSS = """
.stepnav { display: flex; gap: 8px; align-items: center; padding: 8px 24px; position: sticky;
           top: 0; background: var(--bg); border-bottom: 1px solid var(--line); z-index: 1; }
.stepnav button { padding: 2px 10px; }
.step { padding: 8px 24px 24px; }
.group { margin: 14px 0; }
.ghead { font-size: 13px; color: var(--muted); margin-bottom: 6px; }
.ghead b { color: var(--ink); }
.cards { display: flex; gap: 10px; flex-wrap: wrap; }
.card { width: 188px; margin: 0; padding: 6px; background: #fff; border: 1px solid var(--line);
        border-radius: 6px; font-size: 12px; }
.card img { width: 174px; height: 174px; object-fit: contain; display: block; background: #fff; }
.card .nopic { width: 174px; height: 174px; }
.card .reward { font-size: 16px; font-weight: 600; margin: 4px 0 2px; }
.card .facts { color: var(--muted); }
.card .problems { margin: 4px 0 0; padding-left: 14px; }
"""

_STEPS_JS = """
(function () {
  const select = document.getElementById('step');
  const sections = Array.from(document.querySelectorAll('section.step'));
  const table = document.getElementById('table-link');
  function show(step) {
    let found = false;
    sections.forEach(s => { s.hidden = s.dataset.step !== step; found = found || !s.hidden; });
    if (!found && sections.length) { return show(sections[sections.length - 1].dataset.step); }
    select.value = step;
    const section = sections.find(s => s.dataset.step === step);
    if (section) { table.href = section.dataset.table; }
    if (location.hash !== '#step-' + step) { history.replaceState(null, '', '#step-' + step); }
  }
  function move(by) {
    const i = select.selectedIndex + by;
    if (i >= 0 && i < select.options.length) { show(select.options[i].value); }
  }
  select.addEventListener('change', () => show(select.value));
  document.getElementById('prev').addEventListener('click', () => move(-1));
  document.getElementById('next').addEventListener('click', () => move(1));
  document.addEventListener('keydown', e => {
    if (e.target.tagName === 'SELECT') return;
    if (e.key === 'ArrowLeft') move(-1);
    if (e.key === 'ArrowRight') move(1);
  });
  window.addEventListener('hashchange', () => show(location.hash.replace('#step-', '')));
  const wanted = location.hash.startsWith('#step-') ? location.hash.slice(6) : null;
  // The latest step by default: during training, the one just written.
  show(wanted || (select.options.length ? select.options[select.options.length - 1].value : ''));
})();
"""


def _group_key(record: Mapping[str, Any]) -> Any:
    group = record.get("group")
    return group if group is not None else (record.get("prompt"), record.get("seed"))


def _card(record: Mapping[str, Any], prefix: str) -> str:
    status = status_of(record)
    components = record.get("components") or {}
    render = record.get("render") or {}
    sketch = record.get("sketch")
    source = f' &middot; <a href="{esc(quote(prefix + str(sketch)))}">source</a>' if sketch else ""
    problems = _problems(record)
    first = f'<ul class="problems"><li>{esc(problems[0][:200])}</li></ul>' if problems else ""
    coverage = component_value(components, "coverage")
    return (
        f'<figure class="card" data-reward="{attr(record.get("reward"))}" '
        f'data-status="{esc(status)}">'
        f"{picture(record, status, prefix, lazy=True)}"
        f'<figcaption><div class="reward">{fmt(record.get("reward"))}</div>'
        f"{badge(status)}{source}"
        f'<div class="facts">coverage {fmt(coverage, percent=True)}, '
        f"dark mass {fmt(component_value(components, 'dark_mass'), percent=True)}</div>"
        f'<div class="facts">render {fmt(_render_ms(render), digits=0)} ms, '
        f"queued {fmt(render.get('queue_ms'), digits=0)} ms</div>"
        f"{first}</figcaption></figure>"
    )


def _step_section(step: int, records: Sequence[Mapping[str, Any]]) -> str:
    prefix = step_dir_name(step) + "/"
    groups: dict[Any, list[Mapping[str, Any]]] = defaultdict(list)
    for record in records:
        groups[_group_key(record)].append(record)
    parts = []
    for members in groups.values():
        rewards = [v for r in members if (v := number(r.get("reward"))) is not None]
        spread = (
            f"mean <b>{statistics.fmean(rewards):.3f}</b>, std {statistics.pstdev(rewards):.3f}"
            if rewards
            else "no reward"
        )
        head = members[0]
        task = f" ({esc(head.get('task_id'))})" if head.get("task_id") else ""
        parts.append(
            f'<div class="group"><div class="ghead"><b>{esc(head.get("prompt"))}</b>{task} '
            f"&middot; seed {esc(head.get('seed'))} &middot; {len(members)} completions "
            f"&middot; reward {spread}</div>"
            f'<div class="cards">{"".join(_card(r, prefix) for r in members)}</div></div>'
        )
    table = esc(prefix + "index.html")
    return (
        f'<section class="step" id="step-{step}" data-step="{step}" data-table="{table}" hidden>'
        f"{''.join(parts) or '<p>nothing written for this step</p>'}</section>"
    )


def render_steps_gallery(
    steps: Mapping[int, Sequence[Mapping[str, Any]]],
    title: str | None = None,
    info: Mapping[str, Any] | None = None,
    up: str | None = None,
) -> str:
    """Builds the page across training steps.

    Args:
        steps: Step -> its records (`sketch_env.evaluation.runs.load_steps`); image paths
            relative to the step folder.
        title: The page title.
        info: Run facts shown under the title.
        up: A relative link to the page listing every run, if there is one.

    Returns:
        The HTML text.
    """
    title = title or "sketch_env training pictures"
    total = sum(len(r) for r in steps.values())
    facts = {
        "steps": len(steps),
        "rollouts": total,
        **(info or {}),
    }
    options = []
    for step, records in steps.items():
        rewards = [v for r in records if (v := number(r.get("reward"))) is not None]
        mean = f"mean {statistics.fmean(rewards):.3f}" if rewards else "no reward"
        options.append(
            f'<option value="{step}">step {step} &middot; {len(records)} rollouts &middot; '
            f"{mean}</option>"
        )
    sections = "\n".join(_step_section(step, records) for step, records in steps.items())
    content = f"""<nav class="stepnav">
  <button id="prev" title="previous step (left arrow)">&larr;</button>
  <select id="step">{"".join(options)}</select>
  <button id="next" title="next step (right arrow)">&rarr;</button>
  <a id="table-link" href="#">this step as a sortable table</a>
  {f'<a id="runs-link" href="{esc(quote(up))}">all runs</a>' if up else ""}
</nav>
{sections}"""
    return page_shell(title, facts, content, _STEPS_JS, _STEPS_CSS)


def write_steps_gallery(
    directory: str | Path,
    title: str | None = None,
    info: Mapping[str, Any] | None = None,
    up: str | None = None,
) -> Path:
    """Writes ``index.html`` across steps, and each step's own table page.

    Args:
        directory: One training run's folder (``ARTIFACTS/RUN``, see
            `sketch_env.trl.ArtifactConfig`), or an artifacts directory written before runs
            had folders of their own.
        title: The page title.
        info: Run facts shown under the title.
        up: A link (relative to ``directory``) to the page listing every run.

    Returns:
        The path of the top ``index.html``.

    Raises:
        FileNotFoundError: If the directory holds no step folder with results.
    """
    directory = Path(directory)
    steps = load_steps(directory)
    if not steps:
        raise FileNotFoundError(
            f"no {STEP_DIR_PREFIX}NNNNNN/results.jsonl under {directory}: not an artifacts "
            "directory, or nothing written yet"
        )
    for step, records in steps.items():
        heading = f"{title}: step {step}" if title else f"Step {step}"
        write_gallery(directory / step_dir_name(step), records, title=heading)
    path = directory / "index.html"
    page = render_steps_gallery(steps, title=title, info=info, up=up)
    path.write_text(page, encoding="utf-8")
    return path


# ---------------------------------------------------------------------------- across runs

_RUNS_CSS = """
.runs { padding: 8px 24px 24px; }
.runs td a { font-family: ui-monospace, monospace; }
.latest { color: var(--ok); font-size: 12px; margin-left: 6px; }
"""


def _updated(folder: Path) -> float:
    """When a run last wrote: the newest ``results.jsonl`` of its steps (0 if none)."""
    times = [p.stat().st_mtime for p in folder.glob(f"{STEP_DIR_PREFIX}*/{RESULTS_FILE}")]
    return max(times, default=0.0)


def render_runs_gallery(
    runs: Mapping[str, Mapping[int, Sequence[Mapping[str, Any]]]],
    updated: Mapping[str, float] | None = None,
    title: str | None = None,
) -> str:
    """Builds the page that lists an artifacts directory's training runs, to choose one.

    Args:
        runs: Run name -> step -> records (`sketch_env.evaluation.runs.load_runs`).
        updated: Run name -> when it last wrote (seconds since the epoch); the runs are
            listed latest first, and in name order without it.
        title: The page title.

    Returns:
        The HTML text: one row per run, linked to its own page (``RUN/index.html``).
    """
    when = dict(updated or {})
    order = sorted(runs, key=lambda name: (-when.get(name, 0.0), name))
    rows = []
    for position, name in enumerate(order):
        steps = runs[name]
        last = max(steps) if steps else None
        rewards = [
            v
            for r in (steps[last] if last is not None else ())
            if (v := number(r.get("reward"))) is not None
        ]
        stamp = (
            _dt.datetime.fromtimestamp(when[name]).strftime("%Y-%m-%d %H:%M")
            if when.get(name)
            else "&ndash;"
        )
        latest = '<span class="latest">latest</span>' if position == 0 and when else ""
        rows.append(
            f'<tr data-run="{esc(name)}">'
            f'<td><a href="{esc(quote(name))}/index.html">{esc(name)}</a>{latest}</td>'
            f'<td class="num">{len(steps)}</td>'
            f'<td class="num">{esc(min(steps) if steps else "")}&ndash;{esc(last)}</td>'
            f'<td class="num">{sum(len(r) for r in steps.values())}</td>'
            f'<td class="num">{fmt(statistics.fmean(rewards)) if rewards else "&ndash;"}</td>'
            f'<td class="num">{stamp}</td></tr>'
        )
    content = f"""<section class="runs">
<p>Each training run wrote into a folder of its own; choose one to see its steps.</p>
<table>
<thead><tr><th>Run</th><th>Logged steps</th><th>Steps</th><th>Rollouts</th>
<th>Mean reward, last step</th><th>Last written</th></tr></thead>
<tbody>
{"".join(rows)}
</tbody>
</table>
</section>"""
    facts = {"runs": len(runs), "rollouts": sum(len(r) for s in runs.values() for r in s.values())}
    return page_shell(title or "sketch_env training runs", facts, content, "", _RUNS_CSS)


def write_runs_gallery(
    directory: str | Path, title: str | None = None, run: str | None = None
) -> Path:
    """Writes each training run's steps page, and ``index.html`` listing the runs.

    Args:
        directory: The artifacts directory (`sketch_env.trl.ArtifactConfig.directory`).
        title: The page title (each run's page adds the run's name).
        run: Only this run: write its steps page (and the list) and return its page's path.

    Returns:
        The path of the directory's ``index.html`` (or of the run's, with ``run``).

    Raises:
        FileNotFoundError: If the directory holds no training run, or not ``run``.
    """
    directory = Path(directory)
    runs = load_runs(directory)
    if run is not None and run not in runs:
        known = ", ".join(runs) or "none"
        raise FileNotFoundError(f"no run {run!r} under {directory} (runs: {known})")
    if not runs:
        raise FileNotFoundError(
            f"no training run (RUN/{STEP_DIR_PREFIX}NNNNNN/results.jsonl) under {directory}"
        )
    pages = {}
    for name in [run] if run is not None else list(runs):
        heading = f"{title}: {name}" if title else f"Run {name}"
        pages[name] = write_steps_gallery(directory / name, title=heading, up="../index.html")
    # The list is cheap (the records are read already) and is where each run page links back.
    updated = {name: _updated(directory / name) for name in runs}
    path = directory / "index.html"
    path.write_text(render_runs_gallery(runs, updated, title=title), encoding="utf-8")
    return pages[run] if run is not None else path
