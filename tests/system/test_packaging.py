"""The wheel carries what a `pip install` user has instead of a checkout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(built_wheel: Path) -> Path:
    # The session's wheel (tests/conftest.py), built from a clean copy of the tree.
    return built_wheel


def test_wheel_ships_vendored_libraries_licences_and_harness(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in (
        "sketch_env/_vendor/p5/p5.min.js",
        "sketch_env/_vendor/p5/p5.js",
        "sketch_env/_vendor/p5/LICENSE.txt",
        "sketch_env/_vendor/p5.brush/p5.brush.js",
        "sketch_env/_vendor/p5.brush/LICENSE.md",
        "sketch_env/_vendor/VENDORED.json",
        "sketch_env/_vendor/pp-ocrv4/ch_PP-OCRv4_det_infer.onnx",
        "sketch_env/_vendor/pp-ocrv4/ch_PP-OCRv4_rec_infer.onnx",
        "sketch_env/_vendor/pp-ocrv4/LICENSE.txt",
        "sketch_env/render/harness.js",
        "sketch_env/py.typed",
        "sketch_env/openenv.yaml",
        "sketch_env/discovery.json",
        "sketch_env/client.py",
        "sketch_env/_examples/samples.jsonl",
        "sketch_env/_examples/grpo_trl_smoke.py",
        "sketch_env/_examples/sketches/harbour_at_dusk.js",
    ):
        assert required in names, required
    assert any(n.startswith("sketch_env/_reference_pool/") for n in names)
    assert not [n for n in names if "__pycache__" in n]


def test_installed_layout_finds_and_verifies_its_vendor_folder(wheel, tmp_path):
    zipfile.ZipFile(wheel).extractall(tmp_path / "site")
    # The default scorer's text reader must work from the wheel alone: it loads its models
    # from the installed vendor folder.
    code = (
        "import sketch_env.catalog.assets as a; print(a.vendor_dir()); print(a.verify_vendor())\n"
        "from PIL import Image, ImageDraw, ImageFont\n"
        "from sketch_env.picture.reading import TextReader\n"
        "p = Image.new('RGB', (600, 600), 'white')\n"
        "ImageDraw.Draw(p).text((60, 250), 'WHEEL', fill='black', "
        "font=ImageFont.load_default(size=90))\n"
        "print([r.text for r in TextReader().read(p)])"
    )
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
    folder, problems, read = proc.stdout.splitlines()
    assert folder == str(tmp_path / "site" / "sketch_env" / "_vendor")
    assert problems == "[]"
    assert read == "['WHEEL']"


def test_openenv_autoenv_discovers_the_installed_wheel(wheel_venv, tmp_path):
    # Installed outside the checkout (a venv on top of this one's dependencies, no network),
    # run from elsewhere with no PYTHONPATH: OpenEnv's discovery finds the distribution, reads
    # the manifest the wheel carries inside the package and imports the client from the wheel.
    venv = wheel_venv.parent
    python = wheel_venv / "python"
    script = (
        "import json\n"
        "from openenv.auto._discovery import get_discovery\n"
        "info = get_discovery().get_environment_by_name('sketch')\n"
        "cls = info.get_client_class()\n"
        "import sys; mod = sys.modules[cls.__module__]\n"
        "print(json.dumps({'package': info.package_name, 'manifest': info.manifest,\n"
        "    'client': cls.__name__, 'file': mod.__file__,\n"
        "    'action': info.get_action_class().__name__}))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    out = subprocess.run(
        [str(python), "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=env,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found["package"] == "openenv-sketch-env"
    assert found["manifest"]["name"] == "sketch_env"
    assert found["manifest"]["description"].startswith("Paint with p5.brush code")
    assert found["client"] == "SketchEnvClient" and found["action"] == "SketchAction"
    assert str(venv) in found["file"], found["file"]
