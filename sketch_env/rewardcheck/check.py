"""`run_reward_check`: how often a reward orders a labelled set of pictures correctly.

Three families of labelled pairs, each ``(should win, should lose)``:

- **tiers**: every two reference paintings of different tiers (``love`` > ``ok`` > ``weak``);
- **degradations**: each reference against a degraded copy of itself (`degrade`), and against
  itself scored under another task's prompt (the prompt swap);
- **hacks**: each reference against each reward hack (`hacks`), the hack taken through the whole
  environment. A hack's *win-rate* is the share of references it beats (ties count half); a
  sound reward gives 0.

Everything is seeded; the same command measures the heuristic on a CPU or HPSv3 or a judge on a
GPU machine (``--scorer``). Rewards are compared as the environment computes them, so the
reward's configuration (weights, penalties, calibration) is part of what is measured.
"""

from __future__ import annotations

import json
import math
import random
import re
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from sketch_env.catalog.references import Reference, load_reference_pool
from sketch_env.evaluation.evaluator import Evaluator
from sketch_env.evaluation.rollout import Rollout
from sketch_env.reward.breakdown import RewardBreakdown
from sketch_env.rewardcheck.degrade import PICTURE_DEGRADATIONS, remove_half_the_brush_calls
from sketch_env.rewardcheck.hacks import HACKS

__all__ = ["Entry", "FamilyResult", "PairResult", "RewardCheckReport", "run_reward_check"]

_TIER_RANK = {"love": 3, "ok": 2, "weak": 1}


@dataclass
class Entry:
    """One scored picture (or failed sketch) of the check.

    Args:
        id: Unique id, e.g. ``flowers-watercolour-hibiscus/blank_paper/s0``.
        kind: ``reference``, ``degradation`` or ``hack``.
        family: The tier, degradation or hack name.
        prompt: What it was scored against.
        reward: The reward (``None`` for an infrastructure failure).
        status: How it ended (`RolloutStatus` value, or ``ok`` for a scored picture).
        components: The reward's breakdown.
        image: Path of its picture relative to the output folder, if any.
    """

    id: str
    kind: str
    family: str
    prompt: str
    reward: float | None
    status: str
    components: dict[str, Any]
    image: str | None = None


@dataclass
class PairResult:
    """One labelled pair: ``winner`` should earn more than ``loser``."""

    family: str
    kind: str
    winner: str
    loser: str
    outcome: float  # 1 ordered correctly, 0.5 tie, 0 wrong


@dataclass
class FamilyResult:
    """Accuracy over the pairs of one family.

    Args:
        kind: ``tier``, ``degradation`` or ``hack``.
        family: Its name.
        pairs: Pairs compared.
        correct: Pairs ordered correctly.
        ties: Pairs that tied (counted half).
        description: What the family is.
    """

    kind: str
    family: str
    pairs: int = 0
    correct: int = 0
    ties: int = 0
    description: str = ""

    @property
    def accuracy(self) -> float | None:
        """Correct share, ties counted half; ``None`` without pairs."""
        return (self.correct + 0.5 * self.ties) / self.pairs if self.pairs else None

    @property
    def win_rate(self) -> float | None:
        """For a hack: the share of references it beats (ties half); ``1 - accuracy``."""
        accuracy = self.accuracy
        return None if accuracy is None else 1.0 - accuracy


@dataclass
class RewardCheckReport:
    """Everything a reward check found.

    Args:
        scorer: The scorer's name.
        reward_config: The reward's configuration.
        gate_config: The gate's configuration.
        seeds: Render seeds used.
        backend: GL backend of the renders.
        seconds: Wall time.
        entries: Every scored item.
        pairs: Every labelled pair.
        families: Results per family.
    """

    scorer: str
    reward_config: dict[str, Any]
    gate_config: dict[str, Any]
    seeds: list[int]
    backend: str
    seconds: float
    entries: list[Entry] = field(default_factory=list)
    pairs: list[PairResult] = field(default_factory=list)
    families: dict[str, FamilyResult] = field(default_factory=dict)

    def accuracy(self, kind: str) -> float | None:
        """Pooled accuracy over every pair of one kind (``tier``, ``degradation``, ``hack``)."""
        chosen = [p for p in self.pairs if p.kind == kind]
        return sum(p.outcome for p in chosen) / len(chosen) if chosen else None

    def hack_win_rates(self) -> dict[str, float | None]:
        """Each hack family's win-rate over the reference paintings."""
        return {n: f.win_rate for n, f in self.families.items() if f.kind == "hack"}

    def misordered(self) -> list[PairResult]:
        """The pairs the reward got wrong or tied."""
        return [p for p in self.pairs if p.outcome < 1.0]

    def seed_spread(self) -> dict[str, Any] | None:
        """How much each reference's reward moves with the render seed alone.

        p5.brush's textures (watercolour above all) depend on the seed, so the same sketch
        earns different rewards at different seeds. Per reference: its rewards in seed order,
        their mean, population standard deviation and range. Pooled: the mean of those
        standard deviations, the root mean square of them (``within_std``), the largest range,
        the standard deviation of the references' means (``between_std``: how far apart
        different paintings are) and ``within_std / between_std``. An infrastructure failure's
        ``None`` is left out.

        Returns:
            The spread, or ``None`` with fewer than two seeds (nothing to compare).
        """
        if len(self.seeds) < 2:
            return None
        rewards: dict[str, list[float]] = {}
        for entry in self.entries:
            # One entry per reference and seed ("REF/sSEED"); the mean entry ("REF") is not.
            match = re.fullmatch(r"(.+)/s(\d+)", entry.id)
            if entry.kind == "reference" and entry.reward is not None and match:
                rewards.setdefault(match.group(1), []).append(entry.reward)
        measured = {ref: values for ref, values in rewards.items() if len(values) >= 2}
        if not measured:
            return None
        per_reference: dict[str, dict[str, Any]] = {
            ref: {
                "rewards": values,
                "mean": statistics.fmean(values),
                "std": statistics.pstdev(values),
                "min": min(values),
                "max": max(values),
                "range": max(values) - min(values),
            }
            for ref, values in measured.items()
        }
        stds = [statistics.pstdev(values) for values in measured.values()]
        within = math.sqrt(statistics.fmean(s * s for s in stds))
        means = [statistics.fmean(values) for values in measured.values()]
        between = statistics.pstdev(means) if len(means) >= 2 else None
        widest = max(measured, key=lambda ref: max(measured[ref]) - min(measured[ref]))
        return {
            "seeds": list(self.seeds),
            "references": per_reference,
            "pooled": {
                "references": len(per_reference),
                "mean_std": statistics.fmean(stds),
                "within_std": within,
                "max_range": per_reference[widest]["range"],
                "widest": widest,
                "between_std": between,
                "within_over_between": within / between if between else None,
            },
        }

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        return {
            "scorer": self.scorer,
            "reward_config": self.reward_config,
            "gate_config": self.gate_config,
            "seeds": self.seeds,
            "backend": self.backend,
            "seconds": round(self.seconds, 1),
            "summary": {kind: self.accuracy(kind) for kind in ("tier", "degradation", "hack")},
            "hack_win_rates": self.hack_win_rates(),
            "seed_spread": self.seed_spread(),
            "families": {
                name: {**asdict(f), "accuracy": f.accuracy, "win_rate": f.win_rate}
                for name, f in self.families.items()
            },
            "pairs": [asdict(p) for p in self.pairs],
            "entries": [asdict(e) for e in self.entries],
        }


def _outcome(winner: float | None, loser: float | None) -> float | None:
    if winner is None or loser is None:
        return None  # An infrastructure failure decides nothing.
    if winner > loser:
        return 1.0
    return 0.5 if winner == loser else 0.0


class _Recorder:
    """Saves pictures and builds entries and pairs as the check goes."""

    def __init__(self, out: Path | None) -> None:
        self.out = out
        self.entries: dict[str, Entry] = {}
        self.pairs: list[PairResult] = []
        self.families: dict[str, FamilyResult] = {}
        if out is not None:
            (out / "images").mkdir(parents=True, exist_ok=True)

    def add(
        self,
        entry_id: str,
        kind: str,
        family: str,
        prompt: str,
        breakdown: RewardBreakdown,
        status: str,
        image: Image.Image | None,
    ) -> Entry:
        path = None
        if image is not None and self.out is not None:
            path = "images/" + entry_id.replace("/", "__") + ".png"
            image.save(self.out / path)
        entry = Entry(
            entry_id, kind, family, prompt, breakdown.reward, status, breakdown.to_dict(), path
        )
        self.entries[entry_id] = entry
        return entry

    def compare(
        self, kind: str, family: str, description: str, winner: Entry, loser: Entry
    ) -> None:
        for entry in (winner, loser):
            self.entries.setdefault(entry.id, entry)
        result = self.families.setdefault(
            family, FamilyResult(kind, family, description=description)
        )
        outcome = _outcome(winner.reward, loser.reward)
        if outcome is None:
            return
        result.pairs += 1
        result.correct += outcome == 1.0
        result.ties += outcome == 0.5
        self.pairs.append(PairResult(family, kind, winner.id, loser.id, outcome))


def _mean_entry(entries: Sequence[Entry], entry_id: str) -> Entry:
    """One entry standing for several seeds: the mean reward (``None`` if any is ``None``)."""
    rewards = [e.reward for e in entries if e.reward is not None]
    mean = sum(rewards) / len(rewards) if len(rewards) == len(entries) else None
    first = entries[0]
    return Entry(
        entry_id, first.kind, first.family, first.prompt, mean, first.status, {}, first.image
    )


def run_reward_check(
    evaluator: Evaluator,
    *,
    seeds: Sequence[int] = (0,),
    references: Sequence[Reference] | None = None,
    degradations: Sequence[str] | None = None,
    hacks: Sequence[str] | None = None,
    out_dir: str | Path | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> RewardCheckReport:
    """Builds the labelled set, scores it through ``evaluator`` and counts the orderings.

    Args:
        evaluator: The evaluation (its renderer, scorer, reward and gate configuration are what
            is measured).
        seeds: Render seeds; every sketch is rendered once per seed, and its reward is the
            mean over seeds.
        references: The reference paintings; the shipped pool when ``None``.
        degradations: Picture degradations to use (names of `PICTURE_DEGRADATIONS`, plus
            ``prompt_swap`` and ``half_brush_calls``); all when ``None``.
        hacks: Hack families (names of `HACKS`); all when ``None``.
        out_dir: Where to save pictures (for the HTML page); none saved when ``None``.
        progress: Called with ``(stage, done, total)``.

    Returns:
        The `RewardCheckReport`.

    Raises:
        ValueError: On an unknown degradation or hack, no seeds, or fewer than two references.
    """
    start = time.perf_counter()
    refs = list(references) if references is not None else list(load_reference_pool())
    seed_list = list(seeds)
    every_degradation = [*PICTURE_DEGRADATIONS, "prompt_swap", "half_brush_calls"]
    chosen_degradations = list(degradations) if degradations is not None else every_degradation
    chosen_hacks = list(hacks) if hacks is not None else list(HACKS)
    unknown = sorted(set(chosen_degradations) - set(every_degradation)) + sorted(
        set(chosen_hacks) - set(HACKS)
    )
    if unknown:
        raise ValueError(f"unknown degradations or hacks: {unknown}")
    if not seed_list or len(refs) < 2:
        raise ValueError("a reward check needs at least one seed and two references")
    rec = _Recorder(Path(out_dir) if out_dir is not None else None)
    report_progress = progress or (lambda stage, done, total: None)

    # 1. The references, through the whole environment.
    jobs = [(ref, seed) for ref in refs for seed in seed_list]
    report_progress("references", 0, len(jobs))
    rollouts = evaluator.evaluate_sync(
        [r.source for r, _ in jobs], [r.prompt for r, _ in jobs], [s for _, s in jobs]
    )
    report_progress("references", len(jobs), len(jobs))
    ref_rollouts: dict[str, list[Rollout]] = {}
    for (ref, seed), rollout in zip(jobs, rollouts, strict=True):
        ref_rollouts.setdefault(ref.id, []).append(rollout)
        rec.add(
            f"{ref.id}/s{seed}",
            "reference",
            str(ref.tier),
            ref.prompt,
            rollout.reward,
            rollout.status.value,
            rollout.render.image() if rollout.render and rollout.render.png else None,
        )
    ref_entry = {
        ref.id: _mean_entry([rec.entries[f"{ref.id}/s{s}"] for s in seed_list], ref.id)
        for ref in refs
    }

    # 2. Tiers.
    for a in refs:
        for b in refs:
            if _TIER_RANK.get(str(a.tier), 0) > _TIER_RANK.get(str(b.tier), 0) > 0:
                rec.compare(
                    "tier",
                    f"tier {a.tier} > {b.tier}",
                    "reference paintings of a better tier must earn more",
                    ref_entry[a.id],
                    ref_entry[b.id],
                )

    # 3. Degradations.
    picture_names = [d for d in chosen_degradations if d in PICTURE_DEGRADATIONS]
    done = 0
    total = len(refs) * len(chosen_degradations)
    for ref in refs:
        pictured = [r for r in ref_rollouts[ref.id] if r.render and r.render.png]
        if not pictured:
            continue  # A reference that failed to render is visible in its own entry.
        for name in picture_names:
            make, description = PICTURE_DEGRADATIONS[name]
            images = [make(r.render.image(), r.seed) for r in pictured]  # type: ignore[union-attr]
            breakdowns = evaluator.score_pictures_sync(
                images,
                [ref.prompt] * len(images),
                gate=pictured[0].gate,
                seeds=[r.seed for r in pictured],
            )
            entries = [
                rec.add(f"{ref.id}/{name}/s{r.seed}", "degradation", name, ref.prompt, b, "ok", img)
                for r, b, img in zip(pictured, breakdowns, images, strict=True)
            ]
            rec.compare(
                "degradation",
                name,
                description,
                ref_entry[ref.id],
                _mean_entry(entries, f"{ref.id}/{name}"),
            )
            done += 1
            report_progress("degradations", done, total)
        if "prompt_swap" in chosen_degradations:
            others = [o for o in refs if o.task_id != ref.task_id]
            other = random.Random(f"{ref.id}:{seed_list[0]}").choice(others) if others else None
            if other is not None:
                images = [r.render.image() for r in pictured]  # type: ignore[union-attr]
                breakdowns = evaluator.score_pictures_sync(
                    images,
                    [other.prompt] * len(images),
                    gate=pictured[0].gate,
                    seeds=[r.seed for r in pictured],
                )
                entries = [
                    rec.add(
                        f"{ref.id}/prompt_swap/s{r.seed}",
                        "degradation",
                        "prompt_swap",
                        other.prompt,
                        b,
                        "ok",
                        None,
                    )
                    for r, b in zip(pictured, breakdowns, strict=True)
                ]
                for e in entries:
                    e.image = rec.entries[f"{ref.id}/s{e.id.rsplit('/s', 1)[1]}"].image
                rec.compare(
                    "degradation",
                    "prompt_swap",
                    "the same painting scored against another task's prompt",
                    ref_entry[ref.id],
                    _mean_entry(entries, f"{ref.id}/prompt_swap"),
                )
            done += 1
            report_progress("degradations", done, total)
    if "half_brush_calls" in chosen_degradations:
        halves = [(ref, seed, remove_half_the_brush_calls(ref.source, seed)) for ref, seed in jobs]
        rollouts = evaluator.evaluate_sync(
            [h for _, _, h in halves], [r.prompt for r, _, _ in halves], [s for _, s, _ in halves]
        )
        by_ref: dict[str, list[Entry]] = {}
        for (ref, seed, _), rollout in zip(halves, rollouts, strict=True):
            by_ref.setdefault(ref.id, []).append(
                rec.add(
                    f"{ref.id}/half_brush_calls/s{seed}",
                    "degradation",
                    "half_brush_calls",
                    ref.prompt,
                    rollout.reward,
                    rollout.status.value,
                    rollout.render.image() if rollout.render and rollout.render.png else None,
                )
            )
        for ref in refs:
            rec.compare(
                "degradation",
                "half_brush_calls",
                "the sketch with every other brush drawing call removed",
                ref_entry[ref.id],
                _mean_entry(by_ref[ref.id], f"{ref.id}/half_brush_calls"),
            )
        report_progress("degradations", total, total)

    # 4. Hacks, through the whole environment; a picture is rescored against every prompt.
    for index, name in enumerate(chosen_hacks):
        build, description = HACKS[name]
        sources = [build(seed) for seed in seed_list]
        rollouts = evaluator.evaluate_sync(sources, [refs[0].prompt] * len(sources), seed_list)
        for ref in refs:
            entries = []
            for seed, rollout in zip(seed_list, rollouts, strict=True):
                breakdown = rollout.reward
                image = rollout.render.image() if rollout.render and rollout.render.png else None
                if (
                    image is not None
                    and rollout.reward.status == "ok"
                    and ref.prompt != refs[0].prompt
                ):
                    (breakdown,) = evaluator.score_pictures_sync(
                        [image], [ref.prompt], gate=rollout.gate, seeds=seed
                    )
                entries.append(
                    rec.add(
                        f"{name}/{ref.id}/s{seed}",
                        "hack",
                        name,
                        ref.prompt,
                        breakdown,
                        rollout.status.value,
                        image if ref is refs[0] else None,
                    )
                )
            hack_image = rec.entries[f"{name}/{refs[0].id}/s{seed_list[0]}"].image
            for e in entries:
                e.image = hack_image
            rec.compare(
                "hack",
                name,
                description,
                ref_entry[ref.id],
                _mean_entry(entries, f"{name}/{ref.id}"),
            )
        report_progress("hacks", index + 1, len(chosen_hacks))

    backend = next(
        (r.render.backend for rs in ref_rollouts.values() for r in rs if r.render is not None), ""
    )
    return RewardCheckReport(
        scorer=evaluator.scorer.name,
        reward_config=evaluator.reward_config.to_dict(),
        gate_config=evaluator.gate_config.to_dict(),
        seeds=seed_list,
        backend=backend,
        seconds=time.perf_counter() - start,
        entries=list(rec.entries.values()),
        pairs=rec.pairs,
        families=rec.families,
    )


def write_json(report: RewardCheckReport, path: str | Path) -> Path:
    """Writes the report as JSON.

    Args:
        report: The report.
        path: The file.

    Returns:
        The path written.
    """
    target = Path(path)
    target.write_text(json.dumps(report.to_dict(), indent=1, ensure_ascii=False), encoding="utf-8")
    return target
