"""Working on the reference pool: re-measure it, calibrate a scorer on it, export it.

The pool's files are read by `sketch_env.catalog.references`; what here renders or scores
them sits above the evaluation layer: `refresh` (``sketch-env pool refresh``), `calibrate`
(``sketch-env pool calibrate``) and `cli` (the ``sketch-env pool`` command).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sketch_env.pool.calibrate import calibrate, policy_scores
    from sketch_env.pool.refresh import RefreshReport, RefreshRow, refresh_reference_pool

__all__ = ["RefreshReport", "RefreshRow", "calibrate", "policy_scores", "refresh_reference_pool"]

_HOME = {
    "calibrate": "calibrate",
    "policy_scores": "calibrate",
    "RefreshReport": "refresh",
    "RefreshRow": "refresh",
    "refresh_reference_pool": "refresh",
}


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


def __dir__() -> list[str]:
    return sorted(__all__)
