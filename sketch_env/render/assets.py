"""Where the vendored JavaScript lives: in a checkout (``vendor/``) or an installed wheel."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent.parent


@cache
def vendor_dir() -> Path:
    """Returns the folder that holds ``p5/`` and ``p5.brush/``.

    Looks at ``$SKETCH_ENV_VENDOR_DIR`` (to swap in a modified p5.js, as its LGPL allows), then
    the wheel's ``sketch_env/_vendor``, then a checkout's top-level ``vendor/``.

    Returns:
        The folder.

    Raises:
        FileNotFoundError: If none of them holds the libraries.
    """
    candidates = []
    if override := os.environ.get("SKETCH_ENV_VENDOR_DIR"):
        candidates.append(Path(override))
    candidates += [_PACKAGE_DIR / "_vendor", _PACKAGE_DIR.parent / "vendor"]
    for folder in candidates:
        if (folder / "p5.brush" / "p5.brush.js").is_file():
            return folder
    raise FileNotFoundError(
        "the vendored p5.js/p5.brush files were not found in "
        + ", ".join(str(c) for c in candidates)
        + "; reinstall the package (`pip install --force-reinstall openenv-sketch-env`)"
    )


def vendor_path(relative: str) -> Path:
    """Returns the path of one vendored file, e.g. ``vendor_path("p5/p5.min.js")``.

    Args:
        relative: Path inside the vendor folder.

    Returns:
        The absolute path.

    Raises:
        FileNotFoundError: If the vendor folder or the file is missing.
    """
    path = vendor_dir() / relative
    if not path.is_file():
        raise FileNotFoundError(f"vendored file {relative!r} is missing from {vendor_dir()}")
    return path


@cache
def read_vendor_bytes(relative: str) -> bytes:
    """Returns a vendored file's bytes, read once per process."""
    return vendor_path(relative).read_bytes()
