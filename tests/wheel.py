"""A clean copy of the repository, a wheel built from it, and a fresh venv it is installed in:
what a new user has, rather than this checkout with its caches and editable install."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def clean_tree(dest: Path) -> Path:
    """Copies the files a commit of this working tree would hold (tracked files, and new files
    git does not ignore) into ``dest``: a clean clone, without caches or build output.

    Args:
        dest: A folder that does not exist yet.

    Returns:
        ``dest``.
    """
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout.split(b"\0")
    for name in filter(None, listed):
        relative = Path(name.decode("utf-8"))
        source = ROOT / relative
        if not source.is_file():  # deleted in the working tree, not yet in the index
            continue
        target = dest / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    return dest


def build_wheel(source: Path, out: Path) -> Path:
    """Builds the wheel of the tree at ``source`` into ``out`` (no network: the build backend
    is this environment's hatchling).

    Returns:
        The wheel's path.
    """
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(out),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if proc.returncode != 0:
        pytest.fail(
            "building the wheel failed (needs hatchling: `pip install -e '.[dev]'`):\n"
            + proc.stderr[-2000:]
        )
    (path,) = out.glob("openenv_sketch_env-*.whl")
    return path


def install_in_venv(wheel: Path, venv: Path) -> Path:
    """Makes a fresh venv on top of this interpreter's packages (the dependencies: no network)
    and installs the wheel in it.

    Returns:
        The venv's ``bin`` folder.
    """
    subprocess.run(
        [sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
        check=True,
        timeout=120,
    )
    python = venv / "bin" / "python"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-index", str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stderr[-2000:]
    return venv / "bin"
