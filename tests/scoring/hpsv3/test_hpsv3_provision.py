"""Provisioning of the isolated HPSv3 venv: reuse, the import check, and the CUDA guard."""

from __future__ import annotations

import platform
import sys
import time
from pathlib import Path

import pytest

from sketch_env.scoring.hpsv3 import provision

pytestmark = pytest.mark.hpsv3


def test_setup_reuses_an_up_to_date_venv(hpsv3_python: Path) -> None:
    lines: list[str] = []
    started = time.perf_counter()
    result = provision.setup_venv(log=lines.append)
    assert result.reused, lines
    assert time.perf_counter() - started < 60
    assert result.check["versions"]["hpsv3"] == "1.0.0"
    assert result.check["torch_cuda"] is None  # the default is a CPU torch
    marker = provision.read_marker(result.venv)
    assert marker is not None and marker["recipe"]["requirements"] == list(provision.REQUIREMENTS)
    assert any(line.startswith("transformers==4.45.2") for line in marker["freeze"])
    # What hpsv3 declares but its inference path never imports stays out (see provision.py).
    installed = {line.split("==")[0].lower() for line in marker["freeze"]}
    assert not installed & {"deepspeed", "diffusers", "opencv-python", "timm"}


def test_the_hpsv3_venv_is_isolated_from_the_main_environment(hpsv3_python: Path) -> None:
    # hpsv3 installs top-level `evaluate` and `generate` packages: they must not be importable
    # here, and hpsv3 itself must not be either.
    import importlib.util

    for name in ("hpsv3", "generate"):
        spec = importlib.util.find_spec(name)
        assert spec is None or "hpsv3-venv" not in str(spec.origin), name
    assert Path(sys.prefix).resolve() != hpsv3_python.parent.parent.resolve()


@pytest.mark.skipif(
    not (sys.platform.startswith("linux") and platform.machine() == "x86_64"),
    reason="PyPI's torch wheels are CUDA builds only on Linux x86_64",
)
def test_setup_refuses_a_cuda_torch_when_a_cpu_one_was_asked_for(tmp_path: Path) -> None:
    # torch 2.14.1 from PyPI is a CUDA build (it depends on nvidia-* wheels). pip's dry run
    # reads its metadata only; setup must stop before downloading gigabytes.
    started = time.perf_counter()
    with pytest.raises(provision.HPSv3SetupError, match="CUDA build") as error:
        provision.setup_venv(
            tmp_path / "venv",
            torch="torch==2.14.1",
            torchvision="torchvision==0.29.1",
            log=lambda _line: None,
        )
    assert "--torch-index-url https://download.pytorch.org/whl/cpu" in str(error.value)
    assert time.perf_counter() - started < 120
    assert provision.read_marker(tmp_path / "venv") is None
    with pytest.raises(provision.HPSv3VenvMissingError):
        provision.require_venv(tmp_path / "venv")
