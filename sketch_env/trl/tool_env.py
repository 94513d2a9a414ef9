"""`SketchToolEnv`: an ``environment_factory`` for TRL: the policy paints, looks and revises.

It is a thin adapter over `SketchEnvironment`, which owns everything an episode is: prompt and
seed resolution, the step limit, the feedback policy (score and reward hidden unless
``show_scores``), the picture sizes and the episode reward. The adapter only translates TRL's
calls (``reset(**row)``, the ``render`` tool, ``get_reward``) into the environment's.
"""

from __future__ import annotations

import copyreg
import threading
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from sketch_env.env.environment import FEEDBACK_MODES, SketchEnvironment, check_image_size
from sketch_env.env.models import SketchAction
from sketch_env.evaluation.config import EvaluationConfig
from sketch_env.evaluation.evaluator import Evaluator
from sketch_env.evaluation.replies import resolve_prompt
from sketch_env.evaluation.rollout import Rollout
from sketch_env.gate.verdict import GateConfig
from sketch_env.render.protocol import Renderer
from sketch_env.reward.config import RewardConfig
from sketch_env.scoring.base import Scorer
from sketch_env.scoring.spec import DEFAULT_SCORER
from sketch_env.trl.artifacts import ArtifactConfig, ArtifactWriter
from sketch_env.trl.metrics import METRIC_PREFIX, batch_metrics, revision_metrics

__all__ = ["FEEDBACK_MODES", "SketchToolEnv", "ToolMetrics"]

_SETTINGS = frozenset(
    {
        "config",
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
#: What the tool says while renders remain (the environment's revision hint, for a tool).
_RENDERS_LEFT = "You may call render {remaining} more time(s); the last sketch rendered is scored."


class _Configured(type):
    """The metaclass of `SketchToolEnv`: classes made by `SketchToolEnv.configured` pickle as
    "the base class configured with these settings" (TRL 1.16's AsyncGRPOTrainer sends the
    environment factory to a spawned process; a class made at run time has no importable name
    of its own)."""


def _rebuild(base: type[SketchToolEnv], settings: dict[str, Any]) -> type[SketchToolEnv]:
    return base.configured(**settings)


def _reduce_class(cls: Any) -> Any:
    settings = cls.__dict__.get("_settings")
    if settings is None:
        # A class defined in a module (SketchToolEnv itself, a user's subclass): by name.
        return cls.__qualname__
    return _rebuild, (cls.__mro__[1], dict(settings))


copyreg.pickle(_Configured, _reduce_class)


class SketchToolEnv(metaclass=_Configured):
    """An ``environment_factory`` class for `trl.GRPOTrainer`: paint, look, revise.

    TRL makes one instance per rollout, calls `reset` with the dataset row, exposes `render`
    to the policy as a tool, and calls `get_reward` when the rollout ends: the reward of the
    **last** sketch rendered. A policy that never calls `render` gets the gate-failure reward.

    Each instance plays a `SketchEnvironment` episode of up to ``max_renders`` steps; the tool
    answers with that environment's feedback (a report or a critique; never the score unless
    ``show_scores``) and, with ``images``, the picture itself for a vision-language policy.
    Pass `metrics` in ``reward_funcs`` to log the ``sketch/*`` and ``sketch/revision/*``
    metrics.

    Configure it by subclassing, or with `configured`: the constructor takes no arguments
    because TRL calls it without any. All instances of a configuration share one `Evaluator`
    (one renderer, one scorer client). Configured classes and their instances pickle (the
    evaluator is rebuilt on first use in the receiving process).

    Examples:
        ```python
        env_cls = SketchToolEnv.configured(scorer="hpsv3+http://gpu-box:8765", images=True)
        trainer = GRPOTrainer(model=vlm, processing_class=processor,
                              reward_funcs=[env_cls.metrics()], train_dataset=make_dataset(),
                              environment_factory=env_cls, args=GRPOConfig(...))
        ```
    """

    #: Renderer, scorer, render limits, gate and reward in one `EvaluationConfig`; when set,
    #: ``scorer``, ``reward_config``, ``gate_config`` and ``renderer`` must stay unset.
    config: EvaluationConfig | None = None
    #: Scorer spec used by this class's shared evaluation.
    scorer: Scorer | str = DEFAULT_SCORER
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
    #: Side of the square picture the policy sees, in pixels (`check_image_size`'s rule). The
    #: canvas is 600x600; 256 px costs a Qwen2.5-VL-style processor (28 px per merged patch)
    #: about 81 image tokens per render instead of about 441.
    image_size: int = 256
    #: ``"report"`` or ``"critique"`` (`SketchEnvironment`'s feedback modes).
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

    _evaluators: ClassVar[dict[type, Evaluator]] = {}
    _writers: ClassVar[dict[type, ArtifactWriter]] = {}
    _shared_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self) -> None:
        self._env: SketchEnvironment | None = None
        self._episode: list[Rollout] = []
        self._round = -1
        self._saved_round = -2
        self._task_id: str | None = None

    def __getstate__(self) -> dict[str, Any]:
        # The environment holds the shared evaluator (a renderer on its own thread): never
        # pickled; a fresh one is made on first use.
        state = dict(self.__dict__)
        state["_env"] = None
        return state

    @classmethod
    def configured(cls, **settings: Any) -> type[SketchToolEnv]:
        """Returns a subclass with other settings, to pass as ``environment_factory``.

        Args:
            **settings: Class attributes to override (``config``, ``scorer``,
                ``reward_config``, ``gate_config``, ``renderer``, ``seed``, ``max_renders``,
                ``images``, ``image_size``, ``feedback``, ``show_scores``, ``instructions``,
                ``artifacts``).

        Returns:
            The subclass (picklable when its settings are).

        Raises:
            AttributeError: For a name that is not a setting.
            ValueError: For a bad ``max_renders``, ``image_size``, ``feedback`` or ``seed``, or
                ``config`` together with the settings it holds.
        """
        unknown = sorted(set(settings) - _SETTINGS)
        if unknown:
            raise AttributeError(
                f"unknown SketchToolEnv settings {unknown}; known: {sorted(_SETTINGS)}"
            )
        merged = {name: getattr(cls, name) for name in _SETTINGS} | settings
        max_renders = merged["max_renders"]
        if isinstance(max_renders, bool) or not isinstance(max_renders, int) or max_renders < 1:
            raise ValueError(f"max_renders must be a positive integer, got {max_renders!r}")
        if not isinstance(merged["image_size"], int):
            raise ValueError(f"image_size must be an integer, got {merged['image_size']!r}")
        check_image_size(merged["image_size"])
        if merged["feedback"] not in FEEDBACK_MODES:
            raise ValueError(
                f"feedback must be one of {FEEDBACK_MODES}, got {merged['feedback']!r}"
            )
        if merged["config"] is not None and any(
            merged[name] != getattr(SketchToolEnv, name)
            for name in ("scorer", "reward_config", "gate_config", "renderer")
        ):
            raise ValueError("give either config or scorer/reward_config/gate_config/renderer")
        body = dict(settings)
        body["_settings"] = dict(getattr(cls, "_settings", {})) | settings
        base = cls.__mro__[1] if "_settings" in cls.__dict__ else cls
        return type(cls.__name__, (base,), body)

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
    def evaluator(cls) -> Evaluator:
        """The `Evaluator` every instance of this configuration shares (built on first use)."""
        with cls._shared_lock:
            evaluator = cls._evaluators.get(cls)
            if evaluator is None:
                if cls.config is not None:
                    evaluator = Evaluator(config=cls.config)
                else:
                    evaluator = Evaluator(
                        cls.renderer, cls.scorer, cls.reward_config, cls.gate_config
                    )
                cls._evaluators[cls] = evaluator
            return evaluator

    def _environment(self) -> SketchEnvironment:
        if self._env is None:
            self._env = SketchEnvironment(
                evaluator=self.evaluator(),
                max_steps=self.max_renders,
                image_size=self.image_size,
                feedback=self.feedback,
                show_scores=self.show_scores,
                revision_hint=_RENDERS_LEFT,
            )
        return self._env

    def reset(self, **row: Any) -> str | None:
        """Starts a rollout for one dataset row.

        Args:
            **row: The row: ``prompt_text`` or ``task_id`` names the scene (else it is read
                from the ``prompt`` messages); ``seed`` sets the render seed.

        Returns:
            `instructions` (appended to the user's message by TRL), or ``None``.

        Raises:
            ValueError: If the row's seed is not valid (`sketch_env.render.base.check_seed`)
                or it names no scene.
        """
        env = self._environment()
        seed = row.get("seed")
        seed = self.seed if seed is None else seed
        task_id = row.get("task_id")
        prompt_text = row.get("prompt_text")
        if (
            isinstance(task_id, str)
            and task_id.strip()
            and not (isinstance(prompt_text, str) and prompt_text.strip())
        ):
            env.reset(seed=seed, task_id=task_id.strip())
        else:
            scene = resolve_prompt(prompt_text=prompt_text, chat_prompt=row.get("prompt"))
            env.reset(seed=seed, prompt=scene)
        self._episode = []
        # TRL keeps one instance per batch slot and resets it once per generation round.
        self._round += 1
        self._task_id = task_id
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
        env = self._environment()
        if len(self._episode) >= self.max_renders or env.state.done:
            return (
                f"No more renders in this episode (limit {self.max_renders}); the last "
                "sketch rendered is the one scored."
            )
        # A policy's tool call can carry any JSON value; only a string can be a sketch. Anything
        # else is rendered as nothing (the gate refuses it) and the answer says why.
        source = sketch if isinstance(sketch, str) else ""
        observation = env.step(SketchAction(sketch=source))
        rollout = env.last_rollout
        assert rollout is not None
        self._episode.append(rollout)
        text = observation.feedback
        if not isinstance(sketch, str):
            text = f"The `sketch` argument must be a string, got {type(sketch).__name__}.\n{text}"
        if not self.images:
            return text
        picture = rollout.image(self.image_size)
        if picture is None:
            return [{"type": "text", "text": f"{text}\n(No picture: nothing was painted.)"}]
        return [{"type": "image", "image": picture}, {"type": "text", "text": text}]

    def get_reward(self) -> float | None:
        """The reward of the last sketch rendered in this rollout.

        Returns:
            Its reward; the configured gate-failure reward when nothing was rendered; ``None``
            when the last render failed for infrastructure reasons.
        """
        if not self._episode:
            return self.evaluator().reward_config.gate_fail_reward
        last = self._episode[-1]
        if self.artifacts is not None and self._saved_round != self._round:
            self._saved_round = self._round
            self._writer().add(max(self._round, 0), [last], task_ids=[self._task_id])
        return last.reward.reward

    @classmethod
    def _writer(cls) -> ArtifactWriter:
        with cls._shared_lock:
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
