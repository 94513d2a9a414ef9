"""Serve the environment over OpenEnv's HTTP/WebSocket protocol.

Examples:
    sketch-env serve --host 127.0.0.1 --port 8000
    SKETCH_ENV_MAX_SESSIONS=16 sketch-env serve --scorer hpsv3+http://127.0.0.1:8765
"""

from __future__ import annotations

import argparse

from sketch_env.render.options import add_render_options, render_config_from_args
from sketch_env.scoring.options import add_reward_options, reward_config_from_args


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the ``serve`` options.

    Args:
        parser: The subcommand's parser.
    """
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--max-sessions",
        type=int,
        default=None,
        help="concurrent sessions (default: $SKETCH_ENV_MAX_SESSIONS or 8)",
    )
    parser.add_argument(
        "--scorer",
        default=None,
        help="scorer spec: heuristic, hpsv3, hpsv3+http://host:port (default: "
        "$SKETCH_ENV_SCORER or heuristic)",
    )
    parser.add_argument("--max-steps", type=int, default=None, help="sketches per episode")
    parser.add_argument("--reward-policy", choices=("last", "best"), default=None)
    add_reward_options(parser)
    add_render_options(parser, renderer_spec=True)
    parser.add_argument("--log-level", default="info", help="uvicorn log level")


def run(args: argparse.Namespace) -> int:
    """Builds the app and runs uvicorn until interrupted.

    Args:
        args: Parsed arguments.

    Returns:
        The exit status (2 on a bad setting, with the reason on stderr).
    """
    import sys

    import uvicorn

    from sketch_env.server.app import create_sketch_app

    try:
        config = render_config_from_args(args)
        reward_config = reward_config_from_args(args)
        app = create_sketch_app(
            max_sessions=args.max_sessions,
            scorer=args.scorer,
            max_steps=args.max_steps,
            reward_policy=args.reward_policy,
            render_config=config,
            renderer=args.renderer,
            reward_config=reward_config,
        )
    except (OSError, ValueError) as exc:
        print(f"sketch-env serve: {exc}", file=sys.stderr)
        return 2
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Runs the server (``python -m sketch_env.server [--host H] [--port P] ...``).

    Args:
        argv: Command-line arguments; ``sys.argv[1:]`` when ``None``.

    Returns:
        The exit status.
    """
    parser = argparse.ArgumentParser(prog="python -m sketch_env.server")
    add_arguments(parser)
    return run(parser.parse_args(argv))
