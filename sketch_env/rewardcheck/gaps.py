"""What search found against each scorer: the measured adversarial gaps a training run states.

A reward is measured by what a search finds (`sketch_env.rewardcheck.search`), and a training
run should say what it trains on. `MEASURED_GAPS` holds the figures of
``sketch-env reward-check --search 500`` for the embedded scorers under the default reward
(docs/reward.md, "What search finds", has the whole runs and their pictures); `gap_notice`
turns them into the lines a training script prints at start, and `positive_gap` says whether a
blind search beat the references, which the training examples refuse to default to.

A scorer that needs a service (HPSv3, a judge) has no figure here: it depends on the model
behind it, and the notice says how to measure it.

Examples:
    >>> positive_gap("heuristic"), positive_gap("hpsv3")
    (True, None)
"""

from __future__ import annotations

from dataclasses import dataclass

from sketch_env.specs import parse_spec

__all__ = ["MEASURED_GAPS", "MeasuredGap", "gap_notice", "positive_gap"]


@dataclass(frozen=True, slots=True)
class MeasuredGap:
    """One scorer's measured gaps (best found − the task's median reference), per task.

    Args:
        blind: ``(task id, gap)`` of the blind search, which knows nothing of painting.
        references: ``(task id, gap)`` of the search that mutates the task's references.
        measured: When (``YYYY-MM-DD``).
        note: What the figures mean, in a sentence.
        resolution: What ``reward-check --resolution`` measured, in a line (empty if never).
        composed: ``(task id, gap)`` of the search that composes pictures of rendered tiles
            (empty if never measured).
        command: The search that measured them.
        elsewhere: ``(task id, gap)`` of blind searches on other tasks (the adversarial
            floor's, `sketch_env.rewardcheck.floor`); they count for `positive_gap`.
        mutant_margin: ``(task id, best mutant − the task's best reference)`` of the
            references search: what an edit of a good painting gains without painting better
            (the gap against the median, in ``references``, is positive by construction).
        finds: ``(task id, gap)`` of the pool's finds (`sketch_env.catalog.finds`): what
            earlier searches found, against any scorer, replayed on their tasks.
    """

    blind: tuple[tuple[str, float], ...]
    references: tuple[tuple[str, float], ...]
    measured: str
    note: str
    resolution: str = ""
    composed: tuple[tuple[str, float], ...] = ()
    command: str = "reward-check --search 500"
    elsewhere: tuple[tuple[str, float], ...] = ()
    mutant_margin: tuple[tuple[str, float], ...] = ()
    finds: tuple[tuple[str, float], ...] = ()

    @property
    def worst_blind(self) -> float:
        """The largest blind gap, on the search's tasks or elsewhere."""
        return max(gap for _, gap in (*self.blind, *self.elsewhere))


#: The figures of docs/reward.md ("What search finds"), seed 0, population 16, llvmpipe.
MEASURED_GAPS: dict[str, MeasuredGap] = {
    "anchored": MeasuredGap(
        blind=(
            ("flowers/watercolour", -10.98),
            ("landscape/charcoal", -10.61),
            ("still_life/ink_hatching", -10.12),
            ("seascape/pastel", -8.76),
        ),
        references=(
            ("flowers/watercolour", 0.00),
            ("landscape/charcoal", 0.39),
            ("still_life/ink_hatching", 0.32),
            ("seascape/pastel", 0.50),
        ),
        measured="2026-12-02",
        note=(
            "nothing blind came near a reference (best 0.00-1.74 of 11); mutants of the best "
            "references, which still paint the picture, reach the maximum; collages of brush "
            "tiles with no subject out-earn the median reference on three of four tasks "
            "(landscape/charcoal at the maximum)"
        ),
        resolution=(
            "tiers 54 % (chance 50 %), 43 of 96 references at the maximum, six ladders rho "
            "-0.20-0.94, 3 of 12 free compositions above its task's weak median: it cannot tell "
            "a fine painting from a weak one"
        ),
        # reward-check --search 100 --search-mode composed, 2026-12-04: collages of brush
        # tiles with no subject, at 25 renders a task.
        composed=(
            ("flowers/watercolour", -1.83),
            ("landscape/charcoal", 0.37),
            ("still_life/ink_hatching", 0.50),
            ("seascape/pastel", 0.44),
        ),
    ),
    "vision": MeasuredGap(
        # reward-check --search 500 --search-mode blind, seed 0 (125 evaluations a task), with
        # the medium, presence and colour checks and the weak-ok quality midpoint (with the
        # midpoint at 0.5: -4.60, -7.37, -5.77, -3.79).
        blind=(
            ("flowers/watercolour", -6.41),
            ("landscape/charcoal", -7.57),
            ("still_life/ink_hatching", -6.70),
            ("seascape/pastel", -5.04),
        ),
        # reward-check --search 500 --search-mode references, seed 0, 2026-12-05 (125
        # mutants a task). Against the median reference, as the gap is defined; the best
        # mutant against the task's *best* reference (`TaskSearch.mutant_margin`) is +1.39,
        # +0.51, +0.16 and +2.36 (+1.70, +0.86, +0.25, +3.11 with the midpoint at 0.5): edits
        # that do not improve the painting (a green wash over the sea, a darker foreground)
        # climb the quality line.
        references=(
            ("flowers/watercolour", 1.85),
            ("landscape/charcoal", 1.29),
            ("still_life/ink_hatching", 3.74),
            ("seascape/pastel", 5.46),
        ),
        # The same search's best mutant against the task's *best* reference. Reading quality
        # from the picture's regions (`vision?quality_regions=16`) gave +0.11, +0.08, +0.06,
        # +0.11, but its composed search beat still_life/ink_hatching by +0.37, so it is not
        # the default; the lower of the two readings (`quality_both=1`) gave +1.31, +0.61,
        # +0.05, +1.86 and let composed collages within 0.18-0.53 of the median reference.
        mutant_margin=(
            ("flowers/watercolour", 1.39),
            ("landscape/charcoal", 0.51),
            ("still_life/ink_hatching", 0.16),
            ("seascape/pastel", 2.36),
        ),
        measured="2026-12-05",
        command=(
            "reward-check --search 500, each mode alone: blind, references, composed --offline 16"
        ),
        note=(
            "a blind search of 500 evaluations stays 5.0-7.6 below the median reference on the "
            "four search tasks, and the adversarial floor's blind search (24 programs, 8 a "
            "generation) stays below it on all 24 tasks (closest: abstract/watercolour, -0.77); "
            "mutants of the best references out-earn those references themselves by "
            "+0.16..+2.36 with edits that do not make a better painting; and a collage the "
            "composed search found against a variant of this scorer earns 1.05 over "
            "still_life/ink_hatching's median reference"
        ),
        # The adversarial floor's search (reward-check --search 576 --search-mode blind
        # --population 8 over all 24 tasks, seed 0): its own task, and the closest of the 24.
        # A second hardening round over the 20 other tasks moved the closest to -4.30 but let
        # the composed search beat still_life/ink_hatching by +2.92, so it was not shipped
        # (docs/reward.md, "A second hardening round").
        elsewhere=(("landscape/ink_hatching", -6.88), ("abstract/watercolour", -0.77)),
        # reward-check --search 500 --search-mode composed --offline 16, 2026-12-05 (125
        # renders a task, 4953 s on two busy cores; seascape/pastel stops early: every
        # composition it scores offline earns 0, so nothing new is left to render). With the
        # midpoint at 0.5 the same run gave -3.58, -3.51, -1.04 and -3.79.
        composed=(
            ("flowers/watercolour", -3.80),
            ("landscape/charcoal", -5.04),
            ("still_life/ink_hatching", -0.57),
            ("seascape/pastel", -5.04),
        ),
        # reward-check --search 4 --search-mode blind --population 2 --tasks
        # flowers/watercolour,landscape/charcoal,still_life/ink_hatching,landscape/ink_hatching,
        # seed 0, 2026-12-06: the pool's four finds, each on its task. The still life's is a
        # collage the composed search found against a variant of this scorer (docs/reward.md,
        # "A collage the default's own search missed"): the composed bar is not met.
        finds=(
            ("flowers/watercolour", -4.76),
            ("landscape/charcoal", -2.10),
            ("still_life/ink_hatching", 1.05),
            ("landscape/ink_hatching", -6.67),
        ),
        resolution=(
            "tiers 80.8 % held out, 0 of 96 at the maximum; six ladders rho 0.94-1.00, every "
            "competent rung without props over half the maximum, two rungs of one ladder "
            "0.02 apart; 10 of 12 free compositions above their task's weak median; wrong "
            "subject over the task's weakest 19.6 %, at its median 3.8 %"
        ),
    ),
    "heuristic": MeasuredGap(
        blind=(
            ("flowers/watercolour", 5.81),
            ("landscape/charcoal", 1.74),
            ("still_life/ink_hatching", 5.84),
            ("seascape/pastel", 2.62),
        ),
        references=(
            ("flowers/watercolour", 5.36),
            ("landscape/charcoal", 1.80),
            ("still_life/ink_hatching", 3.25),
            ("seascape/pastel", 2.24),
        ),
        measured="2026-12-02",
        note=(
            "random rectangles and hatching on a saturated ground out-earn every reference "
            "from the first generation: do not train on it"
        ),
    ),
}


def _kind(spec: str) -> str:
    return parse_spec(spec, what="scorer spec").kind if isinstance(spec, str) else str(spec)


def positive_gap(spec: str) -> bool | None:
    """Whether a blind search beat the references under this scorer.

    Args:
        spec: A scorer spec (``"anchored"``, ``"heuristic"``, ``"hpsv3+..."``).

    Returns:
        ``True`` or ``False`` for a measured scorer, ``None`` when it was never measured.
    """
    gap = MEASURED_GAPS.get(_kind(spec))
    return None if gap is None else gap.worst_blind > 0


def _span(pairs: tuple[tuple[str, float], ...]) -> str:
    values = [v for _, v in pairs]
    return f"{min(values):+.2f}..{max(values):+.2f}"


def gap_notice(spec: str) -> str:
    """The lines a training run prints about the reward it trains on.

    Args:
        spec: The scorer spec.

    Returns:
        The scorer, its measured gaps and what they mean, or how to measure them.
    """
    kind = _kind(spec)
    gap = MEASURED_GAPS.get(kind)
    if gap is None:
        return (
            f"scorer {spec}: adversarial gap not measured here (it depends on the model behind "
            f"it); measure it before a long run: sketch-env reward-check --search 500 "
            f"--scorer '{spec}'"
        )
    return (
        f"scorer {kind}: measured adversarial gap ({gap.command}, {gap.measured}): "
        f"blind {_span(gap.blind)}, reference mutants {_span(gap.references)}"
        + (
            f", composed pictures {_span(gap.composed)} (--search-mode composed)"
            if gap.composed
            else ""
        )
        + "".join(f", blind on {task} {value:+.2f}" for task, value in gap.elsewhere)
        + (
            f", mutants over the best reference {_span(gap.mutant_margin)}"
            if gap.mutant_margin
            else ""
        )
        + (
            f", the pool's finds {_span(gap.finds)} (the worst on "
            f"{max(gap.finds, key=lambda pair: pair[1])[0]})"
            if gap.finds
            else ""
        )
        + "\n"
        f"  {gap.note} (docs/reward.md, 'What search finds')"
        + (
            f"\n  resolution: {gap.resolution} (docs/reward.md, 'Resolution')"
            if gap.resolution
            else ""
        )
    )
