"""The ``sketch-env`` command as a first-day user meets it: ``--version``, help that keeps its
examples apart, output folders that are made or refused in one line, the examples command,
and ``scripts/setup.sh --help``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from sketch_env import __version__
from tests.conftest import GOOD_SKETCH, require_chromium

ROOT = Path(__file__).resolve().parent.parent


def _cli(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "sketch_env.cli", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _one_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_version(tmp_path: Path) -> None:
    result = _cli("--version", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"sketch-env {__version__} (openenv-sketch-env, Python 3.")


def test_subcommand_help_keeps_its_examples_one_per_line(tmp_path: Path) -> None:
    result = _cli("serve", "--help", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "    sketch-env serve --host 127.0.0.1 --port 8000" in lines, result.stdout
    assert any(line.strip().startswith("SKETCH_ENV_MAX_SESSIONS=16") for line in lines)


def test_render_makes_the_folder_of_out(tmp_path: Path) -> None:
    require_chromium()
    (tmp_path / "x.js").write_text(GOOD_SKETCH)
    result = _cli("render", "x.js", "--out", "missing/dir/x.png", cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "missing" / "dir" / "x.png").read_bytes().startswith(b"\x89PNG")
    assert json.loads(result.stdout)["png"] == "missing/dir/x.png"


def test_render_out_that_cannot_be_made_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "x.js").write_text(GOOD_SKETCH)
    (tmp_path / "a_file").write_text("in the way")
    line = _one_line(_cli("render", "x.js", "--out", "a_file/x.png", cwd=tmp_path))
    assert line.startswith("error: --out: cannot create a_file"), line
    line = _one_line(_cli("render", "x.js", "--out-dir", "a_file/pngs", cwd=tmp_path))
    assert line.startswith("error: --out-dir: cannot create a_file/pngs"), line


def test_examples_lists_and_copies_without_overwriting(tmp_path: Path) -> None:
    from sketch_env.catalog.assets import examples_dir

    listed = _cli("examples", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "samples.jsonl" in listed.stdout and "grpo_trl.py" in listed.stdout
    copied = _cli("examples", "mine", cwd=tmp_path)
    assert copied.returncode == 0, copied.stderr
    for name in ("samples.jsonl", "gym_loop.py", "sketches/harbour_at_dusk.js"):
        assert (tmp_path / "mine" / name).read_bytes() == (examples_dir() / name).read_bytes()
    assert not list((tmp_path / "mine").rglob("__pycache__"))
    # Copying again is harmless; a file of the user's own in the way is refused, untouched.
    again = _cli("examples", "mine", cwd=tmp_path)
    assert again.returncode == 0 and "copied 0 of" in again.stdout, again.stdout
    (tmp_path / "mine" / "samples.jsonl").write_text("mine\n")
    line = _one_line(_cli("examples", "mine", cwd=tmp_path))
    assert "samples.jsonl exists and differs" in line, line
    assert (tmp_path / "mine" / "samples.jsonl").read_text() == "mine\n"


def test_setup_script_help_is_its_comment_block() -> None:
    result = subprocess.run(
        ["bash", str(ROOT / "scripts" / "setup.sh"), "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Sets up sketch_env on a Debian/Ubuntu machine")
    assert "scripts/setup.sh --dev" in result.stdout
    # Only the comment text: no shell code, no comment markers.
    assert not any(line.startswith(("set ", "#")) for line in lines), result.stdout
