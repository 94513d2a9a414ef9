"""`SketchReward`, the reward function TRL calls, and the components it can return."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Self

from sketch_env.evaluation.cache import EvaluationKey, SketchEvaluation
from sketch_env.evaluation.rollout import Rollout
from sketch_env.trl.artifacts import ArtifactConfig, ArtifactWriter
from sketch_env.trl.metrics import METRIC_PREFIX, log_batch

__all__ = ["COMPONENTS", "AsyncSketchReward", "SketchReward"]

logger = logging.getLogger(__name__)


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
        "the preference term (the scorer's value: vision 0-10, HPSv3 mu); 0 when there was "
        "no picture",
    ),
}


class _BatchReward:
    """What `SketchReward` and `AsyncSketchReward` share: everything but calling."""

    def __init__(
        self,
        evaluation: SketchEvaluation | None = None,
        *,
        component: str = "reward",
        name: str | None = None,
        log: bool = True,
        artifacts: ArtifactConfig | ArtifactWriter | str | Path | None = None,
        group_size: int | None = None,
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
        self.artifacts = (
            artifacts
            if artifacts is None or isinstance(artifacts, ArtifactWriter)
            else ArtifactWriter(artifacts)
        )
        self._batches = 0
        if group_size is not None and group_size < 1:
            raise ValueError(f"group_size must be at least 1, got {group_size}")
        self.group_size = group_size
        default_name = "sketch_reward" if component == "reward" else f"sketch_{component}"
        self.__name__ = name or default_name
        self.last_rollouts: list[Rollout] = []

    def __repr__(self) -> str:
        kind = type(self).__name__
        return f"{kind}(component={self.component_name!r}, name={self.__name__!r})"

    def __getstate__(self) -> dict[str, Any]:
        # Pickled for a spawned reward process (TRL 1.16's AsyncGRPOTrainer): the evaluation
        # travels as its arguments and is rebuilt there; the last batch's rollouts stay here.
        state = dict(self.__dict__)
        state["last_rollouts"] = []
        return state

    def component(self, component: str, name: str | None = None) -> Self:
        """Returns a reward function for another component over the same evaluation.

        Args:
            component: A key of `COMPONENTS`.
            name: Its logged name; ``"sketch_<component>"`` by default.

        Returns:
            A reward function of the same kind (sync or async) sharing this one's cache: no
            extra renders.
        """
        return type(self)(
            self.evaluation,
            component=component,
            name=name,
            log=self.log,
            artifacts=self.artifacts,
            group_size=self.group_size,
        )

    def components(self, *names: str) -> list[Self]:
        """Reward functions for several components over the same evaluation.

        Args:
            *names: Keys of `COMPONENTS`; all of them (combined reward first) when empty.

        Returns:
            One reward function per name (this object itself for its own component).
        """
        wanted = names or tuple(COMPONENTS)
        return [self if n == self.component_name else self.component(n) for n in wanted]

    def _prepare(
        self,
        prompts: Sequence[Any] | None,
        completions: Sequence[Any],
        kwargs: dict[str, Any],
    ) -> tuple[list[EvaluationKey], Any]:
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

    def _finish(
        self, rollouts: list[Rollout], marker: Any, kwargs: dict[str, Any]
    ) -> list[float | None]:
        self.last_rollouts = rollouts
        groups: list[Any] = (
            [i // self.group_size for i in range(len(rollouts))]
            if self.group_size is not None
            else [(r.prompt, r.seed) for r in rollouts]
        )
        columns: dict[str, list[Any]] = {}
        if self.artifacts is not None and self.evaluation.first_time(("artifacts", marker)):
            step = marker[0]
            if step is None:  # Called outside a trainer: number the batches instead.
                step, self._batches = self._batches, self._batches + 1
            paths = self.artifacts.add(step, rollouts, groups, kwargs.get("task_id"))
            columns[f"{METRIC_PREFIX}_image"] = [path or "" for path in paths]
        self._warn_unscored(rollouts, marker)
        if self.log:
            log_batch(
                self.evaluation,
                marker,
                rollouts,
                kwargs.get("log_metric"),
                kwargs.get("log_extra"),
                groups=groups,
                columns=columns,
            )
        return [self._read(r) for r in rollouts]

    def _warn_unscored(self, rollouts: Sequence[Rollout], marker: Any) -> None:
        # A dead scorer otherwise shows only as a metric that nobody reads until the run is
        # wasted: say it once per batch (reward functions sharing the evaluation share the
        # marker), with the first error verbatim, since it carries the fix.
        failed = [r for r in rollouts if r.reward.reward is None]
        if not failed or not self.evaluation.first_time(("unscored", marker)):
            return
        first = failed[0].reward.infra_error or f"render {failed[0].status.value}"
        logger.warning(
            "%d of %d completions were not scored (an infrastructure failure, not the "
            "policy's: their reward is None, which GRPO leaves out of the loss); first error: "
            "%s. Check the scorer and the browsers with `sketch-env doctor`",
            len(failed),
            len(rollouts),
            first,
        )


class SketchReward(_BatchReward):
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
        artifacts: Write each logged step's pictures, sketches and components to a folder
            (an `ArtifactConfig`, or just the directory: every step, at most 16 per step);
            ``sketch-env gallery DIR`` then shows them. A few pictures per step also go to an
            active Weights & Biases or trackio run, and each picture's path to TRL's
            completions table (column ``sketch_image``).
        group_size: GRPO's ``num_generations``: TRL orders a batch group by group, so
            completions ``k*n .. k*n+n-1`` are one group. When ``None``, completions of the same
            scene and seed are grouped (two groups of one task in a batch then merge). Used by
            the per-group metrics and the artifacts' group numbers.
        **evaluation_args: Passed to `SketchEvaluation` (``config``, an `EvaluationConfig`;
            or ``scorer``, ``renderer``, ``reward_config``, ``gate_config``; and ``seed``,
            ``tasks``...).

    Returns:
        Calling it returns one ``float | None`` per completion. A batch with completions left
        unscored (``None``) also logs one warning through `logging` (logger
        ``sketch_env.trl.rewards``), with their count and the first error.

    Raises:
        ValueError: On an unknown component, or both ``evaluation`` and ``evaluation_args``.

    It pickles (the evaluation is rebuilt lazily where it lands), so TRL can hand it to a
    spawned reward process.

    Calling it blocks until the batch is scored, which every TRL version accepts. TRL 1.16
    awaits a reward function whose ``__call__`` is a coroutine function, all such functions of
    a batch together: `async_reward` gives that view (`AsyncSketchReward`), so the batch renders
    while the trainer's other async reward functions run.

    Examples:
        ```python
        reward = SketchReward()  # the vision scorer; or scorer="hpsv3+http://HOST:PORT"
        coverage, gate = reward.component("coverage"), reward.component("gate")
        trainer = GRPOTrainer(..., reward_funcs=[reward, coverage, gate],
                              args=GRPOConfig(reward_weights=[1.0, 0.5, 0.5], ...))
        # TRL 1.16: awaited, concurrently with other async reward functions
        trainer = GRPOTrainer(..., reward_funcs=[reward.async_reward(), my_async_judge])
        ```
    """

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

    def async_reward(self) -> AsyncSketchReward:
        """The same reward function, awaited: for TRL 1.16 and later.

        Returns:
            An `AsyncSketchReward` with this one's component, name, logging, artifacts and
            group size, over the same evaluation (its cache too: using both costs no extra
            renders).
        """
        return AsyncSketchReward(
            self.evaluation,
            component=self.component_name,
            name=self.__name__,
            log=self.log,
            artifacts=self.artifacts,
            group_size=self.group_size,
        )


class AsyncSketchReward(_BatchReward):
    """`SketchReward` with a coroutine ``__call__``, which TRL 1.16 awaits.

    TRL (``trl.trainer.utils.is_async_callable``) awaits every reward function whose
    ``__call__`` is a coroutine function, all of a batch's together on its own event loop
    (after the synchronous ones): the batch renders and scores on the renderer's loop while the
    trainer's other async reward functions (a judge, a remote model) do their own waiting.
    Older TRL calls reward functions without awaiting them, so this is a separate class, not a
    flag: keep `SketchReward` there. Build it with the same arguments as `SketchReward`, or with
    ``SketchReward(...).async_reward()``.

    Examples:
        ```python
        reward = SketchReward(scorer="hpsv3+http://gpu-box:8765").async_reward()
        coverage = reward.component("coverage")  # async too, same evaluation
        trainer = GRPOTrainer(..., reward_funcs=[reward, coverage, my_async_judge])
        ```
    """

    async def __call__(
        self,
        prompts: Sequence[Any] | None = None,
        completions: Sequence[Any] = (),
        **kwargs: Any,
    ) -> list[float | None]:
        """Scores a batch of completions without blocking the caller's event loop.

        Args:
            prompts: The prompts, one per completion (plain text or chat messages).
            completions: The completions (plain text or chat messages).
            **kwargs: Dataset columns and TRL's callbacks, as `SketchReward` reads them.

        Returns:
            One value per completion; ``None`` where the infrastructure failed.
        """
        keys, marker = self._prepare(prompts, completions, kwargs)
        # Submitting starts the browsers on the first call (seconds of launching): a thread,
        # so that the trainer's loop keeps running the other reward functions meanwhile.
        futures = await asyncio.to_thread(self.evaluation.submit, keys)
        rollouts = list(await asyncio.gather(*(asyncio.wrap_future(f) for f in futures)))
        # Writing the artifacts' files and logging: off the loop as well.
        return await asyncio.to_thread(self._finish, rollouts, marker, kwargs)

    def sync_reward(self) -> SketchReward:
        """The same reward function, called without awaiting: for TRL before 1.16.

        Returns:
            A `SketchReward` over the same evaluation and settings.
        """
        return SketchReward(
            self.evaluation,
            component=self.component_name,
            name=self.__name__,
            log=self.log,
            artifacts=self.artifacts,
            group_size=self.group_size,
        )
