"""The wheel carries what a `pip install` user has instead of a checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
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
            str(ROOT),
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


def test_wheel_ships_vendored_libraries_licences_and_harness(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in (
        "sketch_env/_vendor/p5/p5.min.js",
        "sketch_env/_vendor/p5/p5.js",
        "sketch_env/_vendor/p5/LICENSE.txt",
        "sketch_env/_vendor/p5.brush/p5.brush.js",
        "sketch_env/_vendor/p5.brush/LICENSE.md",
        "sketch_env/_vendor/VENDORED.json",
        "sketch_env/render/harness.js",
        "sketch_env/py.typed",
    ):
        assert required in names, required
    assert any(n.startswith("sketch_env/_reference_pool/") for n in names)


def test_installed_layout_finds_and_verifies_its_vendor_folder(wheel, tmp_path):
    zipfile.ZipFile(wheel).extractall(tmp_path / "site")
    code = "import sketch_env.render.assets as a; print(a.vendor_dir()); print(a.verify_vendor())"
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    env.pop("SKETCH_ENV_VENDOR_DIR", None)
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    folder, problems = proc.stdout.splitlines()
    assert folder == str(tmp_path / "site" / "sketch_env" / "_vendor")
    assert problems == "[]"
