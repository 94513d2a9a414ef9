"""The OpenEnv manifest (``openenv.yaml``), written from the code it describes.

``openenv validate``, ``openenv push`` and a Hugging Face Space read ``openenv.yaml`` at the
repository root; OpenEnv's ``AutoEnv`` and ``openenv catalog`` read the copy inside the package,
``sketch_env/openenv.yaml``. Both are this module's output for the default deployment (a test
keeps them so), because what a manifest declares depends on the deployment:

- ``variables``: the scorer and renderer specs. ``openenv push`` sets them as the Space's
  variables, and ``sketch-env serve`` (the image's command) reads them as
  ``$SKETCH_ENV_SCORER`` and ``$SKETCH_ENV_RENDERER``.
- With a judge scorer the reward comes from a language model: ``capabilities.llm_judged``,
  the judge pin (model, rubric version, sampling settings) and ``reward.variance_tolerance``,
  which OpenEnv requires together.
- ``task_distribution``: the task set's version. An episode's task is SHA-256 of (that version,
  the episode's seed), with no seed of its own; a deployment whose clients draw their episode
  seeds from a seeded schedule declares that schedule's seed with ``--generator-seed``.
- ``network``: none for the embedded scorer; an allowlist of the scorer's (and a Ray
  cluster's) hosts otherwise.
- ``reward.range``: read from the reward's configuration and the scorer's stated scale
  (`sketch_env.reward.reward_range`, `sketch_env.scoring.spec.spec_scale`): -1 (a refusal) to
  11 (full marks on a 0-10 scorer plus full coverage) by default; 2 at the top for a pairwise
  judge, whose score is a win-rate.
- ``capabilities.rubric_tree``: the environment's ``rubric`` is the reward as an OpenEnv rubric
  tree (`sketch_env.reward.rubric`), its root the step's reward.

Examples:
    sketch-env manifest                                   # the default manifest, on stdout
    sketch-env manifest --out openenv.yaml                # rewrite the repository's copies:
    sketch-env manifest --out sketch_env/openenv.yaml     #   both, after changing this file
    sketch-env manifest --check openenv.yaml              # exit 1 if it is not the output
    sketch-env manifest --out openenv.yaml \\
        --scorer 'judge+http://judge:8000/v1?model=Qwen/Qwen2.5-VL-7B-Instruct'
"""

from __future__ import annotations

import argparse
import inspect
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from sketch_env.catalog.tasks import TASKSET_VERSION, load_tasks
from sketch_env.evaluation.config import EvaluationConfig
from sketch_env.install import VERSION
from sketch_env.reward.combine import reward_range
from sketch_env.reward.config import RewardConfig
from sketch_env.scoring.spec import DEFAULT_SCORER, spec_scale
from sketch_env.specs import parse_spec

__all__ = [
    "DECLARED_TOOLS",
    "DEFAULT_VARIANCE_TOLERANCE",
    "MANIFEST_PATHS",
    "add_arguments",
    "build_manifest",
    "manifest_text",
    "run",
]

#: Where a checkout keeps the manifest: the root (validate, push, the Space) and the package
#: (AutoEnv in an installed wheel, and the environment folder ``openenv catalog`` lists).
MANIFEST_PATHS = ("openenv.yaml", "sketch_env/openenv.yaml")
#: The MCP tools ``/mcp`` lists (`sketch_env.server.tools`); a test compares the two.
DECLARED_TOOLS = ("render", "paint")
#: Declared for a judge when no other figure is given: the most OpenEnv's severity policy v1
#: allows. It is a declaration, not a measurement; measure the judge's repeat variance and
#: declare a tighter one with ``--variance-tolerance``.
DEFAULT_VARIANCE_TOLERANCE = 0.2

_HEADER = """\
# OpenEnv manifest of sketch_env: a policy writes p5.js + p5.brush sketches for painting
# prompts; they are rendered in headless Chromium and scored.
#
# Written by `sketch-env manifest` (sketch_env/server/manifest.py, which says why each field is
# what it is): change that and rewrite both copies, the root one (openenv validate, openenv
# push, the Space) and sketch_env/openenv.yaml (AutoEnv and openenv catalog). Regular files,
# not a symlink: `openenv validate` refuses any symlink in the tree.
"""


def _hosts(urls: list[str]) -> list[str]:
    hosts = []
    for url in urls:
        host = urlsplit(url if "://" in url else f"//{url}").hostname
        if host and host not in hosts:
            hosts.append(host)
    return hosts


def _judge_pin(scorer: str) -> dict[str, Any]:
    """The judge pin: which model, which rubric, which sampling settings make the reward."""
    from sketch_env.scoring.judge.prompts import RUBRIC_VERSION
    from sketch_env.scoring.judge.scorer import JudgeScorer
    from sketch_env.scoring.judge.spec import parse_judge_spec

    given = parse_judge_spec(scorer)
    # The scorer's own defaults, read from its signature so the pin cannot drift from them.
    defaults = {
        name: parameter.default
        for name, parameter in inspect.signature(JudgeScorer.__init__).parameters.items()
        if parameter.default is not inspect.Parameter.empty
    }
    names = ["mode", "temperature", "max_tokens", "max_image_side", "parse_retries"]
    if given.get("mode", defaults["mode"]) == "pairwise":
        names.append("num_references")
    params = {name: given.get(name, defaults[name]) for name in names}
    # The scorer names itself judge-MODE:MODEL@rubricN; the pin uses the same words.
    return {"model": given["model"], "version": f"rubric{RUBRIC_VERSION}", "params": params}


def build_manifest(
    scorer: str = DEFAULT_SCORER,
    renderer: str = "local",
    *,
    generator_seed: int | None = None,
    variance_tolerance: float = DEFAULT_VARIANCE_TOLERANCE,
) -> dict[str, Any]:
    """The manifest of a deployment, as the mapping ``openenv.yaml`` holds.

    Args:
        scorer: The scorer spec the server runs with (``--scorer``).
        renderer: The renderer spec (``--renderer``).
        generator_seed: The seed of the schedule the deployment's clients draw episode seeds
            from, when there is one.
        variance_tolerance: Declared reward variance under repeated evaluation; declared only
            with a judge scorer.

    Returns:
        The manifest.

    Raises:
        ValueError: If a spec is malformed or the judge spec lacks its model.

    Examples:
        >>> manifest = build_manifest()
        >>> manifest["variables"], manifest["validation"]["capabilities"]["llm_judged"]
        ({'SKETCH_ENV_SCORER': 'vision', 'SKETCH_ENV_RENDERER': 'local'}, False)
    """
    EvaluationConfig(scorer=scorer, renderer=renderer)  # the same spec checks as serve's
    scoring = parse_spec(scorer, what="scorer spec")
    rendering = parse_spec(renderer, what="renderer spec")
    judged = scoring.kind == "judge"
    judge = _judge_pin(scorer) if judged else None

    low, high = reward_range(RewardConfig(), spec_scale(scorer))
    reward: dict[str, Any] = {"range": [low, high], "oracle_tolerance": 0.1, "floor_margin": 0.5}
    if judged:
        reward["variance_tolerance"] = float(variance_tolerance)

    remote = list(scoring.targets) if scoring.kind in ("hpsv3", "judge") else []
    if scoring.kind == "hpsv3" and not remote:
        remote = ["http://127.0.0.1:8765"]  # the bare spec's default service
    if rendering.kind == "ray" and rendering.url_form and rendering.targets[0] != "auto":
        remote += list(rendering.targets)
    hosts = _hosts(remote)
    # Sketches themselves never reach the network: every request off the page's virtual
    # origin is blocked. What does is the scorer's client (and Ray's, for a remote cluster).
    network: dict[str, Any] = (
        {"mode": "allowlist", "allowed_hosts": hosts} if hosts else {"mode": "no-network"}
    )

    distribution: dict[str, Any] = {"dataset_version": f"sketch_env/tasks/{TASKSET_VERSION}"}
    if generator_seed is not None:
        distribution["generator_seed"] = int(generator_seed)

    validation: dict[str, Any] = {"reward": reward}
    if judge is not None:
        validation["judge"] = judge
    validation.update(
        {
            "task_distribution": distribution,
            "resources": {
                "cpu": 2.0,
                "memory_mb": 4096,
                "disk_mb": 2048,
                # A render has a hard 30 s deadline and one retry on a browser crash; a step,
                # scoring included, stays under ~70 s.
                "episode_timeout_s": 120.0,
            },
            "network": network,
            # Schema 2: how `openenv validate --level runtime` builds and probes the
            # environment (the Dockerfile, then one reset and one painting step over /ws).
            "execution": {
                "kind": "openenv_ws",
                "probe_path": "validation/runtime.json",
                "dockerfile": "Dockerfile",
                "context": ".",
            },
            "capabilities": {
                "verifier": {"kind": "reward_channel"},
                "llm_judged": judged,
                "rubric_tree": True,
                "task_api": True,
                "declared_tools": list(DECLARED_TOOLS),
                "declared_task_count": {"train": len(load_tasks())},
            },
            "types": {"tags": ["creative-coding", "image-generation", "code"]},
        }
    )
    return {
        "spec_version": 1,
        "name": "sketch_env",
        "version": VERSION,
        "description": (
            "Paint with p5.brush code; rendered in headless Chromium and scored (by resemblance "
            "to the task's reference paintings, HPSv3 or a VLM judge)."
        ),
        "type": "space",
        "runtime": "fastapi",
        "app": "sketch_env.server.app:app",
        "port": 8000,
        "variables": {"SKETCH_ENV_SCORER": scorer, "SKETCH_ENV_RENDERER": renderer},
        "validation": validation,
    }


class _Dumper(yaml.SafeDumper):
    """Block mappings; a list of plain values on one line (``range: [-1.0, 11.0]``)."""


def _represent_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    flow = all(isinstance(item, (str, int, float, bool)) for item in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


_Dumper.add_representer(list, _represent_list)


def manifest_text(manifest: dict[str, Any] | None = None) -> str:
    """The manifest as the text of ``openenv.yaml``, with its header.

    Args:
        manifest: A `build_manifest` result; the default deployment's when ``None``.

    Returns:
        The YAML text.
    """
    body = yaml.dump(
        manifest if manifest is not None else build_manifest(),
        Dumper=_Dumper,
        sort_keys=False,
        default_flow_style=False,
        allow_unicode=True,
        width=100,
    )
    return _HEADER + body


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the ``manifest`` options.

    Args:
        parser: The subcommand's parser.
    """
    parser.add_argument(
        "--scorer", default=DEFAULT_SCORER, help="the deployment's scorer spec (default vision)"
    )
    parser.add_argument(
        "--renderer", default="local", help="the deployment's renderer spec (default local)"
    )
    parser.add_argument(
        "--generator-seed",
        type=int,
        default=None,
        help="seed of the schedule the clients draw episode seeds from, if any",
    )
    parser.add_argument(
        "--variance-tolerance",
        type=float,
        default=DEFAULT_VARIANCE_TOLERANCE,
        help=f"a judge's declared reward variance (default {DEFAULT_VARIANCE_TOLERANCE}, the "
        "most OpenEnv's policy allows)",
    )
    target = parser.add_mutually_exclusive_group()
    target.add_argument("--out", type=Path, help="write the manifest here (default: stdout)")
    target.add_argument(
        "--check", type=Path, metavar="FILE", help="exit 1 unless FILE is this manifest"
    )


def run(args: argparse.Namespace) -> int:
    """Prints, writes or checks the manifest.

    Args:
        args: Parsed arguments.

    Returns:
        0; 1 when ``--check`` finds a difference; 2 on a bad spec or an unwritable file (one
        line on stderr).
    """
    try:
        text = manifest_text(
            build_manifest(
                args.scorer,
                args.renderer,
                generator_seed=args.generator_seed,
                variance_tolerance=args.variance_tolerance,
            )
        )
        if args.check is not None:
            if args.check.read_text(encoding="utf-8") == text:
                return 0
            print(
                f"sketch-env manifest: {args.check} is not the manifest these options write; "
                f"rewrite it with sketch-env manifest --out {args.check}",
                file=sys.stderr,
            )
            return 1
        if args.out is None:
            sys.stdout.write(text)
        else:
            args.out.write_text(text, encoding="utf-8")
    except (OSError, ValueError) as exc:
        print(f"sketch-env manifest: {exc}", file=sys.stderr)
        return 2
    return 0
