"""Moved: the reference pool is read by `sketch_env.catalog.references` and refreshed by
`sketch_env.pool.refresh`. This alias keeps old imports working."""

from __future__ import annotations

import warnings

from sketch_env.catalog.references import *  # noqa: F403
from sketch_env.catalog.references import __all__ as _references
from sketch_env.pool.refresh import *  # noqa: F403
from sketch_env.pool.refresh import __all__ as _refresh

__all__ = [*_references, *_refresh]

warnings.warn(
    "sketch_env.env.reference_pool moved to sketch_env.catalog.references (load_reference_pool, "
    "get_reference) and sketch_env.pool.refresh (refresh_reference_pool); import from there",
    DeprecationWarning,
    stacklevel=2,
)
