"""A clean copy of the repository, a wheel built from it, and a fresh venv it is installed in:
what a new user has, rather than this checkout with its caches and editable install."""

from __future__ import annotations

import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


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
    """Makes a fresh venv and installs the wheel in it, with this interpreter's packages as its
    dependencies (no network).

    The dependencies come in as plain folders on the path (a ``.pth`` file listing this
    interpreter's site-packages), not through ``--system-site-packages``: that would also run
    the ``.pth`` files there, among them an editable install's, which puts a checkout's root on
    the path, so the venv could import that checkout's ``bench``, ``examples`` and ``tests``
    as no user of the wheel can.

    Returns:
        The venv's ``bin`` folder.
    """
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.strip()
    # A .pth line that is a folder joins the path; the .pth files inside it are not processed.
    deps = [*site.getsitepackages(), site.getusersitepackages()]
    (Path(purelib) / "_sketch_env_test_deps.pth").write_text(
        "".join(f"{folder}\n" for folder in deps if Path(folder).is_dir()), encoding="utf-8"
    )
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-index", str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stderr[-2000:]
    return venv / "bin"
