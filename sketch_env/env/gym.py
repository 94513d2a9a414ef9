"""`SketchGymEnv`: a gymnasium ``Env`` over the same core as the OpenEnv environment.

``gymnasium.make("sketch_env/Sketch-v0")`` builds one (registered by ``import sketch_env``;
``gymnasium.make("sketch_env:sketch_env/Sketch-v0")`` imports the package first). The
action is the policy's text;
the observation is a ``Dict`` of the prompt, the picture as an ``(H, W, 3)`` ``uint8`` array
and a few scalars; the reward components go in ``info``.

Mapping from OpenEnv: ``terminated`` is true when the episode ended with a final sketch (every
single-turn step, or ``SketchAction.final``); ``truncated`` when a multi-turn episode ran out of
``max_steps`` first. The gymnasium reward of step *t* is the change in the episode reward
(``E_t - E_{t-1}``, with ``E_0 = 0`` and an infrastructure failure leaving ``E`` unchanged), so
the undiscounted return of an episode equals its reward under the ``last``/``best`` policy;
for one step it is simply the reward. ``info["reward_valid"]`` is false for an infrastructure
failure, whose reward (0 change) should be left out of training.

In gymnasium's vector environments (``gymnasium.make_vec``, sync or async) the prompt comes
back intact through the async workers' shared memory (`SharedTexts`); use
``vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP}``, since the default
``NEXT_STEP`` spends every other step of a one-step episode on a reset (docs/environment.md).
"""

from __future__ import annotations

import multiprocessing
import string
import warnings
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any, overload

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import (
    create_shared_memory,
    read_from_shared_memory,
    write_to_shared_memory,
)

from sketch_env import GYM_ENV_ID
from sketch_env.env.environment import MAX_PROMPT_CHARS, SketchEnvironment, check_image_size
from sketch_env.env.models import (
    MAX_ACTION_CHARS,
    RewardPolicy,
    SketchAction,
    SketchObservation,
    as_action,
)
from sketch_env.render.base import check_seed

__all__ = ["ENV_ID", "SharedTexts", "SketchGymEnv", "UnicodeText"]

#: The registered gymnasium id.
ENV_ID = GYM_ENV_ID

#: The observation's score is clipped to +-this. The heuristic scorer gives [0, 10]; HPSv3's
#: published model averages run from about -0.2 to 10.6, so 100 never clips a real score (the
#: unclipped value is in ``info["score"]``).
SCORE_BOUND = 100.0

#: Longest sample `UnicodeText.sample` draws by default: a random string is never a sketch, and
#: parsing 256 KiB of noise in the gate takes ~0.7 s, so samples stay short.
_SAMPLE_MAX_CHARS = 512


class UnicodeText(spaces.Text):
    """A ``Text`` space that contains any Python string up to ``max_length`` characters.

    gymnasium's ``Text`` checks every character against an explicit charset; a charset of all
    of Unicode would be a 1.1-million-entry set. Sketches contain arbitrary Unicode (comments,
    colour names, emoji), so `contains` accepts any ``str`` of the right length, while `sample`
    (which needs a finite charset) draws printable ASCII, at most 512 characters unless a
    length is given in ``mask``/``probability``.

    Args:
        max_length: Longest string, in characters.
        min_length: Shortest string.
        seed: Seed for sampling.
    """

    def __init__(self, max_length: int, *, min_length: int = 0, seed: Any = None) -> None:
        super().__init__(max_length, min_length=min_length, charset=string.printable, seed=seed)

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a ``str`` within the length bounds (any characters)."""
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        """A random printable-ASCII string (short unless a length is given)."""
        if mask is None and probability is None:
            high = min(self.max_length, max(self.min_length, _SAMPLE_MAX_CHARS))
            length = int(self.np_random.integers(self.min_length, high + 1))
            return super().sample(mask=(length, None))
        return super().sample(mask=mask, probability=probability)

    def __repr__(self) -> str:
        return f"UnicodeText({self.min_length}, {self.max_length})"


# gymnasium's AsyncVectorEnv passes observations through shared memory by default. Its
# ``Text`` support cannot work for a string: it reads the buffer once, when the vector env is
# built, into a tuple of immutable strings, so every later reset and step still shows that
# first read (zeros, i.e. ``max_length`` copies of the charset's first character, '0'). It
# also writes characters as indexes into the charset, and `UnicodeText`'s charset is only the
# sampling alphabet. The three functions are singledispatch hooks that gymnasium documents for
# custom spaces; registered for `UnicodeText` they store code points and read through a live
# view, so shared memory (the default) and ``shared_memory=False`` give the same strings.


class SharedTexts(Sequence[str]):
    """The strings of a shared-memory buffer of `UnicodeText` values, read when accessed.

    AsyncVectorEnv reads its observation buffer once and hands out a deep copy of that read
    after every reset and step; this view decodes the buffer as it is now, and deep-copies
    (or pickles) to a plain tuple of strings, the same value ``shared_memory=False`` gives.
    With ``AsyncVectorEnv(copy=False)`` the caller gets the view itself, which, like the
    arrays of that mode, changes when the environments step.

    Args:
        memory: The ``multiprocessing`` array: ``n`` rows of ``max_length`` int32, each a
            string's code points plus one, then zeros.
        n: Number of strings (the number of environments).
        max_length: The space's ``max_length``.
    """

    def __init__(self, memory: Any, n: int, max_length: int) -> None:
        self._memory = memory
        self._n = n
        self._max_length = max_length

    def _rows(self) -> np.ndarray:
        return np.frombuffer(self._memory.get_obj(), dtype=np.int32).reshape(
            (self._n, self._max_length)
        )

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...

    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        if isinstance(index, slice):
            return tuple(self)[index]
        return _decode(self._rows()[range(self._n)[index]])

    def __iter__(self) -> Iterator[str]:
        return iter([_decode(row) for row in self._rows()])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return tuple(self) == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # Its value changes: not hashable, like a list.

    def __repr__(self) -> str:
        return repr(tuple(self))

    def __deepcopy__(self, memo: dict[int, Any]) -> tuple[str, ...]:
        return tuple(self)

    def __copy__(self) -> tuple[str, ...]:
        return tuple(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (tuple, (tuple(self),))


def _decode(row: np.ndarray) -> str:
    # Code points are stored plus one, so that zero marks the end and "\x00" survives.
    codes = row[: int(np.count_nonzero(row))]
    return "".join(map(chr, (codes - 1).tolist()))


@create_shared_memory.register(UnicodeText)
def _create_unicode_text_memory(
    space: UnicodeText, n: int = 1, ctx: ModuleType = multiprocessing
) -> Any:
    return ctx.Array(np.dtype(np.int32).char, n * space.max_length)


@read_from_shared_memory.register(UnicodeText)
def _read_unicode_text_memory(space: UnicodeText, shared_memory: Any, n: int = 1) -> SharedTexts:
    return SharedTexts(shared_memory, n, space.max_length)


@write_to_shared_memory.register(UnicodeText)
def _write_unicode_text_memory(
    space: UnicodeText, index: int, values: str, shared_memory: Any
) -> None:
    if len(values) > space.max_length:
        raise ValueError(
            f"a string of {len(values)} characters is longer than the space's {space.max_length}"
        )
    size = space.max_length
    row = np.frombuffer(shared_memory.get_obj(), dtype=np.int32)[index * size : (index + 1) * size]
    row[:] = 0
    row[: len(values)] = np.fromiter(map(ord, values), dtype=np.int32, count=len(values)) + 1


class SketchGymEnv(gymnasium.Env):
    """Gymnasium environment: the action is a sketch (or a reply holding one).

    Named apart from the OpenEnv client (`sketch_env.server.client.SketchEnvClient`, which
    OpenEnv's ``AutoEnv`` finds as ``sketch_env.client.SketchEnv``); its old name
    ``SketchEnv`` still imports from here, with a `DeprecationWarning`.

    Args:
        render_mode: ``None`` or ``"rgb_array"`` (`render` returns the last picture).
        image_size: ``(width, height)`` of the observation image, or one side for a square;
            the canvas is resized to it. ``None`` takes the wrapped environment's size (256 by
            default), and a size given here is passed to the `SketchEnvironment` this builds,
            so the array and the OpenEnv observation's PNG hold the same pixels.
        max_steps: Sketches per episode.
        reward_policy: ``"last"`` or ``"best"``.
        env: An existing `SketchEnvironment` to wrap (then the remaining arguments are not
            used for it).
        **kwargs: Passed to `SketchEnvironment` (``renderer``, ``scorer``, ``reward_config``,
            ``gate_config``, ``tasks``, ``evaluator``...).

    Examples:
        >>> import gymnasium, sketch_env.env  # doctest: +SKIP
        >>> env = gymnasium.make("sketch_env/Sketch-v0", render_mode="rgb_array")
        >>> obs, info = env.reset(seed=3)
        >>> obs, reward, terminated, truncated, info = env.step(reply_text)
    """

    # Typed as gymnasium.Env declares it (an attribute instances may shadow), hence the noqa.
    metadata: dict[str, Any] = {"render_modes": ["rgb_array"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        render_mode: str | None = None,
        image_size: int | tuple[int, int] | None = None,
        max_steps: int = 1,
        reward_policy: RewardPolicy = "last",
        env: SketchEnvironment | None = None,
        **kwargs: Any,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        if env is None:
            if image_size is not None:
                kwargs["image_size"] = image_size
            env = SketchEnvironment(max_steps=max_steps, reward_policy=reward_policy, **kwargs)
        elif image_size is not None and check_image_size(image_size) != env.image_size:
            raise ValueError(
                f"image_size {image_size!r} disagrees with the wrapped environment's "
                f"{env.image_size}: the array and the observation's PNG must be the same picture"
            )
        self.core = env
        width, height = env.image_size
        self.render_mode = render_mode
        self._size = (width, height)
        steps_cap = 64
        self.action_space = UnicodeText(MAX_ACTION_CHARS, min_length=0)
        self.observation_space = spaces.Dict(
            {
                "prompt": UnicodeText(MAX_PROMPT_CHARS, min_length=0),
                "image": spaces.Box(0, 255, (height, width, 3), np.uint8),
                "coverage": spaces.Box(0.0, 1.0, (1,), np.float32),
                "score": spaces.Box(-SCORE_BOUND, SCORE_BOUND, (1,), np.float32),
                "gate_passed": spaces.Discrete(2),
                "step": spaces.Discrete(steps_cap + 1),
            }
        )
        self._frame = self._blank()
        self._episode_value = 0.0

    def _blank(self) -> np.ndarray:
        width, height = self._size
        return np.zeros((height, width, 3), dtype=np.uint8)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Starts an episode.

        Args:
            seed: Chooses the task and seeds the renders (an integer in ``[0, 2**32)``); when
                ``None``, drawn from the env's ``np_random`` (itself seeded by an earlier seed).
            options: `SketchEnvironment.reset` options: ``task_id``, ``prompt``,
                ``max_steps``, ``include_image``, ``episode_id``.

        Returns:
            ``(observation, info)``; info has the task, the seed and the instructions.

        Raises:
            ValueError: On a bad seed or option (see `SketchEnvironment.reset`).
        """
        if seed is not None:
            # Checked before gymnasium sees it, whose own check words -1 differently.
            seed = check_seed(seed)
        super().reset(seed=seed)
        episode_seed = seed if seed is not None else int(self.np_random.integers(0, 2**32))
        obs = self.core.reset(seed=episode_seed, **dict(options or {}))
        self._frame = self._blank()
        self._episode_value = 0.0
        info = {
            "task_id": obs.task_id,
            "subject": obs.subject,
            "medium": obs.medium,
            "seed": obs.seed,
            "max_steps": obs.max_steps,
            "instructions": obs.instructions,
            "user_message": obs.feedback,
        }
        return self._obs(obs), info

    def step(
        self, action: str | SketchAction | dict[str, Any]
    ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Renders and scores one sketch.

        Args:
            action: The reply text (the action space), or what `SketchEnvironment.step`
                also takes: a `SketchAction` or a dict of its fields.

        Returns:
            ``(observation, reward, terminated, truncated, info)``; ``info`` holds
            ``step_reward``, ``episode_reward``, ``reward_valid``, ``components``, gate
            reasons, render status, JS errors, ``feedback``, backend and timings.

        Raises:
            EpisodeError: Before ``reset`` or after the episode ended.
            TypeError: If ``action`` is none of those.
        """
        act = as_action(action, "SketchGymEnv.step()")
        obs = self.core.step(act)
        rollout = self.core.last_rollout
        render = rollout.render if rollout is not None else None
        picture = rollout.image(self._size) if rollout is not None else None
        self._frame = (
            np.asarray(picture, dtype=np.uint8).copy() if picture is not None else self._blank()
        )
        value = obs.reward if obs.reward is not None else self._episode_value
        reward = float(value - self._episode_value)
        self._episode_value = float(value)
        info = {
            "step_reward": obs.step_reward,
            "episode_reward": obs.reward,
            "reward_valid": obs.step_reward is not None,
            "components": obs.components.model_dump() if obs.components else None,
            "gate_passed": obs.gate_passed,
            "gate_reasons": obs.gate_reasons,
            "render_status": obs.render_status,
            "js_errors": obs.js_errors,
            "coverage": obs.coverage,
            "score": obs.score,
            "scorer": obs.scorer,
            "sketch_error": obs.sketch_error,
            "infra_error": obs.infra_error,
            "feedback": obs.feedback,
            "backend": obs.backend,
            # From the rollout, not the observation: a trainer's info always has the timings,
            # which the observation leaves out unless asked (they differ on every replay).
            "elapsed_ms": render.elapsed_ms if render is not None else None,
            "queue_ms": render.queue_ms if render is not None else None,
            "render_ms": render.render_ms if render is not None else None,
            "task_id": obs.task_id,
            "seed": obs.seed,
        }
        return self._obs(obs), reward, obs.terminated, obs.truncated, info

    def _obs(self, obs: SketchObservation) -> dict[str, Any]:
        return {
            "prompt": obs.prompt,
            "image": self._frame.copy(),
            "coverage": np.array([obs.coverage or 0.0], dtype=np.float32),
            "score": np.array(
                [np.clip(obs.score or 0.0, -SCORE_BOUND, SCORE_BOUND)], dtype=np.float32
            ),
            "gate_passed": int(bool(obs.gate_passed)),
            "step": int(obs.step),
        }

    def render(self) -> np.ndarray | None:
        """The last picture as an ``(H, W, 3)`` ``uint8`` array (black before the first step).

        Returns:
            The array in ``"rgb_array"`` mode, else ``None``.
        """
        if self.render_mode != "rgb_array":
            return None
        return self._frame.copy()

    def png(self) -> bytes | None:
        """The last picture as PNG bytes (the renderer's own, not resized), if any."""
        rollout = self.core.last_rollout
        if rollout is None or rollout.render is None:
            return None
        return rollout.render.png

    def close(self) -> None:
        """Ends the session; the shared renderer stays open."""
        self.core.close()
        super().close()


#: Names that moved: the old name -> the new one.
_RENAMED = {"SketchEnv": "SketchGymEnv"}


def renamed(module: str, name: str) -> Any:
    """The object behind a renamed name, with a `DeprecationWarning` naming the new one.

    ``SketchEnv`` was both this gymnasium env and OpenEnv's client alias; the env is
    `SketchGymEnv` now, and ``SketchEnv`` means only the client, in `sketch_env.client`.

    Args:
        module: The module the old name was imported from (for the message).
        name: The old name.

    Returns:
        What it names now.

    Raises:
        AttributeError: If ``name`` is not a renamed one.
    """
    new = _RENAMED.get(name)
    if new is None:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    warnings.warn(
        f"{module}.{name} was renamed {new} (the gymnasium env); import {new} from "
        f"{__name__}. The OpenEnv client is sketch_env.server.client.SketchEnvClient",
        DeprecationWarning,
        stacklevel=3,
    )
    return globals()[new]


def __getattr__(name: str) -> Any:
    return renamed(__name__, name)
