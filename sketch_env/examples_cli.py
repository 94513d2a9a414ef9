"""List the examples, or copy them into a folder of your own.

The wheel carries the clone's ``examples/``: the GRPO scripts, a gymnasium loop, an OpenEnv
client, ``samples.jsonl`` (model replies for ``sketch-env rollout --replies``) and a folder of
sketches (for ``--sketches``). Copied out, they run as the docs show them.

Examples:
    sketch-env examples                 # what there is, and where it is installed
    sketch-env examples examples        # copy it all into ./examples
    sketch-env rollout --replies examples/samples.jsonl --out runs/samples
"""

from __future__ import annotations

import argparse
import ast
import shutil
import sys
from pathlib import Path

from sketch_env.catalog.assets import examples_dir

__all__ = ["add_arguments", "example_files", "run"]

#: What the files that are not Python scripts are for.
_ABOUT = {
    "samples.jsonl": "model replies, for sketch-env rollout --replies (a conversation replays as "
    "an episode)",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the ``examples`` arguments.

    Args:
        parser: The subcommand's parser.
    """
    parser.add_argument(
        "folder",
        nargs="?",
        type=Path,
        help="copy the examples into this folder (made if missing); without it, list them",
    )


def example_files(folder: Path | None = None) -> list[Path]:
    """The example files, relative to their folder, in a stable order.

    Args:
        folder: The examples folder; `sketch_env.catalog.assets.examples_dir` when ``None``.

    Returns:
        Every file, Python caches left out.
    """
    root = folder or examples_dir()
    return sorted(
        path.relative_to(root)
        for path in root.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    )


def _about(path: Path) -> str:
    if path.name in _ABOUT:
        return _ABOUT[path.name]
    if path.suffix == ".py":
        docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        return docstring.splitlines()[0] if docstring else ""
    if path.suffix == ".js":
        return "a sketch, for sketch-env rollout --sketches / sketch-env render"
    return ""


def run(args: argparse.Namespace) -> int:
    """Lists the examples, or copies them into ``args.folder``.

    A file that already exists in the target folder is left alone when it is identical and
    refused when it differs, so copying twice is harmless and nothing of yours is overwritten.

    Args:
        args: Parsed arguments.

    Returns:
        0, or 2 when a file in the way differs or the folder cannot be written (one line on
        stderr naming the file and the fix).
    """
    source = examples_dir()
    files = example_files(source)
    if args.folder is None:
        print(f"examples in {source}:")
        for relative in files:
            about = _about(source / relative)
            print(f"  {relative!s:<32} {about}")
        print("copy them into a folder with: sketch-env examples DIR")
        return 0
    target: Path = args.folder
    # Check every file before copying any, so a refusal leaves the folder as it was.
    for relative in files:
        existing = target / relative
        if existing.exists() and existing.read_bytes() != (source / relative).read_bytes():
            print(
                f"sketch-env examples: {existing} exists and differs from the example; move it "
                "away or copy into another folder",
                file=sys.stderr,
            )
            return 2
    copied = 0
    try:
        for relative in files:
            destination = target / relative
            if destination.exists():
                continue
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source / relative, destination)
            copied += 1
    except OSError as exc:
        reason = exc.strerror or exc
        print(f"sketch-env examples: cannot write into {target}: {reason}", file=sys.stderr)
        return 2
    print(f"copied {copied} of {len(files)} example files into {target}")
    return 0
