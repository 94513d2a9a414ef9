"""The reward's command-line options, declared once for every command that computes rewards.

``--reward-config FILE.json`` (a saved `RewardConfig`) and ``--calibration FILE.json`` (written
by ``sketch-env pool calibrate``; its reference statistics go on top of the configuration).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from sketch_env.reward.config import RewardConfig

__all__ = ["add_reward_options", "reward_config_from_args"]


def add_reward_options(parser: argparse.ArgumentParser) -> None:
    """Adds ``--reward-config`` and ``--calibration`` to a command's parser."""
    group = parser.add_argument_group("reward")
    group.add_argument("--reward-config", metavar="FILE.json", help="a RewardConfig as JSON")
    group.add_argument(
        "--calibration",
        metavar="FILE.json",
        help="reference statistics from `sketch-env pool calibrate` (normalises the preference "
        "term and gives the pairwise term its references)",
    )


def reward_config_from_args(
    args: argparse.Namespace, base: RewardConfig | None = None
) -> RewardConfig:
    """The configuration the options describe.

    Args:
        args: Parsed arguments of a parser given `add_reward_options`.
        base: What applies without ``--reward-config`` (a ``--config`` file's reward); the
            defaults when ``None``.

    Returns:
        ``--reward-config``'s configuration (else ``base``), with ``--calibration``'s reference
        statistics on top.

    Raises:
        OSError: If a file cannot be read.
        ValueError: If a file is malformed (`CalibrationError` is a `ValueError`); the message
            names the file.
    """
    config = base or RewardConfig()
    if getattr(args, "reward_config", None):
        text = Path(args.reward_config).read_text(encoding="utf-8")
        try:
            config = RewardConfig.from_json(text)
        except ValueError as exc:
            raise ValueError(f"{args.reward_config}: {exc}") from None
    if getattr(args, "calibration", None):
        from sketch_env.reward.calibration import Calibration

        return Calibration.load(args.calibration).reward_config(config)
    return config
