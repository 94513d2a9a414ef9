"""The reward check's outputs: a terminal table and an HTML page of every mis-ordered pair."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from sketch_env.rewardcheck.check import Entry, RewardCheckReport

__all__ = ["seed_spread_line", "seed_spread_rows", "summary_rows", "write_html"]


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
        return f"{value:.3f}"
    return html.escape(str(value))


def _card(entry: Entry, role: str) -> str:
    components = entry.components or {}
    terms = {
        k: components.get(k)
        for k in ("status", "preference", "coverage", "coverage_term", "dark_mass_penalty")
        if components.get(k) is not None
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
