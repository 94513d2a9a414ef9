"""How to install each piece: the one place an install command is written.

The package is not on a package index, so asking pip for the distribution by name, with or
without an extra, cannot work for anyone: it answers "No matching distribution". Every message
that tells a user to install something therefore names the requirements themselves
(``pip install 'ray==2.60.*'``), which work however sketch_env was installed (a clone, an
editable install, a wheel), and the same text appears in every message, in the docs and in
``sketch-env doctor``. The requirements are the ``[project.optional-dependencies]`` of
``pyproject.toml``; a test keeps the two equal.

Examples:
    >>> RAY_INSTALL
    "pip install 'ray==2.60.*'"
    >>> extra_install("trl")
    "pip install 'trl==1.16.*' 'datasets>=3' 'peft>=0.17'"
"""

from __future__ import annotations

__all__ = [
    "DIST",
    "EXTRAS",
    "RAY_INSTALL",
    "REINSTALL",
    "TORCH_CPU_INSTALL",
    "TORCH_GPU_INSTALL",
    "TRL_INSTALL",
    "extra_install",
]

#: The distribution's name (what ``pip show`` and ``importlib.metadata`` know it by); the
#: import name is ``sketch_env``.
DIST = "openenv-sketch-env"
#: The distribution's version (pyproject.toml says the same; `sketch_env.__version__` is this).
VERSION = "0.1.0"

#: Each optional extra's requirements, as ``pyproject.toml`` declares them.
EXTRAS: dict[str, tuple[str, ...]] = {
    "trl": ("trl==1.16.*", "datasets>=3", "peft>=0.17"),
    "ray": ("ray==2.60.*",),
}

#: A CPU-only torch. PyPI's Linux wheel of ``torch==2.13.0`` is the CUDA build, which pulls
#: NVIDIA's wheels (gigabytes); the CPU build lives on PyTorch's own index.
TORCH_CPU_INSTALL = "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu"
#: A CUDA torch: PyPI's default Linux wheel (another CUDA version: PyTorch's ``/whl/cuXXX``).
TORCH_GPU_INSTALL = "pip install torch==2.13.0"

#: What to do when a file of the package itself is missing or broken. There is no index to
#: reinstall from, so the user reinstalls from what they installed from.
REINSTALL = (
    "reinstall sketch_env from what you installed it from: "
    "pip install --force-reinstall dist/openenv_sketch_env-*.whl (a built wheel), "
    "or pip install -e . in its clone"
)


def extra_install(extra: str) -> str:
    """The ``pip install`` command for one optional extra's requirements.

    Args:
        extra: A key of `EXTRAS` (``"trl"`` or ``"ray"``).

    Returns:
        The command, each requirement quoted for the shell.

    Raises:
        KeyError: If the extra is unknown.

    Examples:
        >>> extra_install("ray")
        "pip install 'ray==2.60.*'"
    """
    return "pip install " + " ".join(f"'{requirement}'" for requirement in EXTRAS[extra])


#: How to get Ray, in every message that needs it.
RAY_INSTALL = extra_install("ray")
#: How to get the training stack, in every message that needs it: torch first, the build you
#: want, so that installing TRL keeps that build instead of pulling PyPI's CUDA one.
TRL_INSTALL = (
    f"{TORCH_CPU_INSTALL} (CPU) or {TORCH_GPU_INSTALL} (CUDA), then {extra_install('trl')}"
)
