"""Rendering on a real local Ray cluster: same pixels as local, spread over nodes, no lost work.

Every test here runs real Ray (a private local instance, or two simulated nodes from Ray's own
cluster utilities) and real Chromium. Without Ray the tests fail with the install command.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Iterator

import numpy as np
import psutil
import pytest

from sketch_env import RenderConfig, RenderStatus, SketchRenderer
from sketch_env.distributed import check_renderer_spec, make_renderer
from sketch_env.evaluation import Evaluator
from sketch_env.install import RAY_INSTALL
from tests.conftest import GOOD_SKETCH, SEEDED_SKETCH, require_chromium

# Ray reads this when it starts a cluster: the tests must never report usage anywhere.
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

try:
    import ray
except ImportError:  # Reported by require_ray, as a failure with the install command.
    ray = None

#: Brush strokes over plain p5 fills: both kinds of pixels must match across machines.
STROKES_AND_FILLS = """
function setup() {
  createCanvas(240, 240, WEBGL);
  background(250, 246, 236);
  translate(-width / 2, -height / 2);
  noStroke();
  fill(40, 90, 160);
  rect(20, 20, 90, 120);
  fill(210, 120, 40);
  ellipse(170, 170, 90, 90);
  brush.set('2B', '#202020', 1.5);
  for (let i = 0; i < 6; i++) {
    brush.line(random(240), random(240), random(240), random(240));
  }
  noLoop();
}
"""

#: Short limits keep a failing test quick; pool sizes stay at one browser per actor.
CONFIG = RenderConfig(deadline_s=20.0, max_frames=20)

#: Upper bound on waiting for a process or an actor to change state (not a timing assertion).
WAIT_S = 120.0


def require_ray() -> None:
    """Fails (not skips) with the install command when Ray is missing."""
    if ray is None:
        pytest.fail(f"the distributed tests need Ray: {RAY_INSTALL}")


def wait_until(condition, what: str) -> None:
    """Polls ``condition`` until it holds, failing with ``what`` after `WAIT_S`."""
    end = time.monotonic() + WAIT_S
    while not condition():
        if time.monotonic() > end:
            pytest.fail(f"gave up waiting: {what}")
        time.sleep(0.1)


def all_gone(pids: list[int | None]) -> bool:
    """Whether none of these processes runs any more (zombies count as gone)."""
    for pid in pids:
        if pid is None:
            continue
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                return False
        except psutil.NoSuchProcess:
            continue
    return True


def same_pixels(a: np.ndarray, b: np.ndarray, backend: str) -> bool:
    """Bit-identical on llvmpipe and GPUs; SwiftShader is only nearly deterministic."""
    if backend == "swiftshader":
        return a.shape == b.shape and np.mean(np.all(a == b, axis=-1)) >= 0.9999
    return np.array_equal(a, b)


# ---------------------------------------------------------------------------- no cluster
def test_make_renderer_specs():
    from sketch_env.distributed import _parse_ray_spec

    assert _parse_ray_spec("ray") == (None, {})
    assert _parse_ray_spec("ray://auto") == ("auto", {})
    assert _parse_ray_spec("ray://10.0.0.5:6379?num_actors=4&call_timeout_s=90") == (
        "10.0.0.5:6379",
        {"num_actors": 4, "call_timeout_s": 90.0},
    )
    for bad in ("gpu", "ray://", "ray://auto?bogus=1", "ray://auto?num_actors=many"):
        with pytest.raises(ValueError):
            _parse_ray_spec(bad)
        with pytest.raises(ValueError):
            check_renderer_spec(bad)  # before Ray is looked for
    with pytest.raises(TypeError):
        make_renderer(42)  # type: ignore[arg-type]

    own = SketchRenderer(CONFIG)
    assert make_renderer(own) is own  # An object passes through untouched.
    require_ray()
    lazy = make_renderer("ray://auto?num_actors=2&actor_pool_size=1", deadline_s=9.0)
    # Nothing connects until first use: building it from configuration is free.
    assert type(lazy).__name__ == "RayRenderer"
    assert (lazy.address, lazy.num_actors, lazy.actor_pool_size) == ("auto", 2, 1)
    assert lazy.config.deadline_s == 9.0
    assert not ray.is_initialized()
    lazy.close()


def test_package_imports_without_ray():
    # A fresh interpreter in which `import ray` fails, as on a machine without the extra.
    code = (
        "import sys; sys.modules['ray'] = None\n"
        "import sketch_env.distributed as d\n"
        "assert d.make_renderer('local') is d.make_renderer()\n"
        "try:\n"
        "    d.RayRenderer\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert RAY_INSTALL in out.stdout, out.stdout + out.stderr


# ---------------------------------------------------------------------------- two nodes
@pytest.fixture
def two_nodes() -> Iterator[object]:
    """Two simulated Ray nodes of one CPU each on this machine."""
    require_ray()
    require_chromium()
    from ray.cluster_utils import Cluster

    cluster = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 1, "include_dashboard": False},
    )
    try:
        worker = cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address)
        # conftest keeps Ray on loopback: nothing here may reach another address.
        assert {n["NodeManagerAddress"] for n in ray.nodes()} == {"127.0.0.1"}
        yield cluster, worker
    finally:
        ray.shutdown()
        cluster.shutdown()


def test_actors_spread_over_both_nodes_and_survive_losing_one(two_nodes):
    from sketch_env.distributed import RayRenderer

    cluster, worker = two_nodes
    node_ids = {n["NodeID"] for n in ray.nodes() if n["Alive"]}
    assert len(node_ids) == 2

    with RayRenderer(config=CONFIG) as renderer:
        actors = renderer.actors()
        # Defaults: one actor per node, one browser per CPU of its node.
        assert {a["node_id"] for a in actors} == node_ids
        assert [a["pool_size"] for a in actors] == [1, 1]
        assert renderer.pool_size == 2

        seeds = [21, 22, 23, 24]
        future = renderer.run_coroutine(renderer.render_many([SEEDED_SKETCH] * 4, seeds))
        on_worker = next(a for a in actors if a["node_id"] == worker.node_id)
        wait_until(
            lambda: renderer.actors()[on_worker["index"]]["in_flight"] > 0,
            "a render in flight on the worker node",
        )
        cluster.remove_node(worker)  # The node dies with renders in flight on it.
        results = future.result()

        assert [r.seed for r in results] == seeds
        assert all(r.status is RenderStatus.OK for r in results), [r.errors for r in results]
        assert all(r.backend == renderer.backend for r in results)
        retried = [r for r in results if r.attempts > 1]
        assert retried and all("died" in r.errors[0] for r in retried)
        wait_until(lambda: all_gone(on_worker["browser_pids"]), "the dead node's browsers to exit")
        survivors = [a for a in renderer.actors() if a["alive"]]
        head_browsers = [pid for a in survivors for pid in a["browser_pids"]]
    wait_until(lambda: all_gone(head_browsers), "closing to end the browsers")


# ---------------------------------------------------------------------------- one node
@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """A private local Ray instance with two CPUs (after the two-node test shut its own)."""
    require_ray()
    require_chromium()
    ray.init(num_cpus=2, include_dashboard=False)
    try:
        yield
    finally:
        ray.shutdown()


@pytest.fixture(scope="module")
def ray_renderer(local_ray) -> Iterator[object]:
    """Two actors of one browser each on the local instance."""
    from sketch_env.distributed import RayRenderer

    with RayRenderer(num_actors=2, actor_pool_size=1, config=CONFIG) as renderer:
        yield renderer


def test_same_pixels_as_local_rendering(ray_renderer):
    seeds = [3, 4]
    with SketchRenderer(CONFIG, pool_size=1) as local:
        expected = local.render_many_sync([STROKES_AND_FILLS] * 2, seeds)
        local_backend = local.backend
    results = ray_renderer.render_many_sync([STROKES_AND_FILLS] * 2, seeds)

    assert ray_renderer.backend == local_backend
    for want, got in zip(expected, results, strict=True):
        assert got.status is RenderStatus.OK, got.errors
        assert (got.seed, got.backend, got.width, got.height) == (
            want.seed,
            want.backend,
            240,
            240,
        )
        assert got.paint_fraction == pytest.approx(want.paint_fraction)
        assert same_pixels(got.array(), want.array(), got.backend)
    # Different seeds still give different pictures through Ray: the seed really travelled.
    assert not np.array_equal(results[0].array(), results[1].array())


def test_async_api_and_rejection(ray_renderer):
    async def main():
        single = await ray_renderer.render(GOOD_SKETCH, seed=7)
        refused = await ray_renderer.render(12345, seed=2)  # type: ignore[arg-type]
        return single, refused

    single, refused = asyncio.run(main())
    assert single.status is RenderStatus.OK and single.seed == 7
    assert refused.status is RenderStatus.REJECTED and refused.seed == 2
    assert refused.backend == ray_renderer.backend
    with pytest.raises(ValueError):
        ray_renderer.render_many_sync([GOOD_SKETCH], seeds=[1, 2])


def test_evaluator_runs_on_a_ray_renderer(ray_renderer):
    evaluator = Evaluator(renderer=ray_renderer, scorer="heuristic")
    replies = [f"```javascript\n{GOOD_SKETCH}\n```", "I would rather not draw.", SEEDED_SKETCH]
    rollouts = evaluator.evaluate_sync(replies, ["a red square"] * 3, seeds=[1, 2, 3])

    assert [r.seed for r in rollouts] == [1, 2, 3]
    assert rollouts[0].render is not None and rollouts[0].render.status is RenderStatus.OK
    assert rollouts[0].reward.reward is not None
    assert rollouts[1].render is None and not rollouts[1].gate.passed
    assert rollouts[2].render is not None and rollouts[2].render.seed == 3


def test_killing_an_actor_mid_batch_loses_and_duplicates_nothing(ray_renderer):
    sources = [GOOD_SKETCH, SEEDED_SKETCH, STROKES_AND_FILLS] * 2
    seeds = [31, 32, 33, 34, 35, 36]
    victim = ray_renderer.actors()[0]
    handle = ray_renderer.actor_handles()[0]

    future = ray_renderer.run_coroutine(ray_renderer.render_many(sources, seeds))
    wait_until(
        lambda: ray_renderer.actors()[0]["in_flight"] > 0, "a render in flight on the victim"
    )
    ray.kill(handle)
    results = future.result()

    # Exactly one result per sketch, in order, every one rendered.
    assert [r.seed for r in results] == seeds
    assert all(r.status is RenderStatus.OK for r in results), [r.errors for r in results]
    retried = [i for i, r in enumerate(results) if r.attempts > 1]
    assert retried, "the kill should have caught a render in flight"
    # A retried render is the same picture a clean render of that sketch and seed gives.
    for i in retried:
        again = ray_renderer.render_sync(sources[i], seeds[i])
        assert same_pixels(results[i].array(), again.array(), again.backend)

    # The dead actor was replaced (same slot, next generation) and its browsers are gone.
    wait_until(lambda: ray_renderer.replacements == 1, "the replacement actor")
    slot = ray_renderer.actors()[0]
    assert slot["alive"] and slot["generation"] == 1 and slot["pid"] != victim["pid"]
    assert ray_renderer.pool_size == 2
    wait_until(lambda: all_gone(victim["browser_pids"]), "the killed actor's browsers to exit")
