"""Rollouts as a Hugging Face dataset: one row per rollout, the picture as an ``Image``.

`export_rows` reads a folder in the run-folder format (`sketch_env.evaluation.runs`): a rollout
folder (``sketch-env rollout``, the reference pool included: ``sketch-env rollout`` renders it
by default), an artifacts directory written during training (one folder per training run, a
``step-NNNNNN`` folder per logged step), one training run's folder, or an artifacts directory
written before runs had folders. `to_dataset` turns the rows into a `datasets.Dataset`:

- ``image``: the picture (an ``Image`` feature holding the PNG's bytes, so the saved dataset
  is self-contained), ``None`` when nothing was painted;
- where it came from: ``source`` (``rollout`` or ``training``), ``run``, ``step``, ``group``,
  ``n``, ``id``, ``origin``, ``episode``, ``turn``;
- what was asked: ``task_id``, ``prompt``, ``seed``, and ``sketch`` (the source that ran);
- what came of it: ``status``, ``reward``, ``scorer``, ``score``, ``render_status``,
  ``render_ms``, ``queue_ms``, ``backend``, ``js_errors``, ``gate_passed``, ``gate_reasons``;
- every reward component: ``component_<name>`` for each scalar of the reward's breakdown
  (``preference``, ``coverage_term``, ``dark_mass_penalty``, ``infra_error``...) and
  ``contribution_<term>`` for each weighted term of the sum.

``sketch-env export DIR --to-dataset OUT`` saves it with ``save_to_disk``;
``--push-to-hub REPO`` hands it to ``Dataset.push_to_hub``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sketch_env.evaluation.runs import (
    RESULTS_FILE,
    list_runs,
    load_records,
    load_steps,
    step_dir_name,
)

if TYPE_CHECKING:
    import datasets

__all__ = ["DATASETS_INSTALL", "export_rows", "to_dataset"]

#: What to install when ``datasets`` is missing (it comes with the ``trl`` extra too).
DATASETS_INSTALL = "pip install 'datasets>=3'"

#: Columns every row has, with their types, in order (the components follow).
_FIXED: tuple[tuple[str, str], ...] = (
    ("source", "string"),
    ("run", "string"),
    ("step", "int64"),
    ("group", "int64"),
    ("n", "int64"),
    ("id", "string"),
    ("origin", "string"),
    ("episode", "string"),
    ("turn", "int64"),
    ("task_id", "string"),
    ("prompt", "string"),
    ("seed", "int64"),
    ("sketch", "string"),
    ("status", "string"),
    ("reward", "float64"),
    ("scorer", "string"),
    ("score", "float64"),
    ("render_status", "string"),
    ("render_ms", "float64"),
    ("queue_ms", "float64"),
    ("backend", "string"),
    ("js_errors", "strings"),
    ("gate_passed", "bool"),
    ("gate_reasons", "strings"),
)
#: Breakdown fields that are already columns above, or not scalars.
_NOT_COMPONENTS = {"contributions", "scorer_terms", "reward", "status"}


def _folders(directory: Path) -> list[tuple[Path, str, str | None, int | None]]:
    """``(run folder, source, run, step)`` for every run folder under ``directory``."""
    if (directory / RESULTS_FILE).is_file():
        return [(directory, "rollout", None, None)]
    runs = list_runs(directory)
    if runs:
        return [
            (directory / run / step_dir_name(step), "training", run, step)
            for run in runs
            for step in load_steps(directory / run)
        ]
    # One training run's folder, or an artifacts directory from before runs had folders.
    return [
        (directory / step_dir_name(step), "training", None, step) for step in load_steps(directory)
    ]


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _integer(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _row(folder: Path, record: Mapping[str, Any], source: str, run: str | None) -> dict[str, Any]:
    render = record.get("render") or {}
    gate = record.get("gate") or {}
    score = record.get("score") or {}
    components = record.get("components") or {}
    image = record.get("image")
    picture = folder / str(image) if image else None
    sketch = record.get("sketch")
    sketch_file = folder / str(sketch) if sketch else None
    row: dict[str, Any] = {
        "image": (
            {"bytes": picture.read_bytes(), "path": picture.name}
            if picture is not None and picture.is_file()
            else None
        ),
        "source": source,
        "run": _text(record.get("run", run)),
        "step": _integer(record.get("step")),
        "group": _integer(record.get("group")),
        "n": _integer(record.get("n")),
        "id": _text(record.get("id")),
        "origin": _text(record.get("origin")),
        "episode": _text(record.get("episode")),
        "turn": _integer(record.get("turn")) if record.get("episode") is not None else None,
        "task_id": _text(record.get("task_id")),
        "prompt": _text(record.get("prompt")),
        "seed": _integer(record.get("seed")),
        "sketch": (
            sketch_file.read_text(encoding="utf-8")
            if sketch_file is not None and sketch_file.is_file()
            else None
        ),
        "status": _text(record.get("status")),
        "reward": _number(record.get("reward")),
        "scorer": _text(record.get("scorer")),
        "score": _number(score.get("value")),
        "render_status": _text(render.get("status")),
        "render_ms": _number(render.get("render_ms", render.get("elapsed_ms"))),
        "queue_ms": _number(render.get("queue_ms")),
        "backend": _text(render.get("backend")),
        "js_errors": [str(e) for e in render.get("errors") or []],
        "gate_passed": gate.get("passed") if isinstance(gate.get("passed"), bool) else None,
        "gate_reasons": [str(r) for r in gate.get("reasons") or []],
    }
    for name, value in components.items():
        if name in _NOT_COMPONENTS or isinstance(value, dict | list):
            continue
        row[f"component_{name}"] = value
    # What the reward's terms measured (records written before the breakdown was generic held
    # these as fields, read just above): the same columns either way.
    for name, value in (components.get("observations") or {}).items():
        row[f"component_{name}"] = _number(value)
    for name, value in (components.get("contributions") or {}).items():
        row[f"contribution_{name}"] = _number(value)
    return row


def export_rows(directory: str | Path) -> list[dict[str, Any]]:
    """Reads every rollout under a folder into dataset rows (see the module docstring).

    Args:
        directory: A rollout folder, an artifacts directory, or one training run's folder.

    Returns:
        One row per rollout, in folder order (runs by name, steps in order).

    Raises:
        FileNotFoundError: If the folder does not exist or holds no rollouts.
    """
    root = Path(directory)
    if not root.is_dir():
        raise FileNotFoundError(f"no such folder: {root}")
    rows = []
    for folder, source, run, _ in _folders(root):
        # A step being written while this reads: its last, partial line is left out.
        for record in load_records(folder, skip_partial=source == "training"):
            rows.append(_row(folder, record, source, run))
    if not rows:
        raise FileNotFoundError(
            f"no rollouts under {root}: not a rollout folder ({RESULTS_FILE}) nor training "
            "artifacts (RUN/step-NNNNNN/results.jsonl)"
        )
    return rows


def _kind(name: str, values: Iterable[Any]) -> str:
    """The column type of the ``component_*`` and ``contribution_*`` columns, from their values."""
    present = [v for v in values if v is not None]
    if name.startswith("contribution_") or (
        present and all(_number(v) is not None for v in present)
    ):
        return "float64"
    if present and all(isinstance(v, bool) for v in present):
        return "bool"
    return "string"


def to_dataset(rows: Sequence[Mapping[str, Any]]) -> datasets.Dataset:
    """Builds the `datasets.Dataset` of `export_rows`'s rows, with explicit features.

    Args:
        rows: The rows.

    Returns:
        The dataset: ``image`` as an ``Image`` feature, then the fixed columns, then every
        ``component_*`` and ``contribution_*`` column found in any row (``None`` where a row
        has none).

    Raises:
        ImportError: If ``datasets`` is not installed (with the install command).
    """
    try:
        import datasets
    except ImportError as exc:
        raise ImportError(f"exporting a dataset needs `datasets`: {DATASETS_INSTALL}") from exc
    extra = sorted({key for row in rows for key in row if key.startswith("component_")})
    extra += sorted({key for row in rows for key in row if key.startswith("contribution_")})
    kinds = dict(_FIXED) | {name: _kind(name, (row.get(name) for row in rows)) for name in extra}
    features: dict[str, Any] = {"image": datasets.Image()}
    for name, kind in kinds.items():
        # List is datasets 4's name for a list column; Sequence, 3's, is still there in 5.
        strings = getattr(datasets, "List", datasets.Sequence)
        features[name] = (
            strings(datasets.Value("string")) if kind == "strings" else datasets.Value(kind)
        )
    columns: dict[str, list[Any]] = {name: [] for name in features}
    for row in rows:
        for name in features:
            value = row.get(name)
            if kinds.get(name) == "float64":
                value = _number(value)
            elif kinds.get(name) == "string" and value is not None:
                value = str(value)
            columns[name].append(value)
    # Features is a dict subclass whose __init__ takes (*args, **kwargs) unannotated.
    schema = datasets.Features(features)  # type: ignore[no-untyped-call,arg-type]
    return datasets.Dataset.from_dict(columns, features=schema)
