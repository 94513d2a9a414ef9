"""`scripts/setup.sh --dev` installs a CPU torch: a local wheel when pip has one, else CPU index.

PyPI's Linux ``torch==2.13.0`` is the CUDA build; the script must never run that plain command
unless asked. The package installs themselves (torch, the project, the HPSv3 venv) would need
the internet, so ``$PYTHON`` is a stand-in here that records each command it is given and fails
``import torch`` (as on a machine without it): a fake at an unreachable boundary, named as such.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FAKE_PYTHON = """#!/usr/bin/env bash
# Stand-in for python: records its arguments; "import torch" fails, everything else succeeds.
echo "$*" >> "$FAKE_LOG"
case "$*" in *"import torch"*) exit 1 ;; esac
exit 0
"""


def _run_setup(tmp_path: Path, **env: str) -> list[str]:
    if shutil.which("dpkg") is None:
        pytest.fail("this test needs a Debian/Ubuntu machine (dpkg), like the script itself")
    log = tmp_path / "calls.log"
    log.unlink(missing_ok=True)
    fake = tmp_path / "python"
    fake.write_text(FAKE_PYTHON)
    fake.chmod(0o755)
    full_env = {
        **os.environ,
        "PYTHON": str(fake),
        "FAKE_LOG": str(log),
        # The browser check passes whatever the machine has; this test is about torch.
        "SKETCH_ENV_CHROMIUM": "/usr/bin/true",
        **env,
    }
    if "TORCH_INDEX_URL" not in env:
        full_env.pop("TORCH_INDEX_URL", None)
    result = subprocess.run(
        ["bash", str(ROOT / "scripts" / "setup.sh"), "--dev"],
        env=full_env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return log.read_text().splitlines()


def _torch_install(calls: list[str]) -> str:
    installs = [c for c in calls if c.startswith("-m pip install") and "torch" in c]
    assert len(installs) == 1, calls
    return installs[0]


def test_no_local_wheel_takes_the_cpu_index(tmp_path: Path) -> None:
    empty = tmp_path / "wheels"
    empty.mkdir()
    command = _torch_install(_run_setup(tmp_path, PIP_FIND_LINKS=str(empty)))
    assert command.endswith("torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu")


def test_a_local_wheel_is_installed_as_it_is(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    wheel = wheels / "torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl"
    wheel.write_bytes(b"")
    command = _torch_install(_run_setup(tmp_path, PIP_FIND_LINKS=str(wheels)))
    assert command == f"-m pip install -q {wheel}"


def test_the_index_can_be_chosen_for_cuda(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    (wheels / "torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl").write_bytes(b"")
    cuda = "https://download.pytorch.org/whl/cu128"
    command = _torch_install(_run_setup(tmp_path, PIP_FIND_LINKS=str(wheels), TORCH_INDEX_URL=cuda))
    assert command.endswith(f"torch==2.13.0 --index-url {cuda}")
