"""Every install hint is the same one, and each one works without a package index.

The package is not on an index, so ``pip install 'openenv-sketch-env[trl]'`` answers "No
matching distribution"; Ray used to have three different hints (doctor, pyproject, serve).
`sketch_env.install` now writes each command once, from the extras ``pyproject.toml`` declares.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from sketch_env.install import EXTRAS, RAY_INSTALL, TRL_INSTALL, extra_install

ROOT = Path(__file__).resolve().parent.parent

#: What a user reads: the docs, the examples, the package's own messages, the benchmarks.
SCANNED = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "examples").glob("*.py")),
    *sorted((ROOT / "sketch_env").rglob("*.py")),
    *sorted((ROOT / "bench").rglob("*.py")),
]


def test_the_version_is_the_one_pyproject_declares() -> None:
    # Written twice (the build reads pyproject.toml; the package reads install.VERSION).
    import sketch_env
    from sketch_env.install import VERSION

    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert VERSION == project["version"] == sketch_env.__version__


def test_the_hints_are_the_extras_pyproject_declares() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"][
        "optional-dependencies"
    ]
    for extra, requirements in EXTRAS.items():
        assert tuple(declared[extra]) == requirements, extra
    assert RAY_INSTALL == "pip install 'ray==2.60.*'"
    assert TRL_INSTALL.endswith(extra_install("trl"))
    assert TRL_INSTALL.index("torch==2.13.0") < TRL_INSTALL.index("trl==1.16")


def _install_commands(text: str) -> list[str]:
    # A command runs to the end of its line or its inline code span.
    return re.findall(r"pip install[^`\n\"]*", text)


def test_no_hint_installs_from_an_index_that_does_not_have_the_package() -> None:
    bad = []
    for path in SCANNED:
        for command in _install_commands(path.read_text("utf-8")):
            if re.search(r"pip install (-U |--upgrade )?'?openenv-sketch-env", command):
                bad.append(f"{path.relative_to(ROOT)}: {command.strip()}")
    assert not bad, "the package is on no index; use sketch_env.install's commands:\n" + "\n".join(
        bad
    )


def test_every_ray_and_trl_hint_is_the_one_command() -> None:
    bad = []
    for path in SCANNED:
        for command in _install_commands(path.read_text("utf-8")):
            extras_form = re.search(r"\.(whl)?\[[a-z,]+\]", command)  # '.[ray]' in a clone
            if extras_form:
                continue
            if re.search(r"\bray\b", command) and "'ray==2.60.*'" not in command:
                bad.append(f"{path.relative_to(ROOT)}: {command.strip()}")
            if re.search(r"\btrl\b", command) and "'trl==1.16.*'" not in command:
                bad.append(f"{path.relative_to(ROOT)}: {command.strip()}")
    assert not bad, f"say {RAY_INSTALL} / {extra_install('trl')}:\n" + "\n".join(bad)


def test_missing_ray_names_the_one_command() -> None:
    # A fresh interpreter in which `import ray` fails, as on a machine without the extra.
    code = (
        "import sys; sys.modules['ray'] = None\n"
        "from sketch_env.errors import MissingExtraError\n"
        "from sketch_env.distributed import make_renderer\n"
        "from sketch_env.distributed import check_renderer_spec\n"
        "check_renderer_spec('local')\n"
        "for call in (make_renderer, check_renderer_spec):\n"
        "    try:\n"
        "        call('ray://auto')\n"
        "    except MissingExtraError as exc:\n"
        "        print(isinstance(exc, ImportError), exc)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    expected = f"True RayRenderer needs Ray, which is not installed: {RAY_INSTALL}"
    assert out.stdout.strip().splitlines() == [expected, expected]
