"""Serve the environment over OpenEnv's HTTP/WebSocket protocol.

Examples:
    sketch-env serve --host 127.0.0.1 --port 8000
    SKETCH_ENV_MAX_SESSIONS=16 sketch-env serve --scorer hpsv3+http://127.0.0.1:8765
    SKETCH_ENV_SCORER=heuristic SKETCH_ENV_RENDERER=ray://auto sketch-env serve --port 0
"""

from __future__ import annotations

import argparse
import errno
import logging
import os
import socket

from sketch_env.errors import SetupError
from sketch_env.evaluation.options import add_evaluation_options, evaluation_config_from_args
from sketch_env.scoring.spec import DEFAULT_SCORER


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the ``serve`` options.

    Args:
        parser: The subcommand's parser.
    """
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=int, default=8000, help="port, 0-65535; 0 picks a free one (default 8000)"
    )
    parser.add_argument(
        "--max-sessions",
        type=int,
        default=None,
        help="concurrent sessions (default: $SKETCH_ENV_MAX_SESSIONS or 8)",
    )
    parser.add_argument("--max-steps", type=int, default=None, help="sketches per episode")
    parser.add_argument("--reward-policy", choices=("last", "best"), default=None)
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="close a session whose client sends nothing for this long (default: "
        "$SKETCH_ENV_IDLE_TIMEOUT or 300)",
    )
    parser.add_argument(
        "--max-concurrent-steps",
        type=int,
        default=None,
        metavar="N",
        help="steps evaluated at once (default: $SKETCH_ENV_MAX_CONCURRENT_STEPS or twice the "
        "pool size)",
    )
    parser.add_argument(
        "--max-queued-steps",
        type=int,
        default=None,
        metavar="N",
        help="steps that may wait for one of those; past them a step is refused with HTTP 429 "
        "or a QUEUE_FULL frame (default: $SKETCH_ENV_MAX_QUEUED_STEPS or --max-sessions)",
    )
    parser.add_argument(
        "--max-http-steps",
        type=int,
        default=None,
        metavar="N",
        help="one-step episodes outside sessions (HTTP POST /step, MCP tools) running or "
        "waiting at once (default: $SKETCH_ENV_MAX_HTTP_STEPS or --max-sessions)",
    )
    add_evaluation_options(parser)
    parser.add_argument("--log-level", default="info", help="uvicorn log level")


def _listen(host: str, port: int) -> socket.socket:
    """Binds the listening socket before anything starts, so a busy port is reported first.

    Raises:
        ValueError: If the port is out of range.
        OSError: If the address cannot be bound (with a one-line reason).
    """
    if not 0 <= port <= 65535:
        raise ValueError(f"--port must be in [0, 65535] (0: any free port), got {port}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise OSError(f"cannot resolve --host {host!r}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise OSError(
                f"port {port} on {host} is already in use: stop what holds it, or pass "
                f"another --port ({port + 1 if port < 65535 else 8000}; 0 picks a free one)"
            ) from None
        raise OSError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    # Listening now, not when uvicorn gets to it, so that the address printed next already
    # accepts connections (they wait in the backlog until the app is up).
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _url(host: str, sock: socket.socket) -> str:
    """The base URL of a bound socket (its real port, for ``--port 0``)."""
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def _check_settings(args: argparse.Namespace, renderer: object) -> None:
    """Checks the settings the app would refuse, without importing it.

    Raises:
        ValueError: On a bad setting, from a flag or the environment.
        sketch_env.errors.MissingExtraError: If a ``ray`` renderer is asked for without Ray.
    """
    from sketch_env.distributed import check_renderer_spec
    from sketch_env.server.settings import (
        check_idle_timeout,
        idle_timeout_from_env,
        max_sessions_from_env,
        max_steps_from_env,
        step_limits_from_env,
    )

    if args.idle_timeout is not None:
        check_idle_timeout(args.idle_timeout)
    else:
        idle_timeout_from_env()
    if args.max_sessions is None:
        max_sessions_from_env()
    if args.max_steps is None:
        max_steps_from_env()
    step_limits_from_env()
    if isinstance(renderer, str):
        check_renderer_spec(renderer)


def run(args: argparse.Namespace) -> int:
    """Builds the app and runs uvicorn until interrupted.

    The port is bound before the app is built (and before any browser starts), so a busy or
    invalid port is a one-line error, not a traceback after "Application startup complete".

    Args:
        args: Parsed arguments.

    Returns:
        The exit status (2 on a bad setting or an address that cannot be bound, with the
        reason on stderr).
    """
    import sys

    try:
        sock = _listen(args.host, args.port)
    except (OSError, ValueError) as exc:
        print(f"sketch-env serve: {exc}", file=sys.stderr)
        return 2
    try:
        # The environment variables are what `openenv push` sets from openenv.yaml's
        # `variables` on a Space; a flag or a --config file wins over them.
        config = evaluation_config_from_args(
            args,
            scorer_default=os.environ.get("SKETCH_ENV_SCORER") or DEFAULT_SCORER,
            renderer_default=os.environ.get("SKETCH_ENV_RENDERER") or None,
        )
        # Every setting that can be checked without the app is checked before it is imported:
        # OpenEnv's server package loads gradio (8 s of the 10 s a bad setting waited for its
        # one-line answer on two cores; now about 1 s).
        _check_settings(args, config.renderer)
        import uvicorn

        from sketch_env.server.admission import StepLimits
        from sketch_env.server.app import create_sketch_app
        from sketch_env.server.probe import start_scorer_probe

        limits = StepLimits(
            capacity=args.max_concurrent_steps,
            max_queued=args.max_queued_steps,
            max_http=args.max_http_steps,
        )
        app = create_sketch_app(
            config=config,
            max_sessions=args.max_sessions,
            max_steps=args.max_steps,
            reward_policy=args.reward_policy,
            idle_timeout_s=args.idle_timeout,
            step_limits=limits,
        )
    except (OSError, ValueError, SetupError) as exc:
        sock.close()
        print(f"sketch-env serve: {exc}", file=sys.stderr)
        return 2
    # Session events (expiries, clients gone mid-step) are logged under "sketch_env.server"
    # at INFO, beside uvicorn's own lines.
    level = logging.getLevelName(str(args.log_level).upper())
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)s:     %(name)s: %(message)s"))
    server_logger = logging.getLogger("sketch_env.server")
    server_logger.addHandler(handler)
    server_logger.setLevel(level if isinstance(level, int) else logging.INFO)
    start_scorer_probe(config.scorer)
    url = _url(args.host, sock)
    print(
        f"sketch-env serve: listening on {url} (WebSocket {url.replace('http', 'ws', 1)}/ws, "
        f"MCP {url}/mcp; scorer {config.scorer}; Ctrl+C stops)",
        flush=True,
    )
    server = uvicorn.Server(
        uvicorn.Config(app, host=args.host, port=args.port, log_level=args.log_level)
    )
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Runs the server (``python -m sketch_env.server [--host H] [--port P] ...``).

    Args:
        argv: Command-line arguments; ``sys.argv[1:]`` when ``None``.

    Returns:
        The exit status.
    """
    parser = argparse.ArgumentParser(
        prog="python -m sketch_env.server",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))
