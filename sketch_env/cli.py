"""The ``sketch-env`` command.

Each subcommand lives beside the code it drives and is imported only when it runs, so
``sketch-env --help`` stays fast and a missing optional extra breaks only its own subcommand.
A subcommand module provides ``add_arguments(parser)`` and ``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import platform
import sys

from sketch_env.errors import SetupError

#: name -> (module, one-line help). Modules are imported lazily.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "render": (
        "sketch_env.render.cli",
        "render sketch files to PNGs and print each result as JSON",
    ),
    "rollout": ("sketch_env.rollout.cli", "render and score sketches; write PNGs and a gallery"),
    "gallery": (
        "sketch_env.rollout.gallery_cli",
        "build the gallery of a training run's pictures (or rebuild a rollout folder's)",
    ),
    "export": (
        "sketch_env.rollout.export_cli",
        "turn rollouts or training pictures into a Hugging Face dataset (save, push)",
    ),
    "doctor": ("sketch_env.doctor", "check browser, GL backends, scorer, versions; print fixes"),
    "hpsv3": ("sketch_env.scoring.hpsv3.cli", "HPSv3 scoring service: setup, serve, make-tiny"),
    "reward-check": (
        "sketch_env.rewardcheck.cli",
        "measure the reward: tiers, degradations and hacks it must order correctly",
    ),
    "pool": (
        "sketch_env.pool.cli",
        "the reference pool: list, re-measure, show, calibrate, export for SFT",
    ),
    "serve": ("sketch_env.server.cli", "serve the environment over OpenEnv HTTP/WebSocket"),
    "manifest": ("sketch_env.server.manifest", "write the OpenEnv manifest (openenv.yaml)"),
    "validate": (
        "sketch_env.server.validate",
        "run the installed OpenEnv graders (the adversarial floor) against a running server",
    ),
    "bench": ("sketch_env.bench_cli", "renderer vs baseline benchmark (needs a checkout)"),
    "examples": ("sketch_env.examples_cli", "list the example scripts and replies, or copy them"),
}


def _top_level_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sketch-env",
        description="Render, score and serve p5.brush paintings for reinforcement learning.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="commands:\n"
        + "\n".join(f"  {name:<10} {help_text}" for name, (_, help_text) in SUBCOMMANDS.items())
        + "\n\nRun `sketch-env COMMAND --help` for a command's options.",
    )
    parser.add_argument("command", nargs="?", choices=list(SUBCOMMANDS), metavar="COMMAND")
    parser.add_argument("--version", action="version", version=version_line())
    return parser


def version_line() -> str:
    """What ``sketch-env --version`` prints: the package, its distribution and the Python.

    Returns:
        E.g. ``"sketch-env 0.1.0 (openenv-sketch-env, Python 3.11.7)"``.
    """
    from sketch_env.install import DIST, VERSION

    return f"sketch-env {VERSION} ({DIST}, Python {platform.python_version()})"


def build_parser(name: str) -> argparse.ArgumentParser:
    """Returns the parser of one subcommand, importing only that subcommand's module.

    Args:
        name: A key of `SUBCOMMANDS`.

    Returns:
        The parser; parsed arguments carry the module's ``run`` as ``_run``.
    """
    module_name, help_text = SUBCOMMANDS[name]
    module = importlib.import_module(module_name)
    # Raw: a module docstring's examples are one command per line, and must stay so.
    parser = argparse.ArgumentParser(
        prog=f"sketch-env {name}",
        description=module.__doc__ or help_text,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    module.add_arguments(parser)
    parser.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Runs the command line.

    Args:
        argv: Arguments without the program name; ``sys.argv[1:]`` when ``None``.

    Returns:
        The process exit status.
    """
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in SUBCOMMANDS:
        top = _top_level_parser()
        top.parse_args(argv[:1])  # exits for --version, or with a usage error for a typo
        top.print_help()
        return 2 if not argv else 0
    args = build_parser(argv[0]).parse_args(argv[1:])
    try:
        return int(args._run(args) or 0)
    except SetupError as exc:
        # Something to install (Ray for a ray:// renderer, a browser): the message has the
        # command, so one line says it all; a traceback would bury it.
        print(f"sketch-env {argv[0]}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
