"""`HPSv3Scorer`: the main environment's client of the HPSv3 scoring service.

HPSv3 runs in its own virtual environment and process (``service.py``; docs/design.md §4 says why).
This client is all the main environment needs: it imports neither torch nor hpsv3, only
``httpx`` and Pillow. It merges concurrent ``score`` calls into batches (a GRPO group of 8
renders finishing together becomes one request), spreads requests round-robin over several
service URLs, retries infrastructure failures with exponential backoff, and reports them as
`ScorerUnavailableError` so the environment can turn them into ``None`` rewards instead of
zeros that the policy would learn from (docs/design.md §3.14).
"""

from __future__ import annotations

import asyncio
import base64
import io
import itertools
import math
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
from PIL import Image

from sketch_env.scoring.base import Score, ScorerUnavailableError, ScoreScale

#: Port ``sketch-env hpsv3 serve`` listens on unless told otherwise.
DEFAULT_PORT = 8765

#: How to start the service, quoted in every "unavailable" message.
START_HINT = (
    "start it with `sketch-env hpsv3 serve --model-dir DIR --checkpoint FILE --port {port}` "
    "(once per machine: `sketch-env hpsv3 setup`; see docs/hpsv3.md)"
)

# Level 1 instead of Pillow's default 6: a 600x600 render encodes several times faster and
# only grows by tens of kilobytes, which costs nothing on the loopback or a LAN.
_PNG_COMPRESS_LEVEL = 1


def normalize_url(url: str) -> str:
    """Returns ``url`` as ``http(s)://host:port`` without a trailing slash.

    Args:
        url: ``"http://host:port"``, ``"https://host"``, or a bare ``"host:port"``.

    Returns:
        The normalised base URL.

    Raises:
        ValueError: If ``url`` is empty or has no host.

    Examples:
        >>> normalize_url("127.0.0.1:8765")
        'http://127.0.0.1:8765'
    """
    url = url.strip()
    if not url:
        raise ValueError("an HPSv3 service URL is empty")
    if "://" not in url:
        url = "http://" + url
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"not an http(s) URL with a host: {url!r}")
    return url.rstrip("/")


def encode_png(image: Image.Image) -> str:
    """Encodes one picture as base64 PNG text, the service's wire format.

    Args:
        image: A PIL image; converted to RGB first (HPSv3 scores RGB).

    Returns:
        Base64 text of the PNG bytes.
    """
    if image.mode != "RGB":
        image = image.convert("RGB")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=_PNG_COMPRESS_LEVEL)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


@dataclass
class _Item:
    png_b64: str
    prompt: str
    future: asyncio.Future[Score]
    origin: int  # which score() call it came from


@dataclass
class _LoopState:
    """Everything bound to one event loop (an httpx client and futures cannot cross loops)."""

    client: httpx.AsyncClient
    pending: list[_Item] = field(default_factory=list)
    timer: asyncio.TimerHandle | None = None
    tasks: set[asyncio.Task[None]] = field(default_factory=set)


class HPSv3Scorer:
    """Scores pictures with HPSv3 through one or more running HPSv3 services.

    Implements the `Scorer` protocol: ``value`` is HPSv3's mean ``mu`` (unbounded; published
    model averages run from about -0.2 to 10.6) and ``sigma`` its uncertainty
    ``exp(log_sigma)``. Safe to call concurrently from one event loop; usable from several
    loops in turn (e.g. through `score_sync`), each getting its own connection pool.

    Args:
        urls: Service base URL(s): a list, or one string (several may be comma-separated).
            A bare ``host:port`` means ``http://host:port``.
        timeout_s: Timeout of one HTTP request (connect, write, read each). A CPU-only
            service or a cold GPU can take seconds per batch: keep it generous.
        max_batch: Most images per request. Concurrent calls are merged up to this size;
            a larger call is split. Match the service's ``--max-batch``.
        retries: Extra attempts after the first for infrastructure failures (connection
            errors, timeouts, 5xx). Each attempt goes to the next URL, round-robin.
        backoff_s: Delay before the first retry; it doubles with every further retry.
        coalesce_s: How long a call waits for concurrent calls to join its request.

    Raises:
        ValueError: If no URL is given or an argument is out of range.

    Examples:
        ```python
        scorer = HPSv3Scorer(["http://gpu-a:8765", "http://gpu-b:8765"])
        scores = await scorer.score([image], ["a peach hibiscus in loose watercolour"])
        scores[0].value, scores[0].sigma  # mu and exp(log_sigma)
        ```
    """

    name = "hpsv3"
    #: ``mu`` has no bounds; the range declared is where published models' averages lie
    #: (about -0.2 to 10.6), taken as 0-10 with full marks at 10, as the reward always read it.
    scale = ScoreScale(
        0.0, 10.0, 10.0, bounded=False, note="HPSv3 mu: unbounded; published averages -0.2-10.6"
    )

    def __init__(
        self,
        urls: list[str] | str,
        timeout_s: float = 60.0,
        max_batch: int = 8,
        retries: int = 1,
        backoff_s: float = 0.5,
        coalesce_s: float = 0.01,
    ) -> None:
        if isinstance(urls, str):
            urls = [u for u in urls.split(",") if u.strip()]
        self.urls = [normalize_url(u) for u in urls]
        if not self.urls:
            raise ValueError("HPSv3Scorer needs at least one service URL")
        if timeout_s <= 0 or max_batch < 1 or retries < 0 or backoff_s < 0 or coalesce_s < 0:
            raise ValueError(
                "timeout_s > 0, max_batch >= 1, retries >= 0, backoff_s >= 0, coalesce_s >= 0"
            )
        self.timeout_s = float(timeout_s)
        self.max_batch = int(max_batch)
        self.retries = int(retries)
        self.backoff_s = float(backoff_s)
        self.coalesce_s = float(coalesce_s)
        self._next_url = itertools.count()
        self._next_call = itertools.count()
        self._states: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopState] = (
            weakref.WeakKeyDictionary()
        )

    def __repr__(self) -> str:
        return (
            f"HPSv3Scorer(urls={self.urls!r}, max_batch={self.max_batch}, retries={self.retries})"
        )

    # -- public API ---------------------------------------------------------------------------

    async def score(self, images: Sequence[Image.Image], prompts: Sequence[str]) -> list[Score]:
        """Scores ``images[i]`` against ``prompts[i]``.

        Args:
            images: PIL pictures (converted to RGB).
            prompts: One prompt per picture.

        Returns:
            One `Score` per picture, in order, with ``value = mu`` and ``sigma``.

        Raises:
            ValueError: If the lengths differ, an item has the wrong type, or the service
                refused the input (4xx; the message is the service's).
            ScorerUnavailableError: If no service answered after the retries (connection
                refused, timeout, 5xx), naming the URLs and how to start the service.
        """
        if len(images) != len(prompts):
            raise ValueError(f"got {len(images)} images but {len(prompts)} prompts")
        if not images:
            return []
        for i, (image, prompt) in enumerate(zip(images, prompts, strict=True)):
            if not isinstance(image, Image.Image):
                raise ValueError(f"images[{i}] is a {type(image).__name__}, not a PIL image")
            if not isinstance(prompt, str):
                raise ValueError(f"prompts[{i}] is a {type(prompt).__name__}, not a string")
        encoded = await asyncio.to_thread(lambda: [encode_png(image) for image in images])
        loop = asyncio.get_running_loop()
        state = self._state(loop)
        futures = []
        origin = next(self._next_call)
        for png_b64, prompt in zip(encoded, prompts, strict=True):
            future = loop.create_future()
            state.pending.append(_Item(png_b64, prompt, future, origin))
            futures.append(future)
        if len(state.pending) >= self.max_batch or self.coalesce_s == 0:
            self._flush(state)
        elif state.timer is None:
            state.timer = loop.call_later(self.coalesce_s, self._flush, state)
        results = await asyncio.gather(*futures)
        return list(results)

    async def health(self) -> list[dict[str, Any]]:
        """Asks every service URL for ``/health``.

        Returns:
            One dict per URL: the service's answer plus ``"url"``, or ``{"url": ...,
            "error": "..."}`` for one that did not answer.
        """
        state = self._state(asyncio.get_running_loop())
        answers = []
        for url in self.urls:
            try:
                response = await state.client.get(url + "/health")
                response.raise_for_status()
                answers.append({"url": url, **response.json()})
            except (httpx.HTTPError, ValueError) as error:
                answers.append({"url": url, "error": f"{type(error).__name__}: {error}"})
        return answers

    async def aclose(self) -> None:
        """Closes the connection pool of the running event loop's state."""
        state = self._states.pop(asyncio.get_running_loop(), None)
        if state is not None:
            if state.timer is not None:
                state.timer.cancel()
            self._flush(state)
            if state.tasks:
                await asyncio.gather(*state.tasks, return_exceptions=True)
            await state.client.aclose()

    async def __aenter__(self) -> HPSv3Scorer:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # -- internals ----------------------------------------------------------------------------

    def _state(self, loop: asyncio.AbstractEventLoop) -> _LoopState:
        state = self._states.get(loop)
        if state is None:
            timeout = httpx.Timeout(self.timeout_s)
            # trust_env=False: the services sit on the loopback or the cluster network, and an
            # HTTP(S)_PROXY meant for the trainer's downloads must not route them. Keep-alive
            # (httpx's default pool) saves a TCP handshake per request.
            state = _LoopState(client=httpx.AsyncClient(timeout=timeout, trust_env=False))
            self._states[loop] = state
        return state

    def _flush(self, state: _LoopState) -> None:
        if state.timer is not None:
            state.timer.cancel()
            state.timer = None
        items, state.pending = state.pending, []
        items = [item for item in items if not item.future.done()]
        for start in range(0, len(items), self.max_batch):
            task = asyncio.get_running_loop().create_task(
                self._send(state, items[start : start + self.max_batch])
            )
            state.tasks.add(task)
            task.add_done_callback(state.tasks.discard)

    async def _send(self, state: _LoopState, items: list[_Item]) -> None:
        try:
            scores = await self._post_with_retries(state.client, items)
        except ValueError as error:
            origins = list(dict.fromkeys(item.origin for item in items))
            if len(origins) > 1:
                # One caller's bad input must not fail the callers it was merged with: resend
                # each caller's items alone, so each gets its own verdict.
                await asyncio.gather(
                    *(self._send(state, [i for i in items if i.origin == o]) for o in origins)
                )
            else:
                _fail(items, error)
            return
        except Exception as error:
            _fail(items, error)
            return
        for item, score in zip(items, scores, strict=True):
            if not item.future.done():
                item.future.set_result(score)

    async def _post_with_retries(
        self, client: httpx.AsyncClient, items: list[_Item]
    ) -> list[Score]:
        payload = {"prompts": [i.prompt for i in items], "images": [i.png_b64 for i in items]}
        failures: list[str] = []
        attempts = self.retries + 1
        for attempt in range(attempts):
            if attempt:
                await asyncio.sleep(self.backoff_s * 2 ** (attempt - 1))
            url = self.urls[next(self._next_url) % len(self.urls)]
            try:
                response = await client.post(url + "/score", json=payload)
            except httpx.TimeoutException as error:
                failures.append(
                    f"{url}: timed out after {self.timeout_s:g} s ({type(error).__name__})"
                )
                continue
            except httpx.TransportError as error:
                failures.append(f"{url}: {type(error).__name__}: {error or 'connection failed'}")
                continue
            if response.status_code >= 500:
                failures.append(f"{url}: HTTP {response.status_code}: {_detail(response)}")
                continue
            if response.status_code >= 400:
                # The caller sent something the service refuses: a bug to fix, not an outage.
                raise ValueError(f"HPSv3 service {url} refused the request: {_detail(response)}")
            return _parse_scores(url, response, len(items))
        port = urlsplit(self.urls[0]).port or DEFAULT_PORT
        raise ScorerUnavailableError(
            f"HPSv3 service unavailable after {attempts} attempt(s) on {', '.join(self.urls)}: "
            + "; ".join(failures)
            + ". If it is not running, "
            + START_HINT.format(port=port)
        )


def _fail(items: list[_Item], error: BaseException) -> None:
    for item in items:
        if not item.future.done():
            item.future.set_exception(error)


def _detail(response: httpx.Response) -> str:
    try:
        detail = response.json().get("detail")
    except (ValueError, AttributeError):
        detail = None
    return str(detail) if detail else response.text[:500] or response.reason_phrase


def _number(value: Any) -> float:
    return math.nan if value is None else float(value)


def _parse_scores(url: str, response: httpx.Response, expected: int) -> list[Score]:
    try:
        rows = response.json()["scores"]
        # The service sends null for a non-finite number (JSON has no NaN): read it as NaN.
        scores = [Score(value=_number(row["mu"]), sigma=_number(row["sigma"])) for row in rows]
    except (ValueError, KeyError, TypeError) as error:
        raise ScorerUnavailableError(
            f"HPSv3 service {url} sent a malformed answer: {error}"
        ) from None
    if len(scores) != expected:
        raise ScorerUnavailableError(
            f"HPSv3 service {url} sent {len(scores)} scores for {expected} images"
        )
    if not all(
        math.isfinite(s.value) and s.sigma is not None and math.isfinite(s.sigma) for s in scores
    ):
        raise ScorerUnavailableError(f"HPSv3 service {url} returned a non-finite score")
    return scores
