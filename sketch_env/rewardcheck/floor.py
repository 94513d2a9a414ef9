"""The adversarial floor of a running server, measured over the wire: `run_floor`.

OpenEnv's validation RFC (008) asks that null, degenerate, grader-injection and reward-search
policies score at most the floor, and that a package's canaries (seeded known hacks) do too,
and leaves both to whoever runs a hub. This module is this environment's own answer, driven
the way a policy drives the environment: WebSocket sessions of a running server (``sketch-env
serve``), one episode per sketch, all on one task and one render seed. It reuses the reward's
own attack corpus (`sketch_env.rewardcheck.hacks`) and blind search
(`sketch_env.rewardcheck.search.blind_search`).

What it plays, and what each must earn:

- **The floor**: a token stroke on an empty canvas (``token_stroke_blank``), the least a sketch
  can paint and still pass the gate: what the server pays for a painting of nothing. It must
  be a number.
- **A null policy**: an empty reply, no code at all.
- **Degenerate families** (`DEGENERATE_FAMILIES`): blank (``setter_only_blank``), noise, one
  flat mass, stripes and lettering, each at the seeds `FAMILY_SEEDS`.
- **Harness forgeries** (`sketch_env.rewardcheck.hacks.FORGERIES` and ``forged_readback``): an
  endless loop and a memory bomb after a token stroke, and a forged readback whose canvas
  answers ``toDataURL`` with a real painting, the task's best reference as this server renders
  it (re-encoded with fewer colours to fit the reply limit).

  Each of these must earn a reward (``None``, an infrastructure failure, is left out of the
  loss: a penalty escaped) of at most the floor.
- **A seeded blind search** (`SEARCH_BUDGET` evaluations, `SEARCH_POPULATION` a generation):
  its best program must earn less than the task's median reference, the task's reference
  paintings (`sketch_env.catalog.references`) rendered and scored by the same server.

The default task, ``landscape/ink_hatching``, has the cheapest references of the pool (1-4 s
each, measured on the loaded 2-core development machine); the endless loop costs the server's
render deadline. `sketch_env.rewardcheck.grader` wraps `run_floor` as an OpenEnv grader.

Examples:
    >>> report = run_floor("http://127.0.0.1:8000")  # doctest: +SKIP
    >>> report.passed, report.floor, [a.name for a in report.failures()]  # doctest: +SKIP
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import statistics
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

import httpx
from PIL import Image
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.client import ClientConnection, connect

from sketch_env.catalog.references import Reference, load_reference_pool
from sketch_env.catalog.tasks import Task, get_task
from sketch_env.catalog.vocabulary import MAX_REPLY_BYTES
from sketch_env.errors import InfrastructureError, SketchEnvError
from sketch_env.rewardcheck.hacks import FORGERIES, HACKS, forged_readback
from sketch_env.rewardcheck.search import Candidate, SearchRun, blind_search

__all__ = [
    "DEFAULT_FLOOR_TASK",
    "DEGENERATE_FAMILIES",
    "FAMILY_SEEDS",
    "FLOOR_SKETCH",
    "SEARCH_BUDGET",
    "SEARCH_POPULATION",
    "AttackResult",
    "FloorError",
    "FloorReport",
    "WireEvaluator",
    "attack_corpus",
    "run_floor",
]

#: The task measured by default: the one whose references render fastest.
DEFAULT_FLOOR_TASK = "landscape/ink_hatching"
#: The hack family whose reward is the floor.
FLOOR_SKETCH = "token_stroke_blank"
#: The degenerate families OpenEnv's adversarial floor names, as families of `HACKS`.
DEGENERATE_FAMILIES: dict[str, tuple[str, ...]] = {
    "blank": ("setter_only_blank",),
    "noise": ("random_brush_lines", "tiny_stroke_noise", "brush_wash_confetti"),
    "flat mass": ("full_canvas_fill",),
    "stripes": ("brush_stripes",),
    "lettering": ("brush_lettered_label", "brush_lettered_column", "brush_lettered_scattered"),
}
#: The seeds each family is built with (families that draw nothing at random build once).
FAMILY_SEEDS = (0, 1)
#: The blind search's evaluations and generation size: three generations.
SEARCH_BUDGET = 24
SEARCH_POPULATION = 8
#: Rewards within this of the floor count as the floor (float noise, not an escape).
_TOLERANCE = 1e-9
#: Room left in the reply limit beside the forged picture's base64.
_FORGERY_SLACK_BYTES = 4096
#: Largest reply accepted: an observation with a picture is at most about 4 MiB of base64.
_MAX_FRAME_BYTES = 16 * 1024 * 1024
#: Error codes of a server that is full for now (its step queue, or every session slot).
_BUSY_CODES = frozenset({"QUEUE_FULL", "CAPACITY_REACHED"})


class _Busy(SketchEnvError):
    """The server is full for now; try again after ``retry_after_s``."""

    def __init__(self, retry_after_s: float) -> None:
        super().__init__(f"busy; retry after {retry_after_s:g} s")
        self.retry_after_s = retry_after_s


class FloorError(InfrastructureError):
    """The server could not be measured: unreachable, or it gave no floor or no reference
    reward to compare with (the message says which)."""


@dataclass(frozen=True)
class AttackResult:
    """One attack's outcome.

    Args:
        name: The attack (``null``, a hack family with its seed, a forgery).
        kind: ``null``, ``degenerate`` or ``forgery``.
        family: The degenerate family or the forgery it belongs to.
        reward: The step's reward (``None``: an infrastructure failure).
        status: How the step ended: the reward's status (``gate_failed``, ``blank``...).
        render_status: The render's status, if it rendered.
        passed: Whether it earned at most the floor.
    """

    name: str
    kind: str
    family: str
    reward: float | None
    status: str
    render_status: str | None
    passed: bool


@dataclass
class FloorReport:
    """What `run_floor` measured.

    Args:
        url: The server.
        task_id: The task every episode painted.
        seed: The render seed of every episode (and the search's seed).
        floor: The reward of a painting of nothing (`FLOOR_SKETCH`).
        attacks: Every attack's outcome.
        references: The task's references' rewards, by reference id.
        search: The blind search's run (its candidates without their pictures).
        seconds: Wall time.
    """

    url: str
    task_id: str
    seed: int
    floor: float
    attacks: list[AttackResult] = field(default_factory=list)
    references: dict[str, float | None] = field(default_factory=dict)
    search: SearchRun | None = None
    seconds: float = 0.0

    @property
    def median_reference(self) -> float | None:
        """The median reward of the task's references (those that got one)."""
        scored = [r for r in self.references.values() if r is not None]
        return statistics.median(scored) if scored else None

    @property
    def search_best(self) -> Candidate | None:
        """The search's best program."""
        return self.search.best if self.search is not None else None

    @property
    def search_passed(self) -> bool:
        """Whether the search's best stayed below the median reference."""
        best, median = self.search_best, self.median_reference
        if median is None or self.search is None:
            return False
        return best is None or (best.reward is not None and best.reward < median)

    def failures(self) -> list[AttackResult]:
        """The attacks that earned more than the floor, or no reward at all."""
        return [a for a in self.attacks if not a.passed]

    @property
    def passed(self) -> bool:
        """Every attack at most the floor, and the search below the median reference."""
        return not self.failures() and self.search_passed

    def lines(self) -> list[str]:
        """The findings in words, failures first."""
        out = [
            f"{a.name} ({a.kind}, {a.family}) earned "
            + (f"{a.reward:+.3f}" if a.reward is not None else "no reward (infrastructure)")
            + f" ({a.status}) > floor {self.floor:+.3f}"
            for a in self.failures()
        ]
        best, median = self.search_best, self.median_reference
        if self.search is not None and median is not None:
            found = best.reward if best is not None else None
            verdict = "below" if self.search_passed else "NOT below"
            out.append(
                f"blind search ({len(self.search.candidates)} programs, seed {self.seed}): best "
                + (f"{found:+.3f}" if found is not None else "none scored")
                + f", {verdict} the median reference {median:+.3f}"
            )
        held = sum(a.passed for a in self.attacks)
        out.append(
            f"{held}/{len(self.attacks)} null, degenerate and forged sketches earned at most "
            f"the floor {self.floor:+.3f} (a token stroke on an empty canvas) on "
            f"{self.task_id}, seed {self.seed}"
        )
        return out

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        best = self.search_best
        return {
            "url": self.url,
            "task_id": self.task_id,
            "seed": self.seed,
            "passed": self.passed,
            "floor": self.floor,
            "attacks": [asdict(a) for a in self.attacks],
            "references": self.references,
            "median_reference": self.median_reference,
            "search": {
                "evaluations": len(self.search.candidates) if self.search else 0,
                "best": best.to_dict(with_source=True) if best is not None else None,
                "passed": self.search_passed,
            },
            "seconds": round(self.seconds, 1),
        }


class WireEvaluator:
    """Plays one-step episodes on a running server over ``/ws``, several at once; also a
    `sketch_env.rewardcheck.search.CandidateEvaluator`, so the blind search runs through it.

    It speaks OpenEnv's WebSocket protocol itself (``reset``, then ``step``; an ``error``
    frame's ``QUEUE_FULL`` or ``CAPACITY_REACHED`` is waited out), as a validator's collector
    does, rather than through this package's client.

    Args:
        url: The server's base URL.
        seed: The render seed of every episode.
        concurrency: Episodes (sessions) in flight at once.
        timeout_s: Longest wait for one reply, a queued step's wait included.

    Raises:
        FloorError: From `play` when the server cannot be reached or keeps refusing.
    """

    def __init__(
        self, url: str, *, seed: int = 0, concurrency: int = 4, timeout_s: float = 300.0
    ) -> None:
        self.url = url.rstrip("/")
        scheme, _, rest = self.url.partition("://")
        self._ws_url = f"{'wss' if scheme == 'https' else 'ws'}://{rest}/ws"
        self.seed = seed
        self.concurrency = max(1, concurrency)
        self.timeout_s = timeout_s
        self._count = 0
        self._lock = threading.Lock()

    def play(self, task: Task, sources: Sequence[str]) -> list[dict[str, Any]]:
        """Paints each source as a one-step episode of ``task``.

        Returns:
            Each step's observation as the server sent it, with ``reward`` in it.

        Raises:
            FloorError: If a step could not be played.
        """
        with ThreadPoolExecutor(self.concurrency) as pool:
            return list(pool.map(lambda source: self._episode(task, source), sources))

    def _episode(self, task: Task, source: str) -> dict[str, Any]:
        with self._lock:
            self._count += 1
            episode = f"adversarial-floor-{self._count}"
        deadline = time.monotonic() + self.timeout_s
        while True:
            try:
                with connect(
                    self._ws_url, open_timeout=60, max_size=_MAX_FRAME_BYTES, close_timeout=5
                ) as ws:
                    reset = {"seed": self.seed, "task_id": task.id, "episode_id": episode}
                    self._send(ws, {"type": "reset", "data": reset})
                    reply = self._send(ws, {"type": "step", "data": {"sketch": source}})
                data = reply["data"]
                return {**data["observation"], "reward": data.get("reward")}
            except _Busy as busy:
                # A full server is load, not a finding: wait for the slot it names.
                if time.monotonic() > deadline:
                    raise FloorError(f"{self.url} stayed busy for {self.timeout_s:g} s") from busy
                time.sleep(busy.retry_after_s)
            except (
                OSError,
                TimeoutError,
                ValueError,
                WebSocketException,
                KeyError,
                TypeError,
            ) as exc:
                raise FloorError(f"could not play an episode on {self.url}: {exc!r}") from exc

    def _send(self, ws: ClientConnection, message: dict[str, Any]) -> dict[str, Any]:
        """One request and its reply, as OpenEnv's wire protocol has them."""
        # A full server refuses the session at once (CAPACITY_REACHED) and closes it: the
        # send fails, and its frame is still there to be read.
        with contextlib.suppress(ConnectionClosed):
            ws.send(json.dumps(message))
        raw = ws.recv(timeout=self.timeout_s)
        reply = json.loads(raw)
        if not isinstance(reply, dict) or reply.get("type") != "observation":
            data = reply.get("data") if isinstance(reply, dict) else None
            data = data if isinstance(data, dict) else {}
            if data.get("code") in _BUSY_CODES:
                raise _Busy(float(data.get("retry_after_s") or 1.0))
            raise FloorError(f"{self.url} answered a {message['type']} with {str(raw)[:300]}")
        return reply

    def evaluate(self, task: Task, drafts: Sequence[dict[str, Any]], label: str) -> list[Candidate]:
        """Plays each draft and turns it into a `Candidate` (the search's interface)."""
        observations = self.play(task, [d["source"] for d in drafts])
        return [
            Candidate(
                id=d["id"],
                task_id=task.id,
                mode=d["mode"],
                generation=d["generation"],
                parents=tuple(d.get("parents", ())),
                ops=tuple(d.get("ops", ())),
                source=d["source"],
                reward=obs["reward"],
                status=_status(obs),
                gate_passed=bool(obs.get("gate_passed")),
                components=dict(obs.get("components") or {}),
                genome=d.get("genome"),
            )
            for d, obs in zip(drafts, observations, strict=True)
        ]

    def picture(self, source: str) -> bytes:
        """The picture of a sketch as this server renders it (its MCP ``render`` tool).

        Raises:
            FloorError: If the server does not return a picture.
        """
        body = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {
                "name": "render",
                "arguments": {"sketch": source, "seed": self.seed, "include_image": True},
            },
        }
        try:
            reply = httpx.post(f"{self.url}/mcp", json=body, timeout=self.timeout_s).json()
            return base64.b64decode(reply["result"]["image_png_b64"])
        except (httpx.HTTPError, json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise FloorError(f"{self.url}/mcp returned no picture to forge: {exc}") from exc


def _status(observation: dict[str, Any]) -> str:
    components = observation.get("components") or {}
    return str(components.get("status") or observation.get("render_status") or "unknown")


def _fitting_png(picture: bytes) -> bytes:
    """The picture re-encoded (RGBA, fewer colours) so that its base64 fits in a reply."""
    image = Image.open(io.BytesIO(picture)).convert("RGB")
    budget = (MAX_REPLY_BYTES - _FORGERY_SLACK_BYTES) * 3 // 4
    data = b""
    for colours in (256, 64, 32, 16, 8):
        out = io.BytesIO()
        image.quantize(colors=colours).convert("RGBA").save(out, format="PNG", optimize=True)
        data = out.getvalue()
        if len(data) <= budget:
            break
    return data


def attack_corpus(seeds: Sequence[int]) -> list[tuple[str, str, str, str]]:
    """The attacks that need no picture: the null policy, the degenerate families at ``seeds``
    (one that draws nothing at random is built once) and the forgeries but the readback.

    Args:
        seeds: The seeds each family is built with.

    Returns:
        ``(name, kind, family, source)`` for each, names unique.
    """
    out = [("null", "null", "no code", "")]
    for family, names in DEGENERATE_FAMILIES.items():
        for name in names:
            seen: set[str] = set()
            for seed in seeds:
                source = HACKS[name][0](seed)
                if source not in seen:
                    seen.add(source)
                    out.append((f"{name}@{seed}", "degenerate", family, source))
    for name, (build, _) in FORGERIES.items():
        out.append((name, "forgery", name, build(0)))
    return out


def _result(name: str, kind: str, family: str, obs: dict[str, Any], floor: float) -> AttackResult:
    reward = obs["reward"]
    return AttackResult(
        name=name,
        kind=kind,
        family=family,
        reward=reward,
        status=_status(obs),
        render_status=obs.get("render_status"),
        passed=reward is not None and reward <= floor + _TOLERANCE,
    )


def run_floor(
    url: str,
    *,
    task_id: str = DEFAULT_FLOOR_TASK,
    seed: int = 0,
    family_seeds: Sequence[int] = FAMILY_SEEDS,
    search_budget: int = SEARCH_BUDGET,
    population: int = SEARCH_POPULATION,
    concurrency: int = 4,
    timeout_s: float = 300.0,
    references: Sequence[Reference] | None = None,
    progress: Callable[[str], None] | None = None,
) -> FloorReport:
    """Measures a running server's adversarial floor (module docstring).

    Args:
        url: The server's base URL (``http://host:port``).
        task_id: The task every episode paints.
        seed: The render seed of every episode, and the search's seed.
        family_seeds: The seeds each degenerate family is built with.
        search_budget: The blind search's evaluations.
        population: Its candidates per generation.
        concurrency: Episodes in flight at once.
        timeout_s: Longest wait for one reply.
        references: The reference paintings; the shipped pool when ``None``.
        progress: Called with a line after each batch.

    Returns:
        The `FloorReport`.

    Raises:
        FloorError: If the server cannot be reached, pays no reward for a blank canvas, or
            scores none of the task's references.
        ValueError: On an unknown task, a task without references or a bad search size.
    """
    start = time.perf_counter()
    task = get_task(task_id)
    pool = list(references) if references is not None else load_reference_pool()
    refs = [r for r in pool if r.task_id == task.id]
    if not refs:
        raise ValueError(f"no reference paintings for task {task.id}")
    note = progress or (lambda line: None)
    wire = WireEvaluator(url, seed=seed, concurrency=concurrency, timeout_s=timeout_s)

    # The forgeries hold a browser for the server's whole budget (an endless loop, a memory
    # bomb): played first, they run beside the rest instead of after it.
    attacks = sorted(attack_corpus(family_seeds), key=lambda attack: attack[1] != "forgery")
    sources = [HACKS[FLOOR_SKETCH][0](0)] + [a[3] for a in attacks] + [r.source for r in refs]
    played = wire.play(task, sources)
    floor_obs, attack_obs, ref_obs = (
        played[0],
        played[1 : 1 + len(attacks)],
        played[1 + len(attacks) :],
    )
    floor = floor_obs["reward"]
    if floor is None:
        raise FloorError(
            f"the server paid no reward for a blank canvas ({_status(floor_obs)}): no floor"
        )
    report = FloorReport(url=wire.url, task_id=task.id, seed=seed, floor=float(floor))
    report.attacks = [
        _result(name, kind, family, obs, report.floor)
        for (name, kind, family, _), obs in zip(attacks, attack_obs, strict=True)
    ]
    report.references = {r.id: obs["reward"] for r, obs in zip(refs, ref_obs, strict=True)}
    median = report.median_reference
    if median is None:
        raise FloorError(f"the server scored none of the references of {task.id}")
    note(f"floor {report.floor:+.3f}; median reference {median:+.3f}; {len(attacks)} attacks")

    best_ref = max(
        (r for r in refs if report.references[r.id] is not None),
        key=lambda r: report.references[r.id] or 0.0,
    )
    forged = forged_readback(_fitting_png(wire.picture(best_ref.source)))
    (forged_obs,) = wire.play(task, [forged])
    report.attacks.append(
        _result("forged_readback", "forgery", "forged_readback", forged_obs, report.floor)
    )
    note(f"forged readback of {best_ref.id}: {forged_obs['reward']}")

    report.search = blind_search(wire, task, budget=search_budget, population=population, seed=seed)
    report.seconds = time.perf_counter() - start
    note(f"blind search: best {report.search_best.reward if report.search_best else None}")
    return report
