"""`EvaluationConfig`: everything that decides how a reply becomes a reward, in one object.

Which renderer and scorer (and the reference pool it reads), how renders are bounded, which gate
rules apply and how the reward is combined: parts that every front end used to declare again.
One object now carries them, with a JSON round trip, and every front end takes it: `Evaluator`,
`SketchEnvironment`, `SketchReward`, `SketchToolEnv.configured`, `create_sketch_app`, and
``--config FILE`` on
``sketch-env serve``, ``rollout`` and ``reward-check``. A saved config therefore reproduces an
evaluation exactly, whichever front end reads it::

    {"renderer": "local", "scorer": "vision?medium_knee=0.25", "pool_dir": null,
     "render": {"deadline_s": 30.0, ...}, "gate": {"forbid_text": true, ...},
     "reward": {"coverage_weight": 1.0, "guards": [...], ...}}

Renderer and scorer are spec strings (`sketch_env.specs`); a ready renderer or scorer object
is passed to `Evaluator` directly instead, where a file cannot name it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from sketch_env.config import JsonConfig
from sketch_env.gate.verdict import GateConfig
from sketch_env.render.config import RenderConfig
from sketch_env.reward.config import RewardConfig
from sketch_env.scoring.spec import DEFAULT_SCORER
from sketch_env.specs import parse_spec

__all__ = ["EvaluationConfig"]

_PARTS: dict[str, type[Any]] = {
    "render": RenderConfig,
    "gate": GateConfig,
    "reward": RewardConfig,
}


@dataclass(frozen=True)
class EvaluationConfig(JsonConfig):
    """How replies are gated, rendered, scored and rewarded.

    Args:
        renderer: Renderer spec: ``"local"`` (the process-wide browser pool), ``"ray"``,
            ``"ray://auto"`` or ``"ray://HOST:PORT"`` (`sketch_env.distributed.make_renderer`).
        scorer: Scorer spec: ``"vision"`` (the default; ``"vision?refit_every=256"`` sets its
            parameters), ``"anchored"``, ``"heuristic"``, ``"hpsv3+http://host:port"``,
            ``"judge+http://host:port/v1?model=..."`` (`sketch_env.scoring.make_scorer`).
        pool_dir: The reference pool folder the embedded scorers compare with (it decides the
            score); ``None`` for the shipped pool (or ``$SKETCH_ENV_REFERENCE_POOL``). Name it to
            make a saved configuration reproduce an evaluation wherever it is read.
        render: Renderer limits (`RenderConfig`); ``None`` leaves the renderer as it is
            configured (the shared pool's own settings, or a cluster's).
        gate: Gate rules, static and run-time (`GateConfig`).
        reward: Reward weights and thresholds (`RewardConfig`).

    Raises:
        ValueError: On a malformed spec or a part of the wrong type.

    Examples:
        >>> config = EvaluationConfig(scorer="vision", gate=GateConfig(forbid_text=False))
        >>> EvaluationConfig.from_json(config.to_json()) == config
        True
    """

    renderer: str = "local"
    scorer: str = DEFAULT_SCORER
    pool_dir: str | None = None
    render: RenderConfig | None = None
    gate: GateConfig = field(default_factory=GateConfig)
    reward: RewardConfig = field(default_factory=RewardConfig)

    def __post_init__(self) -> None:
        for name, what in (("renderer", "renderer spec"), ("scorer", "scorer spec")):
            value = getattr(self, name)
            if not isinstance(value, str):
                raise ValueError(
                    f"EvaluationConfig.{name} must be a spec string, got {type(value).__name__}; "
                    "pass a ready object to Evaluator directly"
                )
            parse_spec(value, what=what)
        if self.pool_dir is not None and not isinstance(self.pool_dir, str):
            raise ValueError(
                f"EvaluationConfig.pool_dir must be a folder path (a string) or None, got "
                f"{type(self.pool_dir).__name__}"
            )
        for name, cls in _PARTS.items():
            value = getattr(self, name)
            if value is None and name == "render":
                continue
            if not isinstance(value, cls):
                raise ValueError(
                    f"EvaluationConfig.{name} must be a {cls.__name__}, got {type(value).__name__}"
                )

    def to_dict(self) -> dict[str, Any]:
        """Returns the configuration as plain JSON-compatible values (parts as objects)."""
        return {
            "renderer": self.renderer,
            "scorer": self.scorer,
            "pool_dir": self.pool_dir,
            "render": self.render.to_dict() if self.render is not None else None,
            "gate": self.gate.to_dict(),
            "reward": self.reward.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EvaluationConfig:
        """Builds a configuration from a mapping; missing keys and parts take their defaults.

        Raises:
            ValueError: On an unknown key (in the configuration or a part) or a bad value.
        """
        cls.check_keys(data)
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in data:
                continue
            value = data[f.name]
            part = _PARTS.get(f.name)
            if part is not None and isinstance(value, Mapping):
                value = part.from_dict(value)
            values[f.name] = value
        return cls(**values)

    @classmethod
    def load(cls, path: str | Path) -> EvaluationConfig:
        """Reads a configuration file written by `save` (or by hand).

        Raises:
            OSError: If the file cannot be read.
            ValueError: If it is not a valid configuration (the message names the file).
        """
        try:
            return cls.from_json(Path(path).read_text(encoding="utf-8"))
        except ValueError as exc:
            raise ValueError(f"{path}: {exc}") from None

    def save(self, path: str | Path) -> Path:
        """Writes the configuration as indented JSON and returns the path."""
        target = Path(path)
        target.write_text(json.dumps(self.to_dict(), indent=2) + "\n", encoding="utf-8")
        return target

    def with_parts(self, **changes: Any) -> EvaluationConfig:
        """A copy with some fields replaced (``None`` values are left as they are).

        Front ends that take both a configuration and single options (``--scorer``) use this so
        that an option given on the command line overrides the file.
        """
        return replace(self, **{k: v for k, v in changes.items() if v is not None})
