"""Shared fixtures (one real Chromium pool for the renderer tests, known-good sketches), and the
one rule that splits the suite into two tiers.

The tiers: ``python3 -m pytest -m "not slow"`` is the development loop; ``python3 -m pytest``
runs everything (CI runs the fast tier first, then ``-m slow``). What is slow is decided here,
in `SLOW_MODULES`, `SLOW_FIXTURES`, `SLOW_MARKERS` and `SLOW_TESTS`, never by a mark on a test
function: `pytest_collection_modifyitems` adds the ``slow`` mark from these tables.
"""

from __future__ import annotations

import os

# Ray binds its nodes to the machine's own address unless told it runs a single-machine
# cluster; the tests must only ever talk over loopback. Set before anything imports ray (the
# constant is read at import time).
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

import importlib.util
import socket
import threading
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pytest

from sketch_env import RenderConfig, RenderStatus, SketchRenderer

if TYPE_CHECKING:
    from sketch_env.evaluation import Evaluator

#: Short deadline so hostile sketches that must time out cost seconds, not half a minute.
HOSTILE_DEADLINE_S = 6.0
#: How far past its deadline a render may end: the deadline is hard, closing takes a moment.
DEADLINE_SLACK_S = 5.0

# The shared sketches draw on the instructions' 600x600 canvas (the reward refuses any other
# size) with coordinates for 300x300 and scale(2): the same pictures as before the size was
# enforced, at about 0.15 s more per render on llvmpipe.

#: A small real p5.brush painting: a WEBGL canvas, a pencil line and a watercolour fill.
GOOD_SKETCH = """
function setup() {
  createCanvas(600, 600, WEBGL);
  background(245, 240, 228);
  translate(-width / 2, -height / 2);
  scale(2);
  brush.set('2B', '#1f2f7a', 2);
  brush.line(20, 30, 280, 270);
  brush.noStroke();
  brush.fill('#c8402a', 255);
  brush.fillTexture(0.4, 0.6);
  brush.rect(60, 60, 160, 140);
  noLoop();
}
"""

#: Passes the gate and runs cleanly, but leaves the canvas bare (one short pencil mark).
BARE_SKETCH = """
function setup() {
  createCanvas(600, 600, WEBGL);
  background(245, 240, 228);
  translate(-width / 2, -height / 2);
  scale(2);
  brush.set('HB', '#1f2f7a', 1);
  brush.line(10, 10, 14, 12);
  noLoop();
}
"""

#: A sketch whose picture depends on the seed through random() and p5.brush's own PRNG.
SEEDED_SKETCH = """
function setup() {
  createCanvas(600, 600, WEBGL);
  background(250);
  translate(-width / 2, -height / 2);
  scale(2);
  brush.set('HB', '#203060', 1);
  for (let i = 0; i < 12; i++) {
    brush.line(random(300), random(300), random(300), random(300));
  }
  brush.noStroke();
  brush.fill('#2a7a4a', 110);
  brush.circle(random(100, 200), random(100, 200), 60);
}
"""


def require_chromium() -> None:
    """Fails (not skips) with the install command when no browser is present."""
    from sketch_env.render.backends import BrowserNotFoundError, find_browser

    try:
        find_browser()
    except BrowserNotFoundError as exc:
        pytest.fail(f"the renderer tests need Chromium: {exc}")


#: Modules that are slow as a whole (paths relative to tests/), and why. Every other module
#: keeps a thin real slice of its system path in the fast tier.
SLOW_MODULES: dict[str, str] = {
    "render/test_render_leaks.py": "leaks: memory, GPU work and processes, on pools of their own",
    "render/test_render_fairness.py": "fairness under load: a second process renders all along",
    "render/test_prewarm.py": "warm and cold pools side by side, and host pages recycled",
    "server/test_server_load.py": "the server under load: twenty sessions, full queues",
    "server/test_server_sessions.py": "a real server of its own (test_server.py is the slice)",
    "server/test_server_openenv.py": "a real server of its own (test_server.py is the slice)",
    "server/test_manifest.py": "real servers running a judge; openenv's tools on a clean tree",
    "server/test_serve_cli.py": "`sketch-env serve` started as a user does, once per test",
    "env/test_gym_vector.py": "gymnasium vector envs: a browser pool per worker process",
    "distributed/test_distributed.py": "a real local Ray cluster",
    "server/test_replay_fresh_processes.py": "an episode replayed in two fresh server processes",
}
#: Fixtures that make any test using them (directly or through another fixture) slow. The
#: names are unique in tests/.
SLOW_FIXTURES: dict[str, str] = {
    "built_wheel": "builds the wheel from a clean copy of the tree (and a venv with it)",
    "pool_renders": "renders every reference of the pool",
    "hpsv3_python": "the isolated HPSv3 venv and its real service",
    "search": "a seeded reward search through Chromium",
    "default_floor": "the adversarial floor played over the wire against a default server",
}
#: Marks that make a test slow.
SLOW_MARKERS: dict[str, str] = {
    "trl": "a real TRL trainer run",
    "hpsv3": "the HPSv3 venv and service",
}
#: Single tests of otherwise fast modules: module -> test name (without parameters) -> why.
SLOW_TESTS: dict[str, dict[str, str]] = {
    "render/test_renderer_hostile.py": {
        # test_infinite_loop_in_draw_times_out keeps the deadline in the fast tier.
        "test_infinite_loop_in_setup_times_out": "a second full deadline",
        "test_work_left_running_after_the_picture_does_not_reach_the_next_render": (
            "three renders that wait out what a sketch left running"
        ),
        "test_memory_bomb": "a render that fills the heap to its cap",
    },
    "render/test_renderer.py": {
        "test_forced_swiftshader_backend_is_reported_and_nearly_deterministic": (
            "a pool of its own on the software GL backend"
        ),
        "test_interpreter_exit_closes_browsers_without_hanging": "a fresh interpreter with a pool",
        "test_repeated_browser_failure_is_reported_as_crashed": "browsers killed until it gives up",
    },
    "picture/test_reading.py": {
        "test_reading_work_is_bounded_and_fails_closed_at_the_bound": "pages of letters read",
    },
    "trl/test_artifacts.py": {
        "test_gallery_across_steps_in_chromium": "a gallery opened in Chromium (rollout's is fast)",
    },
    "rewardcheck/test_reward_check.py": {
        "test_the_command_writes_json_html_and_fails_when_a_hack_wins": (
            "every hack family at two seeds in a subprocess (the fast tier: one seed, in-process)"
        ),
    },
    "rewardcheck/test_reward_search.py": {
        "test_the_command_exits_0_when_no_gap_and_1_when_the_search_wins": (
            "two searches through the command"
        ),
    },
    "system/test_bench.py": {
        "test_quick_benchmark_writes_json": "the quick benchmark, every workload",
    },
    "evaluation/test_evaluation_config.py": {
        "test_reward_and_tool_env_pickle_and_render_in_a_spawned_process": (
            "a spawned interpreter that starts its own browsers"
        ),
    },
    "scoring/judge/test_judge_end_to_end.py": {
        "test_one_picture_the_judge_refuses_costs_only_its_own_rollout": (
            "a whole group rolled out twice against the judge"
        ),
        "test_rollout_and_pool_calibrate_commands_take_a_judge": "two commands against the judge",
    },
    "render/test_render_library_calls.py": {
        "test_routing_changes_no_picture_and_no_count": (
            "references rendered with the routed and the unrouted p5.brush"
        ),
    },
    "render/test_render_spin_charged.py": {
        # The clock's rule on plain processes (seconds) stays in the fast tier.
        "test_endless_loops_beside_two_trainers_are_always_charged": (
            "five batches through Evaluator() beside two processes rendering in a loop"
        ),
    },
    "system/test_bench_previous.py": {
        "test_a_quick_comparison_writes_its_ratios": "two renderers benchmarked side by side",
    },
    "pool/test_negatives.py": {
        "test_a_hardening_round_keeps_the_best_pictures_of_both_searches": (
            "a blind and a composed search through Chromium against the vision scorer"
        ),
    },
    "rollout/test_export.py": {
        "test_training_artifacts_become_a_dataset_with_runs_steps_and_groups": (
            "a real reward run's training artifacts, exported"
        ),
    },
}

TESTS_DIR = Path(__file__).resolve().parent


def _where(item: pytest.Item) -> tuple[str, str]:
    """``(module relative to tests/, test name without parameters)``."""
    module = item.path.resolve().relative_to(TESTS_DIR).as_posix()
    return module, getattr(item, "originalname", item.name)


def slow_reason(item: pytest.Item) -> str | None:
    """Why ``item`` belongs to the slow tier, or ``None`` when it is fast."""
    module, name = _where(item)
    reason = SLOW_MODULES.get(module) or SLOW_TESTS.get(module, {}).get(name)
    if reason is not None:
        return reason
    for fixture in getattr(item, "fixturenames", ()):
        if fixture in SLOW_FIXTURES:
            return SLOW_FIXTURES[fixture]
    for mark in item.iter_markers():
        if mark.name in SLOW_MARKERS:
            return SLOW_MARKERS[mark.name]
    return None


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by the marks added here
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Marks the slow tier (see the module docstring), and refuses a table entry that names
    nothing: a renamed module or test would otherwise drop into the fast tier unnoticed."""
    for item in items:
        if slow_reason(item) is not None:
            item.add_marker(pytest.mark.slow)
    for module in [*SLOW_MODULES, *SLOW_TESTS]:
        if not (TESTS_DIR / module).is_file():
            raise pytest.UsageError(f"tests/conftest.py names {module}, which does not exist")
    loaded = {_where(item)[0]: getattr(item, "module", None) for item in items}
    for module, names in SLOW_TESTS.items():
        for name in names:
            if loaded.get(module) is not None and not hasattr(loaded[module], name):
                raise pytest.UsageError(f"tests/conftest.py names {module}::{name}: no such test")


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of this working tree, built once per session from a clean copy of it (as from
    a fresh clone: an untracked cache or build output here cannot make it look complete), and
    shared by the packaging and the documentation tests, because a build takes a minute."""
    from tests.system.wheel import build_wheel, clean_tree

    base = tmp_path_factory.mktemp("wheel")
    return build_wheel(clean_tree(base / "clone"), base / "dist")


@pytest.fixture(scope="session")
def wheel_venv(built_wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv outside the checkout with `built_wheel` installed: its ``bin`` folder.
    Tests only run things in it; none installs into it, so one venv serves them all."""
    from tests.system.wheel import install_in_venv

    return install_in_venv(built_wheel, tmp_path_factory.mktemp("wheel-venv") / "venv")


@pytest.fixture(autouse=True, scope="module")
def _no_shared_renderer_across_modules() -> Iterator[None]:
    """Closes the process-wide renderer after each module that left one.

    A module that builds environments with default options starts the shared pool; left open,
    it makes the next module's environments of another configuration fail (as the library
    promises: the first configuration wins), so a module's result would depend on the order.
    """
    yield
    from sketch_env.render import renderer as module

    shared = module._shared
    if shared is not None and not shared.closed and shared._pid == os.getpid():
        shared.close()


@pytest.fixture(scope="session")
def renderer() -> Iterator[SketchRenderer]:
    """A two-browser pool on the auto-chosen backend with a short deadline."""
    require_chromium()
    config = RenderConfig(pool_size=2, deadline_s=HOSTILE_DEADLINE_S, max_frames=20)
    with SketchRenderer(config) as r:
        yield r


def assert_good_render(renderer: SketchRenderer) -> None:
    """Asserts that the pool still renders a known-good sketch correctly."""
    result = renderer.render_sync(GOOD_SKETCH, seed=3)
    assert result.status is RenderStatus.OK, result.errors
    assert result.errors == ()
    assert result.png is not None and result.width == 600 and result.height == 600
    assert result.paint_fraction > 0.05, result.paint_fraction


def reading_nothing(renderer: SketchRenderer, **weights: float) -> Evaluator:
    """An evaluator on ``renderer`` that reads nothing for lettering: the heuristic with
    ``read_text=False``, no guard, and the reward ``weights``. For tests of what the scorer does
    not decide (a clock's charge, how a search spends its pictures): reading pictures for text
    is the costliest part of scoring (0.1-0.6 s a picture on one core), and took 26 s of the
    endless-loop test's 123 under load and 30 s of the stalled composed search's 38."""
    from sketch_env.evaluation import Evaluator
    from sketch_env.reward import RewardConfig
    from sketch_env.scoring.heuristic import HeuristicScorer

    config = RewardConfig(guards=(), **weights)
    return Evaluator(renderer, HeuristicScorer(read_text=False), reward_config=config)


@cache
def smoke_example() -> ModuleType:
    """``examples/grpo_trl_smoke.py`` as a module (examples/ is not a package): its tiny
    tokenizer and model builders and CPU GRPO settings serve the TRL tests."""
    path = Path(__file__).resolve().parent.parent / "examples" / "grpo_trl_smoke.py"
    spec = importlib.util.spec_from_file_location("grpo_trl_smoke", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def steered_tiny_model(sketches: list[str]) -> tuple[object, object, dict]:
    """The smoke example's tiny random model, steered to reply with one of ``sketches``.

    A random model writes noise the gate refuses. Each sketch becomes one token of the
    tokenizer, and ``sequence_bias`` (a standard `transformers.GenerationConfig` field that
    TRL passes through ``generation_kwargs``) makes generation pick a sketch token and then end
    the reply: real generation, real rendering, real pictures.

    Returns:
        ``(tokenizer, model, generation_kwargs)``.
    """
    from tokenizers import AddedToken

    from sketch_env.catalog.instructions import EXAMPLE_SKETCH
    from sketch_env.catalog.tasks import load_tasks

    smoke = smoke_example()
    tokenizer = smoke.build_tokenizer(
        [t.prompt for t in load_tasks()] + EXAMPLE_SKETCH.splitlines()
    )
    tokenizer.add_tokens([AddedToken(s, special=False, normalized=False) for s in sketches])
    ids = [tokenizer.convert_tokens_to_ids(s) for s in sketches]
    # A sketch token first, then the end of the reply.
    bias = {(i,): 30.0 for i in ids} | {(i, tokenizer.eos_token_id): 60.0 for i in ids}
    return tokenizer, smoke.build_model(tokenizer), {"sequence_bias": bias}


class LoopbackListener:
    """A socket on 127.0.0.1, served by a thread, that keeps what reaches it: each TCP
    connection (``udp=False``) or each UDP datagram (``udp=True``). A test that a render sends
    nothing points the sketch at ``port`` and asserts ``arrivals`` stays empty.

    Args:
        udp: Listen for datagrams instead of connections.
    """

    def __init__(self, udp: bool = False) -> None:
        self.udp = udp
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM if udp else socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        if not udp:
            self.sock.listen(16)
        self.sock.settimeout(0.1)
        self.port: int = self.sock.getsockname()[1]
        #: Each datagram's bytes, or ``b""`` for each accepted connection.
        self.arrivals: list[bytes] = []
        self._stop = False
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop:
            try:
                if self.udp:
                    data, _ = self.sock.recvfrom(65535)
                else:
                    conn, _ = self.sock.accept()
                    conn.close()
                    data = b""
            except OSError:
                continue
            self.arrivals.append(data)

    def close(self) -> None:
        self._stop = True
        self._thread.join(timeout=2)
        self.sock.close()
