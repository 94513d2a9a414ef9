"""TRL integration: reward functions, an environment factory and a dataset for `GRPOTrainer`.

Everything here evaluates through `sketch_env.scoring.pipeline.Evaluator`, so a generation
batch (several GRPO groups of, typically, eight completions) is gated, rendered
**concurrently** across the shared browser pool and scored in one batch (DESIGN.md §6).

- `SketchReward` is the reward function: an object with a ``__name__`` that TRL calls with
  ``prompts``, ``completions``, every dataset column, ``trainer_state``, ``log_metric`` and
  ``log_extra``. It returns one ``float | None`` per completion (``None`` for an infrastructure
  failure, which TRL leaves out of the loss) and logs the reward's components.
- `coverage_reward`, `gate_reward`, `preference_reward` and `sketch_reward` are ready-made
  reward functions over one shared evaluation: weighting them with ``reward_weights`` renders
  each completion once, not once per function. `SketchReward.components` makes the same set
  for a non-default configuration.
- `SketchToolEnv` is an ``environment_factory`` class: the policy calls its ``render`` tool,
  reads the feedback, revises, and `SketchToolEnv.get_reward` scores the last sketch.
- `make_dataset` builds the prompts (one per task) in TRL's conversational format.

Nothing here imports ``trl`` or ``torch``; ``datasets`` is imported only by `make_dataset`.
Install the training stack with ``pip install torch==2.13.0`` first (a CPU build; an unpinned
torch pulls a multi-GB CUDA build), then ``pip install 'openenv-sketch-env[trl]'``.

Examples:
    ```python
    from trl import GRPOConfig, GRPOTrainer
    from sketch_env.trl import SketchReward, make_dataset

    reward = SketchReward(scorer="hpsv3+http://gpu-box:8765")
    trainer = GRPOTrainer(
        model="Qwen/Qwen2.5-0.5B-Instruct",
        reward_funcs=[reward],
        train_dataset=make_dataset(repeats=8),
        args=GRPOConfig(num_generations=8, max_completion_length=1024),
    )
    trainer.train()
    ```
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from sketch_env.env.tasks import POLICY_INSTRUCTIONS, Task, build_messages, get_task, load_tasks
from sketch_env.render import RenderStatus, SketchRenderer
from sketch_env.rollout.replies import completion_text, resolve_prompt
from sketch_env.scoring.base import Scorer
from sketch_env.scoring.gate import GateConfig
from sketch_env.scoring.pipeline import Evaluator, Rollout
from sketch_env.scoring.reward import RewardConfig

if TYPE_CHECKING:
    import datasets

__all__ = [
    "COMPONENTS",
    "SketchEvaluation",
    "SketchReward",
    "SketchToolEnv",
    "batch_metrics",
    "coverage_reward",
    "default_evaluation",
    "gate_reward",
    "make_dataset",
    "preference_reward",
    "rollout_status",
    "sketch_reward",
]

#: The install command quoted when the training stack is missing.
TRL_INSTALL_HINT = "pip install torch==2.13.0 && pip install 'openenv-sketch-env[trl]'"

#: Prefix of every metric logged through ``log_metric``.
METRIC_PREFIX = "sketch"

#: Render statuses counted as failures in the logged metrics.
_FAILURE_STATUSES = tuple(
    s for s in RenderStatus if s not in (RenderStatus.OK, RenderStatus.FRAME_CAPPED)
)

_Key = tuple[str, str, int]


def _reward_value(rollout: Rollout) -> float | None:
    return rollout.reward.reward


def _coverage_value(rollout: Rollout) -> float | None:
    breakdown = rollout.reward
    if breakdown.reward is None:
        return None
    # A refused or failed sketch painted nothing that counts: 0, the bottom of the term's range.
    return breakdown.coverage_term if breakdown.coverage_term is not None else 0.0


def _gate_value(rollout: Rollout) -> float | None:
    # The gate runs before anything can fail in the infrastructure, so it always has an answer.
    return 1.0 if rollout.gate.passed else 0.0


def _preference_value(rollout: Rollout) -> float | None:
    breakdown = rollout.reward
    if breakdown.reward is None:
        return None
    return breakdown.preference_term if breakdown.preference_term is not None else 0.0


#: Component name -> (how to read it off a `Rollout`, one-line description).
COMPONENTS: dict[str, tuple[Callable[[Rollout], float | None], str]] = {
    "reward": (_reward_value, "the combined reward (RewardConfig's formula)"),
    "coverage": (_coverage_value, "the paint-coverage term in [0, 1]; 0 when nothing ran"),
    "gate": (_gate_value, "1 when the sketch passed the gate, else 0"),
    "preference": (
        _preference_value,
        "the preference term (HPSv3 mu or the heuristic score); 0 when there was no picture",
    ),
}


class SketchEvaluation:
    """One evaluation per completion, shared by several reward functions.

    Results are cached by ``(reply text, prompt, seed)`` (most recent ``cache_size``), so
    reward functions that read different components of the same batch, or the same completion
    generated twice in a group, cost one render. Safe to use from several threads and event
    loops: concurrent callers asking for the same completion wait for one evaluation.

    Args:
        evaluator: The `Evaluator` to use; built from the other arguments when ``None``
            (lazily, on first use, so creating this object starts no browser).
        scorer: Scorer or scorer spec (``"heuristic"``, ``"hpsv3+http://host:port"``).
        renderer: Renderer; the process-wide shared one when ``None``.
        reward_config: Weights and thresholds of the reward.
        gate_config: Gate rules.
        seed: Render seed for completions whose dataset row has no ``seed`` column.
        tasks: The task set that ``task_id`` columns refer to; the shipped one when ``None``.
        cache_size: How many evaluated completions to keep.
    """

    def __init__(
        self,
        evaluator: Evaluator | None = None,
        *,
        scorer: Scorer | str = "heuristic",
        renderer: SketchRenderer | None = None,
        reward_config: RewardConfig | None = None,
        gate_config: GateConfig | None = None,
        seed: int = 0,
        tasks: Sequence[Task] | None = None,
        cache_size: int = 4096,
    ) -> None:
        if cache_size < 1:
            raise ValueError(f"cache_size must be at least 1, got {cache_size}")
        self._evaluator = evaluator
        self._evaluator_args = (renderer, scorer, reward_config, gate_config)
        self.seed = int(seed)
        self.tasks = tuple(tasks) if tasks is not None else None
        self.cache_size = cache_size
        self._cache: OrderedDict[_Key, concurrent.futures.Future[Rollout]] = OrderedDict()
        self._lock = threading.Lock()
        self._logged: OrderedDict[Any, None] = OrderedDict()
        self.evaluations = 0  # Evaluator calls made: how tests see that the cache works.

    @property
    def evaluator(self) -> Evaluator:
        """The `Evaluator` (created on first access)."""
        with self._lock:
            if self._evaluator is None:
                renderer, scorer, reward_config, gate_config = self._evaluator_args
                self._evaluator = Evaluator(renderer, scorer, reward_config, gate_config)
            return self._evaluator

    def keys(
        self,
        prompts: Sequence[Any],
        completions: Sequence[Any],
        *,
        task_id: Sequence[str | None] | None = None,
        prompt_text: Sequence[str | None] | None = None,
        seed: Sequence[int | None] | None = None,
    ) -> list[_Key]:
        """Works out what to render and score for each completion.

        Args:
            prompts: The prompts the policy saw (plain text or chat messages).
            completions: The completions (plain text or chat messages).
            task_id: The ``task_id`` dataset column, if any.
            prompt_text: The ``prompt_text`` dataset column, if any.
            seed: The ``seed`` dataset column, if any.

        Returns:
            ``(reply, scored prompt, seed)`` per completion.

        Raises:
            ValueError: If the columns' lengths differ or a completion has nothing to be scored
                against.
        """
        count = len(completions)
        for name, column in (
            ("prompts", prompts),
            ("task_id", task_id),
            ("prompt_text", prompt_text),
            ("seed", seed),
        ):
            if column is not None and len(column) != count:
                raise ValueError(f"{count} completions but {len(column)} values of {name}")
        keys = []
        for i in range(count):
            scene = resolve_prompt(
                prompt_text=prompt_text[i] if prompt_text is not None else None,
                task_id=task_id[i] if task_id is not None else None,
                chat_prompt=prompts[i] if prompts is not None else None,
                tasks=self.tasks,
            )
            row_seed = seed[i] if seed is not None and seed[i] is not None else self.seed
            keys.append((completion_text(completions[i]), scene, int(row_seed)))
        return keys

    def submit(self, keys: Sequence[_Key]) -> list[concurrent.futures.Future[Rollout]]:
        """Starts evaluating the keys not yet cached, all in one `Evaluator` batch.

        Blocks while the renderer starts (the first call launches the browsers).

        Args:
            keys: From `keys`.

        Returns:
            One future per key, in order.
        """
        futures: list[concurrent.futures.Future[Rollout]] = []
        missing: dict[_Key, concurrent.futures.Future[Rollout]] = {}
        with self._lock:
            for key in keys:
                future = self._cache.get(key)
                # A failed evaluation (the renderer could not start, say) is retried next time.
                if future is None or (future.done() and future.exception() is not None):
                    future = concurrent.futures.Future()
                    self._cache[key] = future
                    missing[key] = future
                self._cache.move_to_end(key)
                futures.append(future)
            while len(self._cache) > max(self.cache_size, len(keys)):
                self._cache.popitem(last=False)
        if missing:
            self._evaluate(missing)
        return futures

    def _evaluate(self, missing: dict[_Key, concurrent.futures.Future[Rollout]]) -> None:
        batch = list(missing)
        coro = None
        try:
            evaluator = self.evaluator
            coro = evaluator.evaluate(
                [k[0] for k in batch], [k[1] for k in batch], [k[2] for k in batch]
            )
            # On the renderer's own loop, so one batch never straddles two event loops.
            done = evaluator.renderer.run_coroutine(coro)
        except BaseException as exc:
            if coro is not None:
                coro.close()
            for future in missing.values():
                future.set_exception(exc)
            raise
        self.evaluations += 1

        def distribute(result: concurrent.futures.Future[list[Rollout]]) -> None:
            error = result.exception()
            for i, key in enumerate(batch):
                if error is not None:
                    missing[key].set_exception(error)
                else:
                    missing[key].set_result(result.result()[i])

        done.add_done_callback(distribute)

    def rollouts(self, keys: Sequence[_Key]) -> list[Rollout]:
        """Evaluates keys, blocking until every rollout is ready.

        Args:
            keys: From `keys`.

        Returns:
            One `Rollout` per key.
        """
        return [future.result() for future in self.submit(keys)]

    async def arollouts(self, keys: Sequence[_Key]) -> list[Rollout]:
        """Evaluates keys without blocking the running event loop.

        Args:
            keys: From `keys`.

        Returns:
            One `Rollout` per key.
        """
        futures = await asyncio.to_thread(self.submit, keys)
        return list(await asyncio.gather(*(asyncio.wrap_future(f) for f in futures)))

    def log_once(
        self,
        marker: Any,
        rollouts: Sequence[Rollout],
        log_metric: Callable[[str, float], None] | None,
        log_extra: Callable[[str, list], None] | None,
    ) -> bool:
        """Logs a batch's metrics unless another reward function already logged this batch.

        Args:
            marker: Identifies the batch (training step and completions).
            rollouts: The batch.
            log_metric: TRL's ``log_metric`` callback, if given.
            log_extra: TRL's ``log_extra`` callback, if given.

        Returns:
            Whether it logged.
        """
        with self._lock:
            if marker in self._logged:
                return False
            self._logged[marker] = None
            while len(self._logged) > 64:
                self._logged.popitem(last=False)
        if log_metric is not None:
            for name, value in batch_metrics(rollouts).items():
                log_metric(name, value)
        if log_extra is not None:
            log_extra(f"{METRIC_PREFIX}_status", [rollout_status(r) for r in rollouts])
            rewards = [r.reward.reward for r in rollouts]
            log_extra(f"{METRIC_PREFIX}_reward", [math.nan if v is None else v for v in rewards])
        return True


def rollout_status(rollout: Rollout) -> str:
    """One word for how a rollout ended, for tables and filters.

    Args:
        rollout: The rollout.

    Returns:
        ``"gate_failed"``, ``"infra_error"`` (a scorer failure on a good render), or the
        render's status (``"ok"``, ``"timeout"``, ``"js_error"``...).
    """
    if not rollout.gate.passed or rollout.render is None:
        return "gate_failed"
    if rollout.reward.infra_error and not rollout.render.status.is_infrastructure_failure:
        return "infra_error"
    return rollout.render.status.value


def batch_metrics(rollouts: Sequence[Rollout]) -> dict[str, float]:
    """The metrics logged for one batch.

    Args:
        rollouts: The batch.

    Returns:
        ``sketch/reward`` (mean over scored completions), ``sketch/coverage`` (mean paint
        fraction over rendered ones), ``sketch/gate_pass_rate``, ``sketch/preference`` (mean
        score over scored pictures), ``sketch/render_ms`` (mean render time),
        ``sketch/infra_failures`` and ``sketch/failures/<status>`` (counts, zeros included so
        that every logging step has the same columns). Means over an empty set are omitted.
    """

    def mean(values: list[float]) -> float | None:
        return math.fsum(values) / len(values) if values else None

    rendered = [r.render for r in rollouts if r.render is not None]
    rewards = [r.reward.reward for r in rollouts if r.reward.reward is not None]
    scores = [r.score.value for r in rollouts if r.score is not None]
    metrics: dict[str, float | None] = {
        f"{METRIC_PREFIX}/reward": mean(rewards),
        f"{METRIC_PREFIX}/coverage": mean([render.paint_fraction for render in rendered]),
        f"{METRIC_PREFIX}/gate_pass_rate": (
            sum(r.gate.passed for r in rollouts) / len(rollouts) if rollouts else None
        ),
        f"{METRIC_PREFIX}/preference": mean(scores),
        f"{METRIC_PREFIX}/render_ms": mean([render.elapsed_ms for render in rendered]),
        f"{METRIC_PREFIX}/infra_failures": float(len(rollouts) - len(rewards)),
    }
    statuses = Counter(rollout_status(r) for r in rollouts)
    for status in ("gate_failed", "infra_error", *(s.value for s in _FAILURE_STATUSES)):
        metrics[f"{METRIC_PREFIX}/failures/{status}"] = float(statuses.get(status, 0))
    return {name: value for name, value in metrics.items() if value is not None}


class SketchReward:
    """A reward function for `trl.GRPOTrainer` that paints, scores and logs.

    TRL calls it with the batch's ``prompts`` and ``completions`` (plain text or chat
    messages), every dataset column as a keyword argument, and its ``log_metric`` /
    ``log_extra`` callbacks. The picture is scored against, in order: the ``prompt_text``
    column, the prompt of the ``task_id`` column, or the scene in the chat prompt's last user
    message. A ``seed`` column sets the render seed per row. The whole batch is evaluated in one
    `Evaluator` call: rendered concurrently, scored in one batch.

    Args:
        evaluation: A `SketchEvaluation` to share with other reward functions; a new one is
            built from ``**evaluation_args`` when ``None``.
        component: Which number to return: ``"reward"`` (the combined reward) or another key
            of `COMPONENTS`.
        name: The function name TRL logs the reward under; ``"sketch_<component>"`` by default
            (``"sketch_reward"`` for the combined reward).
        log: Whether to log the batch's metrics (once per batch across functions sharing an
            evaluation).
        **evaluation_args: Passed to `SketchEvaluation` (``scorer``, ``renderer``,
            ``reward_config``, ``gate_config``, ``seed``, ``tasks``...).

    Returns:
        Calling it returns one ``float | None`` per completion.

    Raises:
        ValueError: On an unknown component, or both ``evaluation`` and ``evaluation_args``.

    Examples:
        ```python
        reward = SketchReward(scorer="heuristic")
        coverage, gate = reward.component("coverage"), reward.component("gate")
        trainer = GRPOTrainer(..., reward_funcs=[reward, coverage, gate],
                              args=GRPOConfig(reward_weights=[1.0, 0.5, 0.5], ...))
        ```
    """

    def __init__(
        self,
        evaluation: SketchEvaluation | None = None,
        *,
        component: str = "reward",
        name: str | None = None,
        log: bool = True,
        **evaluation_args: Any,
    ) -> None:
        if component not in COMPONENTS:
            raise ValueError(f"unknown component {component!r}; choose from {sorted(COMPONENTS)}")
        if evaluation is not None and evaluation_args:
            raise ValueError("give either an evaluation or the arguments to build one, not both")
        self.evaluation = evaluation or SketchEvaluation(**evaluation_args)
        self.component_name = component
        self._read = COMPONENTS[component][0]
        self.log = log
        default_name = "sketch_reward" if component == "reward" else f"sketch_{component}"
        self.__name__ = name or default_name
        self.last_rollouts: list[Rollout] = []

    def __repr__(self) -> str:
        return f"SketchReward(component={self.component_name!r}, name={self.__name__!r})"

    def component(self, component: str, name: str | None = None) -> SketchReward:
        """Returns a reward function for another component over the same evaluation.

        Args:
            component: A key of `COMPONENTS`.
            name: Its logged name; ``"sketch_<component>"`` by default.

        Returns:
            The new `SketchReward` (it shares this one's cache: no extra renders).
        """
        return SketchReward(self.evaluation, component=component, name=name, log=self.log)

    def components(self, *names: str) -> list[SketchReward]:
        """Reward functions for several components over the same evaluation.

        Args:
            *names: Keys of `COMPONENTS`; all of them (combined reward first) when empty.

        Returns:
            One `SketchReward` per name (this object itself for its own component).
        """
        wanted = names or tuple(COMPONENTS)
        return [self if n == self.component_name else self.component(n) for n in wanted]

    def _prepare(
        self,
        prompts: Sequence[Any] | None,
        completions: Sequence[Any],
        kwargs: dict[str, Any],
    ) -> tuple[list[_Key], Any]:
        keys = self.evaluation.keys(
            prompts if prompts is not None else [None] * len(completions),
            completions,
            task_id=kwargs.get("task_id"),
            prompt_text=kwargs.get("prompt_text"),
            seed=kwargs.get("seed"),
        )
        state = kwargs.get("trainer_state")
        marker = (getattr(state, "global_step", None), tuple(keys))
        return keys, marker

    def _finish(self, rollouts: list[Rollout], marker: Any, kwargs: dict[str, Any]) -> list:
        self.last_rollouts = rollouts
        if self.log:
            self.evaluation.log_once(
                marker, rollouts, kwargs.get("log_metric"), kwargs.get("log_extra")
            )
        return [self._read(r) for r in rollouts]

    def __call__(
        self,
        prompts: Sequence[Any] | None = None,
        completions: Sequence[Any] = (),
        **kwargs: Any,
    ) -> list[float | None]:
        """Scores a batch of completions (TRL's reward-function contract).

        Args:
            prompts: The prompts, one per completion (plain text or chat messages).
            completions: The completions (plain text or chat messages).
            **kwargs: Dataset columns (``task_id``, ``prompt_text``, ``seed`` are read) and
                TRL's ``trainer_state``, ``log_metric``, ``log_extra``, ``completion_ids``.

        Returns:
            One value per completion; ``None`` where the infrastructure failed.
        """
        keys, marker = self._prepare(prompts, completions, kwargs)
        return self._finish(self.evaluation.rollouts(keys), marker, kwargs)

    async def acall(
        self,
        prompts: Sequence[Any] | None = None,
        completions: Sequence[Any] = (),
        **kwargs: Any,
    ) -> list[float | None]:
        """`__call__` for async code: the same contract, without blocking the event loop."""
        keys, marker = self._prepare(prompts, completions, kwargs)
        return self._finish(await self.evaluation.arollouts(keys), marker, kwargs)


#: The evaluation behind the ready-made reward functions: heuristic scorer, shared renderer.
default_evaluation = SketchEvaluation()
#: The combined reward, over `default_evaluation`.
sketch_reward = SketchReward(default_evaluation)
#: The paint-coverage term, over `default_evaluation` (no extra renders).
coverage_reward = sketch_reward.component("coverage")
#: 1 when the sketch passed the gate, over `default_evaluation`.
gate_reward = sketch_reward.component("gate")
#: The preference term, over `default_evaluation`.
preference_reward = sketch_reward.component("preference")


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
    renderer: SketchRenderer | None = None
    #: Render seed when the dataset row has no ``seed``.
    seed: int = 0
    #: Renders allowed per rollout; later calls get an explanation instead of a render.
    max_renders: int = 4
    #: Appended to the user's message by `reset`; ``None`` appends nothing.
    instructions: str | None = (
        "You can call the `render` tool with a complete sketch to see how it renders and "
        "scores, then revise it. The last sketch you render is the one that is scored."
    )

    _evaluations: ClassVar[dict[type, SketchEvaluation]] = {}
    _evaluations_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self) -> None:
        self._prompt = ""
        self._seed = self.seed
        self._renders = 0
        self._last: Rollout | None = None

    @classmethod
    def configured(cls, **settings: Any) -> type[SketchToolEnv]:
        """Returns a subclass with other settings, to pass as ``environment_factory``.

        Args:
            **settings: Class attributes to override (``scorer``, ``reward_config``,
                ``gate_config``, ``renderer``, ``seed``, ``max_renders``, ``instructions``).

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
        """
        self._prompt = resolve_prompt(
            prompt_text=row.get("prompt_text"),
            task_id=row.get("task_id"),
            chat_prompt=row.get("prompt"),
        )
        seed = row.get("seed")
        self._seed = int(seed) if seed is not None else self.seed
        self._renders = 0
        self._last = None
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
        return self._last.reward.reward

    @property
    def last_rollout(self) -> Rollout | None:
        """The last `Rollout` of this episode (a property, so TRL does not expose it as a tool)."""
        return self._last


def make_dataset(
    tasks: Sequence[Task | str] | None = None,
    repeats: int = 1,
    system_prompt: bool | str = True,
) -> datasets.Dataset:
    """Builds a prompt dataset for `trl.GRPOTrainer` from the task set.

    Args:
        tasks: Tasks or task ids; the shipped 24 when ``None``.
        repeats: How many times the task list is repeated (rows are in task order, repeated).
        system_prompt: ``True`` puts the policy instructions
            (`sketch_env.env.tasks.POLICY_INSTRUCTIONS`) in a system message, a string uses
            that text instead, ``False`` leaves the system message out.

    Returns:
        A `datasets.Dataset` with columns ``prompt`` (chat messages, TRL's conversational
        format), ``task_id`` and ``prompt_text`` (the scene the picture is scored against).

    Raises:
        ImportError: If ``datasets`` is not installed (with the install command).
        ValueError: If ``repeats`` is below 1 or the task list is empty.
        sketch_env.env.tasks.UnknownTaskError: For an unknown task id.

    Examples:
        >>> ds = make_dataset(["flowers/watercolour"], repeats=2)  # doctest: +SKIP
        >>> ds[0]["task_id"], ds[0]["prompt"][-1]["role"]
        ('flowers/watercolour', 'user')
    """
    try:
        import datasets
    except ImportError as exc:
        raise ImportError(f"make_dataset needs the `datasets` package: {TRL_INSTALL_HINT}") from exc
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    chosen = [get_task(t) if isinstance(t, str) else t for t in (tasks or load_tasks())]
    if not chosen:
        raise ValueError("make_dataset needs at least one task")
    rows: dict[str, list[Any]] = {"prompt": [], "task_id": [], "prompt_text": []}
    for _ in range(repeats):
        for task in chosen:
            if system_prompt is False:
                messages = build_messages(task.prompt)[1:]
            else:
                text = POLICY_INSTRUCTIONS if system_prompt is True else str(system_prompt)
                messages = build_messages(task.prompt, text)
            rows["prompt"].append(messages)
            rows["task_id"].append(task.id)
            rows["prompt_text"].append(task.prompt)
    return datasets.Dataset.from_dict(rows)
