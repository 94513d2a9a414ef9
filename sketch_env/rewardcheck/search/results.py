"""What the search found: `SearchReport` and its parts, their JSON form, and the saturation
analysis.

A `SearchReport` holds one `TaskSearch` per task: the task's references (evaluated against the
task's prompt), one `SearchRun` per mode with every `Candidate` and the trajectory
(`GenerationStats`), the adversarial gap (best found − median reference), and which reward
components and scorer terms the top candidates saturated (`TermSaturation`). It is written
with `write_search_json` and read back with `load_search_report`;
`sketch_env.rewardcheck.report` draws its table and page.
"""

from __future__ import annotations

import hashlib
import io
import json
import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from sketch_env.catalog.tasks import Task
from sketch_env.reward.breakdown import component_value
from sketch_env.rewardcheck.search.genome import Genome, Mark
from sketch_env.scoring.spec import EMBEDDED_SCORERS, spec_scale

__all__ = [
    "FINDS",
    "PREFERENCE_CAPS",
    "Candidate",
    "GenerationStats",
    "SearchReport",
    "SearchRun",
    "TaskSearch",
    "TermSaturation",
    "best_first",
    "keep_best_pictures",
    "load_search_report",
    "record_batch",
    "write_search_json",
]

#: The run that replays the pool's finds (`sketch_env.catalog.finds`) on each task searched:
#: not a search, so its evaluations are not the search's.
FINDS = "finds"


@dataclass
class Candidate:
    """One evaluated program: a search candidate or a reference.

    Args:
        id: Unique within the report, e.g. ``flowers/watercolour/blind/g2/c05``.
        task_id: The task it was scored for.
        mode: ``blind``, ``references`` or ``reference`` (a reference painting itself).
        generation: Its generation (0 for the first; references are generation 0 of the
            ``references`` run and outside the budget).
        parents: The ids it was bred from.
        ops: The operators that made it (``random`` for a fresh genome, ``crossover``...).
        source: The sketch.
        reward: Its reward (``None`` for an infrastructure failure).
        status: How its rollout ended (`RolloutStatus` value).
        gate_passed: Whether the gate passed it.
        components: The reward's breakdown (`RewardBreakdown.to_dict`).
        render_ms: Its render time, if it rendered.
        genome: The genome (blind search only).
        image: Path of its picture relative to the output folder, once saved.
        png: The picture, kept in memory for the best candidates only.
    """

    id: str
    task_id: str
    mode: str
    generation: int
    parents: tuple[str, ...]
    ops: tuple[str, ...]
    source: str
    reward: float | None
    status: str
    gate_passed: bool
    components: dict[str, Any]
    render_ms: float | None = None
    genome: Genome | None = None
    image: str | None = None
    png: bytes | None = field(default=None, repr=False)
    source_sha: str = ""

    def picture(self) -> Image.Image | None:
        """Its picture, decoded (``None`` once dropped, or when it painted none)."""
        if self.png is None:
            return None
        return Image.open(io.BytesIO(self.png)).convert("RGB")

    @property
    def sha(self) -> str:
        """The first 16 hex digits of the source's SHA-256 (as recorded, for a candidate read
        back from a report without its source)."""
        if self.source_sha and not self.source:
            return self.source_sha
        return hashlib.sha256(self.source.encode("utf-8")).hexdigest()[:16]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Candidate:
        """Reads back `to_dict`'s view (without the picture's bytes)."""
        genome = data.get("genome")
        return cls(
            id=data["id"],
            task_id=data["task_id"],
            mode=data["mode"],
            generation=data["generation"],
            parents=tuple(data["parents"]),
            ops=tuple(data["ops"]),
            source=data.get("source") or "",
            reward=data["reward"],
            status=data["status"],
            gate_passed=data["gate_passed"],
            components=data["components"],
            render_ms=data.get("render_ms"),
            genome=_genome_from_dict(genome) if genome else None,
            image=data.get("image"),
            source_sha=data.get("sha", ""),
        )

    def to_dict(self, *, with_source: bool = False) -> dict[str, Any]:
        """A JSON-ready view; the source (and genome) only when asked for."""
        out: dict[str, Any] = {
            "id": self.id,
            "task_id": self.task_id,
            "mode": self.mode,
            "generation": self.generation,
            "parents": list(self.parents),
            "ops": list(self.ops),
            "sha": self.sha,
            "reward": self.reward,
            "status": self.status,
            "gate_passed": self.gate_passed,
            "render_ms": self.render_ms,
            "image": self.image,
            "components": self.components,
        }
        if with_source:
            out["source"] = self.source
            out["genome"] = self.genome.to_dict() if self.genome is not None else None
        return out


@dataclass
class GenerationStats:
    """One generation of one run.

    Args:
        generation: Its index.
        evaluated: Candidates evaluated in it.
        best: The best reward in it.
        median: The median reward in it (over candidates with a reward).
        best_so_far: The best reward up to and including it.
        gate_failed: Candidates the gate refused.
        infra_failed: Candidates with no reward (infrastructure failures).
        seconds: Wall time of its batch.
    """

    generation: int
    evaluated: int
    best: float | None
    median: float | None
    best_so_far: float | None
    gate_failed: int
    infra_failed: int
    seconds: float


@dataclass
class SearchRun:
    """One search (one mode) on one task.

    Args:
        task_id: The task.
        mode: ``blind`` or ``references``.
        budget: Evaluations it was given.
        population: Candidates per generation.
        candidates: Every candidate it evaluated, in order.
        generations: The trajectory.
        seconds: Wall time.
        stopped_early: The search ended before its budget: it found nothing new to evaluate
            (the composed search, when its population holds only compositions it rendered),
            or it spent its allowance of pictures scored offline.
        offline_scored: Compositions the composed search scored as pictures (0 for the
            other modes).
    """

    task_id: str
    mode: str
    budget: int
    population: int
    candidates: list[Candidate] = field(default_factory=list)
    generations: list[GenerationStats] = field(default_factory=list)
    seconds: float = 0.0
    stopped_early: bool = False
    offline_scored: int = 0

    def ranked(self) -> list[Candidate]:
        """Candidates with a reward, best first (ties: the earlier first)."""
        return best_first(self.candidates)

    @property
    def best(self) -> Candidate | None:
        """The best candidate, or ``None`` when none got a reward."""
        ranked = self.ranked()
        return ranked[0] if ranked else None

    def status_counts(self) -> dict[str, int]:
        """How the candidates' rollouts ended, counted."""
        counts: dict[str, int] = {}
        for c in self.candidates:
            counts[c.status] = counts.get(c.status, 0) + 1
        return dict(sorted(counts.items()))

    def to_dict(self, keep: int) -> dict[str, Any]:
        """A JSON-ready view; the ``keep`` best candidates carry their source."""
        top = {c.id for c in self.ranked()[:keep]}
        best = self.best
        return {
            "task_id": self.task_id,
            "mode": self.mode,
            "budget": self.budget,
            "population": self.population,
            "evaluations": len(self.candidates),
            "stopped_early": self.stopped_early,
            "offline_scored": self.offline_scored,
            "seconds": round(self.seconds, 1),
            "best": best.to_dict(with_source=True) if best is not None else None,
            "status_counts": self.status_counts(),
            "generations": [asdict(g) for g in self.generations],
            "candidates": [c.to_dict(with_source=c.id in top) for c in self.candidates],
        }


@dataclass
class TermSaturation:
    """How one reward component or scorer term stands in the top candidates of a task.

    Args:
        name: The quantity: a breakdown field (``coverage_term``, ``preference``,
            ``dark_mass_penalty``, ``pairwise_prob``) or ``scorer:NAME`` for a scorer term.
        cap: The value at which it saturates (its best value: 0 for a penalty), or ``None``
            when no cap is known (then nothing is counted as saturated).
        top_mean: Its mean over the top candidates.
        reference_mean: Its mean over the task's references.
        at_cap: How many of the top candidates have it at the cap (within 0.001).
        top: How many top candidates were looked at.
    """

    name: str
    cap: float | None
    top_mean: float | None
    reference_mean: float | None
    at_cap: int
    top: int

    @property
    def saturated(self) -> bool:
        """Whether every top candidate has it at its cap."""
        return self.cap is not None and self.top > 0 and self.at_cap == self.top


@dataclass
class TaskSearch:
    """Everything the search found on one task.

    Args:
        task: The task.
        references: Its references, evaluated against the task's prompt.
        runs: One `SearchRun` per mode.
        seconds: Wall time (references and runs).
        preference_cap: The scorer's maximum (10 for the heuristic), if known.
        top: How many top candidates the saturation analysis looks at.
    """

    task: Task
    references: list[Candidate]
    runs: dict[str, SearchRun] = field(default_factory=dict)
    seconds: float = 0.0
    preference_cap: float | None = None
    top: int = 5

    def reference_rewards(self) -> list[float]:
        """The references' rewards (those that got one)."""
        return [r.reward for r in self.references if r.reward is not None]

    def reference_stats(self) -> dict[str, float | None]:
        """``min``, ``median`` and ``max`` of the references' rewards."""
        rewards = self.reference_rewards()
        if not rewards:
            return {"min": None, "median": None, "max": None}
        return {"min": min(rewards), "median": statistics.median(rewards), "max": max(rewards)}

    def ranked(self) -> list[Candidate]:
        """Every run's candidates with a reward, best first."""
        return best_first([c for run in self.runs.values() for c in run.candidates])

    @property
    def best(self) -> Candidate | None:
        """The best candidate over every run."""
        ranked = self.ranked()
        return ranked[0] if ranked else None

    @property
    def gap(self) -> float | None:
        """The adversarial gap: best found − median reference (goal ≤ 0)."""
        best, median = self.best, self.reference_stats()["median"]
        if best is None or best.reward is None or median is None:
            return None
        return best.reward - median

    @property
    def mutant_margin(self) -> float | None:
        """The best mutant of the references − the task's best reference (``None`` when the
        ``references`` mode did not run).

        The gap compares with the *median* reference, and a mutant of the best reference is
        still that painting: under any reward that ranks the references it stays above the
        median, so the mutants' gap is positive by construction. A mutant that out-earns the
        task's best painting is what a policy editing a good sketch would chase: what it
        changed (a recoloured paper, a stray mark) is what the reward pays for beyond the
        painting (docs/reward.md, "What search finds").
        """
        run = self.runs.get("references")
        best = run.best if run is not None else None
        top = self.reference_stats()["max"]
        if best is None or best.reward is None or top is None:
            return None
        return best.reward - top

    def warnings(self) -> list[str]:
        """What makes the baseline doubtful: references that did not end in a scored picture.

        A reference that timed out earns the environment's penalty, which is what the reward
        gives it but not what the painting is worth; on a loaded machine the heavy ones miss
        the 30 s default deadline (measured: the peony bouquet, 6.3 s on a quiet machine, ran
        past 30 s with the load average at 25 on 2 cores), so the figures say so.
        """
        return [
            f"reference {r.id} ended {r.status} and earned {r.reward}: its reward is not the "
            "painting's (a heavy sketch on a loaded machine: raise --deadline)"
            for r in self.references
            if r.status != "ok"
        ]

    def saturation(self) -> list[TermSaturation]:
        """Which components and scorer terms the `top` candidates saturate, beside the
        references' means (`TermSaturation`)."""
        return _saturation(self.ranked()[: self.top], self.references, self.preference_cap)

    def to_dict(self, keep: int) -> dict[str, Any]:
        """A JSON-ready view."""
        best = self.best
        return {
            "task": self.task.to_dict(),
            "seconds": round(self.seconds, 1),
            "references": [r.to_dict(with_source=True) for r in self.references],
            "reference_rewards": self.reference_stats(),
            "best": best.to_dict(with_source=True) if best is not None else None,
            "gap": self.gap,
            "mutant_margin": self.mutant_margin,
            "preference_cap": self.preference_cap,
            "top": self.top,
            "warnings": self.warnings(),
            "saturation": [{**asdict(s), "saturated": s.saturated} for s in self.saturation()],
            "runs": {mode: run.to_dict(keep) for mode, run in self.runs.items()},
        }


@dataclass
class SearchReport:
    """What the search found on every task.

    Args:
        scorer: The scorer's name.
        reward_config: The reward's configuration.
        gate_config: The gate's configuration.
        backend: GL backend of the renders.
        seed: The search's seed (also every render's seed).
        budget: Evaluations, over every task and mode.
        population: Candidates per generation.
        modes: The modes run.
        tasks: One `TaskSearch` per task, in the order asked.
        seconds: Wall time.
        keep: How many best candidates per run keep their source and picture.
        offline_per_render: Compositions the composed mode scored between two renders
            (``None`` when it did not run).
        asked: The task ids asked for, in order; ``tasks`` holds fewer while the search runs
            (`run_search` writes the report after every task, so that a crash or a stop
            hours in keeps what was finished).
    """

    scorer: str
    reward_config: dict[str, Any]
    gate_config: dict[str, Any]
    backend: str
    seed: int
    budget: int
    population: int
    modes: tuple[str, ...]
    tasks: list[TaskSearch] = field(default_factory=list)
    seconds: float = 0.0
    keep: int = 6
    offline_per_render: int | None = None
    asked: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        """Whether every task asked for has been searched."""
        done = {t.task.id for t in self.tasks}
        return all(task_id in done for task_id in self.asked)

    @property
    def evaluations(self) -> int:
        """Search evaluations made (references and replayed finds not counted)."""
        return sum(len(r.candidates) for t in self.tasks for m, r in t.runs.items() if m != FINDS)

    @property
    def reference_evaluations(self) -> int:
        """Reference evaluations made (one per reference and task)."""
        return sum(len(t.references) for t in self.tasks)

    @property
    def passed(self) -> bool:
        """Whether every task asked for was searched and its gap is measured and ≤ 0."""
        return self.complete and all(t.gap is not None and t.gap <= 0 for t in self.tasks)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        return {
            "kind": "reward-search",
            "scorer": self.scorer,
            "reward_config": self.reward_config,
            "gate_config": self.gate_config,
            "backend": self.backend,
            "seed": self.seed,
            "budget": self.budget,
            "population": self.population,
            "modes": list(self.modes),
            "evaluations": self.evaluations,
            "reference_evaluations": self.reference_evaluations,
            "seconds": round(self.seconds, 1),
            "keep": self.keep,
            "offline_per_render": self.offline_per_render,
            "asked": list(self.asked),
            "complete": self.complete,
            "passed": self.passed,
            "gaps": {t.task.id: t.gap for t in self.tasks},
            "tasks": [t.to_dict(self.keep) for t in self.tasks],
        }


def _genome_from_dict(data: dict[str, Any]) -> Genome:
    r, g, b = data["background"]
    p = [(c[0], c[1], c[2]) for c in data["palette"]]
    marks = tuple(
        Mark(**{**m, "points": tuple((x, y) for x, y in m["points"])}) for m in data["marks"]
    )
    return Genome((r, g, b), (p[0], p[1], p[2]), data["scale"], marks)


def load_search_report(path: str | Path) -> SearchReport:
    """Reads a report written by `write_search_json` back (to redraw its page or compare two
    rewards' runs). Candidates outside each run's best ``keep`` come back without source.

    Args:
        path: The ``report.json``.

    Returns:
        The `SearchReport`.

    Raises:
        OSError: If the file cannot be read.
        ValueError: If it is not a search report.
    """
    data = json.loads(Path(path).read_text("utf-8"))
    if not isinstance(data, dict) or data.get("kind") != "reward-search":
        raise ValueError(f"{path} is not a reward-search report")
    report = SearchReport(
        scorer=data["scorer"],
        reward_config=data["reward_config"],
        gate_config=data["gate_config"],
        backend=data["backend"],
        seed=data["seed"],
        budget=data["budget"],
        population=data["population"],
        modes=tuple(data["modes"]),
        seconds=data["seconds"],
        keep=data.get("keep", 6),
        offline_per_render=data.get("offline_per_render"),
        asked=tuple(data.get("asked") or (entry["task"]["id"] for entry in data["tasks"])),
    )
    for entry in data["tasks"]:
        task = TaskSearch(
            Task.from_dict(entry["task"]),
            [Candidate.from_dict(r) for r in entry["references"]],
            seconds=entry["seconds"],
            preference_cap=entry.get("preference_cap", PREFERENCE_CAPS.get(data["scorer"])),
            top=entry.get("top", 5),
        )
        for mode, run in entry["runs"].items():
            task.runs[mode] = SearchRun(
                task_id=run["task_id"],
                mode=run["mode"],
                budget=run["budget"],
                population=run["population"],
                candidates=[Candidate.from_dict(c) for c in run["candidates"]],
                generations=[GenerationStats(**g) for g in run["generations"]],
                seconds=run["seconds"],
                stopped_early=run.get("stopped_early", False),
                offline_scored=run.get("offline_scored", 0),
            )
        report.tasks.append(task)
    return report


def write_search_json(report: SearchReport, path: str | Path) -> Path:
    """Writes the report as JSON.

    Args:
        report: The report.
        path: The file.

    Returns:
        The path written.
    """
    target = Path(path)
    target.write_text(json.dumps(report.to_dict(), indent=1, ensure_ascii=False), "utf-8")
    return target


def best_first(candidates: Sequence[Candidate]) -> list[Candidate]:
    """The candidates with a reward, best first (ties: the earlier first)."""
    order = sorted(
        ((c.reward, -i, c) for i, c in enumerate(candidates) if c.reward is not None),
        key=lambda t: (t[0], t[1]),
        reverse=True,
    )
    return [c for _, _, c in order]


#: Known scorer maxima, by name, read from the scorers' stated scales (for reports saved
#: without their cap). A scorer with no hard top (HPSv3's ``mu``) is reported without one.
PREFERENCE_CAPS: dict[str, float] = {
    name: cap for name in EMBEDDED_SCORERS if (cap := spec_scale(name).cap) is not None
}


def _term_cap(name: str) -> float | None:
    # The heuristic's terms and factors are fractions in [0, 1] by its naming convention
    # (`heuristic_terms`): ``*_term``, ``*_factor`` and ``base``. Raw measurements have no cap.
    return 1.0 if name.endswith(("_term", "_factor")) or name == "base" else None


def _mean(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _saturation(
    top: Sequence[Candidate], references: Sequence[Candidate], preference_cap: float | None
) -> list[TermSaturation]:
    """`TermSaturation` of each breakdown field and scorer term the top candidates have."""

    def values(items: Sequence[Candidate], name: str) -> list[float]:
        out = []
        for c in items:
            if name.startswith("scorer:"):
                value = (c.components.get("scorer_terms") or {}).get(name[len("scorer:") :])
            else:
                value = component_value(c.components, name)
            if isinstance(value, int | float) and not isinstance(value, bool):
                out.append(float(value))
        return out

    caps: dict[str, float | None] = {
        "preference": preference_cap,
        "coverage_term": 1.0,
        "dark_mass_penalty": 0.0,
        "pairwise_prob": 1.0,
    }
    terms = sorted({t for c in top for t in (c.components.get("scorer_terms") or {})})
    caps.update({f"scorer:{t}": _term_cap(t) for t in terms})
    found = []
    for name, cap in caps.items():
        mine = values(top, name)
        if not mine:
            continue
        at_cap = 0 if cap is None else sum(abs(v - cap) <= 1e-3 for v in mine)
        reference_mean = _mean(values(references, name))
        found.append(TermSaturation(name, cap, _mean(mine), reference_mean, at_cap, len(top)))
    return found


def keep_best_pictures(candidates: Sequence[Candidate], keep: int) -> None:
    """Drops the pictures of all but the ``keep`` best candidates (memory stays bounded)."""
    best = {id(c) for c in best_first(candidates)[:keep]}
    for c in candidates:
        if id(c) not in best:
            c.png = None


def record_batch(
    run: SearchRun, batch: Sequence[Candidate], generation: int, keep: int, seconds: float
) -> None:
    """Adds an evaluated generation to a run: its candidates, its statistics, and only the
    ``keep`` best pictures of the run kept in memory."""
    run.candidates.extend(batch)
    keep_best_pictures(run.candidates, keep)
    rewards = [c.reward for c in batch if c.reward is not None]
    so_far = [c.reward for c in run.candidates if c.reward is not None]
    run.generations.append(
        GenerationStats(
            generation=generation,
            evaluated=len(batch),
            best=max(rewards) if rewards else None,
            median=statistics.median(rewards) if rewards else None,
            best_so_far=max(so_far) if so_far else None,
            gate_failed=sum(not c.gate_passed for c in batch),
            infra_failed=sum(c.reward is None for c in batch),
            seconds=round(seconds, 2),
        )
    )
