"""`AdversarialFloorGrader`: `sketch_env.rewardcheck.floor` as an OpenEnv validation grader.

OpenEnv registers third-party graders from the ``openenv.validation.graders`` entry-point group
(`openenv.validation.graders.GraderRegistry.load_entry_points`); this package's
``pyproject.toml`` puts this class there, so a validation run that loads the group and has a
running server (``subject.running.base_url``) plays the adversarial floor against it over the
wire. OpenEnv 0.10's ``openenv validate --url`` runs its own HTTP probe and loads no
entry-point grader, and its local runner does not load the group either; ``sketch-env
validate --url`` does (`sketch_env.server.validate`).

The check id is this package's own, ``sketch_env.adversarial_floor``: OpenEnv reserves
``statistical.adversarial_floor`` (hub lane) and ``semantic.canary_floor`` for its own graders,
and an entry point that took one of them would collide with OpenEnv's the day it ships.
The grader applies to this environment's manifest alone (``name: sketch_env``): installed, an
entry point is seen by every validation on the machine.
"""

from __future__ import annotations

import time
from typing import Any

from openenv.validation.graders import Subject
from openenv.validation.manifest import NormalizedManifest
from openenv.validation.report import CheckResult
from openenv.validation.types import CheckStatus, Level, ProviderCapability

from sketch_env.rewardcheck.floor import FloorError, run_floor

__all__ = ["CHECK_ID", "AdversarialFloorGrader"]

#: The grader's check id.
CHECK_ID = "sketch_env.adversarial_floor"
_ENV_NAME = "sketch_env"


class AdversarialFloorGrader:
    """Null, degenerate and forged sketches at most the blank floor, and a blind search below
    the median reference, over the wire (`sketch_env.rewardcheck.floor.run_floor`).

    Args:
        **options: `run_floor` keyword arguments (task, seeds, search size...); the entry point
            builds it with none.
    """

    check_id = CHECK_ID
    level = Level.SEMANTIC
    requires_capabilities: frozenset[str] = frozenset()
    requires_provider: frozenset[ProviderCapability] = frozenset()
    depends_on: tuple[str, ...] = ("runtime.startup",)

    def __init__(self, **options: Any) -> None:
        self.options = options

    def applies_to(self, manifest: NormalizedManifest) -> bool:
        """Only to this environment."""
        return manifest.name == _ENV_NAME

    def run(self, subject: Subject) -> CheckResult:
        """Plays the floor against ``subject.running.base_url``.

        Returns:
            PASS or FAIL with the measurements; SKIP without a running server; ERROR when the
            server could not be measured.
        """
        started = time.monotonic()
        if subject.running is None:
            return CheckResult(
                check_id=self.check_id,
                status=CheckStatus.SKIP,
                evidence=["needs a running server (a runtime-level validation)"],
                duration_s=0.0,
            )
        try:
            report = run_floor(subject.running.base_url, **self.options)
        except FloorError as exc:
            return CheckResult(
                check_id=self.check_id,
                status=CheckStatus.ERROR,
                evidence=[str(exc)[:1000]],
                duration_s=time.monotonic() - started,
            )
        best = report.search_best
        return CheckResult(
            check_id=self.check_id,
            status=CheckStatus.PASS if report.passed else CheckStatus.FAIL,
            measured={
                "task_id": report.task_id,
                "seed": report.seed,
                "floor": report.floor,
                "attacks": {a.name: a.reward for a in report.attacks},
                "median_reference": report.median_reference,
                "search_best": best.reward if best is not None else None,
                "search_evaluations": len(report.search.candidates) if report.search else 0,
            },
            evidence=report.lines(),
            remediation=None
            if report.passed
            else (
                "a sketch that is not a painting out-earns a blank canvas, or a blind search "
                "beats the references: see docs/reward.md for the guards and the reward's "
                "outcomes, and measure with sketch-env reward-check"
            ),
            duration_s=time.monotonic() - started,
        )
