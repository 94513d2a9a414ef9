"""Heuristic scorer speed on 600x600 paintings, with and without reading text.

Run from a checkout: ``python bench/scorer_speed.py``. Prints the median and range per image
for every picture in ``tests/data/rendered``, for the default scorer and for the image
statistics alone (``read_text=False``, the baseline: the issue that introduced the heuristic
asked for well under 50 ms), and the ratio of the two; speed lives here, not in the test suite.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from PIL import Image

from sketch_env.picture.measures import forget_measurements
from sketch_env.scoring import HeuristicScorer

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "rendered"


def _median_ms(scorer: HeuristicScorer, image: Image.Image, repeats: int) -> tuple[float, ...]:
    scorer.score_one(image)  # the first call pays for imports, allocation and model loading
    timings = []
    for _ in range(repeats):
        forget_measurements()  # the same picture again would be answered from memory
        start = time.perf_counter()
        scorer.score_one(image)
        timings.append((time.perf_counter() - start) * 1000)
    return statistics.median(timings), min(timings), max(timings)


def main(repeats: int = 10) -> None:
    """Times `HeuristicScorer.score_one` on each test picture and prints a table."""
    default, statistics_only = HeuristicScorer(), HeuristicScorer(read_text=False)
    print(f"{'picture':<22}{'default ms':>12}{'min-max':>12}{'stats only ms':>15}{'ratio':>8}")
    for path in sorted(DATA.glob("*.png")):
        image = Image.open(path).convert("RGB")
        median, low, high = _median_ms(default, image, repeats)
        base, _, _ = _median_ms(statistics_only, image, repeats)
        print(
            f"{path.stem:<22}{median:>12.1f}{f'{low:.0f}-{high:.0f}':>12}{base:>15.1f}"
            f"{median / base:>8.1f}x"
        )


if __name__ == "__main__":
    main()
