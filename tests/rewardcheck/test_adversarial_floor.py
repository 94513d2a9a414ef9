"""The adversarial-floor grader the package ships for OpenEnv's validation
(`sketch_env.rewardcheck.floor`, `sketch_env.rewardcheck.grader`): registered in OpenEnv's
``openenv.validation.graders`` entry-point group, played over the wire against real servers.

The slow tests run the whole grader (about a minute each on the 2-core machine): against a
server whose guards are off it must fail, through the entry point of an installed wheel
(``sketch-env validate --url``); against the default server it must pass. OpenEnv's own
``validate`` (static and ``--url``) with the grader installed is tested in
``tests/server/test_server.py``.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import tomllib
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from openenv.validation.graders import GraderRegistry, Subject
from openenv.validation.parsers.openenv_yaml import OpenEnvYamlParser
from openenv.validation.types import CheckStatus, Level
from PIL import Image

from sketch_env.gate import GateConfig, gate_reply
from sketch_env.reward import RewardConfig
from sketch_env.rewardcheck.floor import (
    DEGENERATE_FAMILIES,
    FloorReport,
    attack_corpus,
    run_floor,
)
from sketch_env.rewardcheck.grader import CHECK_ID, AdversarialFloorGrader
from sketch_env.rewardcheck.hacks import FORGERIES, HACKS, forged_readback
from tests.conftest import require_chromium
from tests.server.serving import running_server

REPO = Path(__file__).resolve().parents[2]
GROUP = "openenv.validation.graders"


def _entry_point() -> EntryPoint:
    declared = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))
    ((name, value),) = declared["project"]["entry-points"][GROUP].items()
    return EntryPoint(name=name, value=value, group=GROUP)


# ----------------------------------------------------------------- registration, corpus


def test_the_entry_point_registers_a_grader_for_this_environment_only():
    loaded = _entry_point().load()
    assert loaded is AdversarialFloorGrader
    registry = GraderRegistry()
    registry.register(loaded())  # what load_entry_points does with a class
    manifest = OpenEnvYamlParser().parse(REPO)
    assert [g.check_id for g in registry.select(manifest, Level.SEMANTIC)] == [CHECK_ID]
    assert registry.select(manifest, Level.RUNTIME) == []  # it needs a played server
    other = manifest.model_copy(update={"name": "another_env"})
    assert registry.select(other, Level.SEMANTIC) == []


def test_without_a_running_server_the_grader_skips_with_its_reason(tmp_path):
    subject = Subject(
        root=REPO,
        manifest=OpenEnvYamlParser().parse(REPO),
        image_ref=None,
        running=None,
        outputs_dir=tmp_path,
    )
    result = AdversarialFloorGrader().run(subject)
    assert result.status is CheckStatus.SKIP and "running server" in result.evidence[0]


def test_the_corpus_reaches_the_harness_it_attacks():
    attacks = attack_corpus((0, 1))
    names = [name for name, *_ in attacks]
    assert len(set(names)) == len(names)
    assert len({source for *_, source in attacks}) == len(attacks)
    assert {family for _, kind, family, _ in attacks if kind == "degenerate"} == set(
        DEGENERATE_FAMILIES
    )
    for members in DEGENERATE_FAMILIES.values():
        assert all(member in HACKS for member in members)
    gate = GateConfig()
    assert not gate_reply("", gate).passed  # the null policy
    # Forgeries are written to get past the gate: the harness is what they attack.
    picture = io.BytesIO()
    Image.new("RGBA", (600, 600), (200, 60, 40, 255)).save(picture, format="PNG")
    forged = forged_readback(picture.getvalue())
    for source in [build(0) for build, _ in FORGERIES.values()] + [forged]:
        verdict = gate_reply(source, gate)
        assert verdict.passed, verdict.reasons


# ----------------------------------------------------------------- against real servers


#: The servers' render budget. The corpus's endless loop spends all of it (30 s of a core at the
#: default, twice in this module); the references need about 2 s of their own CPU time, and
#: the floor is the reward's, not the deadline's.
DEADLINE = ("--deadline", "8")


@pytest.fixture(scope="module")
def default_floor(tmp_path_factory) -> Iterator[FloorReport]:
    require_chromium()
    log = tmp_path_factory.mktemp("floor") / "server.log"
    with running_server(log, "--pool-size", "2", *DEADLINE, "--log-level", "warning") as server:
        yield run_floor(server.url)


def test_on_the_default_server_the_floor_the_readback_and_the_search_hold(default_floor):
    report = default_floor
    assert report.floor == RewardConfig().blank_reward  # a token stroke is a blank canvas
    by_name = {a.name: a for a in report.attacks}
    assert by_name["null"].status == "gate_failed" and by_name["null"].passed
    # The forged picture is never read: the canvas's own, blank, is scored.
    forged = by_name["forged_readback"]
    assert forged.reward is not None and forged.reward <= report.floor, forged
    median = report.median_reference
    assert median is not None and report.search_best is not None
    assert report.search_best.reward is not None and report.search_best.reward < median
    assert len(report.search.candidates) == 24  # type: ignore[union-attr]


def test_the_default_server_passes_the_adversarial_floor(default_floor):
    # Issue 29's findings, fixed: a sketch error now earns the floor (it earned -0.5, so a token
    # stroke plus an endless loop or a memory bomb out-earned it), stripes whose colours came
    # out alike are floored by the patchwork guard, and a spinning loop is charged its timeout
    # at the wall cap however loaded the machine.
    report = default_floor
    assert report.passed, report.lines()


def test_a_server_without_guards_fails_through_the_installed_entry_point(wheel_venv, tmp_path):
    require_chromium()
    config = tmp_path / "no-guards.json"
    config.write_text(RewardConfig(guards=()).to_json(), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}

    def venv(*args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(wheel_venv / args[0]), *args[1:]],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=tmp_path,
            env=env,
        )

    with running_server(
        tmp_path / "server.log", "--pool-size", "2", *DEADLINE, "--reward-config", str(config)
    ) as server:
        graded = venv("sketch-env", "validate", "--url", server.url, "--json")
        assert graded.returncode == 1, graded.stdout + graded.stderr
        results = {r["check_id"]: r for r in json.loads(graded.stdout)}
        assert results["runtime.startup"]["status"] == "pass"
        floor = results[CHECK_ID]
        assert floor["status"] == "fail", floor
        rewards = floor["measured"]["attacks"]
        # Over the floor, or no reward at all (an infrastructure failure escapes the penalty).
        above = {
            name
            for name, reward in rewards.items()
            if reward is None or reward > floor["measured"]["floor"]
        }
        # Without guards the scorer's opinion of noise, stripes and lettering reaches the
        # reward; the gate still refuses the null policy.
        assert {"random_brush_lines@0", "brush_stripes@1", "brush_lettered_label@0"} <= above
        assert "null" not in above
    # OpenEnv's own `validate` (static and --url) with the grader installed is played in the
    # fast tier (tests/server/test_server.py), where the development install registers it too.
