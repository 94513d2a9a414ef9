"""Where the vendored files (JavaScript, text-reading models) and the examples live: in a
checkout (``vendor/``, ``examples/``) or an installed wheel (``sketch_env/_vendor``,
``sketch_env/_examples``)."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from sketch_env.install import REINSTALL

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
        + f"; {REINSTALL}"
    )


def examples_dir() -> Path:
    """Returns the folder that holds the example scripts, replies and sketches.

    The wheel carries the checkout's ``examples/`` as ``sketch_env/_examples`` (pyproject's
    force-include), so a user who installed a wheel has the same files as one with a clone.

    Returns:
        The folder.

    Raises:
        FileNotFoundError: If neither the wheel's nor a checkout's folder exists.
    """
    candidates = [_PACKAGE_DIR / "_examples", _PACKAGE_DIR.parent / "examples"]
    for folder in candidates:
        if (folder / "samples.jsonl").is_file():
            return folder
    raise FileNotFoundError(
        "the examples were not found in " + ", ".join(str(c) for c in candidates) + f"; {REINSTALL}"
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


def verify_vendor(folder: Path | None = None) -> list[str]:
    """Checks the vendored files against the versions and sha256 sums in ``VENDORED.json``.

    p5.brush 2.x silently draws nothing on p5 1.x (docs/design.md §3.1), so a swapped or edited
    library file must be caught before it costs a training run.

    Args:
        folder: The vendor folder; `vendor_dir` when ``None``.

    Returns:
        A list of problems; empty when every file matches.
    """
    import hashlib
    import json

    folder = folder or vendor_dir()
    manifest_path = folder / "VENDORED.json"
    if not manifest_path.is_file():
        return [f"{manifest_path} is missing"]
    manifest = json.loads(manifest_path.read_text("utf-8"))
    problems = []
    for package, info in manifest["packages"].items():
        for relative, expected in info["files"].items():
            path = folder / relative
            if not path.is_file():
                problems.append(f"{package} {info['version']}: {relative} is missing")
                continue
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            if digest != expected["sha256"]:
                problems.append(
                    f"{package} {info['version']}: {relative} has sha256 {digest}, expected "
                    f"{expected['sha256']} (not the published file)"
                )
    return problems
