"""One look at the scorer when ``sketch-env serve`` starts.

A served environment whose scorer is down still answers every step, with ``reward: null``
(an infrastructure failure is never charged to the policy). That is right for one step and
baffling for a whole run: nothing said the scorer was gone. So the server scores one plain
picture as it starts, off the request path, and logs a warning naming the scorer and the fix
when that fails. It keeps serving either way: the scorer may come up later, and a step's
reward is ``null`` only while it is down.
"""

from __future__ import annotations

import logging
import math
import threading

from PIL import Image

from sketch_env.catalog.tasks import load_tasks
from sketch_env.catalog.vocabulary import CANVAS_SIZE
from sketch_env.install import REINSTALL
from sketch_env.scoring.base import score_sync
from sketch_env.scoring.spec import DEFAULT_SCORER, make_scorer
from sketch_env.specs import parse_spec

__all__ = ["probe_scorer", "scorer_fix", "start_scorer_probe"]

logger = logging.getLogger(__name__)


def scorer_fix(spec: str) -> str:
    """What to do when the scorer a spec names does not answer.

    Args:
        spec: The scorer spec (``--scorer`` / ``$SKETCH_ENV_SCORER``).

    Returns:
        The fix, in words and commands.
    """
    kind = parse_spec(spec, what="scorer").kind if spec else DEFAULT_SCORER
    if kind == "hpsv3":
        return (
            "start the HPSv3 service (sketch-env hpsv3 serve --model-dir DIR --checkpoint FILE, "
            "docs/hpsv3.md), check it with sketch-env hpsv3 health --url URL, or serve with "
            f"--scorer {DEFAULT_SCORER}"
        )
    if kind == "judge":
        return (
            "start the judge's API or fix its URL, model or api_key_env in --scorer "
            f"(docs/judge.md), or serve with --scorer {DEFAULT_SCORER}"
        )
    return REINSTALL


def probe_scorer(spec: str) -> str | None:
    """Scores one plain canvas-sized picture with the scorer a spec names.

    Args:
        spec: The scorer spec.

    Returns:
        ``None`` when it answered with a number, else what went wrong, in one line.
    """
    # A real task's scene: a pairwise judge compares against references of the prompt's task.
    prompt = load_tasks()[0].prompt
    picture = Image.new("RGB", CANVAS_SIZE, (245, 240, 228))
    try:
        scorer = make_scorer(spec)
        (score,) = score_sync(scorer, [picture], [prompt])
    except Exception as exc:  # Whatever the scorer raises is the news.
        return f"{type(exc).__name__}: {exc}".splitlines()[0]
    if not math.isfinite(score.value):
        unscored = dict(score.meta).get("unscored")
        return f"it answered without a score ({unscored or score.value})"
    return None


def start_scorer_probe(spec: str) -> threading.Thread:
    """Probes the scorer once in a background thread; a failure is one warning, logged under
    ``sketch_env.server.probe`` (``sketch-env serve`` prints ``sketch_env.server``'s log).

    The probe runs beside the server rather than before it: a scorer that does not answer
    may take its whole request timeout (a minute, with retries) to say so, and the server
    should be listening meanwhile.

    Args:
        spec: The scorer spec (``--scorer`` / ``$SKETCH_ENV_SCORER``).

    Returns:
        The started (daemon) thread.
    """

    def probe() -> None:
        problem = probe_scorer(spec)
        if problem is not None:
            logger.warning(
                "scorer %s did not score a test picture (%s): every step's reward will be null "
                "until it answers. Fix: %s",
                spec,
                problem,
                scorer_fix(spec),
            )

    thread = threading.Thread(target=probe, name="sketch-env-scorer-probe", daemon=True)
    thread.start()
    return thread
