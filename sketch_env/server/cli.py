"""Serve the environment over OpenEnv's HTTP/WebSocket protocol.

Examples:
    sketch-env serve --host 127.0.0.1 --port 8000
    SKETCH_ENV_MAX_SESSIONS=16 sketch-env serve --scorer hpsv3+http://127.0.0.1:8765
"""

from __future__ import annotations

import argparse

from sketch_env.render.config import RenderConfig


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
    parser.add_argument("--pool-size", type=int, default=None, help="browsers in the pool")
    parser.add_argument(
        "--backend",
        choices=("auto", "gpu", "llvmpipe", "swiftshader"),
        default=None,
        help="GL backend (default auto)",
    )
    parser.add_argument("--deadline", type=float, default=None, help="render deadline, seconds")
    parser.add_argument(
        "--renderer",
        default="local",
        help="'local' (browsers here, default) or a Ray cluster: 'ray://auto', 'ray://HOST:PORT'",
    )
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

    overrides: dict[str, object] = {}
    if args.pool_size is not None:
        overrides["pool_size"] = args.pool_size
    if args.backend is not None:
        overrides["backend"] = args.backend
    if args.deadline is not None:
        overrides["deadline_s"] = args.deadline
    try:
        config = RenderConfig(**overrides) if overrides else None
        app = create_sketch_app(
            max_sessions=args.max_sessions,
            scorer=args.scorer,
            max_steps=args.max_steps,
            reward_policy=args.reward_policy,
            render_config=config,
            renderer=args.renderer,
        )
    except ValueError as exc:
        print(f"sketch-env serve: {exc}", file=sys.stderr)
        return 2
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
    return 0
