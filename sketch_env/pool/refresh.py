"""Re-render the reference pool and rewrite its measured metadata (``sketch-env pool refresh``).

Refreshing renders and scores, so it lives above the catalogue that only reads the pool's
files (`sketch_env.catalog.references`).
"""

from __future__ import annotations

import hashlib
import os
import statistics
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sketch_env.catalog.references import (
    MEASURE_SEED,
    find_pool_dir,
    load_reference_pool,
    write_pool_metadata,
)

if TYPE_CHECKING:
    from PIL import Image

    from sketch_env.render.renderer import SketchRenderer
    from sketch_env.render.result import Render
    from sketch_env.scoring.base import Scorer

__all__ = ["RefreshReport", "RefreshRow", "refresh_reference_pool"]


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


def _measure_vision(
    renderer: SketchRenderer, folder: Path, seed0: Mapping[str, Image.Image]
) -> None:
    """Writes ``vision.npz``, reusing the measuring renders at `MEASURE_SEED`."""
    from sketch_env.pool.vision import measure_pool_vision

    def paint(jobs: Sequence[tuple[str, int]]) -> list[Image.Image | None]:
        out: list[Image.Image | None] = [
            seed0.get(source) if seed == MEASURE_SEED else None for source, seed in jobs
        ]
        todo = [i for i, picture in enumerate(out) if picture is None]
        if todo:
            results = renderer.render_many_sync(
                [jobs[i][0] for i in todo], seeds=[jobs[i][1] for i in todo]
            )
            for i, result in zip(todo, results, strict=True):
                out[i] = result.image() if result.png is not None else None
        return out

    measure_pool_vision(paint, renderer.backend, folder)


def refresh_reference_pool(
    renderer: SketchRenderer,
    scorer: Scorer | str | None = None,
    repeats: int = 3,
    *,
    path: str | os.PathLike[str] | None = None,
    ids: Sequence[str] | None = None,
    write: bool = True,
    vision: bool | None = None,
) -> RefreshReport:
    """Re-renders the pool and rewrites each reference's measured metadata.

    Each reference is rendered ``repeats`` times with seed `MEASURE_SEED`, one render at a time,
    so ``render_ms`` is the cost of the sketch alone on one browser (renders running side by
    side share CPU and would measure each other). The heuristic score is always recomputed;
    a scorer other than the heuristic one (HPSv3) fills ``hpsv3_mu``/``hpsv3_sigma``, which
    are otherwise left as they were. The first render's `picture_features` go to the pool's
    ``features.json``, which the anchored scorer reads.

    Args:
        renderer: A started `SketchRenderer`; its backend is recorded as the reference
            backend. Use a deadline well above the heaviest sketch (60 s).
        scorer: ``None``/``"heuristic"`` for the heuristic score only, or a scorer (or spec
            such as ``"hpsv3"``) whose ``mu``/``sigma`` are stored as ``hpsv3_*``.
        repeats: Renders per reference; the median time is stored.
        path: Pool folder; ``None`` finds the shipped pool.
        ids: Only refresh these references (others keep their metadata).
        write: Rewrite ``pool.json``; ``False`` measures and reports only.
        vision: With ``write``, also rewrite ``vision.npz`` for the vision scorer: every
            reference at each of its seeds and the negative corpus, through the image network
            (about ten minutes on two cores: 192 more renders and 336 negatives). ``None``:
            only when the whole pool is refreshed (``ids`` is ``None``); after a partial
            refresh, run a whole one before trusting ``--scorer vision``.

    Returns:
        A `RefreshReport`.

    Raises:
        ValueError: If ``repeats`` is below 1 or an id is unknown.
        ReferencePoolError: If the pool is missing or malformed, or cannot be written.
        sketch_env.scoring.ScorerUnavailableError: If the scorer cannot answer.
    """
    from sketch_env.scoring.anchored import picture_features, write_reference_features
    from sketch_env.scoring.base import score_sync
    from sketch_env.scoring.heuristic import HeuristicScorer
    from sketch_env.scoring.spec import make_scorer

    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    started = time.perf_counter()
    folder = find_pool_dir(path).resolve()
    refs = load_reference_pool(folder)
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
        write_pool_metadata(folder, new_meta, reference_backend=renderer.backend)
        # The anchored scorer compares pictures with these: measured on the same first render
        # whose hash the metadata records, so a test can tell a stale entry.
        write_reference_features(
            {
                ref.id: picture_features(image)
                for (ref, _), image in zip(pictured, images, strict=True)
            },
            folder,
            png_sha256={ref.id: hashlib.sha256(r.png or b"").hexdigest() for ref, r in pictured},
        )
        if vision if vision is not None else ids is None:
            measured = {ref.source: image for (ref, _), image in zip(pictured, images, strict=True)}
            _measure_vision(renderer, folder, measured)
    return RefreshReport(
        pool_dir=folder,
        backend=renderer.backend,
        repeats=repeats,
        rows=tuple(rows),
        written=write,
        wall_s=round(time.perf_counter() - started, 2),
    )
