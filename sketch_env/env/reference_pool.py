"""The reference pool: hand-written p5.brush paintings with prompts, tiers and measured metadata.

Each reference is one sketch file plus an entry in ``pool.json`` beside it::

    {"id": "flowers-watercolour-hibiscus", "file": "flowers-watercolour-hibiscus.js",
     "task_id": "flowers/watercolour", "prompt": "three peach hibiscus ...", "tier": "love",
     "metadata": {"render_ms": 7312.0, "backend": "llvmpipe", "paint_coverage": 0.31, ...}}

Tiers say how good a painting the sketch is meant to be: ``love`` (genuinely good), ``ok`` and
``weak`` (deliberately mediocre but valid). The metadata is *measured*, never typed in:
`refresh_reference_pool` (``sketch-env pool refresh``) re-renders every sketch and rewrites it.
HPSv3 ``mu``/``sigma`` stay ``null`` until a refresh runs with an HPSv3 scorer (GPU only).

The pool is found, in order, at ``$SKETCH_ENV_REFERENCE_POOL``, inside an installed wheel
(``sketch_env/_reference_pool``, force-included by ``pyproject.toml``) and in a source checkout
(``reference_pool/`` at the repository root).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import statistics
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sketch_env.render.renderer import SketchRenderer
    from sketch_env.render.result import Render
    from sketch_env.scoring.base import Scorer

__all__ = [
    "POOL_ENV",
    "POOL_FILE",
    "TIERS",
    "Reference",
    "ReferencePoolError",
    "RefreshReport",
    "RefreshRow",
    "find_pool_dir",
    "get_reference",
    "load_reference_pool",
    "pairwise_references",
    "refresh_reference_pool",
]

#: Environment variable naming a pool folder that overrides the shipped one.
POOL_ENV = "SKETCH_ENV_REFERENCE_POOL"
#: The index file inside a pool folder.
POOL_FILE = "pool.json"
#: Quality tiers, best first.
TIERS: tuple[str, ...] = ("love", "ok", "weak")
#: Seed every measurement renders with, so metadata is comparable across refreshes.
MEASURE_SEED = 0

_ID_RE = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")
_TASK_RE = re.compile(r"^[a-z0-9_]+/[a-z0-9_]+$")
_POOL_VERSION = 1


class ReferencePoolError(ValueError):
    """The pool is missing or its index is malformed (says which entry and why)."""


@dataclass(frozen=True)
class Reference:
    """One reference sketch.

    Args:
        id: Stable identifier, e.g. ``"flowers-watercolour-hibiscus"``.
        source: The sketch's JavaScript source.
        prompt: The picture's description, as HPSv3 scores it.
        task_id: The task it belongs to, ``"{subject}/{medium}"``.
        tier: ``"love"``, ``"ok"`` or ``"weak"``.
        metadata: Measured facts (read-only): ``render_ms`` (median over repeats on
            ``backend``), ``render_ms_runs``, ``backend``, ``paint_coverage``,
            ``heuristic_score``, ``hpsv3_mu``, ``hpsv3_sigma``, ``png_sha256``, ``status``,
            ``seed``, ``measured_at``; ``None`` where not yet measured.
        file: The sketch's file name inside the pool folder.
    """

    id: str
    source: str
    prompt: str
    task_id: str
    tier: str
    metadata: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    file: str = ""

    @property
    def subject(self) -> str:
        """The task's subject, e.g. ``"flowers"``."""
        return self.task_id.split("/", 1)[0]

    @property
    def medium(self) -> str:
        """The task's medium, e.g. ``"watercolour"``."""
        return self.task_id.split("/", 1)[1]

    def to_dict(self, *, with_source: bool = False) -> dict[str, Any]:
        """Returns a JSON-serialisable view (the ``pool.json`` entry, optionally with source)."""
        data: dict[str, Any] = {
            "id": self.id,
            "file": self.file,
            "task_id": self.task_id,
            "prompt": self.prompt,
            "tier": self.tier,
            "metadata": dict(self.metadata),
        }
        if with_source:
            data["source"] = self.source
        return data


def _candidate_dirs() -> list[Path]:
    here = Path(__file__).resolve()
    return [
        # Installed wheel: pyproject force-includes reference_pool/ here.
        here.parents[1] / "_reference_pool",
        # Source checkout (editable install or plain PYTHONPATH): the repository root.
        here.parents[2] / "reference_pool",
    ]


def find_pool_dir(path: str | os.PathLike[str] | None = None) -> Path:
    """Locates the pool folder.

    Args:
        path: An explicit folder; ``None`` looks at ``$SKETCH_ENV_REFERENCE_POOL``, then the
            installed package, then the source checkout.

    Returns:
        The folder holding ``pool.json``.

    Raises:
        ReferencePoolError: If no candidate folder holds a ``pool.json``.
    """
    if path is not None:
        candidates = [Path(path)]
    elif os.environ.get(POOL_ENV):
        candidates = [Path(os.environ[POOL_ENV])]
    else:
        candidates = _candidate_dirs()
    for folder in candidates:
        if (folder / POOL_FILE).is_file():
            return folder
    looked = ", ".join(str(c) for c in candidates)
    raise ReferencePoolError(
        f"no reference pool found (looked for {POOL_FILE} in: {looked}); pass a folder or set "
        f"${POOL_ENV}"
    )


def _read_index(folder: Path) -> dict[str, Any]:
    try:
        index = json.loads((folder / POOL_FILE).read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise ReferencePoolError(f"{folder / POOL_FILE} is not valid JSON: {err}") from err
    if not isinstance(index, dict) or not isinstance(index.get("references"), list):
        raise ReferencePoolError(f"{folder / POOL_FILE} must be an object with a 'references' list")
    return index


def _parse_entry(raw: Any, folder: Path, position: int) -> Reference:
    where = f"{folder / POOL_FILE}, entry {position}"
    if not isinstance(raw, dict):
        raise ReferencePoolError(f"{where}: expected an object, got {type(raw).__name__}")
    for key in ("id", "file", "task_id", "prompt", "tier"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise ReferencePoolError(f"{where}: '{key}' must be a non-empty string")
    ref_id = raw["id"]
    if not _ID_RE.match(ref_id):
        raise ReferencePoolError(f"{where}: id {ref_id!r} must be lower-case [a-z0-9_.-]")
    if not _TASK_RE.match(raw["task_id"]):
        raise ReferencePoolError(f"{where}: task_id {raw['task_id']!r} is not 'subject/medium'")
    if raw["tier"] not in TIERS:
        raise ReferencePoolError(f"{where}: tier {raw['tier']!r} is not one of {', '.join(TIERS)}")
    metadata = raw.get("metadata", {})
    if not isinstance(metadata, dict):
        raise ReferencePoolError(f"{where}: 'metadata' must be an object")
    # The file name must stay inside the pool folder: the index is data, not a path oracle.
    sketch = (folder / raw["file"]).resolve()
    if sketch.parent != folder.resolve() or not sketch.is_file():
        raise ReferencePoolError(f"{where}: sketch file {raw['file']!r} not found in {folder}")
    return Reference(
        id=ref_id,
        source=sketch.read_text(encoding="utf-8"),
        prompt=raw["prompt"].strip(),
        task_id=raw["task_id"],
        tier=raw["tier"],
        metadata=MappingProxyType(dict(metadata)),
        file=raw["file"],
    )


@cache
def _load(folder: Path) -> tuple[Reference, ...]:
    index = _read_index(folder)
    refs = tuple(_parse_entry(raw, folder, i) for i, raw in enumerate(index["references"]))
    seen: set[str] = set()
    for ref in refs:
        if ref.id in seen:
            raise ReferencePoolError(f"{folder / POOL_FILE}: duplicate id {ref.id!r}")
        seen.add(ref.id)
    return refs


def load_reference_pool(
    path: str | os.PathLike[str] | None = None,
    *,
    tier: str | Iterable[str] | None = None,
    task_id: str | None = None,
) -> list[Reference]:
    """Loads the reference pool.

    Args:
        path: Pool folder; ``None`` finds the shipped pool (see `find_pool_dir`).
        tier: Keep only this tier (or these tiers).
        task_id: Keep only references of this task.

    Returns:
        The references, in ``pool.json`` order.

    Raises:
        ReferencePoolError: If the pool is missing or malformed, or ``tier`` is unknown.

    Examples:
        >>> refs = load_reference_pool(tier="love")
        >>> all(ref.tier == "love" for ref in refs)
        True
    """
    refs = _load(find_pool_dir(path).resolve())
    if tier is not None:
        wanted = {tier} if isinstance(tier, str) else set(tier)
        unknown = wanted - set(TIERS)
        if unknown:
            raise ReferencePoolError(f"unknown tier(s) {sorted(unknown)}; tiers are {TIERS}")
        refs = tuple(ref for ref in refs if ref.tier in wanted)
    if task_id is not None:
        refs = tuple(ref for ref in refs if ref.task_id == task_id)
    return list(refs)


def get_reference(ref_id: str, path: str | os.PathLike[str] | None = None) -> Reference:
    """Returns the reference with this id.

    Args:
        ref_id: A reference id.
        path: Pool folder; ``None`` finds the shipped pool.

    Raises:
        KeyError: If no reference has this id (the message suggests close ids).
    """
    refs = load_reference_pool(path)
    for ref in refs:
        if ref.id == ref_id:
            return ref
    import difflib

    close = difflib.get_close_matches(str(ref_id), [r.id for r in refs], n=3, cutoff=0.4)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise KeyError(f"no reference {ref_id!r} in the pool{hint}")


def pairwise_references(
    task_id: str | None = None,
    *,
    tier: str | Iterable[str] | None = None,
    path: str | os.PathLike[str] | None = None,
) -> list[tuple[float, float]]:
    """HPSv3 ``(mu, sigma)`` of the references that have them, for the pairwise reward.

    Args:
        task_id: Only this task's references (``None``: all).
        tier: Only this tier (or tiers).
        path: Pool folder; ``None`` finds the shipped pool.

    Returns:
        One pair per measured reference; empty until a refresh with HPSv3 has run.
    """
    pairs = []
    for ref in load_reference_pool(path, tier=tier, task_id=task_id):
        mu, sigma = ref.metadata.get("hpsv3_mu"), ref.metadata.get("hpsv3_sigma")
        if isinstance(mu, int | float) and isinstance(sigma, int | float):
            pairs.append((float(mu), float(sigma)))
    return pairs


# --------------------------------------------------------------------------------------------
# Refresh: re-render and re-measure.
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RefreshRow:
    """What one reference measured in a refresh.

    Args:
        id: Reference id.
        tier: Its tier.
        status: Render status of the first repeat (``"ok"`` when every repeat was ok).
        render_ms: Median render time over the repeats, milliseconds.
        render_ms_runs: Every repeat's render time.
        paint_coverage: Paint coverage of the first repeat.
        heuristic_score: The heuristic scorer's value.
        preference: ``(mu, sigma)`` from a non-heuristic scorer (HPSv3), if one was given.
        deterministic: Whether every repeat gave the same pixels.
        errors: JS errors reported by any repeat.
    """

    id: str
    tier: str
    status: str
    render_ms: float
    render_ms_runs: tuple[float, ...]
    paint_coverage: float
    heuristic_score: float | None
    preference: tuple[float, float | None] | None
    deterministic: bool
    errors: tuple[str, ...] = ()


@dataclass(frozen=True)
class RefreshReport:
    """The outcome of `refresh_reference_pool`.

    Args:
        pool_dir: The pool folder measured.
        backend: GL backend every render ran on.
        repeats: Renders per reference.
        rows: One `RefreshRow` per reference, in pool order.
        written: Whether ``pool.json`` was rewritten.
        wall_s: Wall time of the whole refresh.
    """

    pool_dir: Path
    backend: str
    repeats: int
    rows: tuple[RefreshRow, ...]
    written: bool
    wall_s: float

    @property
    def ok(self) -> bool:
        """Whether every reference rendered with status ok in every repeat."""
        return all(row.status == "ok" for row in self.rows)

    @property
    def total_render_ms(self) -> float:
        """Sum of the median render times: one pass over the pool on one browser."""
        return sum(row.render_ms for row in self.rows)

    def table(self) -> str:
        """Returns a plain-text table, slowest first."""
        names = ("id", "tier", "status", "ms(median)", "coverage", "heur")
        head = "{:36s} {:5s} {:8s} {:>10s} {:>8s} {:>5s}".format(*names)
        lines = [head, "-" * len(head)]
        for row in sorted(self.rows, key=lambda r: -r.render_ms):
            heur = "-" if row.heuristic_score is None else f"{row.heuristic_score:.2f}"
            lines.append(
                f"{row.id:36s} {row.tier:5s} {row.status:8s} {row.render_ms:10.0f} "
                f"{row.paint_coverage:8.3f} {heur:>5s}"
            )
        lines.append(
            f"{len(self.rows)} references on {self.backend}, {self.repeats} repeats; one pass "
            f"{self.total_render_ms / 1000:.1f} s of render time; refresh took {self.wall_s:.1f} s"
        )
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """Returns a JSON-serialisable view."""
        return {
            "pool_dir": str(self.pool_dir),
            "backend": self.backend,
            "repeats": self.repeats,
            "ok": self.ok,
            "written": self.written,
            "wall_s": self.wall_s,
            "total_render_ms": self.total_render_ms,
            "rows": [
                {
                    "id": r.id,
                    "tier": r.tier,
                    "status": r.status,
                    "render_ms": r.render_ms,
                    "render_ms_runs": list(r.render_ms_runs),
                    "paint_coverage": r.paint_coverage,
                    "heuristic_score": r.heuristic_score,
                    "preference": list(r.preference) if r.preference else None,
                    "deterministic": r.deterministic,
                    "errors": list(r.errors),
                }
                for r in self.rows
            ],
        }


def refresh_reference_pool(
    renderer: SketchRenderer,
    scorer: Scorer | str | None = None,
    repeats: int = 3,
    *,
    path: str | os.PathLike[str] | None = None,
    ids: Sequence[str] | None = None,
    write: bool = True,
) -> RefreshReport:
    """Re-renders the pool and rewrites each reference's measured metadata.

    Each reference is rendered ``repeats`` times with seed `MEASURE_SEED`, one render at a time,
    so ``render_ms`` is the cost of the sketch alone on one browser (renders running side by
    side share CPU and would measure each other). The heuristic score is always recomputed;
    a scorer other than the heuristic one (HPSv3) fills ``hpsv3_mu``/``hpsv3_sigma``, which
    are otherwise left as they were.

    Args:
        renderer: A started `SketchRenderer`; its backend is recorded as the reference
            backend. Use a deadline well above the heaviest sketch (60 s).
        scorer: ``None``/``"heuristic"`` for the heuristic score only, or a scorer (or spec
            such as ``"hpsv3"``) whose ``mu``/``sigma`` are stored as ``hpsv3_*``.
        repeats: Renders per reference; the median time is stored.
        path: Pool folder; ``None`` finds the shipped pool.
        ids: Only refresh these references (others keep their metadata).
        write: Rewrite ``pool.json``; ``False`` measures and reports only.

    Returns:
        A `RefreshReport`.

    Raises:
        ValueError: If ``repeats`` is below 1 or an id is unknown.
        ReferencePoolError: If the pool is missing or malformed, or cannot be written.
        sketch_env.scoring.ScorerUnavailableError: If the scorer cannot answer.
    """
    from sketch_env.scoring.base import score_sync
    from sketch_env.scoring.heuristic import HeuristicScorer
    from sketch_env.scoring.spec import make_scorer

    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    started = time.perf_counter()
    folder = find_pool_dir(path).resolve()
    refs = list(_load(folder))
    if ids is not None:
        known = {ref.id for ref in refs}
        missing = [i for i in ids if i not in known]
        if missing:
            raise ValueError(f"unknown reference id(s): {', '.join(missing)}")
        refs = [ref for ref in refs if ref.id in set(ids)]
    preference = None if scorer is None else make_scorer(scorer)
    if preference is not None and preference.name == "heuristic":
        preference = None
    heuristic = HeuristicScorer()

    runs: dict[str, list[Render]] = {ref.id: [] for ref in refs}
    for _ in range(repeats):
        for ref in refs:
            runs[ref.id].append(renderer.render_sync(ref.source, seed=MEASURE_SEED))

    firsts = [runs[ref.id][0] for ref in refs]
    pictured = [(ref, res) for ref, res in zip(refs, firsts, strict=True) if res.png is not None]
    images = [res.image() for _, res in pictured]
    prompts = [ref.prompt for ref, _ in pictured]
    heur_scores = dict(
        zip(
            (ref.id for ref, _ in pictured),
            (s.value for s in score_sync(heuristic, images, prompts)) if images else (),
            strict=True,
        )
    )
    pref_scores: dict[str, tuple[float, float | None]] = {}
    if preference is not None and images:
        scores = score_sync(preference, images, prompts)
        pref_scores = {
            ref.id: (s.value, s.sigma) for (ref, _), s in zip(pictured, scores, strict=True)
        }

    measured_at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    rows: list[RefreshRow] = []
    new_meta: dict[str, dict[str, Any]] = {}
    for ref in refs:
        results = runs[ref.id]
        first = results[0]
        times = tuple(round(r.elapsed_ms, 1) for r in results)
        hashes = {hashlib.sha256(r.png).hexdigest() if r.png else None for r in results}
        all_ok = all(r.ok for r in results)
        status = "ok" if all_ok else next(r.status.value for r in results if not r.ok)
        errors = tuple(dict.fromkeys(e for r in results for e in r.errors))
        row = RefreshRow(
            id=ref.id,
            tier=ref.tier,
            status=status,
            render_ms=round(statistics.median(times), 1),
            render_ms_runs=times,
            paint_coverage=round(first.paint_fraction, 4),
            heuristic_score=(round(heur_scores[ref.id], 3) if ref.id in heur_scores else None),
            preference=pref_scores.get(ref.id),
            deterministic=len(hashes) == 1 and None not in hashes,
            errors=errors,
        )
        rows.append(row)
        meta = dict(ref.metadata)
        meta.update(
            {
                "render_ms": row.render_ms,
                "render_ms_runs": list(row.render_ms_runs),
                "repeats": repeats,
                "backend": first.backend or renderer.backend,
                "status": row.status,
                "seed": MEASURE_SEED,
                "width": first.width,
                "height": first.height,
                "paint_coverage": row.paint_coverage,
                "heuristic_score": row.heuristic_score,
                "png_sha256": (
                    hashlib.sha256(first.png).hexdigest() if first.png is not None else None
                ),
                "deterministic": row.deterministic,
                "measured_at": measured_at,
            }
        )
        meta.setdefault("hpsv3_mu", None)
        meta.setdefault("hpsv3_sigma", None)
        if row.preference is not None:
            mu, sigma = row.preference
            meta["hpsv3_mu"] = round(mu, 4)
            meta["hpsv3_sigma"] = None if sigma is None else round(sigma, 4)
        new_meta[ref.id] = meta

    if write:
        _write_metadata(folder, new_meta, reference_backend=renderer.backend)
    return RefreshReport(
        pool_dir=folder,
        backend=renderer.backend,
        repeats=repeats,
        rows=tuple(rows),
        written=write,
        wall_s=round(time.perf_counter() - started, 2),
    )


def _write_metadata(
    folder: Path, new_meta: Mapping[str, dict[str, Any]], *, reference_backend: str
) -> None:
    """Rewrites ``pool.json`` with new metadata, keeping every other field and the order."""
    index = _read_index(folder)
    for entry in index["references"]:
        if isinstance(entry, dict) and entry.get("id") in new_meta:
            entry["metadata"] = new_meta[entry["id"]]
    index["version"] = index.get("version", _POOL_VERSION)
    index["reference_backend"] = reference_backend
    text = json.dumps(index, indent=2, ensure_ascii=False) + "\n"
    target = folder / POOL_FILE
    # Write beside the target and rename, so a crash never leaves a half-written index.
    try:
        fd, tmp = tempfile.mkstemp(prefix=".pool.", suffix=".json", dir=folder)
    except OSError as err:
        raise ReferencePoolError(
            f"cannot write {target} ({err}); copy the pool somewhere writable and pass it as "
            f"the pool folder (--pool-dir, or ${POOL_ENV})"
        ) from err
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    _load.cache_clear()
