"""Draws the pictures in docs/reward.md from the reports of ``sketch-env reward-check``.

The figures of the docs are measured by the project's own commands; this script only lays their
pictures out, so that the docs show what the numbers are about and can be drawn again:

    sketch-env reward-check --resolution --scorer vision --out runs/res-vision
    sketch-env reward-check --resolution --out runs/res-anchored
    python scripts/docs_pictures.py ladders runs/res-vision runs/res-anchored \\
        --out docs/images/ladders.jpg
    sketch-env reward-check --search 100 --search-mode composed --scorer vision --out runs/composed
    python scripts/docs_pictures.py search runs/composed \\
        --out docs/images/search-vision-hardened-composed.jpg
    sketch-env reward-check --search 200 --search-mode blind --scorer vision \\
        --tasks flowers/watercolour,seascape/pastel --out runs/search-vision
    python scripts/docs_pictures.py search runs/search-vision --out docs/images/search-vision.jpg
    # the same search with --scorer 'vision?refit_every=16', drawn with --label
    sketch-env reward-check --search 500 --search-mode references --out runs/mutants
    python scripts/docs_pictures.py search runs/mutants --out docs/images/search-vision-mutants.jpg
    # and --search 500 --search-mode composed --offline 16: search-vision-composed-500.jpg
    sketch-env rollout --sketches DIR --prompt PROMPT --out runs/row
    python scripts/docs_pictures.py rollout runs/row --title TITLE --out docs/images/X.jpg

``ladders`` draws one row per probe ladder (crude to reference quality, as ordered by hand)
and a row of free compositions, each picture captioned with the reward of both reports;
``search`` draws, per task, the references beside the best pictures the search found;
``rollout`` draws a rollout folder's pictures in one row, each captioned with its reward.
JPEG at quality 85 and 150-pixel pictures keep a sheet near 200 KB.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from sketch_env.rewardcheck.search import load_search_report

CELL = 150
CAPTION = 30
GAP = 6
LABEL_W = 170
FONT = ImageFont.load_default(size=13)
INK, PAPER, MUTED = (20, 20, 20), (255, 255, 255), (110, 110, 110)
#: A row of the sheet: its label and its (picture, caption) cells.
Row = tuple[str, Sequence[tuple[Path | None, str]]]


def _report(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "report.json").read_text("utf-8"))
    return data


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _sheet(rows: Sequence[Row], title: str) -> Image.Image:
    """Rows of (label, [(picture, caption)...]) on white, one picture a cell."""
    columns = max(len(cells) for _, cells in rows)
    width = LABEL_W + columns * (CELL + GAP)
    height = 28 + len(rows) * (CELL + CAPTION + GAP)
    sheet = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(sheet)
    draw.text((6, 6), title, fill=INK, font=FONT)
    for r, (label, cells) in enumerate(rows):
        top = 28 + r * (CELL + CAPTION + GAP)
        for k, line in enumerate(label.split("\n")):
            draw.text((6, top + 6 + 16 * k), line, fill=INK if k == 0 else MUTED, font=FONT)
        for c, (path, caption) in enumerate(cells):
            left = LABEL_W + c * (CELL + GAP)
            if path is not None and path.is_file():
                picture = Image.open(path).convert("RGB")
                sheet.paste(picture.resize((CELL, CELL), Image.Resampling.LANCZOS), (left, top))
            else:
                draw.rectangle((left, top, left + CELL - 1, top + CELL - 1), outline=MUTED)
                draw.text((left + 6, top + 6), "no picture", fill=MUTED, font=FONT)
            draw.text((left + 2, top + CELL + 3), caption, fill=INK, font=FONT)
    return sheet


def ladders(first: Path, second: Path, labels: Sequence[str] = ()) -> Image.Image:
    """The probe ladders and free compositions, captioned with both reports' rewards (``labels``
    names the two scorers in the title; the reports' scorer names by default)."""
    a, b = _report(first), _report(second)
    rewards_b = {rung[0]: rung[3] for ladder in b["ladders"] for rung in ladder["rungs"]}
    rewards_b.update({item[0]: item[2] for item in b["free"]})
    name_a, name_b = labels or (a["scorer"].split(":")[0], b["scorer"].split(":")[0])
    rows: list[tuple[str, list[tuple[Path | None, str]]]] = []
    for ladder in a["ladders"]:
        cells = [
            (
                first / a["images"][rung_id] if rung_id in a["images"] else None,
                f"{_fmt(reward)} / {_fmt(rewards_b.get(rung_id))}",
            )
            for rung_id, _kind, _props, reward in ladder["rungs"]
        ]
        rows.append((ladder["task_id"].replace("/", "\n"), cells))
    free = [
        (
            first / a["images"][item_id] if item_id in a["images"] else None,
            f"{_fmt(reward)} / {_fmt(rewards_b.get(item_id))} (weak {_fmt(weak)})",
        )
        for item_id, _task, reward, weak in a["free"]
    ]
    for start in range(0, len(free), 6):
        rows.append(("free\ncompositions", free[start : start + 6]))
    title = (
        f"Ladders, crude to reference quality (ordered by hand), and free compositions: "
        f"reward under {name_a} / under {name_b} (weak: the task's weak median under {name_a})"
    )
    return _sheet(rows, title)


def search(folder: Path, label: str | None = None, best: int = 4) -> Image.Image:
    """Per task: its references, then the best pictures the search found (``label`` names the
    scorer in the title; the report's scorer name by default)."""
    report = _report(folder)
    # The mutants' margin over the best reference, as the report computes it (older reports
    # did not store it).
    margins = {t.task.id: t.mutant_margin for t in load_search_report(folder / "report.json").tasks}
    rows: list[tuple[str, list[tuple[Path | None, str]]]] = []
    for task in report["tasks"]:
        refs = [
            (folder / c["image"] if c.get("image") else None, f"ref {_fmt(c['reward'])}")
            for c in task["references"]
        ]
        found = sorted(
            (c for run in task["runs"].values() for c in run["candidates"] if c.get("image")),
            key=lambda c: -(c["reward"] if c["reward"] is not None else -99.0),
        )[:best]
        cells = refs + [(folder / c["image"], f"found {_fmt(c['reward'])}") for c in found]
        name = f"{task['task']['id'].replace('/', chr(10))}\ngap {_fmt(task['gap'])}"
        margin = margins.get(task["task"]["id"])
        if margin is not None:
            name += f"\nover best ref {margin:+.2f}"
        rows.append((name, cells))
    title = (
        f"What a {'/'.join(report['modes'])} search of {report['budget']} evaluations found "
        f"under {label or report['scorer']}: the task's references, then its best finds"
    )
    return _sheet(rows, title)


def rollout(folder: Path, title: str) -> Image.Image:
    """A rollout folder's pictures in one row, in its order, each captioned with its reward."""
    lines = (folder / "results.jsonl").read_text("utf-8").splitlines()
    results = [json.loads(line) for line in lines if line.strip()]
    cells = [
        (folder / r["image"] if r.get("image") else None, f"{r['id'][:14]} {_fmt(r['reward'])}")
        for r in results
    ]
    return _sheet([(str(results[0]["prompt"])[:24] + "\n(prompt)", cells)], title)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="sheet", required=True)
    lad = sub.add_parser("ladders", help="two --resolution reports: ladders and free compositions")
    lad.add_argument("first", type=Path)
    lad.add_argument("second", type=Path)
    lad.add_argument(
        "--labels", nargs=2, default=(), help="the two scorers as the title names them"
    )
    lad.add_argument("--out", type=Path, required=True)
    found = sub.add_parser("search", help="one --search report: references and best finds")
    found.add_argument("folder", type=Path)
    found.add_argument("--label", help="the scorer as the title names it (a spec, say)")
    found.add_argument("--out", type=Path, required=True)
    row = sub.add_parser("rollout", help="one rollout folder: its pictures and rewards")
    row.add_argument("folder", type=Path)
    row.add_argument("--title", required=True)
    row.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.sheet == "ladders":
        sheet = ladders(args.first, args.second, args.labels)
    elif args.sheet == "rollout":
        sheet = rollout(args.folder, args.title)
    else:
        sheet = search(args.folder, args.label)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(args.out, quality=85, optimize=True)
    print(f"{args.out}: {sheet.width}x{sheet.height}, {args.out.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
