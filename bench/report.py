"""Presenting benchmark results: a terminal table (rich when installed) and the JSON file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_NAMES = {
    "a_trivial": "(a) trivial sketch, s/render",
    "b_heavy": "(b) heavy watercolour, s/render",
    "c_group": "(c) GRPO group of 8, renders/s",
}


def write_json(results: dict[str, Any], path: Path) -> Path:
    """Writes the results as indented JSON, creating the folder.

    Args:
        results: `bench.runner.run_benchmark` output.
        path: Target file.

    Returns:
        The path written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2) + "\n", "utf-8")
    return path


def _fmt(stat: dict[str, Any] | None) -> str:
    if not stat:
        return "-"
    return f"{stat['median']:.3g} ({stat['min']:.3g}–{stat['max']:.3g})"


def rows(results: dict[str, Any]) -> list[list[str]]:
    """The main table: one row per workload, medians (min–max) and ratios against baseline."""
    table = []
    for key, label in _NAMES.items():
        if key not in results:
            continue
        w = results[key]
        target = results.get("targets", {}).get(key, {})
        ratio = w["ratios"].get("ours")
        paired = w.get("paired_ratio_median", {}).get("ours")
        met = "yes" if target.get("met") else "NO"
        table.append(
            [
                label,
                _fmt(w["results"].get("baseline")),
                _fmt(w["results"].get("ours")),
                _fmt(w["results"].get("ours_cold")),
                _fmt(w["results"].get("ours_fresh_context")),
                (f"{ratio:.2f}x" if ratio is not None else "-")
                + (f" (paired {paired:.2f}x)" if paired is not None else ""),
                f"≥{target.get('target_ratio', 0):g}x: {met}",
            ]
        )
    return table


HEADERS = [
    "workload",
    "baseline",
    "ours",
    "ours, no prewarm",
    "ours, fresh context per render",
    "ours vs baseline",
    "target",
]


def render_text(results: dict[str, Any]) -> str:
    """A plain-text version of the report (for logs and when rich is missing)."""
    lines = [" | ".join(HEADERS)]
    lines += [" | ".join(r) for r in rows(results)]
    lines += _extra_lines(results)
    return "\n".join(lines)


def _extra_lines(results: dict[str, Any]) -> list[str]:
    lines = []
    meta = results.get("meta", {})
    lines.append(
        f"load average at start {meta.get('load_average_start')}, "
        f"at end {meta.get('load_average_end')} on {meta.get('cpus')} CPUs"
    )
    if "a_trivial" in results and "ours_back_to_back" in results["a_trivial"]:
        lines.append(
            "(a) ours, 8 trivial renders back to back: "
            + _fmt(results["a_trivial"]["ours_back_to_back"])
            + " s"
        )
    for name, m in results.get("memory_peak_rss_mb", {}).items():
        lines.append(
            f"peak RSS {name} (pool {m['pool_size']}): {m['peak_rss_mb']:.0f} MB "
            f"(PSS {m.get('peak_pss_mb', 0):.0f} MB) in up to {m['peak_processes']} processes"
        )
    for key in ("b_heavy", "c_group"):
        for name, cpu in results.get(key, {}).get("cpu_seconds_by_process_type", {}).items():
            parts = ", ".join(f"{k} {v:.1f}" for k, v in cpu.items())
            lines.append(f"CPU-s {key} {name}: {parts}")
    scaling = results.get("scaling", {})
    for size, s in scaling.get("group_throughput_by_pool_size", {}).items():
        lines.append(
            f"pool {size}: group {_fmt(s['renders_per_s'])} renders/s, "
            f"peak RSS {s['peak_rss_mb']:.0f} MB (PSS {s.get('peak_pss_mb', 0):.0f} MB)"
        )
    for n, s in scaling.get("seconds_by_textured_fills", {}).items():
        lines.append(f"{n} textured fills: {_fmt(s)} s")
    for name, e in results.get("experiments", {}).items():
        lines.append(
            f"experiment {name}: heavy {_fmt(e['heavy_s'])} s, group "
            f"{_fmt(e['group_renders_per_s'])} renders/s, peak RSS {e['peak_rss_mb']:.0f} MB"
        )
    for failure in results.get("failures", []):
        lines.append(f"FAILED: {failure}")
    return lines


def print_report(results: dict[str, Any]) -> None:
    """Prints the table (rich when available) and the extra figures."""
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        print(render_text(results))
        return
    console = Console()
    table = Table(title="sketch_env renderer vs baseline (median, min–max)")
    for header in HEADERS:
        table.add_column(header, justify="left" if header == "workload" else "right")
    for row in rows(results):
        table.add_row(*row)
    console.print(table)
    for line in _extra_lines(results):
        console.print(line, highlight=False)
