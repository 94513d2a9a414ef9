"""Fixtures for the HPSv3 stage: the isolated venv, the tiny model, the real service on CPU.

The venv is provisioned by ``sketch-env hpsv3 setup`` (about 80 s from scratch here), not by
the tests: a test that silently installs 1.6 GB is a surprise. When it is missing, every test
that needs it *fails* and says which command to run (a skip would let CI pass without ever
running the real hpsv3 code).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sketch_env.scoring.hpsv3 import provision

#: Service limits for the tests, small enough that each limit can be hit cheaply.
TEST_LIMITS = {
    "--max-images": "12",
    "--max-pixels": str(1200 * 1000),
    "--max-body-bytes": str(6 * 1024 * 1024),
    "--max-image-bytes": str(2 * 1024 * 1024),
    "--max-prompt-chars": "2000",
}


@pytest.fixture(scope="session")
def hpsv3_python() -> Path:
    """The venv's interpreter; fails with the setup command when the venv is missing."""
    try:
        return provision.require_venv()
    except provision.HPSv3VenvMissingError as error:
        pytest.fail(
            f"{error}\nThe hpsv3 test stage needs this environment: run "
            f"`{provision.setup_command()}` first (CI does), or leave the stage out with "
            "`-m 'not hpsv3'`.",
            pytrace=False,
        )


@pytest.fixture(scope="session")
def tiny_model(hpsv3_python: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The tiny random HPSv3 model, built once per session (~5-15 s on 2 cores)."""
    return provision.build_tiny_model(tmp_path_factory.mktemp("hpsv3_tiny"))


def _extra_args(max_batch: int, coalesce_ms: float) -> list[str]:
    args = ["--max-batch", str(max_batch), "--coalesce-ms", str(coalesce_ms)]
    for option, value in TEST_LIMITS.items():
        args += [option, value]
    return args


@pytest.fixture(scope="session")
def hpsv3_service(
    tiny_model: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[provision.ServiceProcess]:
    """The real service, in its venv, on CPU, on a free loopback port.

    ``--coalesce-ms 50`` so that concurrent requests in the tests reliably share batches.
    """
    log = tmp_path_factory.mktemp("hpsv3_service") / "service.log"
    with provision.launch_service(
        tiny_model["model_dir"],
        tiny_model["checkpoint"],
        device="cpu",
        port=0,
        extra_args=_extra_args(max_batch=4, coalesce_ms=50),
        log_path=log,
        ready_timeout_s=240,
    ) as service:
        yield service
