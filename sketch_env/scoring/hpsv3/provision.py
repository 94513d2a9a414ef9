"""Provisioning and launching of the isolated HPSv3 environment, from the main environment.

``hpsv3`` 1.0.0 cannot live beside a current TRL: it pins ``transformers==4.45.2`` (TRL 1.16
needs ``>=5.2``) and installs top-level packages named ``evaluate`` and ``generate`` that would
shadow anything else of those names. So it gets its own virtual environment, and the main
environment only ever starts processes in it (``service.py``, ``tinymodel.py``) and talks HTTP
to them. Everything here uses only the standard library.

What goes into the venv, and why (read from hpsv3 1.0.0's wheel metadata and its imports):

- ``hpsv3==1.0.0`` **with** ``--no-deps``. Its declared requirements include ``deepspeed``
  (published only as a source distribution whose build needs torch and a compiler; hpsv3
  imports it only inside a ZeRO-3 training helper), ``diffusers``, ``opencv-python``, ``timm``,
  ``einops`` and ``qwen-vl-utils`` (used by its image-generation and training scripts, never
  on the inference path), and an unpinned ``trl`` whose current releases need a newer
  ``transformers`` than the one hpsv3 pins. Installing all that is slow, large, and on a
  machine without a compiler, impossible.
- What ``from hpsv3 import HPSv3RewardInferencer`` actually imports: ``transformers==4.45.2``;
  ``trl==0.11.4`` (hpsv3 imports ``RewardTrainer``, ``get_kbit_device_map`` and
  ``get_quantization_config``; 0.11.x is the last series that accepts transformers 4.45 —
  0.12.0 requires ``>=4.46``) with ``rich``, which trl 0.11.4 imports but does not declare;
  ``peft==0.13.2`` and ``accelerate==1.0.1`` (contemporaries of transformers 4.45.2);
  ``datasets==3.0.1``; ``matplotlib`` and ``tensorboard`` (imported, undeclared); ``pandas``,
  ``fire``, ``omegaconf``, ``pyyaml``, ``requests``, ``safetensors``, ``pillow``, ``numpy``.
- ``torch`` and a matching ``torchvision`` (``2.13.0`` / ``0.28.0``): a CPU build by default,
  a CUDA build with ``cuda=True``. Before installing, pip is asked (``--dry-run``) what it would
  install, and setup refuses a CUDA build when a CPU one was asked for: an unpinned or
  wrong-index torch on Linux pulls several GB of CUDA libraries.
- ``fastapi`` and ``uvicorn`` for the service.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from sketch_env.errors import SetupError

#: Environment variable naming the venv; overrides the default location.
VENV_ENV_VAR = "SKETCH_ENV_HPSV3_VENV"

HPSV3_REQUIREMENT = "hpsv3==1.0.0"
DEFAULT_TORCH = "torch==2.13.0"
#: torchvision releases pin one torch release; 0.28.0 is the one for torch 2.13.0.
DEFAULT_TORCHVISION = "torchvision==0.28.0"

#: Everything hpsv3's inference path imports, plus the service's web stack (see module doc).
REQUIREMENTS: tuple[str, ...] = (
    "transformers==4.45.2",
    "trl==0.11.4",
    "rich>=13",
    "peft==0.13.2",
    "accelerate==1.0.1",
    "datasets==3.0.1",
    "huggingface_hub>=0.23.2,<1.0",
    "matplotlib>=3.7",
    "tensorboard>=2.14",
    "pandas>=2.0",
    "fire>=0.7",
    "omegaconf>=2.3",
    "pyyaml>=6.0",
    "requests>=2.31",
    "safetensors>=0.4.3",
    "pillow>=10",
    "numpy>=1.24",
    "fastapi>=0.110",
    "uvicorn>=0.29",
)

#: Written into the venv when setup succeeded; setup is skipped when it matches the request.
MARKER_NAME = "sketch_env_hpsv3.json"
#: Bump when the recipe above changes, so old venvs are rebuilt.
RECIPE_VERSION = 1


class HPSv3VenvMissingError(SetupError, FileNotFoundError):
    """The HPSv3 venv does not exist or is incomplete; the message says how to create it."""


class HPSv3SetupError(SetupError):
    """Provisioning failed (a pip step, the CUDA/CPU guard, or the import check)."""


def default_venv_path() -> Path:
    """Returns where the HPSv3 venv lives.

    Returns:
        ``$SKETCH_ENV_HPSV3_VENV`` if set, else ``$XDG_CACHE_HOME/sketch_env/hpsv3-venv``
        (``~/.cache/sketch_env/hpsv3-venv`` when ``XDG_CACHE_HOME`` is unset).
    """
    if os.environ.get(VENV_ENV_VAR):
        return Path(os.environ[VENV_ENV_VAR]).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache).expanduser() / "sketch_env" / "hpsv3-venv"


def venv_python(venv: str | Path) -> Path:
    """Returns the interpreter of a venv (POSIX or Windows layout)."""
    venv = Path(venv)
    posix = venv / "bin" / "python"
    return posix if posix.exists() or os.name != "nt" else venv / "Scripts" / "python.exe"


def service_script() -> Path:
    """Returns the path of ``service.py`` (run by the venv's interpreter, never imported here)."""
    return Path(__file__).with_name("service.py")


def tinymodel_script() -> Path:
    """Returns the path of ``tinymodel.py`` (run by the venv's interpreter)."""
    return Path(__file__).with_name("tinymodel.py")


def setup_command(venv: str | Path | None = None) -> str:
    """Returns the shell command that creates the venv, for error messages."""
    command = "sketch-env hpsv3 setup"
    if venv is not None and Path(venv) != default_venv_path():
        command += f" --venv {shlex.quote(str(venv))}"
    return command


def read_marker(venv: str | Path) -> dict[str, Any] | None:
    """Returns the setup record of a venv, or ``None`` if setup never completed there."""
    path = Path(venv) / MARKER_NAME
    try:
        return cast(dict[str, Any], json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return None


def require_venv(venv: str | Path | None = None) -> Path:
    """Returns the venv's interpreter, or explains how to create the venv.

    Args:
        venv: The venv; `default_venv_path` when ``None``.

    Returns:
        Path of the venv's ``python``.

    Raises:
        HPSv3VenvMissingError: If the venv or its setup record is missing.
    """
    venv = Path(venv) if venv is not None else default_venv_path()
    python = venv_python(venv)
    if not python.exists() or read_marker(venv) is None:
        raise HPSv3VenvMissingError(
            f"the HPSv3 environment at {venv} is missing or incomplete; create it with "
            f"`{setup_command(venv)}` (about two minutes on a CPU machine; see docs/hpsv3.md)"
        )
    return python


def check_venv(venv: str | Path | None = None, timeout_s: float = 300.0) -> dict[str, Any]:
    """Imports hpsv3 inside the venv and returns what it reports.

    Args:
        venv: The venv; `default_venv_path` when ``None``.
        timeout_s: Limit for the check (importing torch + transformers takes a few seconds).

    Returns:
        ``{"ok": True, "versions": {...}, "cuda_available": bool, ...}``.

    Raises:
        HPSv3VenvMissingError: If the venv is missing.
        HPSv3SetupError: If the import fails.
    """
    python = require_venv(venv)
    return _run_check(python, timeout_s)


def _run_check(python: Path, timeout_s: float = 300.0) -> dict[str, Any]:
    result = subprocess.run(
        [str(python), "-I", str(service_script()), "--check", "--log-level", "warning"],
        capture_output=True,
        text=True,
        timeout=timeout_s,
        check=False,
    )
    if result.returncode != 0:
        raise HPSv3SetupError(f"hpsv3 does not import in {python}:\n{result.stderr[-4000:]}")
    return cast(dict[str, Any], json.loads(result.stdout.strip().splitlines()[-1]))


@dataclass
class SetupResult:
    """What `setup_venv` did.

    Args:
        venv: The venv directory.
        python: Its interpreter.
        reused: ``True`` if an existing, matching venv was kept.
        seconds: Wall time of the call.
        check: What the import check inside the venv reported.
    """

    venv: Path
    python: Path
    reused: bool
    seconds: float
    check: dict[str, Any] = field(default_factory=dict)


def _recipe(
    cuda: bool, torch: str, torchvision: str, torch_index_url: str | None
) -> dict[str, Any]:
    return {
        "recipe_version": RECIPE_VERSION,
        "cuda": cuda,
        "torch": torch,
        "torchvision": torchvision,
        "torch_index_url": torch_index_url,
        "hpsv3": HPSV3_REQUIREMENT,
        "requirements": list(REQUIREMENTS),
    }


def _pip(python: Path, args: Sequence[str], log: Callable[[str], None]) -> None:
    command = [str(python), "-m", "pip", "--disable-pip-version-check", *args]
    log("$ " + shlex.join(command))
    started = time.perf_counter()
    result = subprocess.run(
        command, check=False, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    if result.returncode != 0:
        raise HPSv3SetupError(f"pip failed ({result.returncode}):\n{result.stdout[-6000:]}")
    log(f"  done in {time.perf_counter() - started:.1f} s")


def _requirement_name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;(]", requirement.strip(), maxsplit=1)[0].lower()


def _torch_plan(
    python: Path, torch: str, torchvision: str, index_args: list[str], log: Callable[[str], None]
) -> dict[str, Any]:
    """Asks pip which torch it would install, without installing it."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        _pip(
            python,
            [
                *("install", "--dry-run", "--no-deps", "--ignore-installed"),
                *("--report", str(report), *index_args, torch, torchvision),
            ],
            log,
        )
        data = json.loads(report.read_text(encoding="utf-8"))
    for item in data.get("install", []):
        metadata = item.get("metadata", {})
        if metadata.get("name", "").lower() == "torch":
            # A CUDA torch depends on NVIDIA's runtime wheels (nvidia-*, cuda-toolkit, ...);
            # a CPU build (or macOS/Windows wheels) depends on none of them.
            names = [_requirement_name(r) for r in metadata.get("requires_dist") or []]
            cuda_deps = sorted({n for n in names if n.startswith(("nvidia-", "cuda-"))})
            return {
                "version": metadata.get("version", "?"),
                "url": item.get("download_info", {}).get("url", "?"),
                "cuda_deps": cuda_deps,
            }
    raise HPSv3SetupError(f"pip's dry run did not plan to install torch for {torch!r}")


def setup_venv(
    venv: str | Path | None = None,
    *,
    cuda: bool = False,
    python: str | Path | None = None,
    torch: str = DEFAULT_TORCH,
    torchvision: str = DEFAULT_TORCHVISION,
    torch_index_url: str | None = None,
    force: bool = False,
    log: Callable[[str], None] = print,
) -> SetupResult:
    """Creates (or reuses) the isolated HPSv3 virtual environment.

    Args:
        venv: Where; `default_venv_path` when ``None``.
        cuda: Install a CUDA torch instead of a CPU one.
        python: Interpreter that creates the venv; the current one when ``None``.
        torch: Requirement for torch.
        torchvision: Requirement for torchvision; must be the release made for ``torch``.
        torch_index_url: Extra index for torch and torchvision only, e.g.
            ``https://download.pytorch.org/whl/cpu`` or ``.../whl/cu128``.
        force: Delete and rebuild even if a matching venv exists.
        log: Receives progress lines.

    Returns:
        A `SetupResult`.

    Raises:
        HPSv3SetupError: If a step fails, or pip would install the wrong kind of torch.

    Examples:
        ```python
        from sketch_env.scoring.hpsv3.provision import setup_venv
        setup_venv()  # CPU torch, ~/.cache/sketch_env/hpsv3-venv
        ```
    """
    started = time.perf_counter()
    venv = (Path(venv) if venv is not None else default_venv_path()).expanduser().absolute()
    recipe = _recipe(cuda, torch, torchvision, torch_index_url)
    marker = read_marker(venv)
    vpython = venv_python(venv)
    if not force and marker is not None and marker.get("recipe") == recipe and vpython.exists():
        try:
            check = _run_check(vpython)
            log(f"HPSv3 environment at {venv} is up to date (use --force to rebuild)")
            return SetupResult(venv, vpython, True, time.perf_counter() - started, check)
        except (HPSv3SetupError, subprocess.SubprocessError, ValueError) as error:
            log(f"existing environment fails its check, rebuilding: {error}")

    base = str(python or sys.executable)
    log(f"creating {venv} with {base}")
    venv.parent.mkdir(parents=True, exist_ok=True)
    (venv / MARKER_NAME).unlink(missing_ok=True)
    result = subprocess.run(
        [base, "-m", "venv", "--clear", str(venv)], capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        raise HPSv3SetupError(f"python -m venv failed:\n{result.stderr[-4000:]}")
    vpython = venv_python(venv)

    index_args = ["--extra-index-url", torch_index_url] if torch_index_url else []
    plan = _torch_plan(vpython, torch, torchvision, index_args, log)
    log(f"pip would install torch {plan['version']} from {plan['url']}")
    if not cuda and plan["cuda_deps"]:
        raise HPSv3SetupError(
            f"pip would install a CUDA build of torch {plan['version']} (it depends on "
            f"{', '.join(plan['cuda_deps'][:4])}, ...: several GB), but a CPU build was asked for. "
            "Pass --torch-index-url https://download.pytorch.org/whl/cpu to get the CPU build, "
            "or --cuda if this machine has an NVIDIA GPU."
        )
    if cuda and not plan["cuda_deps"] and sys.platform.startswith("linux"):
        raise HPSv3SetupError(
            f"--cuda was asked for, but pip would install torch {plan['version']} from "
            f"{plan['url']}, which is not a CUDA build. Pass --torch-index-url with a CUDA "
            "wheel index (e.g. https://download.pytorch.org/whl/cu128) or a --torch requirement "
            "that resolves to one."
        )
    _pip(vpython, ["install", "--progress-bar", "off", *index_args, torch, torchvision], log)

    # Pin whatever torch landed for every later step, so no dependency can swap it.
    freeze = subprocess.run(
        [str(vpython), "-m", "pip", "freeze", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    pins = [line for line in freeze if line.lower().startswith(("torch==", "torchvision=="))]
    constraints = venv / "sketch_env_constraints.txt"
    constraints.write_text("\n".join(pins) + "\n", encoding="utf-8")
    _pip(vpython, ["install", "--progress-bar", "off", "-c", str(constraints), *REQUIREMENTS], log)
    _pip(vpython, ["install", "--progress-bar", "off", "--no-deps", HPSV3_REQUIREMENT], log)

    check = _run_check(vpython)
    if cuda and not check.get("torch_cuda"):
        raise HPSv3SetupError(f"torch in {venv} is not a CUDA build: {check}")
    freeze = subprocess.run(
        [str(vpython), "-m", "pip", "freeze", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    seconds = time.perf_counter() - started
    record = {
        "recipe": recipe,
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "setup_seconds": round(seconds, 1),
        "base_python": base,
        "check": check,
        "freeze": freeze,
    }
    (venv / MARKER_NAME).write_text(json.dumps(record, indent=2), encoding="utf-8")
    log(f"HPSv3 environment ready at {venv} in {seconds:.0f} s ({check['versions']})")
    return SetupResult(venv, vpython, False, seconds, check)


def build_tiny_model(
    out: str | Path, venv: str | Path | None = None, seed: int = 0, timeout_s: float = 600.0
) -> dict[str, Any]:
    """Builds the tiny random HPSv3 test model with the venv's interpreter.

    Args:
        out: Output directory (see ``tinymodel.py`` for the layout).
        venv: The HPSv3 venv; `default_venv_path` when ``None``.
        seed: Seed of the random weights.
        timeout_s: Limit for the build (it takes ~5 s on 2 cores).

    Returns:
        The manifest: paths of the model directory, checkpoint and config, sizes, versions.

    Raises:
        HPSv3VenvMissingError: If the venv is missing.
        HPSv3SetupError: If the build fails.
    """
    python = require_venv(venv)
    result = subprocess.run(
        [str(python), "-I", str(tinymodel_script()), "--out", str(out), "--seed", str(seed)],
        capture_output=True,
        text=True,
        timeout=timeout_s,
        check=False,
    )
    if result.returncode != 0:
        raise HPSv3SetupError(f"building the tiny model failed:\n{result.stderr[-6000:]}")
    return cast(
        dict[str, Any], json.loads((Path(out) / "manifest.json").read_text(encoding="utf-8"))
    )


def service_command(
    model_dir: str | Path,
    checkpoint: str | Path,
    *,
    venv: str | Path | None = None,
    config: str | Path | None = None,
    host: str = "127.0.0.1",
    port: int = 8765,
    device: str = "auto",
    extra_args: Sequence[str] = (),
) -> list[str]:
    """Returns the argv that runs the service in the venv.

    Args:
        model_dir: Local Qwen2-VL directory.
        checkpoint: HPSv3 checkpoint file.
        venv: The HPSv3 venv; `default_venv_path` when ``None``.
        config: Optional YAML config (default: hpsv3's own, pointed at ``model_dir``).
        host: Interface to bind.
        port: Port (0: any free one; pass ``--ready-file`` in ``extra_args`` to learn it).
        device: ``auto``, ``cpu``, ``cuda`` or ``cuda:N``.
        extra_args: More ``service.py`` options (``--max-batch``, limits, ...).

    Returns:
        The command as a list.

    Raises:
        HPSv3VenvMissingError: If the venv is missing.
    """
    python = require_venv(venv)
    command = [str(python), "-I", str(service_script())]
    command += ["--model-dir", str(Path(model_dir).resolve())]
    command += ["--checkpoint", str(Path(checkpoint).resolve())]
    if config is not None:
        command += ["--config", str(Path(config).resolve())]
    command += ["--host", host, "--port", str(port), "--device", device, *extra_args]
    return command


class ServiceProcess:
    """A running HPSv3 service started by `launch_service`; stop it with `stop` or ``with``.

    Args:
        process: The service process.
        url: Its base URL.
        log_path: File receiving its stdout and stderr.
    """

    def __init__(self, process: subprocess.Popen[bytes], url: str, log_path: Path) -> None:
        self.process = process
        self.url = url
        self.log_path = log_path

    def log_tail(self, chars: int = 4000) -> str:
        """Returns the end of the service's log."""
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")[-chars:]
        except OSError:
            return ""

    def stop(self, timeout_s: float = 15.0) -> int | None:
        """Asks the service to exit (SIGTERM), kills it if it does not, and returns its status."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout_s)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout_s)
        return self.process.returncode

    def __enter__(self) -> ServiceProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def launch_service(
    model_dir: str | Path,
    checkpoint: str | Path,
    *,
    venv: str | Path | None = None,
    host: str = "127.0.0.1",
    port: int = 0,
    device: str = "auto",
    extra_args: Sequence[str] = (),
    log_path: str | Path | None = None,
    ready_timeout_s: float = 600.0,
    env: dict[str, str] | None = None,
) -> ServiceProcess:
    """Starts the service in the venv and waits until ``/health`` answers.

    Args:
        model_dir: Local Qwen2-VL directory.
        checkpoint: HPSv3 checkpoint file.
        venv: The HPSv3 venv; `default_venv_path` when ``None``.
        host: Interface to bind (keep the loopback unless the service must be reachable).
        port: Port; 0 picks a free one.
        device: ``auto``, ``cpu``, ``cuda`` or ``cuda:N``.
        extra_args: More ``service.py`` options.
        log_path: Where its output goes; a temporary file when ``None``.
        ready_timeout_s: How long loading may take (the 7B model: a minute or two).
        env: Extra environment variables for the service.

    Returns:
        A `ServiceProcess` whose ``url`` answers.

    Raises:
        HPSv3VenvMissingError: If the venv is missing.
        RuntimeError: If the service exits or does not become ready in time (with its log).
    """
    workdir = Path(tempfile.mkdtemp(prefix="sketch_env_hpsv3_run_"))
    ready = workdir / "ready.json"
    log_file = Path(log_path) if log_path is not None else workdir / "service.log"
    command = service_command(
        model_dir,
        checkpoint,
        venv=venv,
        host=host,
        port=port,
        device=device,
        extra_args=[*extra_args, "--ready-file", str(ready)],
    )
    with open(log_file, "wb") as log:
        process = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})}
        )
    deadline = time.monotonic() + ready_timeout_s
    handle = ServiceProcess(process, "", log_file)
    # No proxies: the service is local, and an http_proxy in the environment must not catch it.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"the HPSv3 service exited with status {process.returncode} before it was ready;"
                f" its log ({log_file}) ends with:\n{handle.log_tail()}"
            )
        if ready.exists():
            handle.url = json.loads(ready.read_text(encoding="utf-8"))["url"]
            try:
                with opener.open(handle.url + "/health", timeout=5) as response:
                    if response.status == 200:
                        return handle
            except (urllib.error.URLError, OSError):
                pass
        time.sleep(0.1)
    handle.stop()
    raise RuntimeError(
        f"the HPSv3 service was not ready after {ready_timeout_s:.0f} s; its log ends with:\n"
        + handle.log_tail()
    )
