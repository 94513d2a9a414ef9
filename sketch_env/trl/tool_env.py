"""`SketchToolEnv`: an ``environment_factory`` for TRL: the policy paints, looks and revises."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
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
from sketch_env.trl.metrics import METRIC_PREFIX, batch_metrics, revision_metrics

__all__ = ["FEEDBACK_MODES", "MAX_TOOL_IMAGE_SIDE", "SketchToolEnv", "ToolMetrics"]

#: What the ``render`` tool answers with besides the picture.
FEEDBACK_MODES = ("report", "critique")
#: Largest picture side the tool returns: the canvas is 600 px, so a larger one adds no detail.
MAX_TOOL_IMAGE_SIDE = 600
_SETTINGS = frozenset(
    {
        "scorer",
        "reward_config",
        "gate_config",
        "renderer",
        "seed",
        "max_renders",
        "images",
        "image_size",
        "feedback",
        "show_scores",
        "instructions",
        "artifacts",
    }
)


class SketchToolEnv:
    """An ``environment_factory`` class for `trl.GRPOTrainer`: paint, look, revise.

    TRL makes one instance per rollout, calls `reset` with the dataset row, exposes `render`
    to the policy as a tool, and calls `get_reward` when the rollout ends: the reward of the
    **last** sketch rendered. A policy that never calls `render` gets the gate-failure reward.

    The tool answers with feedback (a report or a critique) and, with ``images``, the picture
    itself for a vision-language policy; never with the score unless ``show_scores``. Pass
    `metrics` in ``reward_funcs`` to log the ``sketch/*`` and ``sketch/revision/*`` metrics.

    Configure it by subclassing, or with `configured`: the constructor takes no arguments
    because TRL calls it without any. All instances of a configuration share one evaluation
    (one renderer, one scorer client).

    Examples:
        ```python
        env_cls = SketchToolEnv.configured(scorer="hpsv3+http://gpu-box:8765", images=True)
        trainer = GRPOTrainer(model=vlm, processing_class=processor,
                              reward_funcs=[env_cls.metrics()], train_dataset=make_dataset(),
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
    #: Return the rendered picture with the feedback, as content blocks
    #: ``[{"type": "image", "image": PIL.Image}, {"type": "text", "text": ...}]`` (TRL 1.16
    #: hands the image to a vision-language policy); ``False`` answers with text only, the
    #: right setting for a text-only policy, whose chat template cannot take an image.
    images: bool = False
    #: Side of the square picture the policy sees, in pixels. The canvas is 600x600; 256 px
    #: costs a Qwen2.5-VL-style processor (28 px per merged patch) about 81 image tokens per
    #: render instead of about 441.
    image_size: int = 256
    #: ``"report"`` (how the render went: gate reasons, status, errors, paint coverage) or
    #: ``"critique"`` (what went wrong and what to change, in words; `Rollout.critique`).
    feedback: str = "report"
    #: Put the score and the reward in the feedback. Off by default: a policy that reads its
    #: score learns to please the scorer rather than to paint.
    show_scores: bool = False
    #: Appended to the user's message by `reset`, after a blank line; ``None`` appends nothing.
    instructions: str | None = (
        "You can call the `render` tool with a complete sketch to see how it renders, then "
        "revise it. The last sketch you render is the one that is scored."
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
        self._episode: list[Rollout] = []
        self._round = -1
        self._saved_round = -2
        self._task_id: str | None = None

    @classmethod
    def configured(cls, **settings: Any) -> type[SketchToolEnv]:
        """Returns a subclass with other settings, to pass as ``environment_factory``.

        Args:
            **settings: Class attributes to override (``scorer``, ``reward_config``,
                ``gate_config``, ``renderer``, ``seed``, ``max_renders``, ``images``,
                ``image_size``, ``feedback``, ``show_scores``, ``instructions``,
                ``artifacts``).

        Returns:
            The subclass.

        Raises:
            AttributeError: For a name that is not a setting.
            ValueError: For a bad ``max_renders``, ``image_size`` or ``feedback``.
        """
        unknown = sorted(set(settings) - _SETTINGS)
        if unknown:
            raise AttributeError(
                f"unknown SketchToolEnv settings {unknown}; known: {sorted(_SETTINGS)}"
            )
        max_renders = settings.get("max_renders", cls.max_renders)
        if isinstance(max_renders, bool) or not isinstance(max_renders, int) or max_renders < 1:
            raise ValueError(f"max_renders must be a positive integer, got {max_renders!r}")
        size = settings.get("image_size", cls.image_size)
        if (
            isinstance(size, bool)
            or not isinstance(size, int)
            or not 16 <= size <= MAX_TOOL_IMAGE_SIDE
        ):
            raise ValueError(
                f"image_size must be an integer in [16, {MAX_TOOL_IMAGE_SIDE}], got {size!r}"
            )
        if settings.get("feedback", cls.feedback) not in FEEDBACK_MODES:
            raise ValueError(
                f"feedback must be one of {FEEDBACK_MODES}, got {settings['feedback']!r}"
            )
        return type(cls.__name__, (cls,), dict(settings))

    @classmethod
    def metrics(cls) -> ToolMetrics:
        """A reward function that only logs: pass it in ``reward_funcs`` to log tool mode.

        TRL gives an environment's ``get_reward`` no ``log_metric`` callback; it gives reward
        functions one, with the batch's environments. The returned function logs the same
        ``sketch/*`` metrics as `SketchReward` (over each episode's last render) and the
        ``sketch/revision/*`` metrics (first and last render, improvement), and returns
        ``None`` for every rollout so it never changes the reward.

        Returns:
            The `ToolMetrics` function for this configuration.
        """
        return ToolMetrics(cls)

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
        self._episode = []
        # TRL keeps one instance per batch slot and resets it once per generation round.
        self._round += 1
        self._task_id = row.get("task_id")
        # TRL glues this onto the end of the user's message as is, so it brings its own break.
        return f"\n\n{self.instructions}" if self.instructions else None

    def render(self, sketch: str) -> str | list[dict[str, Any]]:
        """Renders a p5.js sketch that paints with p5.brush and shows how it went.

        Args:
            sketch: The complete sketch source: a global `function setup()` that calls
                `createCanvas(600, 600, WEBGL)` and paints with `brush.*` calls.

        Returns:
            Feedback on the render (gate reasons, render status, JavaScript errors, paint
            coverage), and the picture when the environment shows pictures.
        """
        if len(self._episode) >= self.max_renders:
            return (
                f"No more renders in this episode (limit {self.max_renders}); the last "
                "sketch rendered is the one scored."
            )
        evaluation = self._evaluation()
        # A policy's tool call can carry any JSON value; only a string can be a sketch. Anything
        # else is rendered as nothing (the gate refuses it) and the answer says why.
        source = sketch if isinstance(sketch, str) else ""
        (rollout,) = evaluation.rollouts([(source, self._prompt, self._seed)])
        self._episode.append(rollout)
        if self.feedback == "critique":
            text = rollout.critique(evaluation.evaluator.reward_config)
            if self.show_scores and rollout.reward.reward is not None:
                text += f"\nReward: {rollout.reward.reward:.3f}."
        else:
            text = rollout.feedback(scores=self.show_scores)
        if not isinstance(sketch, str):
            text = f"The `sketch` argument must be a string, got {type(sketch).__name__}.\n{text}"
        render = rollout.render
        if not self.images:
            return text
        if render is None or not render.has_picture:
            return [{"type": "text", "text": f"{text}\n(No picture: nothing was painted.)"}]
        picture = render.image((self.image_size, self.image_size))
        return [{"type": "image", "image": picture}, {"type": "text", "text": text}]

    def get_reward(self) -> float | None:
        """The reward of the last sketch rendered in this rollout.

        Returns:
            Its reward; the configured gate-failure reward when nothing was rendered; ``None``
            when the last render failed for infrastructure reasons.
        """
        if not self._episode:
            config = self.reward_config or self._evaluation().evaluator.reward_config
            return config.gate_fail_reward
        last = self._episode[-1]
        if self.artifacts is not None and self._saved_round != self._round:
            self._saved_round = self._round
            self._writer().add(max(self._round, 0), [last], task_ids=[self._task_id])
        return last.reward.reward

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
        return self._episode[-1] if self._episode else None

    @property
    def episode(self) -> tuple[Rollout, ...]:
        """Every render of this episode, in order (first attempt to last revision)."""
        return tuple(self._episode)


class ToolMetrics:
    """Logs a tool-mode batch through TRL's ``log_metric`` / ``log_extra`` (see
    `SketchToolEnv.metrics`). It returns ``None`` per rollout, which TRL leaves out of the
    reward sum, so adding it to ``reward_funcs`` changes no reward; TRL's own
    ``rewards/sketch_tool_metrics/mean`` column is therefore NaN.

    Args:
        env_class: The environment class whose episodes it reads (other environments in the
            batch are skipped).
    """

    __name__ = "sketch_tool_metrics"

    def __init__(self, env_class: type[SketchToolEnv]) -> None:
        self.env_class = env_class
        #: The last batch's episodes, each a tuple of its renders in order.
        self.last_episodes: list[tuple[Rollout, ...]] = []

    def __call__(
        self,
        prompts: Sequence[Any] | None = None,
        completions: Sequence[Any] = (),
        environments: Sequence[Any] | None = None,
        log_metric: Callable[[str, float], None] | None = None,
        log_extra: Callable[[str, list[Any]], None] | None = None,
        **kwargs: Any,
    ) -> list[float | None]:
        """Logs the batch's metrics.

        Args:
            prompts: The prompts (unused).
            completions: The completions (only their number is used).
            environments: The batch's environments, one per completion (TRL passes them).
            log_metric: TRL's ``log_metric`` callback.
            log_extra: TRL's ``log_extra`` callback.
            **kwargs: Other reward-function arguments (ignored).

        Returns:
            ``None`` for every completion.
        """
        envs = [e for e in environments or () if isinstance(e, self.env_class)]
        episodes = [e.episode for e in envs]
        self.last_episodes = episodes
        last = [episode[-1] for episode in episodes if episode]
        if log_metric is not None:
            metrics = {**batch_metrics(last), **revision_metrics(episodes)} if envs else {}
            for name, value in metrics.items():
                log_metric(name, value)
        if log_extra is not None and envs:
            log_extra(f"{METRIC_PREFIX}_status", [_status(e) for e in episodes])
            log_extra(f"{METRIC_PREFIX}_renders", [len(e) for e in episodes])
        size = len(environments) if environments is not None else len(completions)
        return [None] * size


def _status(episode: tuple[Rollout, ...]) -> str:
    return episode[-1].status.value if episode else "no_render"
