"""`JudgeScorer`: a vision-language model, asked over HTTP, as the preference scorer.

Any server that speaks the OpenAI chat-completions API with image input will do: vLLM serving
Qwen2.5-VL or Qwen3-VL on a GPU machine, or a hosted API. Pictures travel as base64 PNG data
URLs in ``image_url`` content parts. Two modes:

- **pointwise**: the judge marks each picture 1-10 against a fixed rubric (`prompts`); the
  score is the mark.
- **pairwise**: the judge compares the picture with ``num_references`` reference paintings of
  the same task, each comparison asked in both orders (A/B and B/A) because judges favour
  whichever image comes first; a verdict that flips with the order counts 0.5. The score is
  the win-rate in ``[0, 1]``. Which references a rollout meets is seeded by the rollout
  (`references.rollout_seed`), so re-scoring the same rollout meets the same references.

Failures are kept apart by whose fault they are (docs/design.md §3.14):

- the judge could not be reached, timed out, or answered 429/5xx or a non-JSON body on every
  bounded retry → `ScorerUnavailableError` for the whole call (the environment turns it into
  ``None`` rewards);
- the judge answered but its reply could not be read (`parse`), even after asking again
  ``parse_retries`` times → that picture's score is NaN with the reason in ``meta["unscored"]``
  (`sketch_env.reward.combine` reads a non-finite score as an infrastructure failure:
  reward ``None``), never 0;
- the judge refused the request itself (400, 401, 403, 404, ...) → `JudgeRequestError`, a
  ``ValueError``: a wrong model name, URL or key is a setup bug to fix, not an outage to wait
  out.

The API key is read from an environment variable named by the caller (``api_key_env``), sent as
a bearer token, and kept out of ``repr``, logs and error messages (server text quoted in errors
is scrubbed of it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import random
import secrets
import weakref
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar
from urllib.parse import urlsplit

import httpx
from PIL import Image

from sketch_env.scoring.base import Score, ScorerUnavailableError, ScoreScale
from sketch_env.scoring.judge.parse import (
    UnreadableReplyError,
    Verdict,
    answer_key,
    parse_mark,
    parse_verdict,
)
from sketch_env.scoring.judge.prompts import (
    RUBRIC_VERSION,
    pairwise_messages,
    pointwise_messages,
    repair_messages,
)
from sketch_env.scoring.judge.references import (
    ReferenceImage,
    draw_references,
    encode_png,
    png_data_url,
    rollout_seed,
)

__all__ = ["MODES", "SCALES", "JudgeRequestError", "JudgeScorer", "Mode"]

logger = logging.getLogger(__name__)

Mode = Literal["pointwise", "pairwise"]
#: The judge's modes.
MODES: tuple[str, ...] = ("pointwise", "pairwise")
#: The judge's scale in each mode: pointwise marks 1-10, pairwise a win-rate over references.
SCALES: dict[str, ScoreScale] = {
    "pointwise": ScoreScale(1.0, 10.0, 10.0, note="the judge's mark, 1-10"),
    "pairwise": ScoreScale(0.0, 1.0, 1.0, note="win-rate against the reference pictures"),
}

T = TypeVar("T")

# Statuses worth retrying: rate limiting, a request timeout at a proxy, and server errors.
_TRANSIENT = {408, 429}


class JudgeRequestError(ScorerUnavailableError):
    """The judge refused the request (4xx other than 408/429): wrong model, URL, key or input.

    An infrastructure failure of the rollouts it hit (their reward is ``None``), never of the
    batch: one picture the server refuses (too many image tokens, say) must not cost the
    other seven of its group. A refusal of every picture is a setup problem, which the
    evaluation logs loudly and the command-line tools turn into a non-zero exit.
    """


class _Secret:
    """Holds the API key so that no ``repr``, ``vars()`` dump or f-string can show it."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "<secret>"

    __str__ = __repr__


@dataclass
class _Tally:
    """Counts for one picture's score metadata."""

    requests: int = 0
    parse_failures: int = 0
    served_model: str | None = None
    last_unreadable: str | None = None


@dataclass
class _LoopState:
    """What is bound to one event loop (an httpx client and a semaphore cannot cross loops)."""

    client: httpx.AsyncClient
    semaphore: asyncio.Semaphore


class JudgeScorer:
    """Scores pictures by asking a vision-language model through an OpenAI-compatible API.

    Implements the `Scorer` protocol. Pointwise ``value`` is the 1-10 mark; pairwise ``value``
    is the win-rate in ``[0, 1]`` against references of the picture's task. Every `Score`
    carries ``meta``: the judge's name, mode, model (as configured and as the server reported
    it), rubric version, request count, parse failures, and for pairwise the reference ids,
    the draw seed, comparisons used, split verdicts and ties. Safe to call concurrently from
    one event loop; usable from several loops in turn (each gets its own connection pool).

    Args:
        base_url: The API's base URL up to and including its version segment, e.g.
            ``"http://127.0.0.1:8000/v1"``; requests go to ``{base_url}/chat/completions``.
        model: The model name the server knows (vLLM: the served model name).
        mode: ``"pointwise"`` or ``"pairwise"``.
        references: Reference pictures for pairwise mode (see `render_reference_images`,
            `load_reference_images`); required there, ignored in pointwise mode.
        num_references: References per rollout in pairwise mode (K); each costs 2 requests.
        api_key_env: Name of the environment variable holding the API key (read once, now).
        api_key: The key itself, for code that already holds it; prefer ``api_key_env``.
        concurrency: Most requests in flight at once, over all concurrent ``score`` calls.
        timeout_s: Hard limit on one HTTP request, start to last byte.
        retries: Extra attempts per request after a transport failure, a timeout, 408/429,
            5xx or a non-JSON answer; the call raises `ScorerUnavailableError` after them.
        backoff_s: Delay before the first retry; doubles with each further one (with a little
            jitter), capped by ``max_backoff_s``. A 429's ``Retry-After`` is honoured up to
            that cap.
        max_backoff_s: Longest delay between two attempts.
        parse_retries: How many times an unreadable reply is answered with a request for the
            format; after that the picture is unscored (NaN).
        max_tokens: Reply length limit. Thinking models need more (e.g. 2048).
        temperature: Sampling temperature; 0 makes the judge as repeatable as the server
            allows.
        task_prompts: Pairwise mode: ``{prompt: task_id}`` for prompts that `score` is given
            without ``task_ids``. By default the shipped task set's prompts and the
            references' own prompts are known.
        trust_env: Let httpx read proxy settings from the environment (needed to reach a
            hosted API through a proxy); off by default so a proxy meant for downloads does
            not route a judge on the local network.
        max_image_side: Pictures are sent at most this many pixels a side (resized down
            keeping their shape). A 2048x2048 canvas is ~5,300 vision tokens for a
            Qwen2.5-VL-style model, over a ``--max-model-len 4096`` server, which answers 400;
            768 px is ~750 tokens and leaves the 600x600 canvas untouched.

    Raises:
        ValueError: On a bad URL or argument, pairwise mode without references, or an
            ``api_key_env`` naming an unset variable.

    Examples:
        ```python
        judge = JudgeScorer("http://gpu-box:8000/v1", "Qwen/Qwen2.5-VL-7B-Instruct")
        scores = await judge.score([picture], ["a peach hibiscus in loose watercolour"])
        scores[0].value, scores[0].to_dict()["meta"]
        ```
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        mode: Mode = "pointwise",
        references: Sequence[ReferenceImage] = (),
        num_references: int = 4,
        api_key_env: str | None = None,
        api_key: str | None = None,
        concurrency: int = 16,
        timeout_s: float = 60.0,
        retries: int = 3,
        backoff_s: float = 0.5,
        max_backoff_s: float = 8.0,
        parse_retries: int = 2,
        max_tokens: int = 256,
        temperature: float = 0.0,
        task_prompts: Mapping[str, str] | None = None,
        trust_env: bool = False,
        max_image_side: int = 768,
    ) -> None:
        parts = urlsplit(base_url.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(
                f"judge base_url must be an http(s)://host[:port]/... URL: {base_url!r}"
            )
        if parts.query or parts.fragment or parts.username or parts.password:
            raise ValueError("judge base_url must not carry a query, fragment or credentials")
        if not model or not model.strip():
            raise ValueError("the judge needs a model name")
        if mode not in MODES:
            raise ValueError(f"judge mode must be one of {MODES}, got {mode!r}")
        numbers = {
            "num_references": num_references >= 1,
            "concurrency": concurrency >= 1,
            "timeout_s": timeout_s > 0,
            "retries": retries >= 0,
            "backoff_s": backoff_s >= 0,
            "max_backoff_s": max_backoff_s >= backoff_s,
            "parse_retries": parse_retries >= 0,
            "max_tokens": max_tokens >= 1,
            "temperature": temperature >= 0,
            "max_image_side": max_image_side >= 16,
        }
        bad = [name for name, ok in numbers.items() if not ok]
        if bad:
            raise ValueError(f"JudgeScorer arguments out of range: {', '.join(bad)}")
        self.base_url = base_url.strip().rstrip("/")
        self.model = model.strip()
        self.mode: Mode = mode
        self.references = tuple(references)
        if mode == "pairwise" and not self.references:
            raise ValueError(
                "pairwise judging needs reference pictures: pass references= (see "
                "render_reference_images / load_reference_images) or refs=DIR in the spec"
            )
        ids = [r.id for r in self.references]
        if len(set(ids)) != len(ids):
            raise ValueError("reference ids must be unique")
        self.num_references = int(num_references)
        self.concurrency = int(concurrency)
        self.timeout_s = float(timeout_s)
        self.retries = int(retries)
        self.backoff_s = float(backoff_s)
        self.max_backoff_s = float(max_backoff_s)
        self.parse_retries = int(parse_retries)
        self.max_tokens = int(max_tokens)
        self.temperature = float(temperature)
        self.trust_env = bool(trust_env)
        self.max_image_side = int(max_image_side)
        self.api_key_env = api_key_env
        self._api_key = self._read_key(api_key_env, api_key)
        #: The judge's identity in results: mode, model and rubric version (a plain attribute,
        #: as the `Scorer` protocol declares it), e.g.
        #: ``"judge-pointwise:Qwen/Qwen2.5-VL-7B-Instruct@rubric1"``.
        self.name = f"judge-{self.mode}:{self.model}@rubric{RUBRIC_VERSION}"
        self.scale = SCALES[self.mode]
        self._task_prompts: dict[str, str] = {}
        if task_prompts is not None:
            self._task_prompts = {p.strip(): t for p, t in task_prompts.items()}
        elif mode == "pairwise":
            self._task_prompts = _known_task_prompts(self.references)
        # Encoded once: in pairwise mode every reference is sent many times per GRPO step.
        self._reference_urls = {r.id: r.data_url() for r in self.references}
        self._states: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopState] = (
            weakref.WeakKeyDictionary()
        )

    @staticmethod
    def _read_key(api_key_env: str | None, api_key: str | None) -> _Secret | None:
        if api_key_env is not None and api_key is not None:
            raise ValueError("give the judge's API key as api_key_env or api_key, not both")
        if api_key_env is not None:
            value = os.environ.get(api_key_env, "").strip()
            if not value:
                raise ValueError(
                    f"the judge's API key variable ${api_key_env} (api_key_env) is not set"
                )
            return _Secret(value)
        if api_key is not None:
            if not api_key.strip():
                raise ValueError("the judge's api_key is empty")
            return _Secret(api_key.strip())
        return None

    def __repr__(self) -> str:
        if self._api_key is None:
            key = "none"
        else:
            key = f"from ${self.api_key_env}" if self.api_key_env else "given"
        refs = f", references={len(self.references)}, k={self.num_references}"
        return (
            f"JudgeScorer(base_url={self.base_url!r}, model={self.model!r}, mode={self.mode!r}"
            f"{refs if self.mode == 'pairwise' else ''}, concurrency={self.concurrency}, "
            f"api_key={key})"
        )

    # -- public API ---------------------------------------------------------------------------

    async def score(
        self,
        images: Sequence[Image.Image],
        prompts: Sequence[str],
        *,
        task_ids: Sequence[str | None] | None = None,
        seeds: Sequence[int | None] | None = None,
    ) -> list[Score]:
        """Scores ``images[i]`` against ``prompts[i]``.

        All requests of the call run concurrently, at most ``concurrency`` at a time.

        Args:
            images: PIL pictures (converted to RGB).
            prompts: One prompt per picture.
            task_ids: Pairwise mode: each picture's task (``None`` entries, or no list, look
                the prompt up in ``task_prompts``).
            seeds: Pairwise mode: each picture's reference-draw seed (``None`` entries, or no
                list, use `rollout_seed` of the prompt and picture).

        Returns:
            One `Score` per picture, in order. A picture whose replies stayed unreadable gets
            ``value=nan`` and ``meta["unscored"]``.

        Raises:
            ValueError: If the lengths differ, an item has the wrong type, or (pairwise) a
                picture's task has no references or cannot be told from its prompt.
            JudgeRequestError: If the judge refused a request (4xx other than 408/429).
            ScorerUnavailableError: If the judge could not be reached or kept failing after
                the retries.
        """
        count = len(images)
        if len(prompts) != count:
            raise ValueError(f"got {count} images but {len(prompts)} prompts")
        for name, values in (("task_ids", task_ids), ("seeds", seeds)):
            if values is not None and len(values) != count:
                raise ValueError(f"got {count} images but {len(values)} {name}")
        for i, (image, prompt) in enumerate(zip(images, prompts, strict=True)):
            if not isinstance(image, Image.Image):
                raise ValueError(f"images[{i}] is a {type(image).__name__}, not a PIL image")
            if not isinstance(prompt, str):
                raise ValueError(f"prompts[{i}] is a {type(prompt).__name__}, not a string")
        if not count:
            return []

        plans: list[list[ReferenceImage]] = []
        draw_seeds: list[int] = []
        if self.mode == "pairwise":
            # Resolved before any request, so a caller's mistake costs no judge time.
            for i, (image, prompt) in enumerate(zip(images, prompts, strict=True)):
                task = task_ids[i] if task_ids is not None else None
                seed = seeds[i] if seeds is not None else None
                task = task or self._task_for(prompt)
                seed = rollout_seed(prompt, image) if seed is None else int(seed)
                draw_seeds.append(seed)
                plans.append(draw_references(self.references, task, self.num_references, seed))

        urls = await asyncio.to_thread(
            lambda: [png_data_url(encode_png(self._bounded(im))) for im in images]
        )
        state = self._state(asyncio.get_running_loop())
        if self.mode == "pointwise":
            jobs = [
                self._pointwise(state, prompt, url)
                for prompt, url in zip(prompts, urls, strict=True)
            ]
        else:
            jobs = [
                self._pairwise(state, prompt, url, refs, seed)
                for prompt, url, refs, seed in zip(prompts, urls, plans, draw_seeds, strict=True)
            ]
        return await _all_or_first_error(jobs)

    def _bounded(self, image: Image.Image) -> Image.Image:
        """The picture at most `max_image_side` a side, shape kept (never enlarged)."""
        side = max(image.size)
        if side <= self.max_image_side:
            return image
        scale = self.max_image_side / side
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        return image.convert("RGB").resize(size, Image.Resampling.LANCZOS)

    async def aclose(self) -> None:
        """Closes the running event loop's connection pool."""
        state = self._states.pop(asyncio.get_running_loop(), None)
        if state is not None:
            await state.client.aclose()

    async def __aenter__(self) -> JudgeScorer:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # -- modes --------------------------------------------------------------------------------

    def _meta(self, tally: _Tally, **extra: Any) -> tuple[tuple[str, Any], ...]:
        items: dict[str, Any] = {
            "judge": self.name,
            "mode": self.mode,
            "model": self.model,
            "served_model": tally.served_model,
            "rubric": RUBRIC_VERSION,
            "requests": tally.requests,
            "parse_failures": tally.parse_failures,
        }
        items.update(extra)
        return tuple(items.items())

    async def _pointwise(self, state: _LoopState, prompt: str, url: str) -> Score:
        tally = _Tally()
        mark = await self._ask(
            state, lambda key: pointwise_messages(prompt, url, key), parse_mark, tally, False
        )
        if mark is None:
            reason = f"reply unreadable after {tally.parse_failures} tries: {tally.last_unreadable}"
            return Score(value=math.nan, meta=self._meta(tally, unscored=reason))
        return Score(value=mark, meta=self._meta(tally))

    async def _pairwise(
        self, state: _LoopState, prompt: str, url: str, refs: list[ReferenceImage], seed: int
    ) -> Score:
        tally = _Tally()

        async def compare(ref: ReferenceImage) -> tuple[Verdict | None, Verdict | None]:
            ref_url = self._reference_urls[ref.id]
            # Both orders at once: the candidate shown first, then the reference first.
            first, second = await _all_or_first_error(
                [
                    self._ask(
                        state,
                        lambda key: pairwise_messages(prompt, url, ref_url, key),
                        parse_verdict,
                        tally,
                        True,
                    ),
                    self._ask(
                        state,
                        lambda key: pairwise_messages(prompt, ref_url, url, key),
                        parse_verdict,
                        tally,
                        True,
                    ),
                ]
            )
            return first, second

        results = await _all_or_first_error([compare(ref) for ref in refs])
        wins: list[float] = []
        splits = ties = dropped = 0
        for first, second in results:
            if first is None or second is None:
                # One order alone would bring back the position bias that asking both orders
                # cancels, so a comparison with an unreadable order is left out entirely.
                dropped += 1
                continue
            as_first = {"A": 1.0, "B": 0.0, "tie": 0.5}[first]
            as_second = {"A": 0.0, "B": 1.0, "tie": 0.5}[second]
            splits += as_first != as_second and "tie" not in (first, second)
            ties += (first == "tie") + (second == "tie")
            wins.append((as_first + as_second) / 2)
        meta = self._meta(
            tally,
            references=",".join(r.id for r in refs),
            seed=seed,
            comparisons=len(wins),
            dropped=dropped,
            splits=splits,
            ties=ties,
        )
        if not wins:
            reason = (
                f"no comparison readable in both orders ({tally.parse_failures} unreadable "
                f"replies; last: {tally.last_unreadable})"
            )
            return Score(value=math.nan, meta=(*meta, ("unscored", reason)))
        return Score(value=math.fsum(wins) / len(wins), meta=meta)

    async def _ask(
        self,
        state: _LoopState,
        build: Callable[[str], list[dict[str, Any]]],
        parse: Callable[[str, str], T],
        tally: _Tally,
        pairwise: bool,
    ) -> T | None:
        """One question, with bounded re-asking when the reply is unreadable.

        The answer key holds a nonce drawn now, after the picture was painted, so nothing in
        the picture can name it (`sketch_env.scoring.judge.parse`).
        """
        key = answer_key("winner" if pairwise else "mark", secrets.token_hex(6))
        messages = build(key)
        conversation = messages
        for _ in range(self.parse_retries + 1):
            reply, served = await self._complete(state, conversation)
            tally.requests += 1
            tally.served_model = served or tally.served_model
            try:
                return parse(reply, key)
            except UnreadableReplyError as error:
                tally.parse_failures += 1
                tally.last_unreadable = str(error)
                logger.debug("judge %s: unreadable reply (%s)", self.name, error)
                conversation = repair_messages(messages, reply, pairwise=pairwise, key=key)
        return None

    # -- HTTP ---------------------------------------------------------------------------------

    def _state(self, loop: asyncio.AbstractEventLoop) -> _LoopState:
        state = self._states.get(loop)
        if state is None:
            limits = httpx.Limits(
                max_connections=self.concurrency, max_keepalive_connections=self.concurrency
            )
            client = httpx.AsyncClient(
                timeout=httpx.Timeout(self.timeout_s), limits=limits, trust_env=self.trust_env
            )
            state = _LoopState(client=client, semaphore=asyncio.Semaphore(self.concurrency))
            self._states[loop] = state
        return state

    def _redact(self, text: str) -> str:
        """Server text quoted in errors, with the API key scrubbed out and length bounded."""
        text = text[:300]
        if self._api_key is not None:
            text = text.replace(self._api_key.reveal(), "***")
        return text

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        delay = self.backoff_s * 2 ** (attempt - 1)
        if retry_after is not None:
            delay = max(delay, retry_after)
        # A little jitter, so that many requests refused together do not return together.
        return float(min(self.max_backoff_s, delay * (1.0 + 0.1 * random.random())))

    async def _complete(
        self, state: _LoopState, messages: list[dict[str, Any]]
    ) -> tuple[str, str | None]:
        """POSTs one chat completion; returns ``(reply text, model the server reported)``."""
        url = self.base_url + "/chat/completions"
        payload = {
            "model": self.model,
            "messages": messages,
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
        }
        headers = {"Accept": "application/json"}
        if self._api_key is not None:
            headers["Authorization"] = f"Bearer {self._api_key.reveal()}"
        failures: list[str] = []
        retry_after: float | None = None
        for attempt in range(self.retries + 1):
            if attempt:
                # Sleep outside the semaphore: a request waiting to retry must not hold a slot
                # that a fresh request could use.
                await asyncio.sleep(self._delay(attempt, retry_after))
            retry_after = None
            async with state.semaphore:
                try:
                    # httpx's timeout bounds each read, not the whole answer; a server that
                    # trickles bytes must not hold a slot past the deadline either.
                    async with asyncio.timeout(self.timeout_s):
                        response = await state.client.post(url, json=payload, headers=headers)
                except (TimeoutError, httpx.TimeoutException):
                    failures.append(f"timed out after {self.timeout_s:g} s")
                    continue
                except httpx.TransportError as error:
                    failures.append(f"{type(error).__name__}: {error or 'connection failed'}")
                    continue
            status = response.status_code
            if status in _TRANSIENT or status >= 500:
                retry_after = _retry_after(response)
                failures.append(f"HTTP {status}: {self._redact(response.text)}")
                continue
            if status >= 400:
                raise JudgeRequestError(
                    f"judge {self.base_url} refused the request (HTTP {status}, model "
                    f"{self.model!r}): {self._redact(response.text)}"
                )
            try:
                return _reply_text(response)
            except ValueError as error:
                failures.append(self._redact(str(error)))
                continue
        detail = "; ".join(dict.fromkeys(failures))
        raise ScorerUnavailableError(
            f"judge {self.base_url} (model {self.model!r}) unavailable after "
            f"{self.retries + 1} attempt(s): {detail}. Is the server running? See docs/judge.md "
            "for the vLLM command line."
        )

    def _task_for(self, prompt: str) -> str:
        task = self._task_prompts.get(prompt.strip())
        if task is None:
            raise ValueError(
                f"pairwise judge: cannot tell the task of prompt {prompt[:80]!r}; pass "
                "task_ids= to score() or task_prompts= to JudgeScorer"
            )
        return task


def _known_task_prompts(references: Sequence[ReferenceImage]) -> dict[str, str]:
    """``{prompt: task_id}`` for the shipped task set and the references' own prompts."""
    table = {r.prompt.strip(): r.task_id for r in references if r.prompt}
    # Best effort: a broken task file only means fewer prompts are recognised (and `score`
    # then says to pass task_ids). Imported here, at construction, not inside `score`: the
    # first import of the environment package takes seconds and would stall the event loop.
    with contextlib.suppress(ImportError, ValueError, OSError):
        from sketch_env.catalog.tasks import load_tasks

        table.update({t.prompt.strip(): t.id for t in load_tasks()})
    return table


async def _all_or_first_error(jobs: Sequence[Awaitable[T]]) -> list[T]:
    """Runs jobs concurrently; on the first failure cancels the rest and raises that failure.

    Why not `asyncio.gather`: it lets the other jobs run on after one has failed, so a judge
    that is down would still be asked every remaining question, each waiting out its retries.
    """

    async def run(job: Awaitable[T]) -> T:
        return await job

    try:
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(run(job)) for job in jobs]
    except BaseExceptionGroup as failures:
        # Re-raise one plain exception: callers catch ScorerUnavailableError, not groups.
        # An unavailable judge explains everything else that failed with it, so it wins.
        errors = list(_leaves(failures))
        for error in errors:
            if isinstance(error, ScorerUnavailableError):
                raise error from None
        raise errors[0] from None
    return [task.result() for task in tasks]


def _leaves(group: BaseExceptionGroup) -> list[BaseException]:
    out: list[BaseException] = []
    for error in group.exceptions:
        out.extend(_leaves(error) if isinstance(error, BaseExceptionGroup) else [error])
    return out


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    try:
        seconds = float(value) if value is not None else None
    except ValueError:
        return None  # an HTTP date: rare from model servers, and the backoff covers it
    return seconds if seconds is not None and seconds >= 0 else None


def _reply_text(response: httpx.Response) -> tuple[str, str | None]:
    """The assistant's text from a chat-completions answer.

    Raises:
        ValueError: If the answer is not the protocol (wrong content type, not JSON, no
            choices): the server or something in front of it is broken, which is retried.
    """
    kind = response.headers.get("content-type", "")
    if "json" not in kind.lower():
        raise ValueError(f"answered with content type {kind or 'none'!r}, not JSON")
    try:
        data = response.json()
        message = data["choices"][0]["message"]
    except (ValueError, KeyError, IndexError, TypeError) as error:
        raise ValueError(f"answer is not a chat completion ({type(error).__name__})") from None
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, list):
        # Some servers return content parts even for plain text.
        content = "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    model = data.get("model") if isinstance(data, dict) else None
    # An empty or missing content (a reasoning model that ran out of tokens) is an unreadable
    # reply, handled by re-asking, not a broken server.
    return (content if isinstance(content, str) else ""), (str(model) if model else None)
