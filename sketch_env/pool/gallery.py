"""The whole reference pool on one page (``sketch-env pool gallery``).

Rating the pool, or checking it after a change, means looking at every painting beside the
others of its task: is each ``love`` better than each ``ok``, is every tier there, does a new
reference still paint what its prompt says. `write_pool_gallery` renders every reference once
(seed `MEASURE_SEED`, the seed its metadata was measured with) through the rollout runner,
so the folder is an ordinary run folder (``images/``, ``sketches/``, ``results.jsonl``), and
writes two pages into it:

- ``index.html``: one row per task, one column per tier (``love``, ``ok``, ``weak``); each
  reference as a card with its picture (linked to the full PNG), id, prompt, the metadata
  ``pool refresh`` measured (render time and backend, coverage, heuristic score, HPSv3, whether
  repeats were pixel-identical) and how this render ended. A task with no reference of a tier
  shows the hole, and the header names the shipped tasks that have no reference at all.
- ``table.html``: the same renders as the rollout gallery's sortable table.

The page shell, escaping and pictures are the galleries' page module
(`sketch_env.rollout.page`), so the two pages look and escape alike.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sketch_env.catalog.references import (
    MEASURE_SEED,
    TIERS,
    Reference,
    find_pool_dir,
    load_reference_pool,
)
from sketch_env.catalog.tasks import load_tasks
from sketch_env.evaluation import Evaluator
from sketch_env.rollout.page import badge, esc, fmt, page_shell, picture, status_of
from sketch_env.rollout.runner import RolloutItem, run_rollouts

__all__ = ["TABLE_PAGE", "PoolGallery", "pool_items", "render_pool_page", "write_pool_gallery"]

#: The rollout table of the same renders, beside the grid's ``index.html``.
TABLE_PAGE = "table.html"

PAGE_CSS = """
table.pool { table-layout: fixed; }
table.pool th.tier { width: 29%; }
table.pool th.task { width: 13%; }
/* The shared sheet keeps headers on one line (the sortable table's); a row header here holds
   the task's whole prompt, which must wrap inside its column, not run under the cards. */
table.pool th[scope="row"] { white-space: normal; overflow-wrap: anywhere; }
.taskname { font-weight: 600; }
.taskprompt { color: var(--muted); font-size: 12px; margin-top: 4px; }
.refs { display: flex; gap: 8px; flex-wrap: wrap; }
.ref { width: 192px; margin: 0; padding: 6px; background: #fff; border: 1px solid var(--line);
       border-radius: 6px; font-size: 12px; }
.ref img, .ref .nopic { width: 180px; height: 180px; }
.ref img { object-fit: contain; display: block; background: #fff; }
.ref .prompt { margin: 4px 0; }
.meta { display: grid; grid-template-columns: auto 1fr; gap: 0 6px; margin: 4px 0;
        color: var(--muted); }
.meta dt { white-space: nowrap; }
.meta dd { margin: 0; color: var(--ink); font-variant-numeric: tabular-nums; }
.missing { color: var(--bad); font-size: 12px; }
"""


@dataclass(frozen=True)
class PoolGallery:
    """What `write_pool_gallery` wrote.

    Args:
        out_dir: The output folder.
        index_path: The grid page, ``index.html``.
        table_path: The rollout table of the same renders.
        records: The ``results.jsonl`` records, in pool order.
        seconds: Wall time of the renders.
    """

    out_dir: Path
    index_path: Path
    table_path: Path
    records: list[dict[str, Any]]
    seconds: float

    def failed(self) -> list[str]:
        """Ids of the references that did not render ``ok`` (or were not scored)."""
        return [
            str(r["id"])
            for r in self.records
            if (r.get("render") or {}).get("status") != "ok" or r.get("reward") is None
        ]


def pool_items(references: Sequence[Reference]) -> list[RolloutItem]:
    """The references as rollout items (rendered as they are, against their own prompts).

    Args:
        references: The references.

    Returns:
        One item per reference; its ``metadata`` holds the tier and the measured metadata.
    """
    return [
        RolloutItem(
            id=ref.id,
            reply=ref.source,
            prompt=ref.prompt,
            task_id=ref.task_id,
            origin=f"reference_pool/{ref.file}",
            metadata={"tier": ref.tier, "measured": dict(ref.metadata)},
        )
        for ref in references
    ]


def _measured(meta: Mapping[str, Any]) -> str:
    mu, sigma = meta.get("hpsv3_mu"), meta.get("hpsv3_sigma")
    hps = "not measured" if mu is None else f"{fmt(mu, 2)} &plusmn; {fmt(sigma, 2)}"
    repeats = meta.get("repeats")
    identical = meta.get("deterministic")
    same = "&ndash;" if identical is None else ("yes" if identical else "<b>no</b>")
    items = [
        ("render", f"{fmt(meta.get('render_ms'), 0)} ms on {esc(meta.get('backend') or '?')}"),
        ("coverage", fmt(meta.get("paint_coverage"), percent=True)),
        ("heuristic", fmt(meta.get("heuristic_score"), 2)),
        ("HPSv3", hps),
        ("repeats", f"{esc(repeats if repeats is not None else '?')}, identical: {same}"),
        ("measured", esc(meta.get("measured_at") or "never")),
    ]
    return '<dl class="meta">' + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in items) + "</dl>"


def _card(record: Mapping[str, Any]) -> str:
    status = status_of(record)
    meta = (record.get("metadata") or {}).get("measured") or {}
    sketch = record.get("sketch")
    source = f' &middot; <a href="{esc(quote(str(sketch)))}">source</a>' if sketch else ""
    return (
        f'<figure class="ref" id="ref-{esc(record.get("id"))}" '
        f'data-tier="{esc((record.get("metadata") or {}).get("tier"))}">'
        f"{picture(record, status, lazy=True)}"
        f'<figcaption><div class="id">{esc(record.get("id"))}</div>'
        f'<div class="prompt">{esc(record.get("prompt"))}</div>'
        f"{_measured(meta)}"
        f"<div>this render: {badge(status)} reward {fmt(record.get('reward'))}{source}</div>"
        "</figcaption></figure>"
    )


def _task_order(task_ids: set[str]) -> list[str]:
    # The task set's own order (subject by subject), then any task a copied pool adds.
    shipped = [task.id for task in load_tasks()]
    return [t for t in shipped if t in task_ids] + sorted(task_ids - set(shipped))


def render_pool_page(
    records: Sequence[Mapping[str, Any]],
    title: str | None = None,
    info: Mapping[str, Any] | None = None,
) -> str:
    """Builds the grid page: tasks as rows, tiers as columns.

    Args:
        records: ``results.jsonl`` records of the pool's renders, each with ``task_id`` and
            ``metadata`` holding ``tier`` and ``measured`` (what `pool_items` gives).
        title: The page title.
        info: Facts shown under the title (scorer, backend, seconds...).

    Returns:
        The HTML text.
    """
    title = title or "sketch_env reference pool"
    cells: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for record in records:
        tier = str((record.get("metadata") or {}).get("tier"))
        cells.setdefault((str(record.get("task_id")), tier), []).append(record)
    tasks = _task_order({task for task, _ in cells})
    prompts = {task.id: task.prompt for task in load_tasks()}
    holes = [(task, tier) for task in tasks for tier in TIERS if (task, tier) not in cells]
    without = [task for task in prompts if task not in tasks]
    per_tier = {tier: sum(len(v) for (_, t), v in cells.items() if t == tier) for tier in TIERS}
    facts: dict[str, Any] = {
        "references": len(records),
        "tasks": len(tasks),
        **{tier: count for tier, count in per_tier.items()},
        "tiers missing in a task": len(holes),
        **(info or {}),
    }
    if without:
        facts["shipped tasks with no reference"] = ", ".join(without)

    rows = []
    for task in tasks:
        row = [
            f'<th class="task" scope="row"><div class="taskname">{esc(task)}</div>'
            f'<div class="taskprompt">{esc(prompts.get(task, ""))}</div></th>'
        ]
        for tier in TIERS:
            members = cells.get((task, tier), [])
            inner = (
                f'<div class="refs">{"".join(_card(r) for r in members)}</div>'
                if members
                else f'<div class="missing">no {tier} reference</div>'
            )
            row.append(f'<td data-tier="{tier}">{inner}</td>')
        rows.append(f'<tr data-task="{esc(task)}">{"".join(row)}</tr>')
    head = '<th class="task">Task</th>' + "".join(f'<th class="tier">{t}</th>' for t in TIERS)
    content = f"""<div class="controls">
  <a href="{TABLE_PAGE}">every render as a sortable table</a>
  <span class="counts">rows: tasks; columns: tiers, best first</span>
</div>
<table class="pool">
<thead><tr>{head}</tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody>
</table>"""
    return page_shell(title, facts, content, "", PAGE_CSS)


def write_pool_gallery(
    evaluator: Evaluator,
    out_dir: str | os.PathLike[str],
    *,
    path: str | os.PathLike[str] | None = None,
    seed: int = MEASURE_SEED,
    title: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> PoolGallery:
    """Renders every reference once and writes the grid page and the table page.

    Args:
        evaluator: Renders and scores (its renderer's deadline should clear the heaviest
            reference; ``sketch-env pool gallery`` uses 60 s).
        out_dir: The output folder (created; an earlier gallery's files are replaced).
        path: Pool folder; ``None`` finds the shipped pool.
        seed: Render seed (`MEASURE_SEED`, as the metadata was measured).
        title: The grid page's title.
        progress: Called with ``(done, total)`` as renders finish.

    Returns:
        A `PoolGallery`.

    Raises:
        sketch_env.catalog.references.ReferencePoolError: If the pool is missing or malformed.
    """
    folder = find_pool_dir(path).resolve()
    refs = load_reference_pool(folder)
    started = time.perf_counter()
    out = Path(out_dir)
    run = run_rollouts(
        pool_items(refs),
        out,
        evaluator,
        seeds=[seed],
        progress=progress,
        title=f"{title or 'Reference pool'}: every render",
    )
    seconds = time.perf_counter() - started
    # run_rollouts wrote its table as index.html; the grid takes that name, as the page a
    # person opens first, and the table moves beside it.
    table = run.gallery_path.replace(out / TABLE_PAGE)
    info = {
        "pool": str(folder),
        "seed": seed,
        "scorer": evaluator.scorer.name,
        "backend": evaluator.renderer.backend,
        "seconds": f"{seconds:.1f}",
    }
    index = out / "index.html"
    index.write_text(render_pool_page(run.records, title=title, info=info), encoding="utf-8")
    return PoolGallery(out, index, table, run.records, round(seconds, 2))
