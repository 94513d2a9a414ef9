"""`SketchEnvironment`: the OpenEnv ``Environment`` in which a policy paints with p5.brush code.

One episode is one task (a prompt) and up to ``max_steps`` sketches. Each step goes through the
shared `sketch_env.evaluation.Evaluator` (gate, render on the renderer's own event loop,
score, combine), so the environment holds no rendering or scoring logic of its own. With
``max_steps > 1`` each observation carries feedback (gate reasons, JavaScript errors, coverage,
score) for the next revision, and the episode's reward is the last or the best step's.

Seeds: ``reset(seed=s)`` chooses the task from ``s`` (`sketch_env.catalog.tasks.task_for_seed`) and
renders every step of the episode with seed ``s``, so revisions are compared on the same
randomness. A seed must be an integer in ``[0, 2**32)`` (the renderer's PRNG takes 32 bits; a
larger or negative seed would silently alias another one), else ``reset`` raises
`ValueError` with `sketch_env.render.base.check_seed`'s message: the renderer, the TRL
integration and the CLI apply the same check. ``seed=None``
draws a fresh seed and reports it in the observation, so the episode can be replayed.
"""

from __future__ import annotations

import asyncio
import base64
import io
import secrets
import threading
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.types import EnvironmentMetadata
from PIL import Image

from sketch_env.catalog.instructions import POLICY_INSTRUCTIONS, user_message
from sketch_env.catalog.tasks import Task, get_task, load_tasks, task_for_seed
from sketch_env.env.models import (
    MAX_IMAGE_SIDE,
    MIN_IMAGE_SIDE,
    RewardComponents,
    RewardPolicy,
    SketchAction,
    SketchObservation,
    SketchState,
    as_action,
    check_reward_policy,
)
from sketch_env.errors import SketchEnvError
from sketch_env.evaluation.config import EvaluationConfig
from sketch_env.evaluation.evaluator import Evaluator
from sketch_env.evaluation.rollout import Rollout, harness_notes, sketch_errors
from sketch_env.gate.verdict import GateConfig
from sketch_env.render.base import MAX_SEED, check_seed
from sketch_env.render.protocol import Renderer
from sketch_env.reward.config import RewardConfig
from sketch_env.reward.rubric import clear_scores, reward_rubric
from sketch_env.scoring.base import Scorer
from sketch_env.scoring.spec import DEFAULT_SCORER

__all__ = [
    "DEFAULT_IMAGE_SIZE",
    "FEEDBACK_MODES",
    "MAX_PROMPT_CHARS",
    "MAX_SEED",
    "REVISION_HINT",
    "EpisodeError",
    "SketchEnvironment",
    "check_image_size",
    "check_seed",
]

#: Longest free-form prompt accepted by ``reset(prompt=...)``.
MAX_PROMPT_CHARS = 4096
#: Side of the picture an observation carries by default: 256 px is about 81 image tokens for
#: a Qwen2.5-VL-style processor (28 px per merged patch) against about 441 at 600 px.
DEFAULT_IMAGE_SIZE = 256
#: The only split of the shipped task set (OpenEnv task API).
SPLIT = "train"
#: What the feedback a policy reads after a step holds: ``"report"`` (how the render went:
#: gate reasons, status, errors, coverage) or ``"critique"`` (what went wrong and what to
#: change, in words: `Rollout.critique`).
FEEDBACK_MODES = ("report", "critique")
#: Appended to the feedback while revisions remain (``{remaining}`` is filled in).
REVISION_HINT = "You may revise {remaining} more time(s): reply with the whole revised sketch."


class EpisodeError(SketchEnvError, RuntimeError):
    """A step that the episode cannot take: before ``reset``, after ``done``, or after
    ``close``, or while another step of the same session is still running."""


class SketchEnvironment(Environment[SketchAction, SketchObservation, SketchState]):
    """OpenEnv environment: write a p5.brush sketch for a prompt, get it rendered and scored.

    Construction is cheap (no browser starts until the first step), so the OpenEnv server can
    build one per session. ``close()`` ends the session; it never closes the renderer, which is
    shared (the process-wide pool by default) or owned by whoever passed it in.

    Args:
        renderer: The renderer (a `Renderer`, or a spec such as ``"ray://auto"``); the
            process-wide shared one when ``None``.
        scorer: A `Scorer` or a spec string (``"vision"``, the default;
            ``"hpsv3+http://host:port"``).
        reward_config: Reward weights and thresholds.
        gate_config: Which gate rules apply.
        max_steps: Sketches allowed per episode (1 = single turn).
        reward_policy: ``"last"`` (the episode's reward is the last step's) or ``"best"``.
        include_image: Put the rendered picture (base64 PNG) in every step observation.
        include_timings: Put the render's wall-clock timings and the harness's notes in every
            step observation (a step can also ask with ``SketchAction.include_timings``). Off by
            default: they differ on every replay, and without them an observation is a function
            of (task, seed, action) on one GL backend. ``last_rollout`` always has them.
        image_size: ``(width, height)`` of that picture, or one side for a square; the canvas
            is resized to it (`Render.image`), so the observation's PNG and the gymnasium
            adapter's array hold the same pixels. Each side at most 1024 px; 256 by default,
            which a vision-language policy reads cheaply (the canvas is 600x600).
        tasks: The task set: tasks, a JSON file, or ``None`` for the shipped 24.
        evaluator: An `Evaluator` to share between environments (then ``renderer``,
            ``scorer``, ``reward_config``, ``gate_config`` and ``config`` must be left unset).
        instructions: The policy's system prompt, returned by ``reset``.
        config: Renderer, scorer, render limits, gate and reward in one `EvaluationConfig`
            (instead of the four separate arguments).
        feedback: What the feedback text holds (`FEEDBACK_MODES`): ``"report"`` or
            ``"critique"``.
        show_scores: Put the score and the reward in the feedback text. Off by default: a
            policy that reads its score learns the scorer rather than painting. The
            observation's reward fields are there either way (they are for the trainer).
        revision_hint: Appended to the feedback while revisions remain (``{remaining}`` is
            replaced by their number); ``None`` appends nothing.

    Raises:
        ValueError: On a bad ``max_steps``/``reward_policy``/``feedback``/``image_size``, a bad
            task file, or an ``evaluator`` given together with evaluator settings.

    Examples:
        >>> env = SketchEnvironment()  # doctest: +SKIP
        >>> obs = env.reset(seed=7)
        >>> obs = env.step(SketchAction(sketch=my_reply))
        >>> obs.reward, obs.components.coverage_term, obs.feedback
        >>> {name: r.contribution for name, r in env.rubric.named_rubrics()}  # the reward's parts
    """

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(
        self,
        renderer: Renderer | str | None = None,
        scorer: Scorer | str = DEFAULT_SCORER,
        reward_config: RewardConfig | None = None,
        gate_config: GateConfig | None = None,
        max_steps: int = 1,
        reward_policy: RewardPolicy = "last",
        include_image: bool = False,
        tasks: Sequence[Task] | str | Path | None = None,
        *,
        include_timings: bool = False,
        image_size: int | tuple[int, int] = DEFAULT_IMAGE_SIZE,
        evaluator: Evaluator | None = None,
        instructions: str = POLICY_INSTRUCTIONS,
        config: EvaluationConfig | None = None,
        feedback: str = "report",
        show_scores: bool = False,
        revision_hint: str | None = REVISION_HINT,
    ) -> None:
        # The reward's structure for OpenEnv's tooling: each step's contributions as a rubric
        # tree whose root is the step's reward (`sketch_env.reward.rubric`).
        super().__init__(rubric=reward_rubric())
        self._max_steps = _check_max_steps(max_steps)
        self._reward_policy = check_reward_policy(reward_policy)
        if feedback not in FEEDBACK_MODES:
            raise ValueError(f"feedback must be one of {FEEDBACK_MODES}, got {feedback!r}")
        self._feedback = feedback
        self._show_scores = bool(show_scores)
        self._revision_hint = revision_hint
        if evaluator is not None:
            if (
                renderer is not None
                or scorer != DEFAULT_SCORER
                or reward_config is not None
                or gate_config is not None
                or config is not None
            ):
                raise ValueError(
                    "pass either an evaluator or renderer/scorer/reward_config/gate_config/config"
                )
            self._evaluator = evaluator
        else:
            self._evaluator = Evaluator(
                renderer=renderer,
                scorer=scorer,
                reward_config=reward_config,
                gate_config=gate_config,
                config=config,
            )
        if tasks is None or isinstance(tasks, str | Path):
            self._tasks = load_tasks(tasks)
        else:
            self._tasks = tuple(tasks)
            if not self._tasks or not all(isinstance(t, Task) for t in self._tasks):
                raise ValueError("tasks must be a non-empty sequence of Task")
        self._include_image_default = bool(include_image)
        self._include_timings = bool(include_timings)
        self._image_size = check_image_size(image_size)
        self._instructions = instructions
        self._lock = threading.Lock()
        self._closed = False
        self._state = SketchState(max_steps=self._max_steps, reward_policy=self._reward_policy)
        self._task: Task | None = None
        self._include_image = self._include_image_default
        self._last_rollout: Rollout | None = None

    # ----------------------------------------------------------------- properties

    @property
    def state(self) -> SketchState:
        """The episode's state (a copy)."""
        return self._state.model_copy(deep=True)

    @property
    def evaluator(self) -> Evaluator:
        """The evaluator every step goes through."""
        return self._evaluator

    @property
    def tasks(self) -> tuple[Task, ...]:
        """The task set."""
        return self._tasks

    @property
    def task(self) -> Task | None:
        """The current episode's task (``None`` before reset or for a free-form prompt)."""
        return self._task

    @property
    def image_size(self) -> tuple[int, int]:
        """``(width, height)`` of the picture observations carry."""
        return self._image_size

    @property
    def last_rollout(self) -> Rollout | None:
        """The last step's full `Rollout` (render with PNG, gate verdict, score, reward)."""
        return self._last_rollout

    # ----------------------------------------------------------------- reset

    def reset(
        self,
        seed: int | None = None,
        episode_id: str | None = None,
        *,
        prompt: str | None = None,
        task_id: str | None = None,
        max_steps: int | None = None,
        include_image: bool | None = None,
        **kwargs: Any,
    ) -> SketchObservation:
        """Starts an episode.

        Args:
            seed: Chooses the task (unless ``task_id`` or ``prompt`` is given) and seeds every
                render; an integer in ``[0, 2**32)``, or ``None`` for a fresh random one.
            episode_id: An id for the episode; a random one when ``None``.
            prompt: A free-form scene to paint instead of a task.
            task_id: A task id such as ``"trees/pastel"``.
            max_steps: Override the environment's ``max_steps`` for this episode.
            include_image: Override whether step observations carry the PNG.
            **kwargs: Refused: unknown options are an error, not silently ignored.

        Returns:
            The first observation: the task, the prompt and the instructions.

        Raises:
            ValueError: On a bad seed, an unknown option, ``prompt`` together with
                ``task_id``, or an empty or overlong prompt.
            UnknownTaskError: On an unknown ``task_id`` (a `ValueError`).
            EpisodeError: If the environment was closed.
        """
        if self._closed:
            raise EpisodeError("this environment was closed; create a new one")
        if kwargs:
            raise ValueError(
                f"unknown reset options {sorted(kwargs)}; accepted: seed, episode_id, prompt, "
                "task_id, max_steps, include_image"
            )
        value = secrets.randbelow(MAX_SEED + 1) if seed is None else check_seed(seed)
        if prompt is not None and task_id is not None:
            raise ValueError("give either prompt or task_id, not both")
        if prompt is not None:
            if not isinstance(prompt, str) or not prompt.strip():
                raise ValueError("prompt must be a non-empty string")
            if len(prompt) > MAX_PROMPT_CHARS:
                raise ValueError(
                    f"prompt has {len(prompt)} characters; the limit is {MAX_PROMPT_CHARS}"
                )
            task = None
            text = prompt.strip()
        else:
            task = (
                get_task(task_id, self._tasks)
                if task_id is not None
                else task_for_seed(value, self._tasks)
            )
            text = task.prompt
        steps = self._max_steps if max_steps is None else _check_max_steps(max_steps)
        if episode_id is not None and (not isinstance(episode_id, str) or len(episode_id) > 255):
            raise ValueError("episode_id must be a string of at most 255 characters")
        with self._guard():
            self._task = task
            self._include_image = (
                self._include_image_default if include_image is None else bool(include_image)
            )
            self._last_rollout = None
            self._state = SketchState(
                episode_id=episode_id or uuid.uuid4().hex,
                step_count=0,
                task_id=task.id if task else None,
                prompt=text,
                seed=value,
                max_steps=steps,
                reward_policy=self._reward_policy,
            )
        return SketchObservation(
            done=False,
            reward=None,
            task_id=task.id if task else None,
            subject=task.subject if task else None,
            medium=task.medium if task else None,
            prompt=text,
            instructions=self._instructions,
            seed=value,
            step=0,
            max_steps=steps,
            reward_policy=self._reward_policy,
            feedback=user_message(text),
        )

    # ----------------------------------------------------------------- step

    def step(
        self,
        action: SketchAction | str | dict[str, Any],
        timeout_s: float | None = None,
        **kwargs: Any,
    ) -> SketchObservation:
        """Renders and scores one sketch (blocking; also works inside a running event loop).

        The work runs on the renderer's own loop thread; this call waits for it.

        Args:
            action: A `SketchAction`, or the reply text, or a dict of action fields.
            timeout_s: Give up waiting after this many seconds (`TimeoutError`; the step is
                not counted). The renderer's own deadline bounds a render in any case.
            **kwargs: Ignored (OpenEnv passes server options through).

        Returns:
            The observation with the reward, every component and the feedback.

        Raises:
            EpisodeError: Before ``reset``, after the episode is done, after ``close``, or
                while another step of this environment runs.
            pydantic.ValidationError: If ``action`` is not a valid action.
            TimeoutError: If ``timeout_s`` passed first.
            RuntimeError: If called on the renderer's own loop thread (use `step_async`).
        """
        act = as_action(action, "SketchEnvironment.step()")
        with self._guard():
            self._check_can_step()
            try:
                (rollout,) = self._evaluator.evaluate_sync(
                    [act.sketch], [self._prompt()], [self._seed()], timeout_s=timeout_s
                )
            except TimeoutError:
                raise TimeoutError(f"the step took longer than timeout_s={timeout_s}") from None
            return self._advance(act, rollout)

    async def step_async(
        self,
        action: SketchAction | str | dict[str, Any],
        timeout_s: float | None = None,
        **kwargs: Any,
    ) -> SketchObservation:
        """Renders and scores one sketch without blocking the caller's event loop.

        Args:
            action: A `SketchAction`, or the reply text, or a dict of action fields.
            timeout_s: Give up after this many seconds (`TimeoutError`; the step is not
                counted).
            **kwargs: Ignored.

        Returns:
            The observation, as `step`.

        Raises:
            EpisodeError: As `step`.
            TimeoutError: If ``timeout_s`` passed first.
        """
        act = as_action(action, "SketchEnvironment.step_async()")
        with self._guard():
            self._check_can_step()
            work = self._evaluator.evaluate([act.sketch], [self._prompt()], [self._seed()])
            try:
                rollouts = await asyncio.wait_for(work, timeout_s)
            except TimeoutError:
                raise TimeoutError(f"the step took longer than timeout_s={timeout_s}") from None
            return self._advance(act, rollouts[0])

    # ----------------------------------------------------------------- episode bookkeeping

    def _guard(self) -> _NonBlockingLock:
        return _NonBlockingLock(self._lock)

    def _check_can_step(self) -> None:
        if self._closed:
            raise EpisodeError("this environment was closed; create a new one")
        if self._state.seed is None:
            raise EpisodeError("step() before reset(): call reset() to start an episode")
        if self._state.done:
            raise EpisodeError(
                f"the episode is done (after {self._state.step_count} step(s)); call reset() "
                "to start a new one"
            )

    def _prompt(self) -> str:
        return self._state.prompt or ""

    def _seed(self) -> int:
        return int(self._state.seed or 0)

    def _advance(self, action: SketchAction, rollout: Rollout) -> SketchObservation:
        state = self._state
        reward = rollout.reward.reward
        rewards = [*state.rewards, reward]
        valid = [r for r in rewards if r is not None]
        best = max(valid) if valid else None
        episode_reward = reward if self._reward_policy == "last" else best
        count = state.step_count + 1
        terminated = action.final or state.max_steps == 1
        truncated = not terminated and count >= state.max_steps
        done = terminated or truncated
        self._state = state.model_copy(
            update={
                "step_count": count,
                "done": done,
                "rewards": rewards,
                "last_reward": reward,
                "best_reward": best,
                "episode_reward": episode_reward,
            }
        )
        self._last_rollout = rollout
        include = self._include_image if action.include_image is None else action.include_image
        timings = (
            self._include_timings if action.include_timings is None else action.include_timings
        )
        observation = self._observation(
            rollout, done, terminated, truncated, episode_reward, best, include, timings
        )
        if self.rubric is not None:
            if reward is None:
                # No reward to attribute (an infrastructure failure): nothing stale is left.
                clear_scores(self.rubric)
            else:
                self._apply_rubric(action, observation)
        return observation

    def _observation(
        self,
        rollout: Rollout,
        done: bool,
        terminated: bool,
        truncated: bool,
        episode_reward: float | None,
        best: float | None,
        include_image: bool,
        include_timings: bool,
    ) -> SketchObservation:
        state = self._state
        render = rollout.render
        timed = render if include_timings else None
        task = self._task
        feedback = self.feedback_text(rollout)
        remaining = state.max_steps - state.step_count
        if not done and self._revision_hint:
            feedback += "\n" + self._revision_hint.format(remaining=remaining)
        image = rollout.image(self._image_size) if include_image else None
        picture = _png(image) if image is not None else None
        return SketchObservation(
            done=done,
            reward=episode_reward,
            task_id=task.id if task else None,
            subject=task.subject if task else None,
            medium=task.medium if task else None,
            prompt=state.prompt or "",
            seed=int(state.seed or 0),
            step=state.step_count,
            max_steps=state.max_steps,
            reward_policy=self._reward_policy,
            step_reward=rollout.reward.reward,
            best_reward=best,
            terminated=terminated,
            truncated=truncated,
            gate_passed=rollout.gate.passed,
            gate_reasons=rollout.gate.reasons,
            gate_codes=rollout.gate.codes,
            render_status=render.status.value if render is not None else None,
            js_errors=sketch_errors(render) if render is not None else [],
            coverage=render.paint_fraction if render is not None else None,
            elapsed_ms=timed.elapsed_ms if timed is not None else None,
            queue_ms=timed.queue_ms if timed is not None else None,
            render_ms=timed.render_ms if timed is not None else None,
            harness_notes=harness_notes(timed) if timed is not None else None,
            backend=render.backend if render is not None else None,
            width=render.width if render is not None else None,
            height=render.height if render is not None else None,
            scorer=rollout.scorer or None,
            score=rollout.score.value if rollout.score is not None else None,
            score_sigma=rollout.score.sigma if rollout.score is not None else None,
            components=RewardComponents.from_breakdown(rollout.reward),
            sketch_error=rollout.reward.sketch_error,
            infra_error=rollout.reward.infra_error,
            feedback=feedback,
            image_png_b64=base64.b64encode(picture).decode("ascii") if picture else None,
            image_width=self._image_size[0] if picture else None,
            image_height=self._image_size[1] if picture else None,
        )

    # ----------------------------------------------------------------- lifecycle and metadata

    def feedback_text(self, rollout: Rollout) -> str:
        """The text a policy reads about one rollout, under this environment's feedback policy
        (``feedback`` mode; the score and reward only with ``show_scores``).

        Args:
            rollout: A step's rollout.

        Returns:
            The report or critique.
        """
        if self._feedback == "critique":
            text = rollout.critique(self._evaluator.reward_config)
            if self._show_scores and rollout.reward.reward is not None:
                text += f"\nReward: {rollout.reward.reward:.3f}."
            return text
        return rollout.feedback(scores=self._show_scores)

    def close(self) -> None:
        """Ends the session. The renderer (shared, or the caller's) stays open."""
        self._closed = True
        self._last_rollout = None

    def get_metadata(self) -> EnvironmentMetadata:
        """Name, description and version for ``GET /metadata``."""
        from sketch_env import __version__

        return EnvironmentMetadata(
            name="sketch_env",
            description=(
                "A policy writes p5.js + p5.brush sketches for painting prompts; they are "
                "rendered in headless Chromium and scored by how typical they are of the "
                "task's reference paintings (embedded), a preference model (HPSv3) or a "
                "vision-language judge, plus paint coverage, guards and a gate."
            ),
            version=__version__,
            author="sketch_env authors",
        )

    # OpenEnv task API (served under /{env_name}/splits, /tasks, ...).

    def list_splits(self) -> list[str]:
        """The task splits: one, ``"train"``, holding every task."""
        return [SPLIT]

    def list_tasks(self, split: str) -> list[dict[str, str]]:
        """Every task of a split, as dicts.

        Raises:
            ValueError: On an unknown split.
        """
        _check_split(split)
        return [t.to_dict() for t in self._tasks]

    def num_tasks(self, split: str) -> int:
        """The number of tasks in a split."""
        _check_split(split)
        return len(self._tasks)

    def get_task(self, split: str, index: int) -> dict[str, str]:
        """One task by index (pass its ``id`` as ``reset(task_id=...)``).

        Raises:
            IndexError: If ``index`` is out of range.
        """
        _check_split(split)
        if not 0 <= index < len(self._tasks):
            raise IndexError(f"task index {index} out of range [0, {len(self._tasks)})")
        return self._tasks[index].to_dict()

    def get_task_range(
        self, split: str, start: int | None = None, stop: int | None = None
    ) -> list[dict[str, str]]:
        """Tasks ``[start, stop)`` of a split."""
        _check_split(split)
        return [t.to_dict() for t in self._tasks[start:stop]]


class _NonBlockingLock:
    """Holds a session's lock for one call; a second concurrent call is an `EpisodeError`."""

    def __init__(self, lock: threading.Lock) -> None:
        self._lock = lock

    def __enter__(self) -> None:
        if not self._lock.acquire(blocking=False):
            raise EpisodeError(
                "another reset() or step() of this session is still running; one session runs "
                "one call at a time (open another session for concurrency)"
            )

    def __exit__(self, *exc: object) -> None:
        self._lock.release()


def check_image_size(size: Any) -> tuple[int, int]:
    """Validates the size of the picture a policy is shown: the one rule every front end
    applies (observations, the gymnasium adapter, the TRL tool).

    Args:
        size: One side (a square) or ``(width, height)``.

    Returns:
        ``(width, height)``.

    Raises:
        ValueError: Unless every side is an integer in ``[16, 1024]``.
    """
    sides = (size, size) if not isinstance(size, tuple | list) else tuple(size)
    if len(sides) != 2 or not all(
        isinstance(v, int) and not isinstance(v, bool) and MIN_IMAGE_SIDE <= v <= MAX_IMAGE_SIDE
        for v in sides
    ):
        raise ValueError(
            f"image_size must be one side or (width, height), each an integer in "
            f"[{MIN_IMAGE_SIDE}, {MAX_IMAGE_SIDE}], got {size!r}"
        )
    return int(sides[0]), int(sides[1])


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _check_max_steps(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 64:
        raise ValueError(f"max_steps must be an integer in [1, 64], got {value!r}")
    return value


def _check_split(split: str) -> None:
    if split != SPLIT:
        raise ValueError(f"unknown split {split!r}; the only split is {SPLIT!r}")
