"""The guards in the reward: each applied guard's factor, and the pull towards the floor.

The guards themselves are data (`sketch_env.picture.guards`: `Guard`, the reward's `GUARDS`);
a configuration holds the ones it applies with their thresholds (`RewardConfig.guards`). Here
they meet the reward: the product ``g`` of the applied guards' factors pulls the formula's sum
towards ``guard_floor``, ``reward = floor + g * (sum - floor)``, never raising a reward that is
below the floor already. A guard that fires in full sets the reward to the floor, as low as a
blank canvas, so no scorer's opinion of a degenerate picture reaches the reward; the difference
is the breakdown's ``guards`` contribution, and each factor is reported by name.
"""

from __future__ import annotations

from collections.abc import Iterable

from sketch_env.picture.guards import GUARD_NAMES, GUARDS, Condition, Guard, ramp
from sketch_env.picture.measures import PictureMeasures

__all__ = ["GUARDS", "GUARD_NAMES", "Condition", "Guard", "guard_factors", "pulled", "ramp"]


def guard_factors(
    measures: PictureMeasures, guards: Iterable[Guard | str] = GUARD_NAMES
) -> dict[str, float]:
    """Each guard's factor for a picture (1: the guard has nothing to say).

    Args:
        measures: The picture's measurements.
        guards: The guards (or names of `GUARDS`).

    Returns:
        Guard name -> factor, in the order given.

    Raises:
        KeyError: On an unknown guard name.

    Examples:
        >>> import numpy as np
        >>> from sketch_env.picture.measures import measure_picture
        >>> guard_factors(measure_picture(np.full((64, 64, 3), 255, np.uint8)))["near_blank"]
        0.0
    """
    out = {}
    for guard in guards:
        found = GUARDS[guard] if isinstance(guard, str) else guard
        out[found.name] = float(found.factor(measures))
    return out


def pulled(total: float, factor: float, floor: float) -> float | None:
    """The formula's sum pulled towards ``floor`` by the guards' product ``factor``; ``None``
    when the guards leave it as it is (a factor of 1, or a sum at or below the floor).

    Examples:
        >>> pulled(9.0, 0.0, -0.75), pulled(9.0, 1.0, -0.75), pulled(-1.0, 0.0, -0.75)
        (-0.75, None, None)
    """
    if factor < 1.0 and total > floor:
        return floor + factor * (total - floor)
    return None
