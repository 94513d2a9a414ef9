"""The evaluation's command-line options, declared once for every command that evaluates.

``sketch-env rollout``, ``reward-check`` and ``serve`` take the same ``--config FILE.json`` (a
saved `EvaluationConfig`), ``--scorer``, ``--gate-config``, the reward options
(`sketch_env.reward.options`) and the renderer options (`sketch_env.render.options`). A flag
given on the command line wins over the file; the file wins over the defaults.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from sketch_env.evaluation.config import EvaluationConfig
from sketch_env.gate.verdict import GateConfig
from sketch_env.render.options import add_render_options, render_config_from_args
from sketch_env.reward.options import add_reward_options, reward_config_from_args

if TYPE_CHECKING:
    from sketch_env.distributed.renderer import RayRenderer
    from sketch_env.render.renderer import SketchRenderer

__all__ = ["add_evaluation_options", "evaluation_config_from_args", "open_renderer"]

#: How ``--scorer`` is described in every command's help.
SCORER_HELP = (
    "scorer spec: vision (embedded, the default), anchored (embedded, cannot rank paintings), "
    "heuristic (embedded, beaten by search), "
    "hpsv3+http://HOST:PORT (a running HPSv3 service), judge+http://HOST:PORT/v1?model=NAME "
    "(a vision-language judge)"
)


def add_evaluation_options(parser: argparse.ArgumentParser) -> None:
    """Adds ``--config``, ``--scorer``, ``--gate-config`` and the reward and render options."""
    group = parser.add_argument_group("evaluation")
    group.add_argument(
        "--config",
        metavar="FILE.json",
        help="an EvaluationConfig as JSON (renderer, scorer, render, gate, reward); the flags "
        "below override it",
    )
    group.add_argument("--scorer", default=None, help=SCORER_HELP)
    group.add_argument("--gate-config", metavar="FILE.json", help="a GateConfig as JSON")
    add_reward_options(parser)
    add_render_options(parser, renderer_spec=True)


def evaluation_config_from_args(
    args: argparse.Namespace,
    *,
    scorer_default: str | None = None,
    renderer_default: str | None = None,
) -> EvaluationConfig:
    """The `EvaluationConfig` the options describe.

    Args:
        args: Parsed arguments of a parser given `add_evaluation_options`.
        scorer_default: The scorer when neither ``--scorer`` nor ``--config`` names one (a
            command may read it from an environment variable).
        renderer_default: The renderer spec when neither ``--renderer`` nor ``--config``
            names one (``sketch-env serve`` reads ``$SKETCH_ENV_RENDERER``).

    Returns:
        The configuration.

    Raises:
        OSError: If a file cannot be read.
        ValueError: If a file or a value is malformed (the message names the file or flag).
    """
    base = EvaluationConfig.load(args.config) if getattr(args, "config", None) else None
    config = base or EvaluationConfig()
    gate = config.gate
    if getattr(args, "gate_config", None):
        text = Path(args.gate_config).read_text(encoding="utf-8")
        try:
            gate = GateConfig.from_json(text)
        except ValueError as exc:
            raise ValueError(f"{args.gate_config}: {exc}") from None
    reward = reward_config_from_args(args, base=config.reward)
    render = render_config_from_args(args, base=config.render)
    scorer = args.scorer or (config.scorer if base is not None else None) or scorer_default
    renderer = getattr(args, "renderer", None)
    if renderer is None and base is None:
        renderer = renderer_default
    return config.with_parts(
        scorer=scorer,
        renderer=renderer,
        render=render,
        gate=gate,
        reward=reward,
    )


def open_renderer(config: EvaluationConfig) -> SketchRenderer | RayRenderer:
    """A renderer of the command's own for a configuration (closed by the command).

    A command-line run owns its browsers (or its cluster connection) rather than sharing the
    process-wide pool: ``with open_renderer(config) as renderer: ...``.

    Raises:
        ValueError: On a malformed renderer spec.
        ImportError: If a Ray spec is given and Ray is not installed.
    """
    if config.renderer == "local":
        from sketch_env.render.renderer import SketchRenderer

        return SketchRenderer(config.render)
    from sketch_env.distributed import make_renderer
    from sketch_env.distributed.renderer import RayRenderer

    made = make_renderer(config.renderer, config=config.render)
    assert isinstance(made, RayRenderer)  # any spec but "local" makes one
    return made
