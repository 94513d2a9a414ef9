"""Heuristic scorer speed on 600x600 paintings (the issue asks for well under 50 ms).

Run from a checkout: ``python bench/scorer_speed.py``. Prints the median and range per image
for every picture in ``tests/data/rendered``; speed lives here, not in the test suite.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from PIL import Image

from sketch_env.scoring import HeuristicScorer

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "rendered"


def main(repeats: int = 25) -> None:
    """Times `HeuristicScorer.score_one` on each test picture and prints a table."""
    scorer = HeuristicScorer()
    print(f"{'picture':<24}{'size':>10}{'median ms':>12}{'min ms':>9}{'max ms':>9}")
    for path in sorted(DATA.glob("*.png")):
        image = Image.open(path).convert("RGB")
        scorer.score_one(image)  # first call pays for imports and allocation
        timings = []
        for _ in range(repeats):
            start = time.perf_counter()
            scorer.score_one(image)
            timings.append((time.perf_counter() - start) * 1000)
        size = f"{image.width}x{image.height}"
        print(
            f"{path.stem:<24}{size:>10}{statistics.median(timings):>12.1f}"
            f"{min(timings):>9.1f}{max(timings):>9.1f}"
        )


if __name__ == "__main__":
    main()
