"""The reward as an OpenEnv rubric tree: the same pipeline, seen by OpenEnv's tooling.

OpenEnv 0.10 describes a reward as a `Rubric` tree (RFC 004): ``env.rubric.named_rubrics()``
lists its parts, and each part's ``last_score`` says what it gave the last step. `reward_rubric`
builds that view of this package's reward: a `WeightedSum` whose children are named as the
breakdown's contributions, one child per way a contribution can arise:

- the ladder's fixed outcomes (`sketch_env.reward.outcome`): ``gate_fail``,
  ``runtime_gate_fail``, ``sketch_error``, ``blank``;
- the formula's terms (`sketch_env.reward.terms`): ``gate``, ``coverage``, ``preference``,
  ``pairwise``, ``dark_mass``;
- ``guards``, the guards' pull towards the floor.

What OpenEnv's validation requires of a tree (its main branch: `runtime.rubric_introspectable`
and `runtime.reward_attribution`, applicable when the manifest declares ``rubric_tree: true``)
holds by construction, and ``tests/reward/test_rubric.py`` checks it for outcomes of every status:

- a weighted sum's weights sum to 1 (within 1e-6): every child weighs ``1 / n``;
- every parent equals its children's aggregation: the root is ``sum(weight * child)``;
- the root equals the emitted reward: a child's score is its contribution divided by its
  weight, so ``weight * score`` is the contribution, and the contributions sum to the reward.

A child's ``last_score`` is therefore ``n`` times its contribution (``n`` = 10 children); its
``contribution`` property gives the contribution itself. The tree reads the step's breakdown
(the observation's ``components``, or a `RewardBreakdown`): it decides nothing the pipeline did
not, so it cannot drift from the reward.

OpenEnv's `Gate` and `Sequential` return 0 when a child fails; this reward's outcomes fail to a
penalty (-1, -0.75), not to 0, so the ladder is named leaves rather than those
containers. An infrastructure failure has no reward (``None``): the environment does not call
the rubric then and clears every ``last_score`` (`clear_scores`), so nothing stale is read as
the step's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from openenv.core.rubrics import Rubric, WeightedSum

from sketch_env.reward.outcome import LADDER
from sketch_env.reward.terms import TERMS

__all__ = ["CONTRIBUTIONS", "ContributionRubric", "RewardRubric", "clear_scores", "reward_rubric"]

#: Every contribution a breakdown can hold, in the tree's order.
CONTRIBUTIONS: tuple[str, ...] = (
    *(rung.contribution for rung in LADDER if rung.contribution is not None),
    *(term.name for term in TERMS),
    "guards",
)


def contributions_of(observation: Any) -> Mapping[str, float]:
    """The contributions a step's observation carries (``components.contributions``), or a
    breakdown's own.

    Raises:
        TypeError: If it carries none.
    """
    components = getattr(observation, "components", observation)
    found = getattr(components, "contributions", None)
    if found is None:
        raise TypeError(
            f"the reward rubric reads a step's contributions: pass a SketchObservation or a "
            f"RewardBreakdown, got {type(observation).__name__}"
        )
    return dict(found)


class ContributionRubric(Rubric):
    """One contribution of the reward, scored so that ``weight * score`` is the contribution.

    Args:
        name: The contribution's name.
        weight: Its weight in the parent.
    """

    def __init__(self, name: str, weight: float) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.name = name
        self.weight = weight

    def forward(self, action: Any, observation: Any) -> float:
        """The step's contribution of this name over the weight (0 when it has none)."""
        return contributions_of(observation).get(self.name, 0.0) / self.weight

    @property
    def contribution(self) -> float | None:
        """The last step's contribution (``None`` before a step, or after an unscored one)."""
        return None if self.last_score is None else self.last_score * self.weight


class RewardRubric(WeightedSum):
    """The reward as a weighted sum of its contributions, children named after them.

    Args:
        names: The contributions, in order.
    """

    def __init__(self, names: tuple[str, ...] = CONTRIBUTIONS) -> None:
        weight = 1.0 / len(names)
        children: list[Rubric] = [ContributionRubric(name, weight) for name in names]
        super().__init__(children, [weight] * len(names))
        # Named as the breakdown's contributions, not rubric_0..n: `named_rubrics()` and
        # `get_rubric("coverage")` then speak the reward's words.
        object.__setattr__(self, "_rubric_children", dict(zip(names, children, strict=True)))

    def state_dict(self) -> dict[str, Any]:
        """What the tree is: its children, their weights and what each is."""
        return {"contributions": list(self._rubric_children), "weights": self.weights}


def reward_rubric() -> RewardRubric:
    """The reward's rubric tree (see the module docstring).

    Examples:
        >>> from sketch_env.reward.breakdown import RewardBreakdown
        >>> from sketch_env.reward.outcome import RewardStatus
        >>> rubric = reward_rubric()
        >>> blank = (("blank", -0.75),)
        >>> step = RewardBreakdown(-0.75, RewardStatus.BLANK, True, contributions=blank)
        >>> rubric(None, step), rubric.get_rubric("blank").contribution
        (-0.75, -0.75)
    """
    return RewardRubric()


def clear_scores(rubric: Rubric) -> None:
    """Sets every node's ``last_score`` to ``None``: the step had no reward to attribute."""
    object.__setattr__(rubric, "last_score", None)
    for child in rubric.rubrics():
        object.__setattr__(child, "last_score", None)
