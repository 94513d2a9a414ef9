"""Benchmark the renderer against the straightforward baseline, side by side.

The benchmark lives in the repository's ``bench/`` folder, not in the installed package: run it
from a checkout (``python -m bench`` does the same thing).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path
from types import ModuleType

_CHECKOUT_HINT = (
    "`sketch-env bench` needs a checkout of the repository: the benchmark lives in its bench/ "
    "folder and is not installed with the package. Clone the repository and run "
    "`python -m bench` (or `sketch-env bench`) from its top-level folder."
)


def _bench_main() -> ModuleType | None:
    """Imports ``bench.__main__`` from the working directory or the checkout of this package."""
    candidates = [Path.cwd(), Path(__file__).resolve().parent.parent]
    for root in candidates:
        if (root / "bench" / "__main__.py").is_file():
            if str(root) not in sys.path:
                sys.path.insert(0, str(root))
            try:
                return importlib.import_module("bench.__main__")
            except ImportError:
                continue
    return None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the benchmark's options (or none, outside a checkout)."""
    module = _bench_main()
    if module is not None:
        module.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Runs the benchmark; explains what is needed when there is no checkout."""
    module = _bench_main()
    if module is None:
        print(_CHECKOUT_HINT, file=sys.stderr)
        return 2
    return int(module.run(args))
