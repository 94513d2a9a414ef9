"""From model replies to rewards: gate, render concurrently, score in one batch, combine.

This is the one path every front end takes (the OpenEnv environment, the gymnasium adapter,
the TRL reward function, the ``rollout`` command), so a GRPO group of eight replies is always
rendered concurrently across the browser pool and scored in a single batch.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sketch_env.render import Render, RenderStatus, SketchRenderer
from sketch_env.scoring.base import Score, Scorer, ScorerUnavailableError
from sketch_env.scoring.gate import GateConfig, GateVerdict, gate_reply
from sketch_env.scoring.heuristic import dark_mass_fraction
from sketch_env.scoring.reward import RewardBreakdown, RewardConfig, combine
from sketch_env.scoring.spec import make_scorer

#: Render statuses that are the sketch's own failure. ``unfinished`` counts: the sketch threw,
#: even though what it painted first is kept (and scored when ``sketch_error_reward`` is None).
_SKETCH_FAILURES = {
    RenderStatus.UNFINISHED,
    RenderStatus.TIMEOUT,
    RenderStatus.JS_ERROR,
    RenderStatus.NO_CANVAS,
    RenderStatus.REJECTED,
}


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
    """

    prompt: str
    seed: int
    gate: GateVerdict
    render: Render | None
    score: Score | None
    reward: RewardBreakdown
    scorer: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Returns a JSON-serialisable view without the picture."""
        return {
            "prompt": self.prompt,
            "seed": self.seed,
            "scorer": self.scorer,
            "reward": self.reward.reward,
            "gate": self.gate.to_dict(),
            "render": self.render.to_dict() if self.render is not None else None,
            "score": self.score.to_dict() if self.score is not None else None,
            "components": self.reward.to_dict(),
            **self.extra,
        }

    def feedback(self) -> str:
        """A short plain-text report for a policy that revises its sketch.

        Returns:
            What the gate said, how the render ended (with the first JavaScript errors), the
            paint coverage, the score and the reward.
        """
        lines: list[str] = []
        if not self.gate.passed:
            lines.append("The sketch was not run. Fix these problems:")
            lines += [f"- {reason}" for reason in self.gate.reasons]
        elif self.render is not None:
            lines.append(f"Render: {self.render.status.value} in {self.render.elapsed_ms:.0f} ms.")
            errors = [e for e in self.render.errors if e]
            if errors:
                lines.append("JavaScript errors:")
                lines += [f"- {e}" for e in errors[:5]]
            lines.append(f"Paint coverage: {self.render.paint_fraction:.1%} of the canvas.")
        if self.score is not None:
            lines.append(f"Score ({self.scorer}): {self.score.value:.3f}.")
        if self.reward.infra_error:
            lines.append(f"Not scored (infrastructure failure: {self.reward.infra_error}).")
        if self.reward.reward is not None:
            lines.append(f"Reward: {self.reward.reward:.3f}.")
        return "\n".join(lines)


def _sketch_error(render: Render) -> str | None:
    if render.status not in _SKETCH_FAILURES:
        return None
    first = next((e for e in render.errors if not e.startswith("harness: attempt")), "")
    return f"{render.status.value}: {first}" if first else render.status.value


class Evaluator:
    """Gate, render, score and reward batches of replies.

    Args:
        renderer: A renderer (`SketchRenderer`, `RayRenderer`), or a spec for
            `sketch_env.distributed.make_renderer`: ``"local"``/``None`` for the process-wide
            `shared_renderer`, ``"ray://auto"`` or ``"ray://HOST:PORT"`` for a Ray cluster.
        scorer: A `Scorer` or a spec string (``"heuristic"``, ``"hpsv3+http://host:port"``).
        reward_config: Weights and thresholds of the reward.
        gate_config: Which gate rules apply.

    Examples:
        >>> evaluator = Evaluator(scorer="heuristic")  # doctest: +SKIP
        >>> [r.reward.reward for r in evaluator.evaluate_sync(replies, prompts, seeds=0)]
    """

    def __init__(
        self,
        renderer: SketchRenderer | str | None = None,
        scorer: Scorer | str = "heuristic",
        reward_config: RewardConfig | None = None,
        gate_config: GateConfig | None = None,
    ) -> None:
        if renderer is None or isinstance(renderer, str):
            # "local" (the shared pool), "ray://auto", "ray://HOST:PORT": configuration alone
            # moves rendering onto a cluster for every front end built on the evaluator.
            from sketch_env.distributed import make_renderer

            renderer = make_renderer(renderer)
        self.renderer = renderer
        self.scorer = make_scorer(scorer)
        self.reward_config = reward_config or RewardConfig()
        self.gate_config = gate_config or GateConfig()

    async def evaluate(
        self,
        replies: Sequence[str | bytes],
        prompts: Sequence[str],
        seeds: Sequence[int] | int = 0,
    ) -> list[Rollout]:
        """Evaluates a batch of replies (one GRPO group, or any batch).

        Runs on the renderer's own event loop whatever loop calls it, so scorer clients bound
        to a loop (HTTP connection pools) always see the same one.

        Args:
            replies: Model replies (fenced code or bare sketches).
            prompts: One prompt per reply.
            seeds: One render seed per reply, or one for all.

        Returns:
            One `Rollout` per reply, in order. Never raises for anything in the replies.

        Raises:
            ValueError: If the lengths differ.
        """
        if self.renderer.on_own_loop():
            return await self._evaluate(replies, prompts, seeds)
        await asyncio.to_thread(self.renderer.start)
        coro = self._evaluate(replies, prompts, seeds)
        return await asyncio.wrap_future(self.renderer.run_coroutine(coro))

    def evaluate_sync(
        self,
        replies: Sequence[str | bytes],
        prompts: Sequence[str],
        seeds: Sequence[int] | int = 0,
    ) -> list[Rollout]:
        """Blocking `evaluate`, for plain synchronous code (also under a running loop)."""
        return self.renderer.run_coroutine(self._evaluate(replies, prompts, seeds)).result()

    async def _evaluate(
        self,
        replies: Sequence[str | bytes],
        prompts: Sequence[str],
        seeds: Sequence[int] | int,
    ) -> list[Rollout]:
        count = len(replies)
        seed_list = [seeds] * count if isinstance(seeds, int) else list(seeds)
        if len(prompts) != count or len(seed_list) != count:
            raise ValueError(
                f"got {count} replies, {len(prompts)} prompts and {len(seed_list)} seeds"
            )
        # Gating parses with tree-sitter (up to ~0.7 s for a 256 KiB reply): off the loop.
        verdicts = await asyncio.gather(
            *(asyncio.to_thread(gate_reply, reply, self.gate_config) for reply in replies)
        )
        renders: list[Render | None] = [None] * count
        to_render = [i for i, v in enumerate(verdicts) if v.passed and v.source is not None]
        rendered = await asyncio.gather(
            *(self.renderer.render(verdicts[i].source or "", seed=seed_list[i]) for i in to_render)
        )
        for i, render in zip(to_render, rendered, strict=False):
            renders[i] = render

        pictured = [
            i
            for i in to_render
            if renders[i] is not None
            and renders[i].png is not None
            and renders[i].status.has_picture
        ]
        images = [renders[i].image() for i in pictured]  # type: ignore[union-attr]
        scores: dict[int, Score] = {}
        dark: dict[int, float] = {}
        scorer_error: str | None = None
        if pictured:
            dark_values = await asyncio.gather(
                *(asyncio.to_thread(dark_mass_fraction, image) for image in images)
            )
            dark = dict(zip(pictured, dark_values, strict=False))
            try:
                values = await self.scorer.score(images, [prompts[i] for i in pictured])
                scores = dict(zip(pictured, values, strict=False))
            except ScorerUnavailableError as exc:
                scorer_error = f"scorer {self.scorer.name} unavailable: {exc}"

        rollouts = []
        for i in range(count):
            render = renders[i]
            infra = None
            sketch_error = None
            if render is not None:
                if render.status.is_infrastructure_failure:
                    infra = "; ".join(render.errors) or "the renderer crashed"
                sketch_error = _sketch_error(render)
                if i in pictured and scorer_error is not None:
                    infra = scorer_error
            breakdown = combine(
                self.reward_config,
                verdicts[i],
                paint_fraction=render.paint_fraction if render is not None else None,
                dark_mass=dark.get(i),
                score=scores.get(i),
                sketch_error=sketch_error,
                infra_error=infra,
                sample_seed=seed_list[i],
            )
            rollouts.append(
                Rollout(
                    prompt=prompts[i],
                    seed=seed_list[i],
                    gate=verdicts[i],
                    render=render,
                    score=scores.get(i),
                    reward=breakdown,
                    scorer=self.scorer.name,
                )
            )
        return rollouts
