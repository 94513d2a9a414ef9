"""Side-by-side benchmark of the sketch_env renderer against a straightforward baseline.

Run from a checkout with ``python -m bench`` (or ``sketch-env bench``); see docs/performance.md.
"""
