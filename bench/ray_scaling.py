"""Group throughput on Ray: one simulated node against two, next to the local renderer.

Run from a checkout with the ``ray`` extra installed::

    python bench/ray_scaling.py                 # 3 timed groups per set-up
    python bench/ray_scaling.py --rounds 5 --json bench/results/ray_scaling.json

A "group" is eight mixed sketches rendered as one batch, as a GRPO step renders one prompt's
completions. Four set-ups stay up side by side (local with one and two browsers; Ray with one
actor on one simulated node, and one actor on each of two nodes, one browser each), each
renders an untimed warm-up group, then the rounds alternate between them with fresh seeds, so
every ratio compares groups rendered under the same machine load. The simulated nodes come
from Ray's own cluster utilities and share this machine's cores: a second node only helps if
there are idle cores, so on a small, busy machine the numbers measure Ray's overhead more than
its scaling. The load average is reported for that reason.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

# Ray reads these when it is imported and starts a cluster: no usage report leaves the
# machine, and the simulated nodes talk over loopback rather than the machine's own address.
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")

from sketch_env import RenderConfig, RenderStatus, SketchRenderer
from sketch_env.install import RAY_INSTALL

GROUP_SIZE = 8


def _mixed_group() -> list[str]:
    """Eight sketches from cheap to heavy, as a policy's completions of one prompt vary."""
    head = "function setup() {\n  createCanvas(400, 400, WEBGL);\n  background(246, 241, 230);\n"
    head += "  translate(-width / 2, -height / 2);\n"
    tail = "  noLoop();\n}\n"
    bodies = [
        # A few pencil strokes: close to the per-render overhead.
        "  brush.set('HB', '#203060', 1);\n"
        "  for (let i = 0; i < 5; i++) brush.line(random(400), random(400), random(400), "
        "random(400));\n",
        # Plain p5 shapes, no brush at all.
        "  noStroke();\n  for (let i = 0; i < 40; i++) {\n"
        "    fill(random(255), random(255), random(255), 180);\n"
        "    ellipse(random(400), random(400), random(20, 80));\n  }\n",
        # Many strokes with different brushes.
        "  const kinds = ['2B', 'HB', 'charcoal', 'pen', 'rotring'];\n"
        "  for (let i = 0; i < 40; i++) {\n"
        "    brush.set(kinds[i % kinds.length], '#2a2a2a', 1);\n"
        "    brush.line(random(400), random(400), random(400), random(400));\n  }\n",
        # One flat watercolour wash without texture.
        "  brush.noStroke();\n  brush.fill('#2a6f97', 90);\n  brush.rect(60, 60, 280, 200);\n",
        # Two textured, bleeding fills: the expensive kind.
        "  brush.noStroke();\n  brush.fill('#c8402a', 120);\n  brush.fillTexture(0.5, 0.4);\n"
        "  brush.fillBleed(0.2);\n  brush.rect(40, 40, 180, 160);\n"
        "  brush.fill('#e0a23a', 120);\n  brush.circle(260, 260, 90);\n",
        # A hatched shape.
        "  brush.set('HB', '#3d5a80', 1);\n  brush.hatch(8, 0.8);\n"
        "  brush.rect(80, 120, 240, 160);\n",
        # A noise field of short strokes.
        "  brush.set('2B', '#5b8c4e', 1);\n  for (let i = 0; i < 120; i++) {\n"
        "    const x = random(400), y = random(400), a = noise(x * 0.01, y * 0.01) * TWO_PI;\n"
        "    brush.line(x, y, x + 18 * cos(a), y + 18 * sin(a));\n  }\n",
        # Three textured fills and strokes over them: the heaviest of the group.
        "  brush.noStroke();\n  const c = ['#8e3b6e', '#d8735a', '#6a994e'];\n"
        "  for (let i = 0; i < 3; i++) {\n    brush.fill(c[i], 110);\n"
        "    brush.fillTexture(0.6, 0.5);\n    brush.fillBleed(0.25);\n"
        "    brush.circle(100 + 100 * i, 200, 80);\n  }\n"
        "  brush.set('2B', '#222', 1.5);\n  brush.line(20, 380, 380, 20);\n",
    ]
    return [head + body + tail for body in bodies]


GROUP = _mixed_group()


def _group(render_many: Callable[[list[str], list[int]], list[Any]], seeds: list[int]) -> dict:
    start = time.perf_counter()
    results = render_many(GROUP, seeds)
    wall = time.perf_counter() - start
    if [x.seed for x in results] != seeds:
        raise RuntimeError("results came back out of order")
    return {"wall": wall, "ok": sum(x.status is RenderStatus.OK for x in results)}


@contextmanager
def _ray_cluster(nodes: int) -> Iterator[None]:
    """``nodes`` simulated Ray nodes of one CPU each, on this machine."""
    import ray
    from ray.cluster_utils import Cluster

    cluster = Cluster(
        initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False}
    )
    try:
        for _ in range(nodes - 1):
            cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address)
        yield
    finally:
        ray.shutdown()
        cluster.shutdown()


def _setups(config: RenderConfig) -> dict[str, tuple[str, Callable[[], Any]]]:
    """Set-up name -> (label, builder of an unstarted renderer).

    The Ray actors reserve no CPUs here: every set-up must stay up at once so that rounds can
    alternate between them, and the simulated nodes share the same cores anyway.
    """

    def ray_renderer(num_actors: int) -> Any:
        from sketch_env.distributed import RayRenderer

        return RayRenderer(
            num_actors=num_actors,
            actor_pool_size=1,
            config=config,
            actor_options={"num_cpus": 0},
        )

    return {
        "local-1": ("local, 1 browser", lambda: SketchRenderer(config, pool_size=1)),
        "local-2": ("local, 2 browsers", lambda: SketchRenderer(config, pool_size=2)),
        "ray-1node": ("ray, 1 node x 1 browser", lambda: ray_renderer(1)),
        "ray-2nodes": ("ray, 2 nodes x 1 browser", lambda: ray_renderer(2)),
    }


#: (numerator, denominator, meaning) of the paired ratios reported.
RATIOS = (
    ("ray-2nodes", "ray-1node", "scaling: 2 nodes vs 1 node"),
    ("ray-1node", "local-1", "ray overhead at 1 browser"),
    ("ray-2nodes", "local-2", "ray overhead at 2 browsers"),
    ("local-2", "local-1", "local: 2 browsers vs 1"),
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="timed groups per set-up")
    parser.add_argument("--json", dest="json_path", help="also write the results here")
    args = parser.parse_args(argv)
    try:
        import ray  # noqa: F401
    except ImportError:
        print(f"this benchmark needs Ray: {RAY_INSTALL}", file=sys.stderr)
        return 2

    config = RenderConfig(deadline_s=60.0, max_frames=30)
    setups = _setups(config)
    walls: dict[str, list[float]] = {name: [] for name in setups}
    ok = dict.fromkeys(setups, 0)
    loads = [os.getloadavg()[0]]
    with _ray_cluster(nodes=2), contextlib.ExitStack() as stack:
        renderers = {}
        for name, (_, build) in setups.items():
            renderer = build()
            stack.callback(renderer.close)
            renderer.start()
            # Untimed warm-up group: page caches, JIT, the first contexts of every browser.
            renderer.render_many_sync(GROUP, list(range(GROUP_SIZE)))
            renderers[name] = renderer
        names = list(setups)
        for r in range(args.rounds):
            seeds = [1000 * (r + 1) + i for i in range(GROUP_SIZE)]
            # Rotate who goes first, so a load spike does not always hit the same set-up.
            order = names[r % len(names) :] + names[: r % len(names)]
            for name in order:
                result = _group(renderers[name].render_many_sync, seeds)
                walls[name].append(result["wall"])
                ok[name] += result["ok"]
            loads.append(os.getloadavg()[0])
            print(
                f"round {r + 1}: "
                + "  ".join(f"{n} {walls[n][-1]:.2f}s" for n in names)
                + f"  load {loads[-1]:.1f}",
                file=sys.stderr,
                flush=True,
            )
        backends = {name: renderers[name].backend for name in names}

    rows = []
    for name, (label, _) in setups.items():
        median = statistics.median(walls[name])
        rows.append(
            {
                "setup": name,
                "label": label,
                "backend": backends[name],
                "group_s_median": round(median, 3),
                "group_s_all": [round(w, 3) for w in walls[name]],
                "sketches_per_s": round(GROUP_SIZE / median, 3),
                "ok": ok[name],
                "renders": args.rounds * GROUP_SIZE,
            }
        )
    ratios = []
    for a, b, meaning in RATIOS:
        # Throughput ratio per round (same round, same load), then the median over rounds.
        per_round = [wb / wa for wa, wb in zip(walls[a], walls[b], strict=True)]
        ratios.append(
            {
                "ratio": f"{a} / {b}",
                "meaning": meaning,
                "throughput_ratio_median": round(statistics.median(per_round), 3),
                "per_round": [round(x, 3) for x in per_round],
            }
        )

    print()
    print(f"{'set-up':<26} {'group s (median)':>17} {'sketches/s':>11} {'ok':>7}")
    for row in rows:
        print(
            f"{row['label']:<26} {row['group_s_median']:>17.2f} {row['sketches_per_s']:>11.2f} "
            f"{row['ok']:>3}/{row['renders']:<3}"
        )
    print()
    print(f"{'throughput ratio (paired by round)':<58} {'median':>7}")
    for ratio in ratios:
        print(
            f"{ratio['meaning'] + ' (' + ratio['ratio'] + ')':<58} "
            f"{ratio['throughput_ratio_median']:>6.2f}x"
        )
    report = {
        "benchmark": "ray_scaling",
        "group_size": GROUP_SIZE,
        "rounds": args.rounds,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "load_average": [round(x, 1) for x in loads],
        "results": rows,
        "ratios": ratios,
    }
    print()
    print(json.dumps(report, indent=2))
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
