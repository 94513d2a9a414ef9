"""Typed OpenEnv models: the action, the observation and the state of a sketch episode.

They subclass openenv's pydantic v2 ``Action``/``Observation``/``State`` (``extra="forbid"`` on
the first two, so a misspelt field over the wire is a validation error, not silently ignored).
Everything a trainer needs is a typed field; ``metadata`` carries nothing essential.

This module is the wire format shared by the server and the client, so it imports nothing
but pydantic and openenv (and one constant of the gate's plain-data module): a client never
loads the renderer, the parser or the scorers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from openenv.core.env_server.types import Action, Observation, State
from pydantic import BaseModel, ConfigDict, Field

from sketch_env.catalog.vocabulary import MAX_REPLY_BYTES

if TYPE_CHECKING:
    from sketch_env.reward.breakdown import RewardBreakdown

__all__ = [
    "ACTION_RULE",
    "MAX_ACTION_CHARS",
    "MAX_IMAGE_B64_CHARS",
    "MAX_IMAGE_SIDE",
    "MIN_IMAGE_SIDE",
    "SESSION_EXPIRED_CODE",
    "RewardComponents",
    "SketchAction",
    "SketchObservation",
    "SketchState",
    "as_action",
    "check_reward_policy",
]

#: Hard cap on the action text, in characters, derived from the one reply limit
#: (`sketch_env.catalog.vocabulary.MAX_REPLY_BYTES`). The gate refuses replies over that limit
#: with a reason the policy can read; this transport bound (4x it, in characters) sits above it
#: so that such a reply still reaches the gate, and only bounds what a hostile client can make
#: the server hold and parse.
MAX_ACTION_CHARS = 4 * MAX_REPLY_BYTES

#: Largest side, in pixels, of the picture an observation carries (the canvas is 600x600).
MAX_IMAGE_SIDE = 1024
#: Smallest picture side a policy may ask to be shown: below it a painting is a smudge.
MIN_IMAGE_SIDE = 16
#: Longest ``image_png_b64`` accepted: the base64 of 4 MiB of PNG. The worst case at
#: ``MAX_IMAGE_SIDE`` is incompressible noise: measured 3,151,224 bytes (4,201,632 in base64)
#: for a 1024x1024 RGB noise picture saved by Pillow, so every picture the environment makes
#: fits, and a client never has to hold more.
MAX_IMAGE_B64_CHARS = 4 * ((4 * 1024 * 1024 + 2) // 3)

#: WebSocket close code with which the server ends a session whose client stayed idle past
#: the server's idle timeout (private-use range 4000-4999; 408 as HTTP's Request Timeout).
#: The close reason starts with ``SESSION_EXPIRED``.
SESSION_EXPIRED_CODE = 4408

RewardPolicy = Literal["last", "best"]


def check_reward_policy(value: object) -> RewardPolicy:
    """Returns ``value`` as a `RewardPolicy`.

    Raises:
        ValueError: If it is neither ``"last"`` nor ``"best"``.
    """
    if value == "last":
        return "last"
    if value == "best":
        return "best"
    raise ValueError(f"reward_policy must be 'last' or 'best', got {value!r}")


class SketchAction(Action):
    """One turn of the policy: its reply, or the bare sketch source.

    Args:
        sketch: The model's reply (a fenced code block is extracted) or a bare sketch.
        final: End the episode with this sketch even if more revisions are allowed.
        include_image: Return the rendered PNG (base64) in the observation; ``None`` keeps the
            environment's default.
        include_timings: Return the render's wall-clock measurements in the observation
            (``elapsed_ms``, ``queue_ms``, ``render_ms``, ``harness_notes``); ``None`` keeps the
            environment's default (off). They differ on every replay of the same step, so an
            observation without them is a function of (task, seed, action) alone.

    Examples:
        >>> SketchAction(sketch="function setup() { createCanvas(600, 600, WEBGL); }").final
        False
    """

    sketch: str = Field(max_length=MAX_ACTION_CHARS, description="model reply or sketch source")
    final: bool = Field(default=False, description="submit as the final sketch")
    include_image: bool | None = Field(default=None, description="return the PNG as base64")
    include_timings: bool | None = Field(
        default=None, description="return the render's wall-clock timings and harness notes"
    )


#: What every ``step()`` takes: the local `SketchEnvironment`, the gymnasium adapter and the
#: remote `sketch_env.server.client.SketchEnvClient` alike (`as_action`).
ACTION_RULE = "a SketchAction, the reply text (str) or a dict of SketchAction fields"


def as_action(action: object, caller: str) -> SketchAction:
    """The one rule for a step's action, shared by every front end that steps.

    A dict is validated as the server validates a wire action (unknown or misspelt fields
    refused), so a malformed one fails the same way locally and, in the client, before
    anything is sent.

    Args:
        action: A `SketchAction`, the reply text, or a dict of `SketchAction` fields.
        caller: The method named in the error, e.g. ``"SketchEnvClient.step()"``.

    Returns:
        The action.

    Raises:
        TypeError: For any other type (the message names `ACTION_RULE`).
        pydantic.ValidationError: For a dict or text that is not a valid action.

    Examples:
        >>> as_action({"sketch": "x", "final": True}, "step()").final
        True
    """
    if isinstance(action, SketchAction):
        return action
    if isinstance(action, str):
        return SketchAction(sketch=action)
    if isinstance(action, dict):
        return SketchAction.model_validate(action)
    raise TypeError(f"{caller} takes {ACTION_RULE}, got {type(action).__name__}")


class RewardComponents(BaseModel):
    """Every component of one step's reward: the wire view of
    `sketch_env.reward.RewardBreakdown`, filled from its ``to_dict()`` (an unknown field is
    refused, so the two cannot drift apart silently).

    A fixed core says how the step ended; everything the pipeline measured and added is in
    name -> value maps, so a new term or guard of the reward changes no field here. The names
    these components had as fields before (``coverage_term``, ``preference``...) read as
    properties from ``observations``.

    Args:
        reward: The step's reward (``None`` for an infrastructure failure).
        status: ``ok``, ``gate_failed``, ``runtime_gate_failed``, ``sketch_error``, ``blank``
            or ``infra_error``: which rung of the reward's ladder decided it.
        gate_passed: Whether the gate let the sketch run.
        gate_reasons: The gate's reasons.
        gate_codes: The gate's machine codes.
        runtime_reasons: Why the run-time check refused what the sketch drew with (plain p5
            primitives, raw graphics, no p5.brush drawing call), with what to use instead.
        runtime_codes: Machine codes parallel to ``runtime_reasons``.
        sketch_error: The sketch's own failure, if any.
        infra_error: The infrastructure failure, if any.
        contributions: Weighted terms that sum to the reward (``coverage``, ``preference``,
            ``dark_mass``, ``guards``...; a fixed outcome has one: ``gate_fail``, ``blank``...).
        guards: Each guard's factor in ``[0, 1]`` (near_blank, flat_mass, noise, palette,
            patchwork, quilt, composition, marks, lettering).
        observations: What the terms and guards measured (``preference``,
            ``preference_sigma``, ``preference_term``, ``coverage``, ``coverage_term``,
            ``dark_mass``, ``dark_mass_penalty``, ``pairwise_prob``, ``guard_factor``...).
        scorer_terms: The scorer's own named terms.
    """

    model_config = ConfigDict(extra="forbid")

    reward: float | None = None
    status: str
    gate_passed: bool = False
    gate_reasons: list[str] = Field(default_factory=list)
    gate_codes: list[str] = Field(default_factory=list)
    runtime_reasons: list[str] = Field(default_factory=list)
    runtime_codes: list[str] = Field(default_factory=list)
    sketch_error: str | None = None
    infra_error: str | None = None
    contributions: dict[str, float] = Field(default_factory=dict)
    guards: dict[str, float] = Field(default_factory=dict)
    observations: dict[str, float] = Field(default_factory=dict)
    scorer_terms: dict[str, float] = Field(default_factory=dict)

    @classmethod
    def from_breakdown(cls, breakdown: RewardBreakdown) -> RewardComponents:
        """Builds the components from the evaluation's `RewardBreakdown` (all of its fields).

        Raises:
            pydantic.ValidationError: If the breakdown has a field this model lacks.
        """
        return cls.model_validate(breakdown.to_dict())

    @property
    def preference(self) -> float | None:
        """The scorer's raw value."""
        return self.observations.get("preference")

    @property
    def preference_sigma(self) -> float | None:
        """The scorer's uncertainty, where it has one."""
        return self.observations.get("preference_sigma")

    @property
    def preference_term(self) -> float | None:
        """The preference term as used in the sum."""
        return self.observations.get("preference_term")

    @property
    def coverage(self) -> float | None:
        """The paint fraction."""
        return self.observations.get("coverage")

    @property
    def coverage_term(self) -> float | None:
        """The coverage term in ``[0, 1]``."""
        return self.observations.get("coverage_term")

    @property
    def dark_mass(self) -> float | None:
        """The dark-mass fraction."""
        return self.observations.get("dark_mass")

    @property
    def dark_mass_penalty(self) -> float | None:
        """The penalty subtracted (>= 0)."""
        return self.observations.get("dark_mass_penalty")

    @property
    def pairwise_prob(self) -> float | None:
        """The mean win probability against the references."""
        return self.observations.get("pairwise_prob")

    @property
    def guard_factor(self) -> float | None:
        """The product of the guards' factors (1: no guard fired)."""
        return self.observations.get("guard_factor")


class SketchObservation(Observation):
    """What the policy (and the trainer) sees after ``reset`` and after each ``step``.

    On one GL backend it is a pure function of (task, seed, action): replaying an episode in a
    fresh server gives the same bytes (OpenEnv's episode-determinism check compares whole wire
    traces, ``metadata`` and state included, with no field excluded). What differs between
    replays, the wall-clock timings and the harness's notes, is returned only when asked for
    (``SketchAction.include_timings``, or the environment's ``include_timings``).

    ``reward`` (inherited) is the episode's reward so far under its reward policy: this step's
    reward for ``"last"``, the best so far for ``"best"``; ``step_reward`` is this step's own.
    Both are ``None`` after ``reset`` and for an infrastructure failure (a crashed browser, a
    scorer that is down), which is not the policy's fault and must not be trained on.

    Args:
        task_id: The task id, or ``None`` for a free-form prompt.
        subject: The task's subject.
        medium: The task's medium.
        prompt: The scene to paint (what the picture is scored against).
        instructions: The policy's system prompt.
        seed: The episode seed (task choice and render seed).
        step: Steps taken so far.
        max_steps: Steps allowed in the episode.
        reward_policy: ``"last"`` or ``"best"``.
        step_reward: This step's reward.
        best_reward: The best step reward so far.
        terminated: The episode ended because the sketch was final.
        truncated: The episode ended because it ran out of steps before a final sketch.
        gate_passed: Whether the gate let the sketch run.
        gate_reasons: Why the gate refused it (readable by the policy).
        gate_codes: Machine codes parallel to ``gate_reasons``.
        render_status: The renderer's status (``ok``, ``timeout``, ``js_error``...).
        js_errors: JavaScript errors the sketch raised (the harness's notes are apart).
        coverage: Paint coverage of the canvas in ``[0, 1]``.
        elapsed_ms: Render wall time, queueing included: ``queue_ms + render_ms``; only with
            ``include_timings``.
        queue_ms: Time the sketch waited for a free browser (load, not the sketch's cost);
            only with ``include_timings``.
        render_ms: Time the render itself took; only with ``include_timings``.
        harness_notes: The render harness's notes (a timeout's CPU time, a retried browser
            crash, a memory peak); only with ``include_timings``, as they quote measurements.
        backend: GL backend that rendered the picture (pictures differ across backends).
        width: Canvas width.
        height: Canvas height.
        scorer: The scorer's name.
        score: The scorer's value.
        score_sigma: The scorer's uncertainty.
        components: Every reward component.
        sketch_error: The sketch's own failure, if any.
        infra_error: The infrastructure failure, if any.
        feedback: Plain-text report for a revising policy.
        image_png_b64: The picture as base64 PNG (RGB, ``image_width`` x ``image_height``),
            when asked for; at most `MAX_IMAGE_B64_CHARS` characters.
        image_width: Width of the picture in ``image_png_b64``.
        image_height: Height of the picture in ``image_png_b64``.
    """

    task_id: str | None = None
    subject: str | None = None
    medium: str | None = None
    prompt: str = ""
    instructions: str = ""
    seed: int = 0
    step: int = 0
    max_steps: int = 1
    reward_policy: RewardPolicy = "last"
    step_reward: float | None = None
    best_reward: float | None = None
    terminated: bool = False
    truncated: bool = False
    gate_passed: bool | None = None
    gate_reasons: list[str] = Field(default_factory=list)
    gate_codes: list[str] = Field(default_factory=list)
    render_status: str | None = None
    js_errors: list[str] = Field(default_factory=list)
    coverage: float | None = None
    elapsed_ms: float | None = None
    queue_ms: float | None = None
    render_ms: float | None = None
    harness_notes: list[str] | None = None
    backend: str | None = None
    width: int | None = None
    height: int | None = None
    scorer: str | None = None
    score: float | None = None
    score_sigma: float | None = None
    components: RewardComponents | None = None
    sketch_error: str | None = None
    infra_error: str | None = None
    feedback: str = ""
    image_png_b64: str | None = Field(default=None, max_length=MAX_IMAGE_B64_CHARS)
    image_width: int | None = Field(default=None, ge=1, le=MAX_IMAGE_SIDE)
    image_height: int | None = Field(default=None, ge=1, le=MAX_IMAGE_SIDE)


class SketchState(State):
    """The episode's state (``GET /state``, ``env.state``).

    Args:
        task_id: The task id, or ``None`` for a free-form prompt.
        prompt: The scene to paint.
        seed: The episode seed.
        max_steps: Steps allowed.
        reward_policy: ``"last"`` or ``"best"``.
        done: Whether the episode has ended.
        rewards: Every step's reward, in order (``None`` for infrastructure failures).
        last_reward: The last step's reward.
        best_reward: The best step reward.
        episode_reward: The episode's reward under its reward policy.
    """

    task_id: str | None = None
    prompt: str | None = None
    seed: int | None = None
    max_steps: int = 1
    reward_policy: RewardPolicy = "last"
    done: bool = False
    rewards: list[float | None] = Field(default_factory=list)
    last_reward: float | None = None
    best_reward: float | None = None
    episode_reward: float | None = None
