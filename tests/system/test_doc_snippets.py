"""Every ``python`` and ``bash`` block of README.md and docs/*.md runs as written, from a wheel.

The wheel is built from a clean copy of the tree and installed in a fresh venv outside the
checkout; the blocks run in reading order (README, then docs/ by name) in one working folder
outside the checkout too, with the venv first on ``PATH`` and no ``PYTHONPATH``: what a new user
following the docs has. Blocks marked as needing a GPU, a service, the network or a clone
(`tests.snippets`) are skipped with the reason, which pytest reports; blocks marked ``slow`` run
with ``SKETCH_ENV_SNIPPETS_SLOW=1``. A ``serves`` block's server runs in the background, for
the ``uses server`` blocks after it, until the run ends.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from PIL import Image

from tests.conftest import require_chromium
from tests.system.snippets import REFUSED_LANGUAGES, Snippet, all_snippets, extract

SNIPPETS = all_snippets()
RUN_SLOW = os.environ.get("SKETCH_ENV_SNIPPETS_SLOW") == "1"
#: Per block: a render pool starting on loaded cores, a rollout of the reference pool.
TIMEOUT_S = 900
#: pytest-timeout's limit for one test: a block's own, plus the wheel and venv that the first
#: block's setup builds (pyproject's default, 300 s, is too short for either on loaded cores).
TEST_TIMEOUT_S = TIMEOUT_S + 600


@dataclass
class Reader:
    """The new user: a venv with the wheel, a working folder, and a server if one was started."""

    bin: Path
    work: Path
    scripts: Path
    env: dict[str, str]
    servers: list[subprocess.Popen[bytes]] = field(default_factory=list)


@pytest.fixture(scope="module")
def reader(wheel_venv: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Reader]:
    # The session's wheel and venv (tests/conftest.py), shared with tests/system/test_packaging.py.
    require_chromium()
    base = tmp_path_factory.mktemp("reader")
    bin_dir = wheel_venv
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        VIRTUAL_ENV=str(bin_dir.parent),
        XDG_CACHE_HOME=str(base / "cache"),  # AutoEnv's discovery cache, the reader's own
        PYTHONDONTWRITEBYTECODE="1",
    )
    (base / "work").mkdir()
    (base / "scripts").mkdir()
    # Every sketch_env package on the path: the wheel's only, and no checkout's root (whose
    # bench/, examples/ and tests/ a user of the wheel does not have). An editable install may
    # leave a data-only sketch_env folder in site-packages; without __init__.py it is no rival.
    code = (
        "import sys, pathlib\n"
        "print(*[p for p in sys.path if (pathlib.Path(p) / 'sketch_env/__init__.py').is_file()"
        " or (pathlib.Path(p) / 'pyproject.toml').is_file()], sep='\\n')"
    )
    found = subprocess.run(
        [str(bin_dir / "python"), "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=base / "work",
        env=env,
    )
    assert found.returncode == 0, found.stderr
    # The blocks must run the wheel's code, not this checkout's editable install.
    (where,) = found.stdout.split()  # one: the venv's site-packages
    assert where.startswith(str(bin_dir.parent)), found.stdout
    reader = Reader(bin_dir, base / "work", base / "scripts", env)
    yield reader
    for server in reader.servers:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=30)


def _command(reader: Reader, snippet: Snippet) -> list[str]:
    name = snippet.id.replace("/", "_").replace(":", "_").replace(".md", "")
    if snippet.language == "python":
        script = reader.scripts / f"{name}.py"
        script.write_text(snippet.code, encoding="utf-8")
        return [str(reader.bin / "python"), str(script)]
    script = reader.scripts / f"{name}.sh"
    script.write_text(snippet.code, encoding="utf-8")
    return ["bash", "-e", "-o", "pipefail", str(script)]


def _serve(reader: Reader, snippet: Snippet) -> None:
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", 8000)) == 0:
            pytest.skip(f"{snippet.id} serves on port 8000, which something here already holds")
    log_path = reader.scripts / (snippet.id.replace("/", "_").replace(":", "_") + ".log")
    with log_path.open("wb") as log:
        server = subprocess.Popen(
            _command(reader, snippet),
            cwd=reader.work,
            env=reader.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: bash and the server stop together
        )
    reader.servers.append(server)
    deadline = time.monotonic() + TIMEOUT_S
    while time.monotonic() < deadline:
        text = log_path.read_text(errors="replace")
        if server.poll() is not None:
            pytest.fail(f"{snippet.id} exited ({server.returncode}) instead of serving:\n{text}")
        if "listening on http://127.0.0.1:8000" in text:
            try:
                if httpx.get("http://127.0.0.1:8000/health", timeout=5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
        time.sleep(1)
    pytest.fail(f"{snippet.id} did not serve within {TIMEOUT_S} s:\n{log_path.read_text()}")


@pytest.mark.timeout(TEST_TIMEOUT_S)
@pytest.mark.parametrize("snippet", SNIPPETS, ids=[s.id for s in SNIPPETS])
def test_snippet_runs_as_written(reader: Reader, snippet: Snippet) -> None:
    reason = snippet.skip_reason(run_slow=RUN_SLOW)
    if reason is not None:
        pytest.skip(reason)
    if snippet.serves:
        _serve(reader, snippet)
        return
    if snippet.uses_server and not any(s.poll() is None for s in reader.servers):
        pytest.fail(f"{snippet.id} talks to a server, but no `serves` block before it is running")
    result = subprocess.run(
        _command(reader, snippet),
        cwd=reader.work,
        env=reader.env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    assert result.returncode == 0, (
        f"{snippet.id} ({snippet.language}) failed with {result.returncode}:\n"
        f"{snippet.code}\n--- stdout\n{result.stdout[-3000:]}\n--- stderr\n{result.stderr[-3000:]}"
    )


def test_the_readmes_first_python_block_runs_in_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The fast tier's slice of this module: the README's first runnable Python block (it
    # renders a sketch and saves the picture), run as written in this interpreter. The wheel,
    # its fresh venv and every block in a cold interpreter are the slow tier's.
    require_chromium()
    block = next(
        s
        for s in SNIPPETS
        if s.path == "README.md" and s.language == "python" and s.skip_reason() is None
    )
    monkeypatch.chdir(tmp_path)
    exec(compile(block.code, block.id, "exec"), {"__name__": "__main__"})
    printed = capsys.readouterr().out
    assert printed.split()[0].lower().endswith("ok"), printed
    assert Image.open(tmp_path / "painting.png").size == (600, 600)


def test_every_block_is_run_or_marked(tmp_path: Path) -> None:
    # The extractor sees every python and bash block, refuses shell-ish labels that would
    # dodge it, and a marker applies only to the block right after it.
    doc = tmp_path / "doc.md"
    doc.write_text(
        "<!-- snippet: needs gpu -->\n\n```bash\nnvidia-smi\n```\n\ntext\n\n"
        "```python\nprint(1)\n```\n```text\nnot run\n```\n",
        encoding="utf-8",
    )
    first, second = extract(doc, tmp_path)
    assert first.needs == ("gpu",) and first.skip_reason() == "doc.md:3 needs a GPU"
    assert second.needs == () and second.skip_reason() is None
    for language in REFUSED_LANGUAGES:
        doc.write_text(f"```{language}\nls\n```\n", encoding="utf-8")
        with pytest.raises(ValueError, match="use ```bash or ```python"):
            extract(doc, tmp_path)
    doc.write_text("```\nsketch-env rollout --out runs/x\n```\n", encoding="utf-8")
    with pytest.raises(ValueError, match="unlabelled block of commands"):
        extract(doc, tmp_path)
    doc.write_text("```\nsketch_env/   the package\n```\n", encoding="utf-8")
    assert extract(doc, tmp_path) == []  # a layout or diagram stays unlabelled
    doc.write_text("<!-- snippet: needs a miracle -->\n```bash\nls\n```\n", encoding="utf-8")
    with pytest.raises(ValueError, match="unknown needs"):
        extract(doc, tmp_path)
    doc.write_text("<!-- snippet: slow -->\n```text\nls\n```\n", encoding="utf-8")
    with pytest.raises(ValueError, match="marker before a ```text block"):
        extract(doc, tmp_path)
    # And the docs themselves: every block that runs is in the run; the servers come first.
    counted = sum(
        1
        for s in SNIPPETS
        if s.skip_reason(run_slow=True) is None and not s.serves and not s.uses_server
    )
    assert counted >= 15, counted
    serving = [i for i, s in enumerate(SNIPPETS) if s.serves]
    using = [i for i, s in enumerate(SNIPPETS) if s.uses_server]
    assert serving and using and min(using) > min(serving)
