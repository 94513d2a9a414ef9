"""`SketchToolEnv`: an ``environment_factory`` for TRL: the policy paints, looks and revises."""

from __future__ import annotations

import threading
from typing import Any, ClassVar

from sketch_env.evaluation.cache import SketchEvaluation
from sketch_env.evaluation.replies import resolve_prompt
from sketch_env.evaluation.rollout import Rollout
from sketch_env.gate.verdict import GateConfig
from sketch_env.render.base import check_seed
from sketch_env.render.protocol import Renderer
from sketch_env.scoring.base import Scorer
from sketch_env.scoring.reward import RewardConfig
from sketch_env.trl.artifacts import ArtifactConfig, ArtifactWriter

__all__ = ["SketchToolEnv"]


class SketchToolEnv:
    """An ``environment_factory`` class for `trl.GRPOTrainer`: paint, look, revise.

    TRL makes one instance per rollout, calls `reset` with the dataset row, exposes `render`
    to the policy as a tool, and calls `get_reward` when the rollout ends: the reward of the
    **last** sketch rendered. A policy that never calls `render` gets the gate-failure reward.

    Configure it by subclassing, or with `configured`: the constructor takes no arguments
    because TRL calls it without any. All instances of a configuration share one evaluation
    (one renderer, one scorer client).

    Examples:
        ```python
        env_cls = SketchToolEnv.configured(scorer="hpsv3+http://gpu-box:8765")
        trainer = GRPOTrainer(model=..., train_dataset=make_dataset(),
                              environment_factory=env_cls, args=GRPOConfig(...))
        ```
    """

    #: Scorer spec used by this class's shared evaluation.
    scorer: Scorer | str = "heuristic"
    #: Reward weights and thresholds.
    reward_config: RewardConfig | None = None
    #: Gate rules.
    gate_config: GateConfig | None = None
    #: Renderer; the shared one when ``None``.
    renderer: Renderer | str | None = None
    #: Render seed when the dataset row has no ``seed``.
    seed: int = 0
    #: Renders allowed per rollout; later calls get an explanation instead of a render.
    max_renders: int = 4
    #: Appended to the user's message by `reset`; ``None`` appends nothing.
    instructions: str | None = (
        "You can call the `render` tool with a complete sketch to see how it renders and "
        "scores, then revise it. The last sketch you render is the one that is scored."
    )

    #: Where each episode's last render is written (see `ArtifactConfig`; the step is the
    #: episode's round: this instance's reset count). ``None`` writes nothing.
    artifacts: ArtifactConfig | None = None

    _evaluations: ClassVar[dict[type, SketchEvaluation]] = {}
    _writers: ClassVar[dict[type, ArtifactWriter]] = {}
    _evaluations_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self) -> None:
        self._prompt = ""
        self._seed = self.seed
        self._renders = 0
        self._last: Rollout | None = None
        self._round = -1
        self._saved_round = -2
        self._task_id: str | None = None

    @classmethod
    def configured(cls, **settings: Any) -> type[SketchToolEnv]:
        """Returns a subclass with other settings, to pass as ``environment_factory``.

        Args:
            **settings: Class attributes to override (``scorer``, ``reward_config``,
                ``gate_config``, ``renderer``, ``seed``, ``max_renders``, ``instructions``,
                ``artifacts``).

        Returns:
            The subclass.

        Raises:
            AttributeError: For a name that is not a setting.
        """
        allowed = {
            "scorer",
            "reward_config",
            "gate_config",
            "renderer",
            "seed",
            "max_renders",
            "instructions",
            "artifacts",
        }
        unknown = sorted(set(settings) - allowed)
        if unknown:
            raise AttributeError(
                f"unknown SketchToolEnv settings {unknown}; known: {sorted(allowed)}"
            )
        return type(cls.__name__, (cls,), dict(settings))

    @classmethod
    def _evaluation(cls) -> SketchEvaluation:
        with cls._evaluations_lock:
            evaluation = cls._evaluations.get(cls)
            if evaluation is None:
                evaluation = SketchEvaluation(
                    scorer=cls.scorer,
                    renderer=cls.renderer,
                    reward_config=cls.reward_config,
                    gate_config=cls.gate_config,
                    seed=cls.seed,
                )
                cls._evaluations[cls] = evaluation
            return evaluation

    def reset(self, **row: Any) -> str | None:
        """Starts a rollout for one dataset row.

        Args:
            **row: The row: ``prompt_text`` or ``task_id`` names the scene (else it is read
                from the ``prompt`` messages); ``seed`` sets the render seed.

        Returns:
            `instructions` (appended to the user's message by TRL), or ``None``.

        Raises:
            ValueError: If the row's seed is not valid (`sketch_env.render.base.check_seed`).
        """
        self._prompt = resolve_prompt(
            prompt_text=row.get("prompt_text"),
            task_id=row.get("task_id"),
            chat_prompt=row.get("prompt"),
        )
        seed = row.get("seed")
        self._seed = check_seed(seed) if seed is not None else self.seed
        self._renders = 0
        self._last = None
        # TRL keeps one instance per batch slot and resets it once per generation round.
        self._round += 1
        self._task_id = row.get("task_id")
        return self.instructions

    def render(self, sketch: str) -> str:
        """Renders a p5.js sketch that paints with p5.brush and reports how it went.

        Args:
            sketch: The complete sketch source: a global `function setup()` that calls
                `createCanvas(600, 600, WEBGL)` and paints with `brush.*` calls.

        Returns:
            Feedback: whether the sketch passed the checks, how the render ended, JavaScript
            errors, paint coverage, the score and the reward.
        """
        if self._renders >= self.max_renders:
            return (
                f"No more renders in this episode (limit {self.max_renders}); the last "
                "sketch rendered is the one scored."
            )
        self._renders += 1
        evaluation = self._evaluation()
        (rollout,) = evaluation.rollouts([(sketch or "", self._prompt, self._seed)])
        self._last = rollout
        return rollout.feedback()

    def get_reward(self) -> float | None:
        """The reward of the last sketch rendered in this rollout.

        Returns:
            Its reward; the configured gate-failure reward when nothing was rendered; ``None``
            when the last render failed for infrastructure reasons.
        """
        if self._last is None:
            config = self.reward_config or self._evaluation().evaluator.reward_config
            return config.gate_fail_reward
        if self.artifacts is not None and self._saved_round != self._round:
            self._saved_round = self._round
            self._writer().add(max(self._round, 0), [self._last], task_ids=[self._task_id])
        return self._last.reward.reward

    @classmethod
    def _writer(cls) -> ArtifactWriter:
        with cls._evaluations_lock:
            writer = cls._writers.get(cls)
            if writer is None or writer.config != cls.artifacts:
                assert cls.artifacts is not None
                writer = cls._writers[cls] = ArtifactWriter(cls.artifacts)
            return writer

    @property
    def last_rollout(self) -> Rollout | None:
        """The last `Rollout` of this episode (a property, so TRL does not expose it as a tool)."""
        return self._last
