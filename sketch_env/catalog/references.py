"""The reference pool: hand-written p5.brush paintings with prompts, tiers and measured metadata.

Each reference is one sketch file plus an entry in ``pool.json`` beside it::

    {"id": "flowers-watercolour-hibiscus", "file": "flowers-watercolour-hibiscus.js",
     "task_id": "flowers/watercolour", "prompt": "three peach hibiscus ...", "tier": "love",
     "metadata": {"render_ms": 7312.0, "backend": "llvmpipe", "paint_coverage": 0.31, ...}}

Tiers say how good a painting the sketch is meant to be: ``love`` (genuinely good), ``ok`` and
``weak`` (deliberately mediocre but valid); docs/reward.md's rating protocol says how each is
judged. The metadata is *measured*, never typed in: `sketch_env.pool.refresh_reference_pool`
(``sketch-env pool refresh``) re-renders every sketch and rewrites it through
`write_pool_metadata`. HPSv3 ``mu``/``sigma`` stay ``null`` until a refresh runs with an HPSv3
scorer (GPU only).

This module only reads and writes the pool's files: it is data, and every layer may use it.

The pool is found, in order, at ``$SKETCH_ENV_REFERENCE_POOL``, inside an installed wheel
(``sketch_env/_reference_pool``, force-included by ``pyproject.toml``) and in a source checkout
(``reference_pool/`` at the repository root).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from sketch_env.errors import SketchEnvError

__all__ = [
    "MEASURE_SEED",
    "POOL_ENV",
    "POOL_FILE",
    "TIERS",
    "Reference",
    "ReferencePoolError",
    "find_pool_dir",
    "get_reference",
    "load_reference_pool",
    "pairwise_references",
    "write_pool_metadata",
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


class ReferencePoolError(SketchEnvError, ValueError):
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


def write_pool_metadata(
    folder: Path, new_meta: Mapping[str, dict[str, Any]], *, reference_backend: str
) -> None:
    """Rewrites ``pool.json`` with new metadata, keeping every other field and the order.

    Args:
        folder: The pool folder.
        new_meta: Reference id -> its whole new ``metadata`` object.
        reference_backend: The GL backend the metadata was measured on.

    Raises:
        ReferencePoolError: If the folder cannot be written (an installed wheel's may not be).
    """
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
