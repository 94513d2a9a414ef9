"""The OpenEnv manifest says what the environment is, and OpenEnv's own tools read it so:
``openenv validate`` (static; ``--url`` against a server running a judge), ``openenv push``'s
reading of the variables and its Space README, ``openenv catalog`` over ``discovery.json``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
import yaml
from openenv.cli.commands.push import (
    _load_ignore_patterns,
    _prepare_staging_directory,
    _validate_openenv_directory,
)
from openenv.validation.parsers.openenv_yaml import OpenEnvYamlParser

from sketch_env.catalog.tasks import TASKSET_VERSION, load_tasks
from sketch_env.cli import main
from sketch_env.scoring.judge.prompts import RUBRIC_VERSION
from sketch_env.scoring.spec import DEFAULT_SCORER
from sketch_env.server.manifest import (
    DECLARED_TOOLS,
    MANIFEST_PATHS,
    build_manifest,
    manifest_text,
)
from tests.conftest import GOOD_SKETCH, require_chromium
from tests.scoring.judge.fake_judge_server import FakeJudgeServer
from tests.server.serving import running_server
from tests.system.wheel import clean_tree

ROOT = Path(__file__).resolve().parents[2]
JUDGE = "judge+https://judge.example/v1?model=Qwen/Qwen2.5-VL-7B-Instruct&mode=pairwise&refs=judge_refs&k=3"


def _openenv(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "openenv.cli", *args],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=cwd,
    )


def _front_matter(readme: str) -> dict[str, object]:
    assert readme.startswith("---\n"), readme[:80]
    return yaml.safe_load(readme.split("\n---\n", 1)[0].removeprefix("---\n"))


def test_the_checked_in_manifests_are_what_the_code_declares() -> None:
    text = manifest_text()
    for relative in MANIFEST_PATHS:
        assert (ROOT / relative).read_text("utf-8") == text, (
            f"{relative} is stale: sketch-env manifest --out {relative}"
        )
    manifest = OpenEnvYamlParser().parse(ROOT)
    assert manifest.task_distribution is not None
    assert manifest.task_distribution.dataset_version == f"sketch_env/tasks/{TASKSET_VERSION}"
    assert manifest.task_distribution.generator_seed is None  # no seed of its own (docstring)
    assert not manifest.capabilities.llm_judged and manifest.judge is None
    assert manifest.capabilities.declared_task_count == {"train": len(load_tasks())}
    assert manifest.capabilities.declared_tools == list(DECLARED_TOOLS)
    assert manifest.network.mode == "no-network"
    raw = yaml.safe_load(text)
    assert raw["variables"] == {"SKETCH_ENV_SCORER": DEFAULT_SCORER, "SKETCH_ENV_RENDERER": "local"}


def test_a_judge_deployment_pins_its_judge_and_still_validates(tmp_path: Path) -> None:
    tree = clean_tree(tmp_path / "tree")
    args = ["manifest", "--scorer", JUDGE, "--generator-seed", "7", "--variance-tolerance", "0.05"]
    assert main([*args, "--out", str(tree / "openenv.yaml")]) == 0
    assert main([*args, "--check", str(tree / "openenv.yaml")]) == 0
    assert main(["manifest", "--check", str(tree / "openenv.yaml")]) == 1  # not the default
    manifest = OpenEnvYamlParser().parse(tree)
    assert manifest.capabilities.llm_judged
    assert manifest.judge is not None
    assert manifest.judge.model == "Qwen/Qwen2.5-VL-7B-Instruct"
    assert manifest.judge.version == f"rubric{RUBRIC_VERSION}"
    assert manifest.judge.params["mode"] == "pairwise"
    assert manifest.judge.params["num_references"] == 3
    assert manifest.judge.params["temperature"] == 0.0
    assert manifest.reward.variance_tolerance == 0.05
    assert manifest.reward.range == (-1.0, 2.0)  # a win-rate in [0, 1] as the preference
    assert manifest.task_distribution is not None
    assert manifest.task_distribution.generator_seed == 7
    assert manifest.network.mode == "allowlist"
    assert manifest.network.allowed_hosts == ["judge.example"]
    # The checkout's own manifest is validated by tests/server/test_server.py.
    out = _openenv("validate", str(tree), "--level", "static", "--json")
    assert out.returncode == 0, out.stdout + out.stderr
    assert json.loads(out.stdout)["verdict"] == "pass", out.stdout


def test_a_bad_spec_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["manifest", "--scorer", "judge+http://judge:8000/v1"]) == 2
    assert "model" in capsys.readouterr().err


def test_openenv_push_reads_the_variables_and_stages_a_space_readme(tmp_path: Path) -> None:
    # `openenv push` up to the upload (no hub is reachable here): its own checks of the
    # folder, the variables it sets on the Space, the README it stages.
    tree = clean_tree(tmp_path / "tree")
    name, raw = _validate_openenv_directory(tree)
    assert name == "sketch_env"
    assert {str(k): str(v) for k, v in raw["variables"].items()} == {
        "SKETCH_ENV_SCORER": DEFAULT_SCORER,
        "SKETCH_ENV_RENDERER": "local",
    }
    staging = tmp_path / "staging"
    _prepare_staging_directory(tree, name, staging, _load_ignore_patterns(tree, None))
    front = _front_matter((staging / "README.md").read_text("utf-8"))
    assert front["sdk"] == "docker" and front["app_port"] == raw["port"] == 8000
    assert "openenv" in front["tags"]  # type: ignore[operator]
    assert front["base_path"] == "/web"  # push added it to our front matter, not a second one
    assert (staging / "Dockerfile").is_file() and (staging / "openenv.yaml").is_file()


def test_openenv_catalog_reads_the_discovery_declaration(tmp_path: Path) -> None:
    # The catalog reads committed files only: commit a clean copy of the tree.
    tree = clean_tree(tmp_path / "repo")
    git = ["git", "-C", str(tree), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "tree"]):
        subprocess.run([*git, *command], check=True, capture_output=True, timeout=120)
    catalog = tmp_path / "catalog.json"
    built = _openenv(
        "catalog",
        "build",
        "--repository",
        str(tree),
        "--repository-uri",
        "https://github.com/example/sketch_env.git",
        "--publisher",
        "example.org",
        "--root",
        ".",
        "--output",
        str(catalog),
    )
    assert built.returncode == 0, built.stderr
    (entry,) = json.loads(catalog.read_text())["entries"]
    assert entry["displayName"] == "sketch_env"
    assert entry["capabilities"] == list(DECLARED_TOOLS)
    assert "openenv" in entry["tags"]
    assert entry["data"]["license"] == "BSD-3-Clause"
    # The package folder is the catalogued environment: its manifest is the one AutoEnv reads.
    assert entry["data"]["source"]["path"] == "sketch_env"
    found = _openenv("discover", "paint pictures with code", "--catalog", str(catalog), "--json")
    assert found.returncode == 0, found.stderr
    assert [r["displayName"] for r in json.loads(found.stdout)["results"]] == ["sketch_env"]


def test_a_space_running_a_judge_serves_what_its_manifest_declares(tmp_path: Path) -> None:
    # As a Space would: the server gets the manifest's variables as its environment, nothing
    # else. The judge is the loopback fake of the model boundary.
    require_chromium()
    with FakeJudgeServer("fake-vlm") as judge:
        manifest = build_manifest(f"judge+{judge.base_url}?model=fake-vlm&timeout=30")
        pin = manifest["validation"]["judge"]
        with running_server(
            tmp_path / "server.log",
            "--pool-size",
            "1",
            "--log-level",
            "warning",
            env=manifest["variables"],
        ) as server:
            step = httpx.post(
                f"{server.url}/step",
                json={"action": {"sketch": GOOD_SKETCH}, "seed": 2},
                timeout=240,
            )
            assert step.status_code == 200, step.text
            observation = step.json()["observation"]
            assert observation["scorer"] == f"judge-pointwise:{pin['model']}@{pin['version']}"
            assert isinstance(step.json()["reward"], float)
            validated = _openenv("validate", "--url", server.url, "--json", "--timeout", "60")
            assert validated.returncode == 0, validated.stdout + validated.stderr
            assert json.loads(validated.stdout)["passed"] is True
        # The start-up probe reached the judge and found it alive: no warning.
        assert len(judge.requests) >= 2
        assert "did not score a test picture" not in server.log()
