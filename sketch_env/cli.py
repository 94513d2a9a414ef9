"""The ``sketch-env`` command.

Each subcommand lives beside the code it drives and is imported only when it runs, so
``sketch-env --help`` stays fast and a missing optional extra only breaks its own subcommand.
A subcommand module provides ``add_arguments(parser)`` and ``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import sys

#: name -> (module, one-line help). Modules are imported lazily.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "render": ("sketch_env.render.cli", "render one sketch file to a PNG and print its result"),
    "doctor": ("sketch_env.render.doctor", "show the browser and GL backends, and how to fix what is missing"),
    "hpsv3": ("sketch_env.scoring.hpsv3.cli", "HPSv3 scoring service: setup, serve, make-tiny"),
}


def build_parser() -> argparse.ArgumentParser:
    """Returns the argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="sketch-env",
        description="Render, score and serve p5.brush painting sketches for reinforcement learning.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        module = importlib.import_module(module_name)
        command = sub.add_parser(name, help=help_text, description=module.__doc__)
        module.add_arguments(command)
        command.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Runs the command line.

    Args:
        argv: Arguments without the program name; ``sys.argv[1:]`` when ``None``.

    Returns:
        The process exit status.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    return int(args._run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
