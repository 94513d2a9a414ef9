"""Working on the reference pool: re-measure it, look at it, calibrate a scorer on it, export it.

The pool's files are read by `sketch_env.catalog.references`; what here renders or scores
them sits above the evaluation layer: `refresh` (``sketch-env pool refresh``), `gallery`
(``sketch-env pool gallery``, the whole pool on one page of tasks by tiers), `calibrate`
(``sketch-env pool calibrate``), `sft` (``sketch-env pool export-sft``, prompt -> reply pairs
for a supervised warm start), `negatives` (``sketch-env pool negatives``, the vision scorer's
non-paintings), `finds` (``sketch-env pool find``, a search's find kept for every later search)
and `cli` (the ``sketch-env pool`` command).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sketch_env.pool.calibrate import calibrate, policy_scores
    from sketch_env.pool.gallery import PoolGallery, write_pool_gallery
    from sketch_env.pool.refresh import RefreshReport, RefreshRow, refresh_reference_pool
    from sketch_env.pool.sft import SFTExport, SFTExportError, export_sft

__all__ = [
    "PoolGallery",
    "RefreshReport",
    "RefreshRow",
    "SFTExport",
    "SFTExportError",
    "calibrate",
    "export_sft",
    "policy_scores",
    "refresh_reference_pool",
    "write_pool_gallery",
]

_HOME = {
    "calibrate": "calibrate",
    "policy_scores": "calibrate",
    "PoolGallery": "gallery",
    "write_pool_gallery": "gallery",
    "RefreshReport": "refresh",
    "RefreshRow": "refresh",
    "refresh_reference_pool": "refresh",
    "SFTExport": "sft",
    "SFTExportError": "sft",
    "export_sft": "sft",
}


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


def __dir__() -> list[str]:
    return sorted(__all__)
