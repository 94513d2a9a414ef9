"""`run_resolution`: what a reward *tells apart*, beside what a search can make it pay for.

A reward that no search can beat but that cannot rank paintings teaches nothing. Four
measurements, each on pictures nothing was fitted on (docs/reward.md, "Resolution"):

- **tiers**: every two references of one task and different tiers (``love`` > ``ok`` >
  ``weak``): the share ordered correctly, ties as half; and how many references sit at the
  reward's maximum (no headroom above them).
- **ladders**: each probe ladder's rungs (`sketch_env.catalog.probes`), ordered by hand before
  any scorer saw them: Spearman's rank correlation with the hand order, the smallest gap
  between two rungs (a tie is no gradient), the spread of the crude rungs, whether a
  competent rung without the references' props earns half the maximum, and whether a line
  drawing out-earns one token stroke and an empty canvas.
- **free compositions**: each against its task's median ``weak`` reference.
- **subject**: each reference's picture under the prompt of every other task of its medium,
  against that task's weakest and median references.

A scorer fitted on the references (one with a ``held_out(reference)`` method, such as
`VisionScorer`) scores each reference's picture with the scorer it returns, refitted without
that reference (and, for what it fits to tiers, without its task), so the figures are the ones
a new painting would get. The criteria are the ones issue 28 set for the default reward
(`CRITERIA`); the command exits 1 when one fails.
"""

from __future__ import annotations

import itertools
import json
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from PIL import Image

from sketch_env.catalog.probes import OUTCOMES, Probe, ProbeSketch, load_probes
from sketch_env.catalog.references import TIERS, Reference, load_reference_pool
from sketch_env.catalog.tasks import load_tasks
from sketch_env.evaluation.evaluator import Evaluator
from sketch_env.reward.combine import reward_range
from sketch_env.scoring.base import Scorer, scale_of

__all__ = [
    "CRITERIA",
    "HeldOutScorer",
    "LadderResult",
    "ResolutionReport",
    "resolution_rows",
    "run_resolution",
    "spearman",
    "write_resolution_json",
]

#: Tier -> rank, best highest (the catalogue's order).
_TIER_RANK = {tier: len(TIERS) - i for i, tier in enumerate(TIERS)}

#: What the default reward must reach (issue 28): name -> what it means.
CRITERIA: dict[str, str] = {
    "tiers": "within-task tier agreement >= 0.80 (>= 0.75 when held out), ties as half",
    "headroom": "fewer than a quarter of the references at the reward's maximum",
    "ladder_order": "every ladder's rank correlation with the hand order >= 0.85",
    "ladder_gaps": "no two rungs of a ladder within 0.05 of each other",
    "no_props": "a competent rung without the references' props earns half the maximum",
    "outcomes": "a line drawing out-earns one token stroke and an empty canvas",
    "free": "every free composition earns its task's median weak reference",
    "subject_weakest": "a wrong-subject painting out-earns the task's weakest in <= 25 % of pairs",
    "subject_median": "a wrong-subject painting reaches the task's median in <= 5 % of pairs",
}


@runtime_checkable
class HeldOutScorer(Protocol):
    """A scorer fitted on the references that can refit itself without one of them."""

    def held_out(self, reference: Reference) -> Scorer:
        """The scorer fitted without ``reference`` (and without what must go with it)."""


def spearman(values: Sequence[float]) -> float:
    """Spearman's rank correlation of ``values`` with their positions (ties share a rank).

    Examples:
        >>> spearman([1.0, 2.0, 3.0]), spearman([3.0, 2.0, 1.0]), spearman([1.0, 1.0, 2.0])
        (1.0, -1.0, 0.8660254037844387)
    """
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            ranks[order[k]] = (start + end) / 2
        start = end + 1
    positions = [float(i) for i in range(len(values))]
    if len(values) < 2 or statistics.pstdev(ranks) == 0:
        return 0.0
    return statistics.correlation(positions, ranks)


@dataclass
class LadderResult:
    """One ladder's rewards and what they say.

    Args:
        task_id: The task.
        prompt: The ladder's prompt.
        rungs: ``(id, kind, props, reward)`` worst first, as ordered by hand.
        outcome: Reward of each outcome probe (`OUTCOMES`).
    """

    task_id: str
    prompt: str
    rungs: list[tuple[str, str, bool | None, float | None]]
    outcome: dict[str, float | None]

    def _rewards(self) -> list[float]:
        return [r for *_, r in self.rungs if r is not None]

    @property
    def correlation(self) -> float | None:
        """Spearman's rank correlation with the hand order (``None`` if a rung failed)."""
        rewards = self._rewards()
        return spearman(rewards) if len(rewards) == len(self.rungs) else None

    @property
    def min_gap(self) -> float | None:
        """The smallest difference between two rungs' rewards."""
        ranked = sorted(self._rewards())
        return min((b - a for a, b in itertools.pairwise(ranked)), default=None)

    @property
    def crude_spread(self) -> float | None:
        """Highest minus lowest reward among the ``crude`` rungs."""
        crude = [r for _, kind, _, r in self.rungs if kind == "crude" and r is not None]
        return max(crude) - min(crude) if len(crude) >= 2 else None

    def _no_props_best(self) -> tuple[float, str] | None:
        found = [
            (r, rung_id)
            for rung_id, kind, props, r in self.rungs
            if kind in ("competent", "reference") and props is False and r is not None
        ]
        return max(found) if found else None

    def no_props_reward(self) -> float | None:
        """The best reward of a competent or reference rung without the props."""
        best = self._no_props_best()
        return None if best is None else best[0]

    def no_props_id(self) -> str | None:
        """The id of the rung `no_props_reward` is the reward of."""
        best = self._no_props_best()
        return None if best is None else best[1]

    def checks(self, top: float) -> dict[str, bool]:
        """This ladder's part of `CRITERIA`, given the reward's maximum ``top``."""
        correlation, gap, no_props = self.correlation, self.min_gap, self.no_props_reward()
        return {
            "ladder_order": correlation is not None and correlation >= 0.85,
            "ladder_gaps": gap is not None and gap >= 0.05,
            "no_props": no_props is not None and no_props >= top / 2,
            "outcomes": self.outcomes_ordered,
        }

    @property
    def outcomes_ordered(self) -> bool:
        """Whether a line drawing out-earns one token stroke and an empty canvas."""
        line, token, empty = (self.outcome.get(name) for name in OUTCOMES)
        if line is None or token is None or empty is None:
            return False
        return line > token and line > empty


@dataclass
class ResolutionReport:
    """Everything `run_resolution` measured.

    Args:
        scorer: The scorer's name.
        held_out: Whether the references were scored held out.
        top: The reward's maximum under this configuration and scorer.
        seconds: Wall time.
        references: Each reference's reward (mean over seeds), by id.
        tiers: Tier pair counts: ``pairs``, ``correct``, ``ties``.
        ladders: One `LadderResult` per probe.
        free: ``(id, task_id, reward, the task's median weak reference)`` per free composition.
        subject: ``(reference id, prompt's task, reward, task's weakest, task's median)``.
        images: Picture path (relative to the output folder) by id.
        tier_of: Each reference's tier, by id.
        terms: Each probe sketch's scorer terms and the guards that cut its reward (``guard:``
            and the factor), at the first seed, by id: why a free composition or a rung
            earned what it did.
    """

    scorer: str
    held_out: bool
    top: float
    seconds: float
    references: dict[str, float | None] = field(default_factory=dict)
    tiers: dict[str, int] = field(default_factory=dict)
    ladders: list[LadderResult] = field(default_factory=list)
    free: list[tuple[str, str, float | None, float | None]] = field(default_factory=list)
    subject: list[tuple[str, str, float, float, float]] = field(default_factory=list)
    images: dict[str, str] = field(default_factory=dict)
    tier_of: dict[str, str] = field(default_factory=dict)
    terms: dict[str, dict[str, float]] = field(default_factory=dict)

    @property
    def tier_agreement(self) -> float | None:
        """Within-task tier pairs ordered correctly, ties as half."""
        pairs = self.tiers.get("pairs", 0)
        return (self.tiers["correct"] + 0.5 * self.tiers["ties"]) / pairs if pairs else None

    def at_max(self) -> int:
        """References within 0.01 of the reward's maximum."""
        return sum(1 for r in self.references.values() if r is not None and r >= self.top - 0.01)

    def tier_medians(self) -> dict[str, float]:
        """The median reward of each tier."""
        out: dict[str, float] = {}
        for tier in _TIER_RANK:
            values = [
                r
                for i, r in self.references.items()
                if self.tier_of.get(i) == tier and r is not None
            ]
            if values:
                out[tier] = statistics.median(values)
        return out

    def subject_shares(self) -> tuple[float | None, float | None]:
        """Shares of wrong-subject pairs over the weakest reference and at the median."""
        if not self.subject:
            return None, None
        n = len(self.subject)
        over = sum(1 for *_, r, weakest, _ in self.subject if r > weakest)
        median = sum(1 for *_, r, _, med in self.subject if r >= med)
        return over / n, median / n

    def checks(self) -> dict[str, bool | None]:
        """Each of `CRITERIA`: passed, failed, or ``None`` when there was nothing to measure."""
        agreement = self.tier_agreement
        over, at_median = self.subject_shares()
        ladders = [ladder.checks(self.top) for ladder in self.ladders]

        def every_ladder(name: str) -> bool | None:
            return all(checks[name] for checks in ladders) if ladders else None

        return {
            "tiers": None if agreement is None else agreement >= (0.75 if self.held_out else 0.80),
            "headroom": self.at_max() < len(self.references) / 4 if self.references else None,
            "ladder_order": every_ladder("ladder_order"),
            "ladder_gaps": every_ladder("ladder_gaps"),
            "no_props": every_ladder("no_props"),
            "outcomes": every_ladder("outcomes"),
            "free": all(_clears(r, w) for _, _, r, w in self.free) if self.free else None,
            "subject_weakest": None if over is None else over <= 0.25,
            "subject_median": None if at_median is None else at_median <= 0.05,
        }

    @property
    def passed(self) -> bool:
        """Whether every measured criterion held."""
        return all(v is not False for v in self.checks().values())

    def summary(self) -> dict[str, Any]:
        """The headline figures, JSON-ready."""
        over, at_median = self.subject_shares()
        return {
            "tier_agreement": self.tier_agreement,
            "tier_pairs": self.tiers,
            "at_max": self.at_max(),
            "references": len(self.references),
            "tier_medians": self.tier_medians(),
            "ladders": {
                ladder.task_id: {
                    "spearman": ladder.correlation,
                    "min_gap": ladder.min_gap,
                    "crude_spread": ladder.crude_spread,
                    "no_props": ladder.no_props_reward(),
                    "outcome": ladder.outcome,
                }
                for ladder in self.ladders
            },
            "free_at_weak_median": sum(_clears(r, w) for _, _, r, w in self.free),
            "free": len(self.free),
            "subject_over_weakest": over,
            "subject_at_median": at_median,
            "subject_pairs": len(self.subject),
            "checks": self.checks(),
            "passed": self.passed,
        }

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view of everything."""
        return {
            "scorer": self.scorer,
            "held_out": self.held_out,
            "top": self.top,
            "seconds": round(self.seconds, 1),
            "criteria": CRITERIA,
            "summary": self.summary(),
            "references": self.references,
            "ladders": [asdict(ladder) for ladder in self.ladders],
            "free": self.free,
            "subject": self.subject,
            "images": self.images,
            "terms": self.terms,
        }


@contextmanager
def _scoring_with(evaluator: Evaluator, scorer: Scorer) -> Iterator[None]:
    """The evaluator with another scorer for a while (the same reward, gate and renderer)."""
    saved = evaluator.scorer
    evaluator.scorer = scorer
    try:
        yield
    finally:
        evaluator.scorer = saved


def _mean(values: Sequence[float | None]) -> float | None:
    return None if not values or any(v is None for v in values) else statistics.fmean(values)  # type: ignore[arg-type]


def run_resolution(
    evaluator: Evaluator,
    *,
    seeds: Sequence[int] = (0,),
    references: Sequence[Reference] | None = None,
    probes: Sequence[Probe] | None = None,
    held_out: bool = True,
    out_dir: str | Path | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> ResolutionReport:
    """Measures what a reward tells apart (see the module docstring).

    Args:
        evaluator: The evaluation measured (its scorer, reward and gate).
        seeds: Render seeds; each item's reward is its mean over them.
        references: The references; the shipped pool when ``None``.
        probes: The probes; the pool's when ``None``.
        held_out: Score references with the scorer's held-out refits when it has them.
        out_dir: Where to save the pictures (for the HTML page); none saved when ``None``.
        progress: Called with ``(stage, done, total)``.

    Returns:
        The `ResolutionReport`.

    Raises:
        ValueError: Without seeds or with fewer than two references.
    """
    start = time.perf_counter()
    refs = list(references) if references is not None else list(load_reference_pool())
    probe_list = list(probes) if probes is not None else list(load_probes())
    seed_list = list(seeds)
    if not seed_list or len(refs) < 2:
        raise ValueError("a resolution check needs at least one seed and two references")
    report_progress = progress or (lambda stage, done, total: None)
    out = Path(out_dir) if out_dir is not None else None
    if out is not None:
        (out / "images").mkdir(parents=True, exist_ok=True)
    scorer = evaluator.scorer
    refit = held_out and isinstance(scorer, HeldOutScorer)
    top = reward_range(evaluator.reward_config, scale_of(scorer))[1]
    report = ResolutionReport(scorer.name, refit, top, 0.0)
    report.tier_of = {ref.id: str(ref.tier) for ref in refs}

    def save(item_id: str, image: Image.Image | None) -> None:
        if out is not None and image is not None:
            path = "images/" + item_id.replace("/", "__") + ".png"
            image.save(out / path)
            report.images[item_id] = path

    # The references' pictures, through the whole environment.
    jobs = [(ref, seed) for ref in refs for seed in seed_list]
    report_progress("references", 0, len(refs))
    rollouts = evaluator.evaluate_sync(
        [r.source for r, _ in jobs], [r.prompt for r, _ in jobs], [s for _, s in jobs]
    )
    pictures: dict[str, list[tuple[int, Image.Image]]] = {}
    rewards: dict[str, list[float | None]] = {}
    gates = {}
    for (ref, seed), rollout in zip(jobs, rollouts, strict=True):
        rewards.setdefault(ref.id, []).append(rollout.reward.reward)
        if rollout.render is not None and rollout.render.png:
            image = rollout.render.image()
            pictures.setdefault(ref.id, []).append((seed, image))
            gates[ref.id] = rollout.gate
            if seed == seed_list[0]:
                save(ref.id, image)

    # Each reference under its own prompt and every other same-medium task's, held out.
    tasks = {task.id: task for task in load_tasks()}
    by_medium: dict[str, list[str]] = {}
    for task_id in sorted({ref.task_id for ref in refs}):
        by_medium.setdefault(task_id.split("/", 1)[1], []).append(task_id)
    under: dict[tuple[str, str], float | None] = {}
    for done, ref in enumerate(refs, start=1):
        shots = pictures.get(ref.id, [])
        prompts = {ref.task_id: ref.prompt}
        for other in by_medium.get(ref.task_id.split("/", 1)[1], []):
            if other != ref.task_id and other in tasks:
                prompts[other] = tasks[other].prompt
        chosen = scorer.held_out(ref) if isinstance(scorer, HeldOutScorer) and refit else scorer
        with _scoring_with(evaluator, chosen):
            for task_id, prompt in prompts.items():
                if not shots or (task_id == ref.task_id and not refit):
                    continue
                breakdowns = evaluator.score_pictures_sync(
                    [image for _, image in shots],
                    [prompt] * len(shots),
                    gate=gates[ref.id],
                    seeds=[seed for seed, _ in shots],
                )
                under[(ref.id, task_id)] = _mean([b.reward for b in breakdowns])
        if refit and shots:
            rewards[ref.id] = [under[(ref.id, ref.task_id)]]
        report_progress("references", done, len(refs))
    report.references = {ref.id: _mean(rewards[ref.id]) for ref in refs}

    # Tiers, within each task.
    counts = {"pairs": 0, "correct": 0, "ties": 0}
    for a in refs:
        for b in refs:
            if a.task_id != b.task_id or not _TIER_RANK.get(str(a.tier), 0) > _TIER_RANK.get(
                str(b.tier), 0
            ):
                continue
            ra, rb = report.references[a.id], report.references[b.id]
            if ra is None or rb is None:
                continue
            counts["pairs"] += 1
            counts["correct"] += ra > rb
            counts["ties"] += ra == rb
    report.tiers = counts

    # Subject: a painting of another subject under this task's prompt.
    own: dict[str, list[float]] = {}
    for ref in refs:
        value = report.references[ref.id]
        if value is not None:
            own.setdefault(ref.task_id, []).append(value)
    for (ref_id, task_id), value in sorted(under.items()):
        home = next(r.task_id for r in refs if r.id == ref_id)
        if task_id == home or value is None or task_id not in own:
            continue
        values = own[task_id]
        report.subject.append((ref_id, task_id, value, min(values), statistics.median(values)))

    # The probes: ladders, outcome probes and free compositions (never fitted on).
    weak: dict[str, list[float]] = {}
    for ref in refs:
        value = report.references[ref.id]
        if ref.tier == "weak" and value is not None:
            weak.setdefault(ref.task_id, []).append(value)
    weak_median = {task_id: statistics.median(values) for task_id, values in weak.items()}
    for done, probe in enumerate(probe_list, start=1):
        items: list[ProbeSketch] = [*probe.ladder, *probe.outcome.values(), *probe.free]
        scored = _evaluate_probes(evaluator, items, seed_list, save, report.terms)
        report.ladders.append(
            LadderResult(
                probe.task_id,
                probe.ladder[0].prompt,
                [(s.id, s.kind, s.props, scored[s.id]) for s in probe.ladder],
                {name: scored[sketch.id] for name, sketch in probe.outcome.items()},
            )
        )
        for sketch in probe.free:
            report.free.append(
                (sketch.id, probe.task_id, scored[sketch.id], weak_median.get(probe.task_id))
            )
        report_progress("probes", done, len(probe_list))
    report.seconds = time.perf_counter() - start
    return report


def _evaluate_probes(
    evaluator: Evaluator,
    items: Sequence[ProbeSketch],
    seeds: Sequence[int],
    save: Callable[[str, Image.Image | None], None],
    terms: dict[str, dict[str, float]],
) -> dict[str, float | None]:
    """Each probe sketch's reward through the whole environment, the mean over seeds; its
    scorer terms and cutting guards at the first seed go into ``terms``."""
    jobs = [(item, seed) for item in items for seed in seeds]
    rollouts = evaluator.evaluate_sync(
        [i.source for i, _ in jobs], [i.prompt for i, _ in jobs], [s for _, s in jobs]
    )
    rewards: dict[str, list[float | None]] = {}
    for (item, seed), rollout in zip(jobs, rollouts, strict=True):
        rewards.setdefault(item.id, []).append(rollout.reward.reward)
        if seed == seeds[0]:
            save(item.id, rollout.render.image() if rollout.render and rollout.render.png else None)
            breakdown = rollout.reward
            terms[item.id] = {
                **dict(breakdown.scorer_terms),
                **{f"guard:{name}": f for name, f in breakdown.guards if f < 1},
            }
    return {item_id: _mean(values) for item_id, values in rewards.items()}


def write_resolution_json(report: ResolutionReport, path: str | Path) -> Path:
    """Writes the report as JSON and returns the path."""
    target = Path(path)
    target.write_text(json.dumps(report.to_dict(), indent=1, ensure_ascii=False), encoding="utf-8")
    return target


def resolution_rows(report: ResolutionReport) -> list[tuple[str, str, str]]:
    """``(measure, figure, verdict)`` rows for the terminal table."""
    checks = report.checks()
    summary = report.summary()

    def verdict(name: str) -> str:
        value = checks[name]
        return "-" if value is None else ("pass" if value else "FAIL")

    def pct(value: float | None) -> str:
        return "-" if value is None else f"{100 * value:.1f} %"

    tiers = report.tiers
    medians = " / ".join(f"{t} {v:.2f}" for t, v in report.tier_medians().items())
    rows = [
        (
            "tier agreement" + (" (held out)" if report.held_out else ""),
            f"{pct(report.tier_agreement)} of {tiers.get('pairs', 0)} "
            f"({tiers.get('correct', 0)} right, {tiers.get('ties', 0)} ties); {medians}",
            verdict("tiers"),
        ),
        (
            "at the maximum",
            f"{report.at_max()} of {len(report.references)} (max {report.top:.2f})",
            verdict("headroom"),
        ),
    ]
    for ladder in report.ladders:
        ladder_checks = ladder.checks(report.top)
        rewards = " ".join("-" if r is None else f"{r:.2f}" for *_, r in ladder.rungs)
        outcome = ", ".join(
            f"{name} {'-' if v is None else f'{v:.2f}'}" for name, v in ladder.outcome.items()
        )
        rows.append(
            (
                f"ladder {ladder.task_id}",
                f"{rewards}; rho {_fmt(ladder.correlation)}, min gap {_fmt(ladder.min_gap)}, "
                f"crude spread {_fmt(ladder.crude_spread)}, "
                f"no props {_fmt(ladder.no_props_reward())}; {outcome}",
                "pass" if all(ladder_checks.values()) else "FAIL",
            )
        )
        if not ladder_checks["no_props"]:
            rows.append(_why(report, ladder.no_props_id()))
    for item_id, _, reward, weak in report.free:
        rows.append(
            (
                f"free {item_id}",
                f"{_fmt(reward)} vs weak median {_fmt(weak)}",
                "pass" if _clears(reward, weak) else "FAIL",
            )
        )
        if not _clears(reward, weak):
            rows.append(_why(report, item_id))
    rows.append(
        (
            "wrong subject > weakest",
            f"{pct(summary['subject_over_weakest'])} of {len(report.subject)}",
            verdict("subject_weakest"),
        )
    )
    rows.append(
        (
            "wrong subject >= median",
            f"{pct(summary['subject_at_median'])} of {len(report.subject)}",
            verdict("subject_median"),
        )
    )
    return rows


def _why(report: ResolutionReport, item_id: str | None) -> tuple[str, str, str]:
    """A row under a failed probe: the scorer terms (and cutting guards) it earned."""
    terms = report.terms.get(item_id or "", {})
    figures = ", ".join(f"{name} {value:.2f}" for name, value in terms.items())
    return (f"  why {item_id or '-'}", figures or "no scorer terms (not scored)", "")


def _clears(reward: float | None, weak: float | None) -> bool:
    """Whether a free composition earned its task's median weak reference."""
    return reward is not None and weak is not None and reward >= weak


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"
