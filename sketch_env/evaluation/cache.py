"""`SketchEvaluation`: one evaluation per distinct completion, shared by several callers.

TRL calls every reward function on the same batch, and a GRPO group can hold the same
completion twice; the cache makes each distinct ``(reply, prompt, seed)`` cost one render, and
lets concurrent callers asking for the same key wait for one evaluation. It also reads the
shapes trainers hand over (chat messages, dataset columns) into those keys.
"""

from __future__ import annotations

import concurrent.futures
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from sketch_env.catalog.tasks import Task
from sketch_env.evaluation.config import EvaluationConfig
from sketch_env.evaluation.evaluator import Evaluator
from sketch_env.evaluation.replies import completion_text, resolve_prompt
from sketch_env.evaluation.rollout import Rollout
from sketch_env.gate.verdict import GateConfig
from sketch_env.render.base import check_seed
from sketch_env.render.protocol import Renderer
from sketch_env.reward.config import RewardConfig
from sketch_env.scoring.base import Scorer
from sketch_env.scoring.spec import DEFAULT_SCORER

__all__ = ["EvaluationKey", "SketchEvaluation"]

#: ``(reply text, prompt the picture is scored against, render seed)``.
EvaluationKey = tuple[str, str, int]


class SketchEvaluation:
    """One evaluation per completion, shared by several reward functions.

    Results are cached by ``(reply text, prompt, seed)`` (most recent ``cache_size``), so
    reward functions that read different components of the same batch, or the same completion
    generated twice in a group, cost one render. Safe to use from several threads and event
    loops: concurrent callers asking for the same completion wait for one evaluation.

    Pickles without its evaluator and cache (TRL 1.16's AsyncGRPOTrainer computes rewards in a
    spawned process): the receiving process builds a fresh `Evaluator` from the same
    arguments on first use. One given as a ready ``evaluator`` cannot travel that way; pass
    its ``config`` (or specs) instead.

    Args:
        evaluator: The `Evaluator` to use; built from the other arguments when ``None``
            (lazily, on first use, so creating this object starts no browser).
        config: Everything the evaluator is built from, in one `EvaluationConfig` (instead
            of ``scorer``, ``renderer``, ``reward_config`` and ``gate_config``).
        scorer: Scorer or scorer spec (``"vision"``, the default; ``"hpsv3+http://host:port"``).
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
        config: EvaluationConfig | None = None,
        scorer: Scorer | str = DEFAULT_SCORER,
        renderer: Renderer | str | None = None,
        reward_config: RewardConfig | None = None,
        gate_config: GateConfig | None = None,
        seed: int = 0,
        tasks: Sequence[Task] | None = None,
        cache_size: int = 4096,
    ) -> None:
        if cache_size < 1:
            raise ValueError(f"cache_size must be at least 1, got {cache_size}")
        given = (renderer, scorer, reward_config, gate_config) != (None, DEFAULT_SCORER, None, None)
        if (evaluator is not None or config is not None) and given:
            raise ValueError(
                "give an evaluator, or a config, or scorer/renderer/reward_config/gate_config"
            )
        if evaluator is not None and config is not None:
            raise ValueError("give either an evaluator or a config, not both")
        self._evaluator = evaluator
        self._given_evaluator = evaluator is not None
        self.config = config
        self._evaluator_args = (renderer, scorer, reward_config, gate_config)
        self.seed = check_seed(seed)
        self.tasks = tuple(tasks) if tasks is not None else None
        self.cache_size = cache_size
        self._cache: OrderedDict[EvaluationKey, concurrent.futures.Future[Rollout]] = OrderedDict()
        self._lock = threading.Lock()
        self._logged: OrderedDict[Any, None] = OrderedDict()
        self.evaluations = 0  # Evaluator calls made: how tests see that the cache works.

    @property
    def evaluator(self) -> Evaluator:
        """The `Evaluator` (created on first access)."""
        with self._lock:
            if self._evaluator is None:
                if self.config is not None:
                    self._evaluator = Evaluator(config=self.config)
                else:
                    renderer, scorer, reward_config, gate_config = self._evaluator_args
                    self._evaluator = Evaluator(renderer, scorer, reward_config, gate_config)
            return self._evaluator

    def __getstate__(self) -> dict[str, Any]:
        if self._given_evaluator:
            raise TypeError(
                "a SketchEvaluation built around a ready Evaluator cannot be pickled (its "
                "renderer runs on a thread of this process); build it from config=... or "
                "scorer=/renderer=/reward_config=/gate_config= instead"
            )
        state = dict(self.__dict__)
        state.update(_evaluator=None, _cache=OrderedDict(), _logged=OrderedDict(), _lock=None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def keys(
        self,
        prompts: Sequence[Any],
        completions: Sequence[Any],
        *,
        task_id: Sequence[str | None] | None = None,
        prompt_text: Sequence[str | None] | None = None,
        seed: Sequence[int | None] | None = None,
    ) -> list[EvaluationKey]:
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
            ValueError: If the columns' lengths differ, a seed is not valid
                (`sketch_env.render.base.check_seed`) or a completion has nothing to be scored
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
            given = seed[i] if seed is not None else None
            row_seed = self.seed if given is None else given
            keys.append((completion_text(completions[i]), scene, check_seed(row_seed)))
        return keys

    def submit(self, keys: Sequence[EvaluationKey]) -> list[concurrent.futures.Future[Rollout]]:
        """Starts evaluating the keys not yet cached, all in one `Evaluator` batch.

        Blocks while the renderer starts (the first call launches the browsers).

        Args:
            keys: From `keys`.

        Returns:
            One future per key, in order.
        """
        futures: list[concurrent.futures.Future[Rollout]] = []
        missing: dict[EvaluationKey, concurrent.futures.Future[Rollout]] = {}
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

    def _evaluate(self, missing: dict[EvaluationKey, concurrent.futures.Future[Rollout]]) -> None:
        batch = list(missing)
        try:
            done = self.evaluator.submit(
                [k[0] for k in batch], [k[1] for k in batch], [k[2] for k in batch]
            )
        except BaseException as exc:
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

    def rollouts(self, keys: Sequence[EvaluationKey]) -> list[Rollout]:
        """Evaluates keys, blocking until every rollout is ready.

        Args:
            keys: From `keys`.

        Returns:
            One `Rollout` per key.
        """
        return [future.result() for future in self.submit(keys)]

    def first_time(self, marker: Any) -> bool:
        """Whether ``marker`` (a batch's identity) is seen here for the first time.

        Reward functions sharing this evaluation are all called on the same batch; this lets
        exactly one of them log it. The most recent 64 markers are remembered.

        Args:
            marker: Identifies the batch (e.g. the training step and its completions).

        Returns:
            ``True`` the first time, ``False`` after.
        """
        with self._lock:
            if marker in self._logged:
                return False
            self._logged[marker] = None
            while len(self._logged) > 64:
                self._logged.popitem(last=False)
            return True
