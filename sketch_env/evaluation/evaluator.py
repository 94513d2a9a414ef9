"""From model replies to rewards: gate, render concurrently, score in one batch, combine.

This is the one path every front end takes (the OpenEnv environment, the gymnasium adapter,
the TRL reward function, the ``rollout`` command), so a GRPO group of eight replies is always
rendered concurrently across the browser pool and scored in a single batch.

The work runs on the renderer's own event loop (a Playwright browser is bound to the loop that
launched it, and scorer clients keep their HTTP pools on one loop too). The `Evaluator` hides
that: front ends call `Evaluator.evaluate` (from async code), `Evaluator.evaluate_sync` (from
plain code) or `Evaluator.submit` (a future, for callers that wait with a timeout), and never
touch the loop themselves.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine, Sequence
from typing import Any, TypeVar

from PIL import Image

from sketch_env.evaluation.rollout import Rollout
from sketch_env.gate.check import gate_reply
from sketch_env.gate.verdict import GateConfig, GateVerdict
from sketch_env.render.base import seed_list as seed_list_of
from sketch_env.render.coverage import paint_fraction
from sketch_env.render.protocol import Renderer
from sketch_env.render.result import Render, RenderStatus
from sketch_env.scoring.base import Score, Scorer, ScorerUnavailableError
from sketch_env.scoring.heuristic import dark_mass_fraction
from sketch_env.scoring.reward import RewardBreakdown, RewardConfig, combine, runtime_gate
from sketch_env.scoring.spec import make_scorer

__all__ = ["Evaluator"]

T = TypeVar("T")

#: Render statuses that are the sketch's own failure. ``unfinished`` counts: the sketch threw,
#: even though what it painted first is kept (and scored when ``sketch_error_reward`` is None).
_SKETCH_FAILURES = {
    RenderStatus.UNFINISHED,
    RenderStatus.TIMEOUT,
    RenderStatus.JS_ERROR,
    RenderStatus.NO_CANVAS,
    RenderStatus.REJECTED,
    RenderStatus.MEMORY_EXCEEDED,
    RenderStatus.LEFTOVER_WORK,
    RenderStatus.HARNESS_VIOLATION,
}


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
        renderer: Renderer | str | None = None,
        scorer: Scorer | str = "heuristic",
        reward_config: RewardConfig | None = None,
        gate_config: GateConfig | None = None,
    ) -> None:
        if renderer is None or isinstance(renderer, str):
            # "local" (the shared pool), "ray://auto", "ray://HOST:PORT": configuration alone
            # moves rendering onto a cluster for every front end built on the evaluator.
            from sketch_env.distributed import make_renderer

            renderer = make_renderer(renderer)
        self.renderer: Renderer = renderer
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
        return await self._on_renderer_loop(self._evaluate(replies, prompts, seeds))

    async def _on_renderer_loop(self, coro: Coroutine[Any, Any, T]) -> T:
        if self.renderer.on_own_loop():
            return await coro
        try:
            await asyncio.to_thread(self.renderer.start)
        except BaseException:
            coro.close()
            raise
        return await asyncio.wrap_future(self.renderer.run_coroutine(coro))

    def evaluate_sync(
        self,
        replies: Sequence[str | bytes],
        prompts: Sequence[str],
        seeds: Sequence[int] | int = 0,
        timeout_s: float | None = None,
    ) -> list[Rollout]:
        """Blocking `evaluate`, for plain synchronous code (also under a running loop).

        Args:
            replies: Model replies (fenced code or bare sketches).
            prompts: One prompt per reply.
            seeds: One render seed per reply, or one for all.
            timeout_s: Give up waiting after this many seconds; the renderer's own deadline
                bounds every render in any case.

        Returns:
            One `Rollout` per reply, in order.

        Raises:
            ValueError: If the lengths differ.
            TimeoutError: If ``timeout_s`` passed first (the batch is cancelled).
            RuntimeError: If called on the renderer's own event loop (await `evaluate`).
        """
        if self.renderer.on_own_loop():
            raise RuntimeError(
                "a blocking call (evaluate_sync, env.step) cannot run on the renderer's own "
                "loop; await the async form (evaluate, env.step_async)"
            )
        future = self.submit(replies, prompts, seeds)
        try:
            return future.result(timeout=timeout_s)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise TimeoutError(f"the evaluation took longer than timeout_s={timeout_s}") from None

    def submit(
        self,
        replies: Sequence[str | bytes],
        prompts: Sequence[str],
        seeds: Sequence[int] | int = 0,
    ) -> concurrent.futures.Future[list[Rollout]]:
        """Starts evaluating a batch and returns at once (the first call starts the renderer).

        Args:
            replies: Model replies (fenced code or bare sketches).
            prompts: One prompt per reply.
            seeds: One render seed per reply, or one for all.

        Returns:
            A future with one `Rollout` per reply; ``future.result(timeout=...)`` waits for it,
            ``future.cancel()`` abandons it.
        """
        return self.renderer.run_coroutine(self._evaluate(replies, prompts, seeds))

    async def _measure(
        self, images: Sequence[Image.Image], prompts: Sequence[str]
    ) -> tuple[list[float], list[Score], str | None]:
        """Dark-mass fractions and scores of pictures (scores empty when the scorer is down)."""
        if not images:
            return [], [], None
        dark = await asyncio.gather(
            *(asyncio.to_thread(dark_mass_fraction, image) for image in images)
        )
        try:
            return list(dark), await self.scorer.score(images, prompts), None
        except ScorerUnavailableError as exc:
            return list(dark), [], f"scorer {self.scorer.name} unavailable: {exc}"

    def score_pictures_sync(
        self,
        images: Sequence[Image.Image],
        prompts: Sequence[str],
        gate: GateVerdict | None = None,
        seeds: Sequence[int] | int = 0,
    ) -> list[RewardBreakdown]:
        """Blocking `score_pictures` (same arguments and result)."""
        coro = self._score_pictures(images, prompts, gate, seeds)
        return self.renderer.run_coroutine(coro).result()

    async def score_pictures(
        self,
        images: Sequence[Image.Image],
        prompts: Sequence[str],
        gate: GateVerdict | None = None,
        seeds: Sequence[int] | int = 0,
    ) -> list[RewardBreakdown]:
        """The reward pictures would earn had a sketch that passed the gate painted them.

        For measuring the reward itself (``sketch-env reward-check`` scores degraded copies
        of reference paintings this way): the same scorer, coverage and combination as
        `evaluate`, without a render.

        Args:
            images: The pictures.
            prompts: One prompt per picture.
            gate: The verdict to combine with; a passing one when ``None``.
            seeds: Seeds for sampling pairwise references, one per picture or one for all.

        Returns:
            One `RewardBreakdown` per picture.
        """
        return await self._on_renderer_loop(self._score_pictures(images, prompts, gate, seeds))

    async def _score_pictures(
        self,
        images: Sequence[Image.Image],
        prompts: Sequence[str],
        gate: GateVerdict | None,
        seeds: Sequence[int] | int,
    ) -> list[RewardBreakdown]:
        count = len(images)
        seed_list = [seeds] * count if isinstance(seeds, int) else list(seeds)
        if len(prompts) != count or len(seed_list) != count:
            raise ValueError(
                f"got {count} pictures, {len(prompts)} prompts, {len(seed_list)} seeds"
            )
        verdict = gate or GateVerdict(passed=True)
        dark, scores, scorer_error = await self._measure(images, prompts)
        fractions = await asyncio.gather(
            *(asyncio.to_thread(paint_fraction, image) for image in images)
        )
        return [
            combine(
                self.reward_config,
                verdict,
                paint_fraction=fractions[i],
                dark_mass=dark[i],
                score=scores[i] if scorer_error is None else None,
                infra_error=scorer_error,
                sample_seed=seed_list[i],
            )
            for i in range(count)
        ]

    async def _evaluate(
        self,
        replies: Sequence[str | bytes],
        prompts: Sequence[str],
        seeds: Sequence[int] | int,
    ) -> list[Rollout]:
        count = len(replies)
        # Checked before any gating or rendering, so a bad seed fails the whole batch at once.
        seed_list = seed_list_of(seeds, count)
        if len(prompts) != count:
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
        rendered_at = dict(zip(to_render, rendered, strict=False))
        for i, done in rendered_at.items():
            renders[i] = done

        pictured = [
            i for i, done in rendered_at.items() if done.png is not None and done.status.has_picture
        ]
        images = [rendered_at[i].image() for i in pictured]
        measured_dark, measured_scores, scorer_error = await self._measure(
            images, [prompts[i] for i in pictured]
        )
        dark = dict(zip(pictured, measured_dark, strict=True))
        scores = dict(zip(pictured, measured_scores, strict=False))

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
                runtime=(
                    runtime_gate(
                        self.reward_config,
                        render.status.value,
                        render.api_calls,
                        (render.width, render.height),
                    )
                    if render is not None
                    else ()
                ),
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
