"""`Rollout`: one reply taken all the way to its reward, and `RolloutStatus`, how it ended.

`RolloutStatus` is the one vocabulary for "how did this rollout end" that every front end
(environment observations, TRL metrics, ``results.jsonl``, the gallery) reports: the gate
refused it, the run-time check refused it, the scorer failed on a good picture, or else the
render's own status. What a status *means* (whose fault, whether it was scored, what to tell the
policy) is read from its properties and from `RenderStatus`'s, never from lists kept elsewhere.

`Rollout.feedback` and `Rollout.critique` are the one feedback policy every front end uses for
the text a policy reads next: neither shows the score or the reward unless asked (a policy that
reads its score learns the scorer rather than painting), and neither passes on an
infrastructure failure's message, which is the machine's business, not the policy's. Neither
quotes a wall time or the harness's notes (`harness_notes`: how long the render ran, what it
used): those measure the machine, differ on every replay, and would make the policy's input
noise (two fresh processes read "Render: ok in 8090 ms" and "in 6855 ms" for one sketch).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from PIL import Image

from sketch_env.gate.verdict import GateVerdict
from sketch_env.render.result import Render, RenderStatus, resized
from sketch_env.reward.breakdown import RewardBreakdown
from sketch_env.reward.config import RewardConfig
from sketch_env.reward.outcome import RewardStatus, below_blank_line
from sketch_env.scoring.base import Score

__all__ = [
    "HARNESS_NOTE",
    "Rollout",
    "RolloutStatus",
    "harness_notes",
    "revision_summary",
    "sketch_errors",
]

#: How the render harness's own notes start in `Render.errors`, among the sketch's errors.
HARNESS_NOTE = "harness:"


def sketch_errors(render: Render) -> list[str]:
    """The JavaScript errors the sketch itself raised, in order, without the harness's notes.

    Args:
        render: A render.

    Returns:
        The errors a policy can act on; the same for every replay of the sketch.
    """
    return [e for e in render.errors if e and not e.startswith(HARNESS_NOTE)]


def harness_notes(render: Render) -> list[str]:
    """The render harness's notes on a render (``harness: ...``): a timeout with the CPU time
    the sketch used, a retried browser crash, the memory peak that killed a browser.

    They quote measurements of the machine, so they differ from one replay to the next; the
    environment returns them with the timings, on request.

    Args:
        render: A render.

    Returns:
        The notes, in order.
    """
    return [e for e in render.errors if e.startswith(HARNESS_NOTE)]


class RolloutStatus(enum.StrEnum):
    """How a rollout ended: the gate's refusal, a scorer failure, or the render's status.

    The render statuses keep their `RenderStatus` values (a test checks that every
    `RenderStatus` has its member here), so one word means one thing everywhere.
    """

    #: The gate refused the reply; nothing was rendered.
    GATE_FAILED = "gate_failed"
    #: The render ran, but what the sketch was measured doing at run time is refused
    #: (`sketch_env.gate.runtime_check`: plain p5 primitives, raw graphics, no p5.brush
    #: drawing call, another canvas size).
    RUNTIME_GATE_FAILED = "runtime_gate_failed"
    #: The picture rendered but the scorer could not score it (reward ``None``).
    INFRA_ERROR = "infra_error"
    OK = "ok"
    FRAME_CAPPED = "frame_capped"
    UNFINISHED = "unfinished"
    TIMEOUT = "timeout"
    JS_ERROR = "js_error"
    NO_CANVAS = "no_canvas"
    REJECTED = "rejected"
    MEMORY_EXCEEDED = "memory_exceeded"
    LEFTOVER_WORK = "leftover_work"
    CRASHED = "crashed"
    HARNESS_VIOLATION = "harness_violation"

    @classmethod
    def of_render(cls, status: RenderStatus) -> RolloutStatus:
        """The rollout status of a render that went through: the render's own status."""
        return cls(status.value)

    @property
    def render_status(self) -> RenderStatus | None:
        """The render status this one stands for (``None`` for the rollout's own three)."""
        try:
            return RenderStatus(self.value)
        except ValueError:
            return None

    @property
    def kind(self) -> Literal["scored", "refused", "sketch_error", "infrastructure"]:
        """What the outcome is, in one word: ``scored`` (the formula applied to a finished
        picture), ``refused`` (gate or run-time check), ``sketch_error`` (the sketch's own
        failure) or ``infrastructure`` (not the policy's fault: reward ``None``)."""
        if self in (RolloutStatus.GATE_FAILED, RolloutStatus.RUNTIME_GATE_FAILED):
            return "refused"
        if self is RolloutStatus.INFRA_ERROR:
            return "infrastructure"
        render = self.render_status
        assert render is not None
        if render.is_infrastructure_failure:
            return "infrastructure"
        if render is RenderStatus.HARNESS_VIOLATION:
            return "refused"
        return "scored" if render.is_finished else "sketch_error"

    @property
    def is_failure(self) -> bool:
        """Whether the rollout did not end with a finished, scored picture."""
        return self.kind != "scored"

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> RolloutStatus:
        """Reads the status of a ``results.jsonl`` record (`Rollout.to_dict` output).

        Records written since the status was stored carry it; older ones are worked out from
        the gate, render and components they hold, by the same rule as `Rollout.status`.

        Args:
            record: The record.

        Returns:
            The status.
        """
        if record.get("status"):
            return cls(str(record["status"]))
        render = record.get("render")
        if not (record.get("gate") or {}).get("passed") or render is None:
            return cls.GATE_FAILED
        components = record.get("components") or {}
        if components.get("infra_error") and render.get("status") != RenderStatus.CRASHED:
            return cls.INFRA_ERROR
        return cls(str(render.get("status")))


@dataclass(frozen=True)
class Rollout:
    """One reply taken all the way to its reward.

    Args:
        prompt: The prompt the picture was scored against.
        seed: The render seed.
        gate: The gate's verdict (its ``source`` is the extracted sketch).
        render: The render, or ``None`` when the gate refused the sketch.
        score: The scorer's score, or ``None`` when there was no picture or no answer.
        reward: The reward and every component.
        scorer: The scorer's name.
        extra: More fields for `to_dict`.
    """

    prompt: str
    seed: int
    gate: GateVerdict
    render: Render | None
    score: Score | None
    reward: RewardBreakdown
    scorer: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    picture: Image.Image | None = field(default=None, repr=False, compare=False)

    def image(self, size: int | tuple[int, int] | None = None) -> Image.Image | None:
        """The rendered picture (RGB, transparent pixels over white), decoded once by the
        evaluator and resized here; ``None`` when the render has no picture.

        Args:
            size: One side (a square) or ``(width, height)``; the canvas's own size when
                ``None``. Every view of a picture a policy gets is made here, so they agree
                pixel for pixel at the same size.

        Raises:
            ValueError: If a side is not positive.
        """
        picture = self.picture
        if picture is None:
            if self.render is None or not self.render.has_picture:
                return None
            picture = self.render.image()
        return resized(picture, size)

    @property
    def status(self) -> RolloutStatus:
        """How the rollout ended (see `RolloutStatus`)."""
        if not self.gate.passed or self.render is None:
            return RolloutStatus.GATE_FAILED
        if self.reward.infra_error and not self.render.status.is_infrastructure_failure:
            return RolloutStatus.INFRA_ERROR
        if (
            self.reward.status is RewardStatus.RUNTIME_GATE_FAILED
            and self.render.status is not RenderStatus.HARNESS_VIOLATION
        ):
            return RolloutStatus.RUNTIME_GATE_FAILED
        return RolloutStatus.of_render(self.render.status)

    def to_dict(self) -> dict[str, Any]:
        """Returns a JSON-serialisable view without the picture."""
        return {
            "prompt": self.prompt,
            "seed": self.seed,
            "scorer": self.scorer,
            "status": self.status.value,
            "reward": self.reward.reward,
            "gate": self.gate.to_dict(),
            "render": self.render.to_dict() if self.render is not None else None,
            "score": self.score.to_dict() if self.score is not None else None,
            "components": self.reward.to_dict(),
            **self.extra,
        }

    def feedback(self, *, scores: bool = False) -> str:
        """A short plain-text report for a policy that revises its sketch.

        Args:
            scores: Include the scorer's value and the reward. Off by default in every front
                end: a policy that reads its score learns the scorer rather than painting.

        Returns:
            What the gate said, how the render ended (its status, with the first JavaScript
            errors; never its wall time, which differs on every replay), the paint coverage
            (saying so when the canvas is blank), and, with ``scores``, the score and the
            reward. An infrastructure failure is reported as such, without its message.
        """
        lines: list[str] = []
        if not self.gate.passed:
            lines.append("The sketch was not run. Fix these problems:")
            lines += [f"- {reason}" for reason in self.gate.reasons]
        elif self.render is not None:
            render = self.render
            lines.append(f"Render: {render.status.value}.")
            errors = sketch_errors(render)
            if errors and not render.status.is_infrastructure_failure:
                lines.append("JavaScript errors:")
                lines += [f"- {e}" for e in errors[:5]]
            coverage = f"Paint coverage: {self.render.paint_fraction:.1%} of the canvas"
            if self.reward.status is RewardStatus.BLANK:
                coverage += " (blank: paint the scene across the canvas)"
            lines.append(coverage + ".")
            if self.reward.runtime_reasons:
                lines.append("Refused at run time:")
                lines += [f"- {reason}" for reason in self.reward.runtime_reasons]
        if scores and self.score is not None:
            lines.append(f"Score ({self.scorer}): {self.score.value:.3f}.")
        if self.reward.infra_error:
            lines.append("Not scored: the environment failed (not your fault).")
        if scores and self.reward.reward is not None:
            lines.append(f"Reward: {self.reward.reward:.3f}.")
        return "\n".join(lines)

    def critique(self, reward_config: RewardConfig | None = None) -> str:
        """What went wrong with the picture, in words, without the score or the reward.

        It names the gate's reasons, a render that failed or did not finish, JavaScript errors,
        an empty or nearly empty canvas, too little paint to earn the coverage term in full,
        and a picture dominated by dark mass, each with what to change. A rollout with none
        of these problems gets a line saying so (a critique never invents a flaw).

        Args:
            reward_config: The thresholds the reward uses (blank canvas, coverage target);
                the defaults when ``None``.

        Returns:
            The critique, one point per line.
        """
        lines: list[str] = []
        render = self.render
        if not self.gate.passed:
            lines.append("The sketch was refused before it ran:")
            lines += [f"- {reason}" for reason in self.gate.reasons]
            return "\n".join(lines)
        if render is None:
            return "The sketch was not rendered."
        status = render.status
        if status.advice is not None:
            lines.append(status.advice)
        if self.reward.runtime_reasons and status is not RenderStatus.HARNESS_VIOLATION:
            lines.append("Refused at run time:")
            lines += [f"- {reason}" for reason in self.reward.runtime_reasons]
        errors = sketch_errors(render)
        if errors:
            lines.append("JavaScript errors:")
            lines += [f"- {e}" for e in errors[:5]]
        if status.has_picture:
            config = reward_config or RewardConfig()
            painted = render.paint_fraction
            if self.reward.status is RewardStatus.BLANK or below_blank_line(config, painted):
                lines.append(
                    f"The canvas is almost empty ({painted:.1%} painted): paint the scene "
                    "across the canvas."
                )
            elif painted < config.coverage_target:
                lines.append(
                    f"Only {painted:.1%} of the canvas is painted; aim for at least "
                    f"{config.coverage_target:.0%}."
                )
            if self.reward.dark_mass_penalty:
                lines.append("Large areas are nearly black: lighten them or use less dark paint.")
        if self.reward.infra_error:
            lines.append("The picture could not be judged (an infrastructure failure).")
        if not lines:
            lines.append("Nothing went wrong: the sketch ran cleanly and covers the canvas.")
        return "\n".join(lines)


def revision_summary(episode: Sequence[Rollout]) -> dict[str, float | int | None]:
    """How one episode's renders went from the first attempt to the last revision.

    Args:
        episode: The episode's rollouts, in order.

    Returns:
        ``renders``, ``first_reward``, ``last_reward`` and ``improvement`` (last minus first;
        ``None`` unless both were scored).
    """
    first = episode[0].reward.reward if episode else None
    last = episode[-1].reward.reward if episode else None
    return {
        "renders": len(episode),
        "first_reward": first,
        "last_reward": last,
        "improvement": last - first if first is not None and last is not None else None,
    }
