"""Check what this machine has for sketch_env, and print the command that fixes each gap.

Checks Python and package versions, the vendored files' checksums (p5.js, p5.brush, the
text-reading models), the text reader of the reward's lettering guard (it must read a drawn
word), Chromium,
each GL backend (by launching Chromium on it and asking for a WebGL2 context), a real test
render, the HPSv3 scoring service and its virtual environment, and the optional extras (TRL,
Ray, OpenEnv). Exits non-zero when the renderer cannot work; a missing optional piece only warns.

  sketch-env doctor
  sketch-env doctor --hpsv3-url http://gpu-box:8765 --json
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import platform
import sys
import time
from dataclasses import asdict, dataclass
from importlib import metadata
from typing import Any

from sketch_env.install import (
    DIST,
    RAY_INSTALL,
    REINSTALL,
    TORCH_CPU_INSTALL,
    TORCH_GPU_INSTALL,
    TRL_INSTALL,
    extra_install,
)
from sketch_env.render.gl_backends import AUTO, BACKEND_CHOICES, GL_BACKENDS, INSTALL_MESA_HINT

__all__ = ["Check", "add_arguments", "run", "run_checks"]

#: Torch before TRL, either build (see `sketch_env.install.TORCH_CPU_INSTALL`).
_TORCH_FIRST = f"{TORCH_CPU_INSTALL}  (CPU; for CUDA: {TORCH_GPU_INSTALL})"


@dataclass
class Check:
    """One line of the report.

    Args:
        name: What was checked.
        status: ``"ok"``, ``"warn"`` (optional or degraded) or ``"fail"`` (the renderer cannot
            work).
        detail: What was found.
        fix: The command (or step) that fixes it, when not ok.
    """

    name: str
    status: str
    detail: str = ""
    fix: str = ""


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _python_checks() -> list[Check]:
    checks = []
    ok = sys.version_info >= (3, 11)
    checks.append(
        Check(
            "python",
            "ok" if ok else "fail",
            f"{platform.python_version()} ({sys.executable})",
            "" if ok else "use Python 3.11 or newer",
        )
    )
    for dist in (DIST, "playwright", "numpy", "pillow", "tree-sitter", "tree-sitter-javascript"):
        version = _version(dist)
        checks.append(
            Check(
                f"package {dist}",
                "ok" if version else "fail",
                version or "not installed",
                "" if version else REINSTALL,
            )
        )
    return checks


#: What to do when the reader loads but misreads: the models or onnxruntime are not the tested ones.
_READER_FIX = f"{REINSTALL}; then pip install 'onnxruntime>=1.17'"


def _reader_check() -> Check:
    """The lettering guard's text reader (the reward reads every picture, whatever the scorer):
    onnxruntime loads the vendored models and reads."""
    try:
        from PIL import Image, ImageDraw, ImageFont

        from sketch_env.picture.reading import TextReader

        picture = Image.new("RGB", (600, 600), "white")
        font = ImageFont.load_default(size=90)
        ImageDraw.Draw(picture).text((60, 250), "DOCTOR", fill="black", font=font)
        started = time.perf_counter()
        read = [region.text for region in TextReader().read(picture)]
        elapsed_ms = (time.perf_counter() - started) * 1000
    except (ImportError, OSError) as exc:
        return Check("text reader", "fail", str(exc), REINSTALL)
    if read != ["DOCTOR"]:
        return Check("text reader", "fail", f"read {read!r} instead of ['DOCTOR']", _READER_FIX)
    return Check("text reader", "ok", f"PP-OCRv4 on onnxruntime, {elapsed_ms:.0f} ms (first use)")


def _vendor_check() -> Check:
    from sketch_env.catalog.assets import vendor_dir, verify_vendor

    try:
        folder = vendor_dir()
        problems = verify_vendor(folder)
    except (OSError, ValueError, KeyError) as exc:
        problems = [str(exc)]
        folder = None
    fix = REINSTALL
    if problems:
        return Check("vendored files", "fail", "; ".join(problems), fix)
    assert folder is not None  # only a failed lookup leaves it None, and that is a problem
    manifest = json.loads((folder / "VENDORED.json").read_text("utf-8"))
    versions = ", ".join(f"{name} {info['version']}" for name, info in manifest["packages"].items())
    return Check("vendored files", "ok", f"{versions}, checksums match ({folder})")


async def _browser_checks(executable: str | None, probe: bool) -> tuple[list[Check], str | None]:
    from playwright.async_api import async_playwright

    from sketch_env.render.backends import (
        INSTALL_BROWSER_HINT,
        BrowserNotFoundError,
        find_browser,
        probe_backend,
    )

    checks: list[Check] = []
    async with async_playwright() as playwright:
        try:
            path = find_browser(executable, playwright)
        except BrowserNotFoundError as exc:
            checks.append(Check("chromium", "fail", str(exc), INSTALL_BROWSER_HINT))
            return checks, None
        version = ""
        try:
            browser = await playwright.chromium.launch(executable_path=path, timeout=60_000)
            version = browser.version
            await browser.close()
        except Exception as exc:  # Report, don't raise: the backend probes say more.
            version = f"does not launch: {str(exc).splitlines()[0][:200]}"
        checks.append(Check("chromium", "ok", f"{path} {version}".strip()))
        if not probe:
            return checks, path
        working = []
        for name, backend in GL_BACKENDS.items():
            result = await probe_backend(playwright, path, name)
            if result.ok:
                working.append(name)
                detail = f"WebGL2 on {result.renderer} ({result.seconds:.1f} s)"
                checks.append(Check(f"GL backend {name}", "ok", detail))
                continue
            fix = backend.install_hint
            checks.append(Check(f"GL backend {name}", "warn", result.error or "unavailable", fix))
        if not working:
            checks.append(
                Check(
                    "GL backends",
                    "fail",
                    "no backend gives a WebGL2 context: p5.brush cannot draw",
                    INSTALL_MESA_HINT,
                )
            )
    return checks, path


def _render_check(executable: str | None, backend: str) -> Check:
    from sketch_env.render import RenderStatus, SketchRenderer

    sketch = (
        "function setup() { createCanvas(120, 120, WEBGL); background(250);"
        " translate(-width / 2, -height / 2); brush.set('2B', '#203060', 3);"
        " brush.line(10, 10, 110, 110); brush.noStroke(); brush.fill('#c8402a', 200);"
        " brush.rect(30, 60, 50, 40); }"
    )
    try:
        with SketchRenderer(
            pool_size=1, backend=backend, browser_path=executable, deadline_s=30
        ) as renderer:
            result = renderer.render_sync(sketch, seed=1)
    except Exception as exc:  # Any failure here means the renderer cannot work.
        return Check("test render", "fail", f"{type(exc).__name__}: {exc}", "see the checks above")
    if result.status is RenderStatus.OK and result.paint_fraction > 0.01:
        detail = (
            f"a brush sketch rendered on {result.backend} in {result.render_ms:.0f} ms, "
            f"{result.paint_fraction:.1%} painted"
        )
        return Check("test render", "ok", detail)
    return Check(
        "test render",
        "fail",
        f"status {result.status.value}, paint {result.paint_fraction:.1%}, "
        f"errors {list(result.errors)[:3]}",
        "see the checks above; `sketch-env render FILE.js` shows a single render's details",
    )


def _hpsv3_checks(url: str | None) -> list[Check]:
    from sketch_env.scoring.hpsv3 import HPSv3Scorer, provision
    from sketch_env.scoring.spec import make_scorer, parse_hpsv3_urls

    checks = []
    spec = f"hpsv3+{url}" if url else "hpsv3"
    try:
        urls = parse_hpsv3_urls(spec)
        scorer = make_scorer(spec, timeout_s=3.0)
    except ValueError as exc:
        return [Check("HPSv3 service", "warn", str(exc), "give --hpsv3-url http://HOST:PORT")]
    assert isinstance(scorer, HPSv3Scorer)  # what an "hpsv3" spec makes

    async def ask() -> list[dict[str, Any]]:
        try:
            return await scorer.health()
        finally:
            await scorer.aclose()

    answers = asyncio.run(ask())
    for answer in answers:
        if "error" in answer:
            checks.append(
                Check(
                    f"HPSv3 service {answer['url']}",
                    "warn",
                    f"not reachable ({answer['error'][:160]}); the embedded scorers still work "
                    "(vision, the default, anchored and heuristic)",
                    "start it with `sketch-env hpsv3 serve` (GPU machine; see docs/hpsv3.md)",
                )
            )
        else:
            facts = {k: v for k, v in answer.items() if k != "url"}
            checks.append(Check(f"HPSv3 service {answer['url']}", "ok", json.dumps(facts)[:300]))
    if not answers:
        checks.append(Check("HPSv3 service", "warn", f"no URL in {urls}"))
    venv = provision.default_venv_path()
    marker = provision.read_marker(venv)
    if marker is None:
        checks.append(
            Check(
                "HPSv3 environment",
                "warn",
                f"no HPSv3 venv at {venv} (only needed to run the service on this machine)",
                provision.setup_command(),
            )
        )
    else:
        recipe = marker.get("recipe") or {}
        build = "CUDA" if recipe.get("cuda") else "CPU"
        checks.append(Check("HPSv3 environment", "ok", f"{venv} ({build} torch)"))
    return checks


def _extra_checks() -> list[Check]:
    checks = []
    torch_version = _version("torch")
    extras = (
        ("torch", "torch", f"{_TORCH_FIRST}, before TRL"),
        ("trl", "trl", TRL_INSTALL),
        ("datasets", "datasets", extra_install("trl")),
        ("peft", "peft", extra_install("trl")),
        ("ray", "ray", RAY_INSTALL),
        ("openenv", "openenv", f"{REINSTALL}  (a core dependency)"),
        ("gymnasium", "gymnasium", f"{REINSTALL}  (a core dependency)"),
    )
    for dist, module, fix in extras:
        version = _version(dist)
        importable = importlib.util.find_spec(module) is not None
        if version and importable:
            detail = version
            if dist == "torch" and "+cpu" not in version:
                detail += " (a CUDA or default build)"
            checks.append(Check(f"extra {dist}", "ok", detail))
        else:
            checks.append(Check(f"extra {dist}", "warn", "not installed (optional)", fix))
    if torch_version is None and _version("trl"):
        checks.append(Check("extra torch", "warn", "trl without torch cannot train", _TORCH_FIRST))
    return checks


def run_checks(
    executable: str | None = None,
    hpsv3_url: str | None = None,
    probe: bool = True,
    render: bool = True,
    backend: str = "auto",
) -> list[Check]:
    """Runs every check.

    Args:
        executable: Chromium to check; discovered when ``None``.
        hpsv3_url: HPSv3 service URL; ``$SKETCH_ENV_HPSV3_URL`` or the default when ``None``.
        probe: Whether to probe each GL backend (three browser launches).
        render: Whether to render a small brush sketch end to end.
        backend: Backend for the test render.

    Returns:
        The checks, in report order.
    """
    checks = _python_checks()
    checks.append(_vendor_check())
    checks.append(_reader_check())
    browser_checks, path = asyncio.run(_browser_checks(executable, probe))
    checks += browser_checks
    if render and path is not None:
        checks.append(_render_check(path, backend))
    checks += _hpsv3_checks(hpsv3_url)
    checks += _extra_checks()
    return checks


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the ``doctor`` options to a parser."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("--browser", metavar="PATH", help="Chromium executable to check")
    parser.add_argument(
        "--hpsv3-url", metavar="URL", help="HPSv3 service (default: $SKETCH_ENV_HPSV3_URL or local)"
    )
    parser.add_argument("--no-probe", action="store_true", help="skip probing each GL backend")
    parser.add_argument("--no-render", action="store_true", help="skip the test render")
    parser.add_argument(
        "--backend", default=AUTO, choices=BACKEND_CHOICES, help="backend for the test render"
    )
    parser.add_argument("--json", action="store_true", help="print the checks as JSON")


_MARKS = {"ok": "ok  ", "warn": "WARN", "fail": "FAIL"}


def run(args: argparse.Namespace) -> int:
    """Runs ``sketch-env doctor``.

    Returns:
        0 when the renderer can work (warnings allowed), 1 when any check failed.
    """
    checks = run_checks(
        executable=args.browser,
        hpsv3_url=args.hpsv3_url,
        probe=not args.no_probe,
        render=not args.no_render,
        backend=args.backend,
    )
    failed = [c for c in checks if c.status == "fail"]
    if args.json:
        print(json.dumps({"ok": not failed, "checks": [asdict(c) for c in checks]}, indent=2))
    else:
        for check in checks:
            print(f"[{_MARKS[check.status]}] {check.name}: {check.detail}")
            if check.fix and check.status != "ok":
                print(f"       fix: {check.fix}")
        print()
        if failed:
            print(f"{len(failed)} problem(s) stop the renderer from working; fix them as shown.")
        else:
            print("The renderer works." + (" Warnings above are optional." if checks else ""))
    return 1 if failed else 0
