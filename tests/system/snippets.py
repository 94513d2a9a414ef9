"""The fenced ``python`` and ``bash`` blocks of README.md and docs/*.md, with what each needs.

A block runs as written unless the line before it (blank lines aside) is a marker::

    <!-- snippet: needs gpu -->            a GPU
    <!-- snippet: needs service -->        a model or scoring service, or a cluster, that
                                           must already be running (HPSv3, a judge, Ray)
    <!-- snippet: needs network -->        the network (a download, a clone)
    <!-- snippet: needs checkout -->       a clone of the repository (development commands)
    <!-- snippet: slow -->                 runs on a CPU, but for longer than the snippet run
                                           allows (SKETCH_ENV_SNIPPETS_SLOW=1 runs it)
    <!-- snippet: serves -->               starts a server; it runs in the background until
                                           the end of the run, once it says where it listens
    <!-- snippet: uses server -->          talks to the server a ``serves`` block started

``needs`` takes several words (``needs gpu, service``). Blocks with a ``needs`` or ``slow``
marker are reported as skipped with the reason, never passed. Other fence languages are not
run, and the shell-ish ones (``sh``, ``shell``, ``console``, ``py``) are refused, as is an
unlabelled block whose lines are commands, so a block cannot dodge the run by its label.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: What each ``needs`` word means, as the skip reason says it.
NEEDS = {
    "gpu": "a GPU",
    "service": "a running model or scoring service (HPSv3, a judge) or a cluster",
    "network": "the network",
    "checkout": "a clone of the repository",
}
RUN_LANGUAGES = ("python", "bash")
REFUSED_LANGUAGES = ("sh", "shell", "console", "py", "zsh")

_FENCE = re.compile(r"^```([A-Za-z0-9_+-]*)\s*$")
#: A line that is a command: an unlabelled block holding one would not run, so it is refused.
_COMMAND = re.compile(r"^\s*(\$ )?(sketch-env|python3?|pip|bash|curl|pytest|uvicorn|export)\s")
_MARKER = re.compile(r"^<!--\s*snippet:\s*(.*?)\s*-->$")


@dataclass(frozen=True)
class Snippet:
    """One fenced block.

    Args:
        path: The document, relative to the repository root.
        line: The line of the opening fence (1-based).
        language: ``"python"`` or ``"bash"``.
        code: The block's text.
        needs: What it needs that the run does not have (keys of `NEEDS`).
        slow: Whether it is marked slow.
        serves: Whether it starts a server.
        uses_server: Whether it talks to a server a ``serves`` block started.
    """

    path: str
    line: int
    language: str
    code: str
    needs: tuple[str, ...] = ()
    slow: bool = False
    serves: bool = False
    uses_server: bool = False

    @property
    def id(self) -> str:
        return f"{self.path}:{self.line}"

    def skip_reason(self, run_slow: bool = False) -> str | None:
        """Why the run does not execute this block, or ``None`` when it does."""
        if self.needs:
            return f"{self.id} needs " + " and ".join(NEEDS[need] for need in self.needs)
        if self.slow and not run_slow:
            return f"{self.id} is marked slow (SKETCH_ENV_SNIPPETS_SLOW=1 runs it)"
        return None


def _marker(text: str, where: str) -> dict[str, object]:
    words = text.replace(",", " ").split()
    if not words:
        raise ValueError(f"{where}: empty snippet marker")
    if words[0] == "needs":
        unknown = [w for w in words[1:] if w not in NEEDS]
        if unknown or len(words) == 1:
            raise ValueError(f"{where}: unknown needs {unknown or words}; known: {list(NEEDS)}")
        return {"needs": tuple(words[1:])}
    known = {("slow",): "slow", ("serves",): "serves", ("uses", "server"): "uses_server"}
    if tuple(words) not in known:
        raise ValueError(f"{where}: unknown snippet marker {text!r}")
    return {known[tuple(words)]: True}


def extract(path: Path, root: Path = ROOT) -> list[Snippet]:
    """The runnable blocks of one Markdown file, in order.

    Args:
        path: The Markdown file.
        root: What the snippets' paths are relative to.

    Raises:
        ValueError: On a refused fence language, an unknown marker, a marker before a block
            that is not run, or an unclosed fence.
    """
    relative = str(path.relative_to(root))
    lines = path.read_text(encoding="utf-8").splitlines()
    snippets: list[Snippet] = []
    marker: dict[str, object] | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        where = f"{relative}:{index + 1}"
        found = _MARKER.match(line.strip())
        if found:
            marker = _marker(found.group(1), where)
        opening = _FENCE.match(line)
        if opening:
            language = opening.group(1).lower()
            end = index + 1
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            if end == len(lines):
                raise ValueError(f"{where}: unclosed code fence")
            if language in REFUSED_LANGUAGES:
                raise ValueError(f"{where}: fence ```{language}; use ```bash or ```python")
            body = lines[index + 1 : end]
            if not language and any(_COMMAND.match(text) for text in body):
                raise ValueError(f"{where}: an unlabelled block of commands; label it ```bash")
            if language in RUN_LANGUAGES:
                snippets.append(
                    Snippet(
                        relative,
                        index + 1,
                        language,
                        "\n".join(body) + "\n",
                        **(marker or {}),  # type: ignore[arg-type]
                    )
                )
            elif marker is not None:
                raise ValueError(f"{where}: a snippet marker before a ```{language} block")
            marker = None
            index = end + 1
            continue
        if line.strip() and not found:
            marker = None  # a marker belongs to the very next block
        index += 1
    return snippets


def documents() -> list[Path]:
    """README.md first, then docs/*.md: the order a reader follows."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def all_snippets() -> list[Snippet]:
    """Every runnable block of every document, in reading order."""
    return [snippet for path in documents() for snippet in extract(path)]
