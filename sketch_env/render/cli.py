"""Render sketch files to PNGs and print each result as JSON (one line per sketch).

Examples:
    sketch-env render my_sketch.js --seed 3 --out my_sketch.png
    sketch-env render sketches/*.js --out-dir renders/ --backend swiftshader
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sketch_env.render.backends import BackendUnavailableError, BrowserNotFoundError
from sketch_env.render.base import MAX_SEED
from sketch_env.render.options import add_render_options, render_config_from_args, seed_argument
from sketch_env.render.renderer import SketchRenderer


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the ``render`` arguments."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("sketches", nargs="+", type=Path, help="sketch files (.js)")
    parser.add_argument(
        "--seed", type=seed_argument, default=0, help=f"render seed in [0, {MAX_SEED}] (default 0)"
    )
    parser.add_argument(
        "--out", type=Path, help="PNG path (only with a single sketch); its folder is made"
    )
    parser.add_argument("--out-dir", type=Path, help="folder for one PNG per sketch (made)")
    add_render_options(parser)


def run(args: argparse.Namespace) -> int:
    """Renders the sketches.

    Returns:
        0 when every render has a picture, 1 otherwise, 2 for bad input (an unreadable sketch
        file, bad options, an output folder that cannot be made: one ``error:`` line, checked
        before any browser starts; or a PNG that cannot be written), 3 when the renderer
        cannot start.
    """
    if args.out and len(args.sketches) != 1:
        print("error: --out takes a single sketch; use --out-dir for several", file=sys.stderr)
        return 2
    try:
        config = render_config_from_args(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    # The output folders exist before any browser starts (as --out-dir's always did), so a
    # path that cannot be written is one line now, not a traceback after the render.
    for flag, folder in (("--out", args.out and args.out.parent), ("--out-dir", args.out_dir)):
        if folder is None:
            continue
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"error: {flag}: cannot create {folder}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    sources = []
    for path in args.sketches:
        try:
            sources.append(path.read_bytes())
        except OSError as exc:
            print(f"error: cannot read sketch {path}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    try:
        with SketchRenderer(config) as renderer:
            results = renderer.render_many_sync(sources, seeds=args.seed)
    except (BrowserNotFoundError, BackendUnavailableError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 3
    all_pictured = True
    for path, result in zip(args.sketches, results, strict=False):
        target = args.out or (args.out_dir / f"{path.stem}.png" if args.out_dir else None)
        if target is not None and result.png is not None:
            try:
                target.write_bytes(result.png)
            except OSError as exc:
                flag = "--out" if args.out else "--out-dir"
                reason = exc.strerror or exc
                print(f"error: {flag}: cannot write {target}: {reason}", file=sys.stderr)
                return 2
        all_pictured &= result.status.has_picture
        print(
            json.dumps(
                {"sketch": str(path), "png": str(target) if target else None, **result.to_dict()}
            )
        )
    return 0 if all_pictured else 1
