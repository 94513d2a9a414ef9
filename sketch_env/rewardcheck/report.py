"""The reward check's outputs: terminal tables and HTML pages.

For the labelled check, a summary table and a page of every mis-ordered pair; for the search
(`sketch_env.rewardcheck.search`), a table of the adversarial gap per task and a page of the
pictures the search found beside the task's references.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from sketch_env.reward.breakdown import component_value
from sketch_env.rewardcheck.check import Entry, RewardCheckReport
from sketch_env.rewardcheck.resolution import ResolutionReport, resolution_rows
from sketch_env.rewardcheck.search import Candidate, SearchReport, TaskSearch

__all__ = [
    "saturation_lines",
    "search_summary_rows",
    "seed_spread_line",
    "seed_spread_rows",
    "summary_rows",
    "write_html",
    "write_search_html",
]


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def summary_rows(report: RewardCheckReport) -> list[tuple[str, str, str, str, str]]:
    """Rows ``(kind, family, pairs, accuracy, hack win-rate)``, kinds in a fixed order."""
    rows: list[tuple[str, str, str, str, str]] = []
    for kind in ("tier", "degradation", "hack"):
        for name, family in sorted(report.families.items()):
            if family.kind != kind:
                continue
            win = _pct(family.win_rate) if kind == "hack" else ""
            rows.append((kind, name, str(family.pairs), _pct(family.accuracy), win))
    return rows


def seed_spread_rows(report: RewardCheckReport) -> list[tuple[str, str, str, str, str]]:
    """Rows ``(reference, mean, std, min-max, range)`` of the seed spread, widest first."""
    spread = report.seed_spread()
    if spread is None:
        return []
    refs = sorted(spread["references"].items(), key=lambda item: -item[1]["range"])
    return [
        (
            ref,
            f"{r['mean']:.3f}",
            f"{r['std']:.3f}",
            f"{r['min']:.3f}-{r['max']:.3f}",
            f"{r['range']:.3f}",
        )
        for ref, r in refs
    ]


def seed_spread_line(report: RewardCheckReport) -> str:
    """One line on the pooled seed spread (or how to measure it)."""
    spread = report.seed_spread()
    if spread is None:
        return "seed spread: not measured (one seed); run with --seeds N, N >= 2"
    pooled = spread["pooled"]
    between = pooled["between_std"]
    ratio = pooled["within_over_between"]
    apart = f"; references differ by std {between:.3f} (ratio {ratio:.2f})" if between else ""
    return (
        f"seed spread over {len(spread['seeds'])} seeds: a reference's reward moves by std "
        f"{pooled['within_std']:.3f} with the seed alone (widest: {pooled['widest']}, range "
        f"{pooled['max_range']:.3f}){apart}"
    )


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value + 0.0:.3f}"  # + 0.0: a penalty of -0.0 reads as 0.000
    return html.escape(str(value))


def _card(entry: Entry, role: str) -> str:
    components = entry.components or {}
    terms = {
        k: component_value(components, k)
        for k in ("status", "preference", "coverage", "coverage_term", "dark_mass_penalty")
        if component_value(components, k) is not None
    }
    image = (
        f'<img src="{html.escape(entry.image)}" alt="{html.escape(entry.id)}" loading="lazy">'
        if entry.image
        else '<div class="noimg">no picture</div>'
    )
    items = "".join(f"<li>{html.escape(k)}: {_fmt(v)}</li>" for k, v in terms.items())
    reward = "None" if entry.reward is None else f"{entry.reward:.3f}"
    return (
        f'<div class="card"><div class="role">{role}</div>{image}'
        f'<div class="id">{html.escape(entry.id)}</div><div class="reward">reward {reward}</div>'
        f'<div class="status">{html.escape(entry.status)}</div><ul>{items}</ul></div>'
    )


def write_html(report: RewardCheckReport, out_dir: str | Path) -> Path:
    """Writes ``index.html``: the summary and every mis-ordered pair side by side.

    Args:
        report: The report (its pictures saved under ``out_dir/images``).
        out_dir: The output folder.

    Returns:
        The page's path.
    """
    out = Path(out_dir)
    entries = {e.id: e for e in report.entries}

    rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
        for row in summary_rows(report)
    )
    pairs = []
    for pair in report.misordered():
        winner, loser = entries[pair.winner], entries[pair.loser]
        verdict = "tie" if pair.outcome == 0.5 else "wrong order"
        pairs.append(
            f'<section class="pair"><h3>{html.escape(pair.family)} — {verdict}</h3>'
            f'<div class="row">{_card(winner, "should win")}{_card(loser, "should lose")}</div>'
            "</section>"
        )
    summary = {k: report.accuracy(k) for k in ("tier", "degradation", "hack")}
    spread_rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
        for row in seed_spread_rows(report)
    )
    spread = (
        f"<table><tr><th>reference</th><th>mean</th><th>std</th><th>min-max</th>"
        f"<th>range</th></tr>{spread_rows}</table>"
        if spread_rows
        else ""
    )
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>Reward check: {html.escape(report.scorer)}</title>
<style>
body {{ font: 14px system-ui, sans-serif; margin: 24px; color: #222; }}
table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #ccc; padding: 3px 8px; }}
.row {{ display: flex; gap: 16px; }}
.card {{ width: 300px; border: 1px solid #ddd; padding: 8px; border-radius: 6px; }}
.card img, .noimg {{ width: 300px; height: 300px; object-fit: contain; background: #f4f4f4; }}
.role {{ font-weight: 600; }} .reward {{ font-size: 16px; }} .id {{ font-size: 11px; color: #666; }}
</style></head><body>
<h1>Reward check</h1>
<p>Scorer <b>{html.escape(report.scorer)}</b>, backend {html.escape(report.backend)},
seeds {html.escape(json.dumps(report.seeds))}, {report.seconds:.0f} s.
Accuracy: tiers {_pct(summary["tier"])}, degradations {_pct(summary["degradation"])},
hacks {_pct(summary["hack"])}.</p>
<table><tr><th>kind</th><th>family</th><th>pairs</th><th>accuracy</th><th>hack win-rate</th></tr>
{rows}</table>
<h2>Seed spread</h2>
<p>{html.escape(seed_spread_line(report))}. The same sketch at another render seed: p5.brush's
textures depend on it.</p>
{spread}
<h2>Mis-ordered pairs ({len(pairs)})</h2>
{"".join(pairs) or "<p>None: every pair was ordered correctly.</p>"}
</body></html>
"""
    target = out / "index.html"
    target.write_text(page, encoding="utf-8")
    return target


# --------------------------------------------------------------------------------------------
# The search's outputs (`sketch-env reward-check --search N`).
# --------------------------------------------------------------------------------------------


def _num(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def search_summary_rows(report: SearchReport) -> list[tuple[str, ...]]:
    """Rows ``(task, references min/median/max, best per mode..., best, gap, verdict)``.

    Args:
        report: The search's report.

    Returns:
        One row per task, in the report's order; the mode columns follow ``report.modes``.
    """
    rows: list[tuple[str, ...]] = []
    for task in report.tasks:
        stats = task.reference_stats()
        refs = f"{_num(stats['min'])} / {_num(stats['median'])} / {_num(stats['max'])}"
        per_mode = []
        for mode in report.modes:
            run = task.runs.get(mode)
            best = run.best if run is not None else None
            per_mode.append(_num(best.reward if best is not None else None))
        best = task.best
        gap = task.gap
        verdict = "unmeasured" if gap is None else ("holds" if gap <= 0 else "beaten")
        rows.append(
            (
                task.task.id,
                f"{len(task.references)}: {refs}",
                *per_mode,
                _num(best.reward if best is not None else None),
                "-" if gap is None else f"{gap:+.2f}",
                verdict,
            )
        )
    return rows


def saturation_lines(task: TaskSearch) -> tuple[str, str]:
    """Two phrases about the task's top candidates: what they drive to its cap that the
    references do not, and what sits at its cap in both (penalties that never fire).

    Args:
        task: One task's search.

    Returns:
        ``(maxed, also_in_references)``, e.g. ``("coverage_term 5/5 (refs 0.18), ...",
        "scorer:noise_factor, ...")``.
    """
    maxed, shared = [], []
    for s in task.saturation():
        if s.cap is None or s.at_cap == 0:
            continue
        in_refs = s.reference_mean is not None and abs(s.reference_mean - s.cap) <= 1e-3
        if in_refs and s.saturated:
            shared.append(s.name)
        else:
            refs = _num(s.reference_mean)
            maxed.append((s.at_cap, f"{s.name} {s.at_cap}/{s.top} (refs {refs})"))
    maxed.sort(key=lambda item: -item[0])
    return ", ".join(text for _, text in maxed) or "none", ", ".join(shared) or "none"


def _at_cap(name: str, value: float) -> bool:
    """A scorer term that is a fraction by the heuristic's naming (``*_term``, ``*_factor``,
    ``base``) and sits at 1 (`TermSaturation`'s rule)."""
    return (name.endswith(("_term", "_factor")) or name == "base") and value >= 0.999


def _search_card(c: Candidate, label: str) -> str:
    comps = c.components or {}
    contributions = comps.get("contributions") or {}
    terms = comps.get("scorer_terms") or {}
    image = (
        f'<img src="{html.escape(c.image)}" alt="{html.escape(c.id)}" loading="lazy">'
        if c.image
        else '<div class="noimg">no picture</div>'
    )
    parts = "".join(
        f"<li>{html.escape(k)}: {_fmt(float(v))}</li>" for k, v in contributions.items()
    )
    fields = "".join(
        f"<li>{html.escape(k)}: {_fmt(component_value(comps, k))}</li>"
        for k in ("preference", "coverage", "coverage_term", "dark_mass", "pairwise_prob")
        if isinstance(component_value(comps, k), int | float)
    )
    term_items = "".join(
        f'<li class="{"cap" if _at_cap(k, float(v)) else ""}">{html.escape(k)}: '
        f"{_fmt(float(v))}</li>"
        for k, v in terms.items()
    )
    reward = "None" if c.reward is None else f"{c.reward:.3f}"
    lineage = html.escape(" ← ".join(c.parents)) if c.parents else ""
    ops = html.escape(", ".join(c.ops))
    return (
        f'<div class="card"><div class="role">{html.escape(label)}</div>{image}'
        f'<div class="reward">reward {reward}</div><div class="id">{html.escape(c.id)}</div>'
        f'<div class="status">{html.escape(c.status)}</div>'
        f'<div class="ops">{ops}{" from " + lineage if lineage else ""}</div>'
        f"<b>contributions</b><ul>{parts}</ul><b>breakdown</b><ul>{fields}</ul>"
        f"<details><summary>scorer terms</summary><ul>{term_items}</ul></details>"
        f"<details><summary>source</summary><pre>{html.escape(c.source)}</pre></details></div>"
    )


def _trajectory_svg(task: TaskSearch) -> str:
    """A small line chart: best so far (solid) and generation median (dashed) per mode, and
    the references' median (grey)."""
    width, height, pad = 480, 200, 30
    colours = {"blind": "#c0392b", "references": "#2471a3", "composed": "#7d3c98"}
    series = {m: r.generations for m, r in task.runs.items() if r.generations}
    values = [
        v
        for gens in series.values()
        for g in gens
        for v in (g.best_so_far, g.median)
        if v is not None
    ]
    median = task.reference_stats()["median"]
    if median is not None:
        values.append(median)
    if not values:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    longest = max((len(g) for g in series.values()), default=1)

    def xy(i: int, v: float) -> str:
        x = pad + (width - 2 * pad) * (i / max(1, longest - 1))
        y = height - pad - (height - 2 * pad) * ((v - low) / span)
        return f"{x:.1f},{y:.1f}"

    lines = []
    for mode, gens in series.items():
        colour = colours.get(mode, "#555")
        for attr, dash in (("best_so_far", ""), ("median", ' stroke-dasharray="4 3"')):
            points = [
                xy(i, getattr(g, attr)) for i, g in enumerate(gens) if getattr(g, attr) is not None
            ]
            lines.append(
                f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} '
                f'points="{" ".join(points)}"/>'
            )
    if median is not None:
        y = xy(0, median).split(",")[1]
        lines.append(
            f'<line x1="{pad}" x2="{width - pad}" y1="{y}" y2="{y}" stroke="#999" '
            'stroke-width="1.5"/>'
        )
    legend = ", ".join(
        f'<span style="color: {colours.get(m, "#555")}">{html.escape(m)}</span>' for m in series
    )
    labels = (
        f'<text x="2" y="{pad + 4}" font-size="10">{high:.2f}</text>'
        f'<text x="2" y="{height - pad + 4}" font-size="10">{low:.2f}</text>'
        f'<text x="{pad}" y="{height - 8}" font-size="10">first generation</text>'
        f'<text x="{width - pad - 70}" y="{height - 8}" font-size="10">last ({longest} in all)'
        "</text>"
    )
    return (
        f'<svg class="chart" width="{width}" height="{height}" role="img">{labels}'
        + "".join(lines)
        + f'</svg><p class="legend">{legend}: the best reward so far (solid) and each '
        "generation's median (dashed); the references' median in grey.</p>"
    )


def write_search_html(report: SearchReport, out_dir: str | Path, per_run: int = 4) -> Path:
    """Writes ``index.html``: per task, the best pictures each search found beside the task's
    references, with their rewards and breakdowns, the trajectory and the saturated terms.

    One self-contained page (no scripts, no external files but the PNGs under ``images/``).

    Args:
        report: The report (its pictures saved under ``out_dir/images`` by `run_search`).
        out_dir: The output folder.
        per_run: Best candidates shown per run.

    Returns:
        The page's path.
    """
    out = Path(out_dir)
    head = "".join(f"<th>{html.escape(m)} best</th>" for m in report.modes)
    rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
        for row in search_summary_rows(report)
    )
    sections = []
    for task in report.tasks:
        stats = task.reference_stats()
        maxed, shared = saturation_lines(task)
        refs = "".join(_search_card(r, "reference") for r in task.references)
        winners = "".join(
            _search_card(run.best, f"best of {mode}")
            for mode, run in task.runs.items()
            if run.best is not None
        )
        runs = []
        for mode, run in task.runs.items():
            cards = "".join(
                _search_card(c, f"{mode} #{i + 1}") for i, c in enumerate(run.ranked()[:per_run])
            )
            trajectory = "".join(
                f"<tr><td>{g.generation}</td><td>{g.evaluated}</td><td>{_num(g.best)}</td>"
                f"<td>{_num(g.median)}</td><td>{_num(g.best_so_far)}</td><td>{g.gate_failed}"
                f"</td><td>{g.infra_failed}</td><td>{g.seconds:.0f}</td></tr>"
                for g in run.generations
            )
            runs.append(
                f"<h3>{html.escape(mode)}: {len(run.candidates)} evaluations, "
                f"{run.seconds:.0f} s, statuses {html.escape(json.dumps(run.status_counts()))}"
                f'</h3><div class="row">{cards}</div><details><summary>trajectory</summary>'
                "<table><tr><th>generation</th><th>evaluated</th><th>best</th><th>median</th>"
                "<th>best so far</th><th>gate failed</th><th>no reward</th><th>s</th></tr>"
                f"{trajectory}</table></details>"
            )
        gap = task.gap
        sections.append(
            f"<section><h2>{html.escape(task.task.id)}: gap "
            f"{'-' if gap is None else f'{gap:+.2f}'}</h2>"
            f"<p>Prompt: <i>{html.escape(task.task.prompt)}</i>. References "
            f"min/median/max {_num(stats['min'])} / {_num(stats['median'])} / "
            f"{_num(stats['max'])}.</p>"
            + (
                f"<p>The best mutant of the references against the best reference: "
                f"{task.mutant_margin:+.2f}.</p>"
                if task.mutant_margin is not None
                else ""
            )
            + "".join(f'<p class="warn">{html.escape(w)}</p>' for w in task.warnings())
            + f"<p>Top {task.top} at their cap: {html.escape(maxed)}.<br>"
            f"At their cap in the references too: {html.escape(shared)}.</p>"
            f'<h3>The references beside the best found</h3><div class="row">{refs}{winners}'
            f"</div>{_trajectory_svg(task)}{''.join(runs)}</section>"
        )
    verdict = "every gap ≤ 0" if report.passed else "search beat the references"
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>Reward search: {html.escape(report.scorer)}</title>
<style>
body {{ font: 14px system-ui, sans-serif; margin: 24px; color: #222; }}
table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #ccc; padding: 3px 8px; }}
.row {{ display: flex; gap: 12px; flex-wrap: wrap; align-items: flex-start; }}
.card {{ width: 300px; border: 1px solid #ddd; padding: 8px; border-radius: 6px; }}
.card img, .noimg {{ width: 300px; height: 300px; object-fit: contain; background: #f4f4f4; }}
.card ul {{ margin: 2px 0 6px; padding-left: 18px; font-size: 12px; }}
.role {{ font-weight: 600; }} .reward {{ font-size: 16px; }}
.id, .ops, .status {{ font-size: 11px; color: #666; }}
li.cap {{ color: #b03a2e; font-weight: 600; }} .warn {{ color: #b03a2e; }}
pre {{ font-size: 10px; max-height: 300px; overflow: auto; background: #f8f8f8; }}
section {{ margin-top: 28px; border-top: 2px solid #ddd; }}
</style></head><body>
<h1>Reward search</h1>
<p>Scorer <b>{html.escape(report.scorer)}</b>, backend {html.escape(report.backend)}, seed
{report.seed}, {report.evaluations} search evaluations (+{report.reference_evaluations}
references) in generations of {report.population}, {report.seconds:.0f} s. The adversarial
gap is the best reward found minus the task's median reference reward; a sound reward keeps
it at or below 0. Verdict: <b>{verdict}</b>. Terms in red are at their cap.</p>
<table><tr><th>task</th><th>references: min / median / max</th>{head}<th>best</th><th>gap</th>
<th>verdict</th></tr>{rows}</table>
{"".join(sections)}
</body></html>
"""
    target = out / "index.html"
    target.write_text(page, encoding="utf-8")
    return target


# --------------------------------------------------------------------------------------------
# The resolution check's page (`sketch-env reward-check --resolution`).
# --------------------------------------------------------------------------------------------


def _figure(report: ResolutionReport, item_id: str, caption: str) -> str:
    path = report.images.get(item_id)
    picture = (
        f'<img src="{html.escape(path)}" alt="{html.escape(item_id)}">'
        if path
        else '<div class="noimg"></div>'
    )
    return f"<figure>{picture}<figcaption>{html.escape(caption)}</figcaption></figure>"


def write_resolution_html(report: ResolutionReport, out_dir: str | Path) -> Path:
    """Writes ``index.html``: the figures, every ladder in its hand order, the free
    compositions beside their task's references, each picture with its reward.

    Args:
        report: The resolution report.
        out_dir: The folder holding ``images/``.

    Returns:
        The page's path.
    """
    rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
        for row in resolution_rows(report)
    )
    sections = []
    for ladder in report.ladders:
        figures = [
            _figure(
                report,
                rung_id,
                f"{k + 1}. {kind}{'' if props is not False else ', no props'}: {_num(reward)}",
            )
            for k, (rung_id, kind, props, reward) in enumerate(ladder.rungs)
        ]
        slug = ladder.task_id.replace("/", "-")
        figures += [
            _figure(report, f"{slug}-{name}", f"{name}: {_num(value)}")
            for name, value in ladder.outcome.items()
        ]
        free = [
            _figure(report, item_id, f"free: {_num(reward)} (weak median {_num(weak)})")
            for item_id, task_id, reward, weak in report.free
            if task_id == ladder.task_id
        ]
        sections.append(
            f"<h2>{html.escape(ladder.task_id)}: “{html.escape(ladder.prompt)}”</h2>"
            f'<div class="row">{"".join(figures)}</div>'
            f'<h3>Free compositions</h3><div class="row">{"".join(free)}</div>'
        )
    references = [
        _figure(report, ref_id, f"{ref_id} ({report.tier_of.get(ref_id, '')}): {_num(value)}")
        for ref_id, value in report.references.items()
    ]
    sections.append(f'<h2>References</h2><div class="row">{"".join(references)}</div>')
    how = (
        "held out (refitted without each one, quality without its task)"
        if report.held_out
        else "as they are"
    )
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>Reward resolution: {html.escape(report.scorer)}</title>
<style>
body {{ font: 14px system-ui, sans-serif; margin: 24px; color: #222; }}
table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #ccc; padding: 3px 8px; }}
.row {{ display: flex; flex-wrap: wrap; gap: 10px; }}
figure {{ margin: 0; width: 200px; font-size: 12px; }}
figure img, .noimg {{ width: 200px; height: 200px; object-fit: contain; background: #f4f4f4; }}
</style></head><body>
<h1>Reward resolution</h1>
<p>Scorer <b>{html.escape(report.scorer)}</b>; references scored {how};
maximum reward {report.top:.2f}; {report.seconds:.0f} s. Ladders are in the order set by hand
before any scorer saw them.</p>
<table><tr><th>measure</th><th>figure</th><th>verdict</th></tr>{rows}</table>
{"".join(sections)}
</body></html>
"""
    target = Path(out_dir) / "index.html"
    target.write_text(page, encoding="utf-8")
    return target
