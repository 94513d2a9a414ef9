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
import logging
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from PIL import Image

from sketch_env.evaluation.config import EvaluationConfig
from sketch_env.evaluation.rollout import Rollout, sketch_errors
from sketch_env.gate.check import gate_reply
from sketch_env.gate.runtime import runtime_check
from sketch_env.gate.verdict import GateConfig, GateIssue, GateVerdict
from sketch_env.picture.measures import Picture, PictureMeasures, measure_picture
from sketch_env.render.base import seed_list as seed_list_of
from sketch_env.render.protocol import Renderer
from sketch_env.render.result import Render
from sketch_env.reward.breakdown import RewardBreakdown
from sketch_env.reward.combine import combine
from sketch_env.reward.config import RewardConfig
from sketch_env.reward.outcome import Facts, reaches_formula
from sketch_env.scoring.base import MeasuredScorer, Score, Scorer, ScorerUnavailableError, scale_of
from sketch_env.scoring.spec import DEFAULT_SCORER, make_scorer

__all__ = ["Evaluator", "Preview"]

T = TypeVar("T")

logger = logging.getLogger(__name__)


def _sketch_error(render: Render) -> str | None:
    """The sketch's failure in words that are the same on every replay: its status and its
    first own error, or the status's advice. The harness's notes (a timeout's CPU seconds, a
    memory peak) measure the machine and stay in ``render.errors``."""
    if not render.status.is_sketch_fault:
        return None
    first = next(iter(sketch_errors(render)), None) or render.status.advice
    return f"{render.status.value}: {first}" if first else render.status.value


@dataclass(frozen=True)
class Preview:
    """A reply gated, rendered and checked at run time, but not scored (`Evaluator.preview`).

    Args:
        gate: The gate's verdict.
        render: The render, or ``None`` when the gate refused the reply.
        refusals: What the run-time check refuses of the render (empty: it would be scored).
    """

    gate: GateVerdict
    render: Render | None
    refusals: tuple[GateIssue, ...] = ()

    @property
    def would_be_scored(self) -> bool:
        """Whether the reward would score this picture (gate and run-time check passed, and
        the render finished with a picture)."""
        return (
            self.gate.passed
            and self.render is not None
            and self.render.has_picture
            and not self.refusals
        )


@dataclass
class _Pictured:
    """One picture on its way to a score: decoded once, measured once (`Picture`)."""

    image: Image.Image
    prompt: str
    picture: Picture | None = None
    measures: PictureMeasures | None = None
    score: Score | None = None
    error: str | None = None


class Evaluator:
    """Gate, render, score and reward batches of replies.

    Args:
        renderer: A renderer (`SketchRenderer`, `RayRenderer`), or a spec for
            `sketch_env.distributed.make_renderer`: ``"local"``/``None`` for the process-wide
            `shared_renderer`, ``"ray://auto"`` or ``"ray://HOST:PORT"`` for a Ray cluster.
        scorer: A `Scorer` or a spec string (``"vision"``, the default;
            ``"hpsv3+http://host:port"``).
        reward_config: Weights and thresholds of the reward.
        gate_config: Which gate rules apply, statically and at run time.
        config: Everything above in one `EvaluationConfig` (then leave the others unset).

    Raises:
        ValueError: If ``config`` is given together with another argument.

    Examples:
        >>> evaluator = Evaluator(scorer="vision")  # doctest: +SKIP
        >>> [r.reward.reward for r in evaluator.evaluate_sync(replies, prompts, seeds=0)]
        >>> Evaluator(config=EvaluationConfig.load("eval.json"))  # doctest: +SKIP
    """

    def __init__(
        self,
        renderer: Renderer | str | None = None,
        scorer: Scorer | str = DEFAULT_SCORER,
        reward_config: RewardConfig | None = None,
        gate_config: GateConfig | None = None,
        *,
        config: EvaluationConfig | None = None,
    ) -> None:
        render_config = None
        pool_dir = None
        if config is not None:
            if (
                renderer is not None
                or scorer != DEFAULT_SCORER
                or reward_config is not None
                or gate_config is not None
            ):
                raise ValueError(
                    "pass either config or renderer/scorer/reward_config/gate_config, not both"
                )
            renderer, scorer = config.renderer, config.scorer
            reward_config, gate_config = config.reward, config.gate
            render_config = config.render
            pool_dir = config.pool_dir
        if renderer is None or isinstance(renderer, str):
            # "local" (the shared pool), "ray://auto", "ray://HOST:PORT": configuration alone
            # moves rendering onto a cluster for every front end built on the evaluator.
            from sketch_env.distributed import make_renderer

            options = {"config": render_config} if render_config is not None else {}
            renderer = make_renderer(renderer, **options)
        self.renderer: Renderer = renderer
        self.scorer = make_scorer(scorer, pool_dir=pool_dir)
        #: The scale the scorer states (`ScoreScale`), which the coverage quality ramp reads.
        self.scale = scale_of(self.scorer)
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
        seed_list = seed_list_of(seeds, count)
        if len(prompts) != count:
            raise ValueError(f"got {count} pictures, {len(prompts)} prompts, {count} seeds")
        verdict = gate or GateVerdict(passed=True)
        pictured = [
            _Pictured(image.convert("RGB"), prompt)
            for image, prompt in zip(images, prompts, strict=True)
        ]
        await self._score(pictured)
        return [
            combine(
                self.reward_config,
                verdict,
                paint_fraction=item.measures.coverage if item.measures is not None else None,
                measures=item.measures,
                score=item.score,
                infra_error=item.error,
                sample_seed=seed_list[i],
                scale=self.scale,
            )
            for i, item in enumerate(pictured)
        ]

    def _needs_score(self, render: Render, refusals: Sequence[GateIssue]) -> bool:
        """Whether the reward will use this render's score: the outcome ladder
        (`sketch_env.reward.outcome`) reaches the formula. Refused, failed or blank renders
        earn a fixed reward and are not sent to the scorer at all."""
        if not render.has_picture:
            return False
        facts = Facts(
            gate_passed=True,
            infra_error="renderer" if render.status.is_infrastructure_failure else None,
            refused=bool(refusals),
            sketch_error=render.status.value if render.status.is_sketch_fault else None,
            paint_fraction=render.paint_fraction,
        )
        return reaches_formula(self.reward_config, facts)

    async def _score(self, items: Sequence[_Pictured]) -> None:
        """Scores pictures in one batch, each failure kept to the picture it belongs to.

        Each picture is decoded and measured once (`Picture`, `measure_picture`, in threads):
        the reward's guards and terms read the measurements, and a `MeasuredScorer` scores from
        the same pass (the anchored scorer reads the paper and paint it found). A
        scorer that fails on the batch is asked again picture by picture, concurrently, so that
        one picture it cannot take (a judge answering 400 to an oversized image, say) costs
        only that rollout; every failure becomes that rollout's ``infra_error`` (reward
        ``None``), and is logged.
        """
        if not items:
            return
        # Text is read only where something uses it: the lettering guard or the scorer.
        reads = {name for guard in self.reward_config.guards for name in guard.reads}
        read_text = "text_fraction" in reads or getattr(self.scorer, "read_text", False)
        await asyncio.gather(*(asyncio.to_thread(self._measure, item, read_text) for item in items))
        try:
            scores = await self._ask_scorer(items)
            if len(scores) != len(items):
                raise ValueError(f"returned {len(scores)} scores for {len(items)} pictures")
        except Exception as exc:  # Any scorer failure is the environment's, never the policy's.
            if len(items) == 1:
                items[0].error = self._failure(exc)
            else:
                await asyncio.gather(*(self._score_one(item) for item in items))
        else:
            for item, score in zip(items, scores, strict=True):
                item.score = score
        failed = [item for item in items if item.error is not None]
        if failed:
            logger.warning(
                "scorer %s failed on %d of %d pictures (their reward is None): %s",
                self.scorer.name,
                len(failed),
                len(items),
                failed[0].error,
            )

    @staticmethod
    def _measure(item: _Pictured, read_text: bool) -> None:
        item.picture = Picture(item.image)
        item.measures = measure_picture(item.picture, read_text=read_text)

    async def _ask_scorer(self, items: Sequence[_Pictured]) -> list[Score]:
        prompts = [item.prompt for item in items]
        if isinstance(self.scorer, MeasuredScorer):
            pictures = [item.picture for item in items if item.picture is not None]
            measures = [item.measures for item in items if item.measures is not None]
            return await self.scorer.score_measured(pictures, measures, prompts)
        return await self.scorer.score([item.image for item in items], prompts)

    async def _score_one(self, item: _Pictured) -> None:
        try:
            (item.score,) = await self._ask_scorer([item])
        except Exception as exc:  # As in _score: kept to this picture.
            item.error = self._failure(exc)

    def _failure(self, exc: BaseException) -> str:
        if isinstance(exc, ScorerUnavailableError):
            return f"scorer {self.scorer.name} unavailable: {exc}"
        logger.error("scorer %s raised on a picture", self.scorer.name, exc_info=exc)
        return f"scorer {self.scorer.name} failed: {_describe(exc)}"

    async def preview(
        self, replies: Sequence[str | bytes], seeds: Sequence[int] | int = 0
    ) -> list[Preview]:
        """Gates, renders and checks replies at run time, without scoring them.

        What a tool that lets a policy look at its picture needs (the MCP ``render`` tool):
        the same gate, renderer and run-time rules as `evaluate`, and no scorer call.

        Args:
            replies: Model replies (fenced code or bare sketches).
            seeds: One render seed per reply, or one for all.

        Returns:
            One `Preview` per reply, in order.

        Raises:
            ValueError: If a seed is not valid or the lengths differ.
        """
        return await self._on_renderer_loop(self._preview(replies, seeds))

    async def _preview(
        self, replies: Sequence[str | bytes], seeds: Sequence[int] | int
    ) -> list[Preview]:
        seed_list = seed_list_of(seeds, len(replies))
        verdicts, renders, refusals = await self._gate_and_render(replies, seed_list)
        return [
            Preview(verdicts[i], renders.get(i), refusals.get(i, ())) for i in range(len(replies))
        ]

    async def _gate_and_render(
        self, replies: Sequence[str | bytes], seed_list: Sequence[int]
    ) -> tuple[list[GateVerdict], dict[int, Render], dict[int, tuple[GateIssue, ...]]]:
        """The gate, then every passing sketch rendered concurrently, then the run-time check."""
        # Gating parses with tree-sitter (up to ~0.7 s for a 256 KiB reply): off the loop.
        verdicts = await asyncio.gather(
            *(asyncio.to_thread(gate_reply, reply, self.gate_config) for reply in replies)
        )
        to_render = [i for i, v in enumerate(verdicts) if v.passed and v.source is not None]
        rendered = await asyncio.gather(
            *(self.renderer.render(verdicts[i].source or "", seed=seed_list[i]) for i in to_render)
        )
        renders: dict[int, Render] = dict(zip(to_render, rendered, strict=True))
        refusals = {i: runtime_check(render, self.gate_config) for i, render in renders.items()}
        return list(verdicts), renders, refusals

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
        verdicts, renders, refusals = await self._gate_and_render(replies, seed_list)
        # Each picture is decoded once, here, and handed to the scorer, the dark-mass measure
        # and the front ends (Rollout.picture): it used to be decoded up to four times.
        decoded = await asyncio.gather(
            *(asyncio.to_thread(renders[i].image) for i in renders if renders[i].has_picture)
        )
        pictures = dict(zip([i for i in renders if renders[i].has_picture], decoded, strict=True))
        scored = {
            i: _Pictured(pictures[i], prompts[i])
            for i, render in renders.items()
            if self._needs_score(render, refusals[i])
        }
        await self._score(list(scored.values()))

        rollouts = []
        for i in range(count):
            render = renders.get(i)
            item = scored.get(i)
            infra = None
            if render is not None and render.status.is_infrastructure_failure:
                infra = "; ".join(render.errors) or "the renderer crashed"
            elif item is not None:
                infra = item.error
            breakdown = combine(
                self.reward_config,
                verdicts[i],
                paint_fraction=render.paint_fraction if render is not None else None,
                measures=item.measures if item is not None else None,
                score=item.score if item is not None else None,
                sketch_error=_sketch_error(render) if render is not None else None,
                infra_error=infra,
                sample_seed=seed_list[i],
                runtime=refusals.get(i, ()),
                scale=self.scale,
            )
            rollouts.append(
                Rollout(
                    prompt=prompts[i],
                    seed=seed_list[i],
                    gate=verdicts[i],
                    render=render,
                    score=item.score if item is not None else None,
                    reward=breakdown,
                    scorer=self.scorer.name,
                    picture=pictures.get(i),
                )
            )
        return rollouts


def _describe(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
