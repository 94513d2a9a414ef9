"""HPSv3 as an isolated service: provision its venv, build a tiny test model, serve, query.

HPSv3 pins transformers 4.45.2, so it lives in its own virtual environment and runs as an HTTP
service; the main environment scores through `HPSv3Scorer`. Typical use:

  sketch-env hpsv3 setup                       # once: CPU torch (add --cuda on a GPU machine)
  sketch-env hpsv3 serve --model-dir ~/Qwen2-VL-7B-Instruct --checkpoint ~/HPSv3.safetensors
  sketch-env hpsv3 health --url http://127.0.0.1:8765

For tests without the 7B weights: ``sketch-env hpsv3 make-tiny --out DIR`` then
``serve --model-dir DIR/model --checkpoint DIR/hpsv3_tiny.safetensors --device cpu``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

from sketch_env.scoring.hpsv3 import provision
from sketch_env.scoring.hpsv3.client import DEFAULT_PORT


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Registers the ``hpsv3`` subcommands on ``parser``.

    Args:
        parser: The ``hpsv3`` subparser of ``sketch-env``.
    """
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = parser.add_subparsers(dest="hpsv3_command", metavar="ACTION")

    venv_help = (
        f"the HPSv3 venv (default: ${provision.VENV_ENV_VAR} or {provision.default_venv_path()})"
    )

    setup = sub.add_parser("setup", help="create the isolated HPSv3 virtual environment")
    setup.add_argument("--venv", type=Path, help=venv_help)
    setup.add_argument("--cuda", action="store_true", help="install a CUDA torch (default: CPU)")
    setup.add_argument("--python", help="interpreter that creates the venv (default: this one)")
    setup.add_argument("--torch", default=provision.DEFAULT_TORCH, help="torch requirement")
    setup.add_argument(
        "--torchvision", default=provision.DEFAULT_TORCHVISION, help="matching torchvision"
    )
    setup.add_argument(
        "--torch-index-url",
        help="extra wheel index for torch/torchvision, e.g. https://download.pytorch.org/whl/cpu",
    )
    setup.add_argument("--force", action="store_true", help="rebuild even if up to date")

    serve = sub.add_parser("serve", help="run the HPSv3 service (in the venv) until interrupted")
    serve.add_argument("--model-dir", required=True, type=Path, help="local Qwen2-VL directory")
    serve.add_argument("--checkpoint", required=True, type=Path, help="HPSv3 checkpoint file")
    serve.add_argument("--config", type=Path, help="HPSv3 YAML (default: hpsv3's own, made local)")
    serve.add_argument("--host", default="127.0.0.1", help="interface to bind (default: loopback)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help="port; 0 picks a free one")
    serve.add_argument("--device", default="auto", help="auto, cpu, cuda or cuda:N")
    serve.add_argument("--venv", type=Path, help=venv_help)
    serve.add_argument("--max-batch", type=int, default=8, help="most images per forward pass")
    serve.add_argument("--coalesce-ms", type=float, default=5.0, help="batching window")
    serve.add_argument("--max-images", type=int, help="most images per request (default 64)")
    serve.add_argument("--max-pixels", type=int, help="most pixels per image (default 4096^2)")
    serve.add_argument("--max-body-bytes", type=int, help="most bytes per request (default 96 MiB)")
    serve.add_argument("--max-image-bytes", type=int, help="most PNG bytes per image (16 MiB)")
    serve.add_argument("--max-prompt-chars", type=int, help="most characters per prompt (8192)")
    serve.add_argument("--ready-file", type=Path, help="write the URL here once serving")
    serve.add_argument("--log-level", default="info")

    tiny = sub.add_parser("make-tiny", help="build the tiny random HPSv3 model used by the tests")
    tiny.add_argument("--out", required=True, type=Path, help="output directory")
    tiny.add_argument("--seed", type=int, default=0)
    tiny.add_argument("--venv", type=Path, help=venv_help)

    health = sub.add_parser("health", help="print /health of running services")
    health.add_argument(
        "--url", action="append", help=f"service URL (repeatable; default :{DEFAULT_PORT})"
    )

    score = sub.add_parser("score", help="score PNG files through running services")
    score.add_argument("pngs", nargs="+", type=Path, help="PNG files")
    score.add_argument("--prompt", required=True, help="the prompt every picture is scored against")
    score.add_argument("--url", action="append", help="service URL (repeatable)")

    parser.set_defaults(_hpsv3_parser=parser)


def run(args: argparse.Namespace) -> int:
    """Runs one ``hpsv3`` subcommand.

    Args:
        args: Parsed arguments.

    Returns:
        The exit status.
    """
    command = getattr(args, "hpsv3_command", None)
    try:
        if command == "setup":
            return _setup(args)
        if command == "serve":
            return _serve(args)
        if command == "make-tiny":
            manifest = provision.build_tiny_model(args.out, venv=args.venv, seed=args.seed)
            print(json.dumps(manifest, indent=2))
            return 0
        if command == "health":
            return _health(args)
        if command == "score":
            return _score(args)
    except (provision.HPSv3VenvMissingError, provision.HPSv3SetupError) as error:
        print(f"sketch-env hpsv3 {command}: {error}", file=sys.stderr)
        return 1
    args._hpsv3_parser.print_help()
    return 2


def _setup(args: argparse.Namespace) -> int:
    result = provision.setup_venv(
        args.venv,
        cuda=args.cuda,
        python=args.python,
        torch=args.torch,
        torchvision=args.torchvision,
        torch_index_url=args.torch_index_url,
        force=args.force,
        log=lambda line: print(line, file=sys.stderr, flush=True),
    )
    print(
        json.dumps(
            {
                "venv": str(result.venv),
                "python": str(result.python),
                "reused": result.reused,
                "seconds": round(result.seconds, 1),
                "versions": result.check.get("versions"),
            },
            indent=2,
        )
    )
    return 0


def _serve(args: argparse.Namespace) -> int:
    extra = ["--max-batch", str(args.max_batch), "--coalesce-ms", str(args.coalesce_ms)]
    for option in (
        "max_images",
        "max_pixels",
        "max_body_bytes",
        "max_image_bytes",
        "max_prompt_chars",
    ):
        value = getattr(args, option)
        if value is not None:
            extra += ["--" + option.replace("_", "-"), str(value)]
    if args.ready_file is not None:
        extra += ["--ready-file", str(args.ready_file)]
    extra += ["--log-level", args.log_level]
    command = provision.service_command(
        args.model_dir,
        args.checkpoint,
        venv=args.venv,
        config=args.config,
        host=args.host,
        port=args.port,
        device=args.device,
        extra_args=extra,
    )
    if not (args.model_dir / "config.json").is_file():
        print(f"sketch-env hpsv3 serve: {args.model_dir} has no config.json", file=sys.stderr)
        return 1
    if not args.checkpoint.is_file():
        print(f"sketch-env hpsv3 serve: {args.checkpoint} does not exist", file=sys.stderr)
        return 1
    sys.stdout.flush()
    sys.stderr.flush()
    # Replace this process: signals (Ctrl-C, a supervisor's SIGTERM) reach the service itself
    # and its exit status is ours.
    os.execv(command[0], command)
    return 0  # not reached


def _urls(args: argparse.Namespace) -> list[str]:
    return args.url or [f"http://127.0.0.1:{DEFAULT_PORT}"]


def _health(args: argparse.Namespace) -> int:
    from sketch_env.scoring.hpsv3.client import HPSv3Scorer

    async def ask() -> list[dict[str, Any]]:
        async with HPSv3Scorer(_urls(args), timeout_s=10.0) as scorer:
            return await scorer.health()

    answers = asyncio.run(ask())
    print(json.dumps(answers, indent=2))
    return 0 if all("error" not in a for a in answers) else 1


def _score(args: argparse.Namespace) -> int:
    from PIL import Image

    from sketch_env.scoring.base import Score, ScorerUnavailableError
    from sketch_env.scoring.hpsv3.client import HPSv3Scorer

    images = [Image.open(path).convert("RGB") for path in args.pngs]

    async def ask() -> list[Score]:
        async with HPSv3Scorer(_urls(args)) as scorer:
            return await scorer.score(images, [args.prompt] * len(images))

    try:
        scores = asyncio.run(ask())
    except (ScorerUnavailableError, ValueError) as error:
        print(f"sketch-env hpsv3 score: {error}", file=sys.stderr)
        return 1
    for path, score in zip(args.pngs, scores, strict=True):
        print(json.dumps({"png": str(path), "mu": score.value, "sigma": score.sigma}))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Runs ``hpsv3`` on its own: ``python -m sketch_env.scoring.hpsv3.cli ACTION ...``.

    The same as ``sketch-env hpsv3 ACTION ...`` without loading the other subcommands.
    """
    parser = argparse.ArgumentParser(prog="sketch-env hpsv3", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
