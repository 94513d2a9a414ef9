"""``sketch-env validate --url URL``: run the OpenEnv graders installed in the
``openenv.validation.graders`` entry-point group against a running server.

This package registers its adversarial-floor grader there
(`sketch_env.rewardcheck.grader.AdversarialFloorGrader`). OpenEnv 0.10 defines the group and
`GraderRegistry.load_entry_points`, but none of its commands loads it: ``openenv validate
--url`` runs its own HTTP probe (keep running it: it checks the API), and ``openenv validate
PATH`` runs its built-in graders on a container it builds. This command does what a runner
that loads the group does: it reads the environment's manifest (the installed package's
``openenv.yaml``), loads the group through OpenEnv's registry, selects the graders that apply
to the manifest, checks that the server answers ``GET /health`` (``runtime.startup``), and runs
them with OpenEnv's scheduler against the server, over the wire.

Exit status: 0 when every check passed (or was skipped with its reason), 1 when one failed or
could not be measured, 2 when no grader is installed or the server does not answer.

Examples:
    sketch-env serve --port 8000 &
    sketch-env validate --url http://127.0.0.1:8000
    sketch-env validate --url http://127.0.0.1:8000 --json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import httpx
from openenv.validation.graders import GraderRegistry, Subject
from openenv.validation.parsers.openenv_yaml import OpenEnvYamlParser
from openenv.validation.providers import ExecResult, UnsupportedCapability
from openenv.validation.report import CheckResult
from openenv.validation.runtime import scheduler
from openenv.validation.types import CheckStatus, Level

__all__ = ["add_arguments", "run", "validate_url"]

#: OpenEnv's scheduler (dependency order, SKIPs with the unmet dependency named, a grader's
#: exception as ERROR); it is not annotated.
_execute_graders = cast(Callable[..., list[CheckResult]], scheduler.execute_graders)

#: The environment folder whose ``openenv.yaml`` describes what is served: the package's.
PACKAGE_DIR = Path(__file__).resolve().parent.parent


class _ServerAtURL:
    """A server reached by its URL (`openenv.validation.providers.RunningSubject`): the
    graders talk to it; it is not this command's to inspect, run commands in or stop."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url.rstrip("/")

    def inspect(self) -> dict[str, Any]:
        return {"base_url": self.base_url}

    def logs(self, max_bytes: int = 65536) -> str:
        return ""

    def exec(self, argv: list[str], timeout_s: float) -> ExecResult:
        raise UnsupportedCapability("a server reached by URL runs no command for the validator")

    def stop(self) -> None:
        """Leaves the server running: whoever started it stops it."""


def _startup(url: str, timeout_s: float) -> CheckResult:
    started = time.monotonic()
    try:
        status = httpx.get(f"{url}/health", timeout=timeout_s).status_code
        reason = f"GET /health answered {status}"
    except httpx.HTTPError as exc:
        status, reason = 0, f"GET /health failed: {type(exc).__name__}: {exc}"
    return CheckResult(
        check_id="runtime.startup",
        status=CheckStatus.PASS if status == 200 else CheckStatus.FAIL,
        evidence=[reason],
        duration_s=time.monotonic() - started,
    )


def validate_url(
    url: str, *, package_dir: Path = PACKAGE_DIR, timeout_s: float = 30.0
) -> tuple[list[CheckResult], int]:
    """Runs the installed entry-point graders that apply to the manifest against ``url``.

    Args:
        url: The server's base URL.
        package_dir: The folder holding the environment's ``openenv.yaml``.
        timeout_s: Timeout of the health check.

    Returns:
        The results (``runtime.startup`` first) and how many graders the group held.

    Raises:
        openenv.validation.manifest.ManifestError: If the manifest does not parse.
    """
    registry = GraderRegistry()
    loaded = registry.load_entry_points()
    manifest = OpenEnvYamlParser().parse(package_dir)
    graders = registry.select(manifest, Level.SEMANTIC)
    startup = _startup(url.rstrip("/"), timeout_s)
    with tempfile.TemporaryDirectory(prefix="sketch-env-validate-") as outputs:
        subject = Subject(
            root=package_dir,
            manifest=manifest,
            image_ref=None,
            running=_ServerAtURL(url),
            outputs_dir=Path(outputs),
        )
        results = _execute_graders(graders, subject, prior=[startup])
    return [startup, *results], loaded


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the ``validate`` options.

    Args:
        parser: The subcommand's parser.
    """
    parser.add_argument("--url", required=True, help="the running server, http://host:port")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--timeout", type=float, default=30.0, help="seconds for the health check (default 30)"
    )


def run(args: argparse.Namespace) -> int:
    """Runs the graders and prints their results.

    Args:
        args: Parsed arguments.

    Returns:
        0 if every check passed or was skipped, 1 if one failed or errored, 2 if no grader is
        installed or the server is down.
    """
    results, loaded = validate_url(args.url, timeout_s=args.timeout)
    if loaded == 0:
        print(
            "sketch-env validate: no grader is registered in the openenv.validation.graders "
            "entry-point group; install the package (pip install -e . in a checkout) so that "
            "its entry points are recorded",
            file=sys.stderr,
        )
        return 2
    if args.json:
        print(json.dumps([r.model_dump(mode="json") for r in results], indent=2))
    else:
        for result in results:
            print(f"{result.status.value.upper():5s} {result.check_id} ({result.duration_s:.1f}s)")
            for line in result.evidence:
                print(f"      {line}")
    if results[0].status is not CheckStatus.PASS:
        return 2
    return 1 if any(r.status in (CheckStatus.FAIL, CheckStatus.ERROR) for r in results) else 0
