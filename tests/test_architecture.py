"""The package's shape: light wire models, lazy packages, one vocabulary, one registry, no
import cycles, old import paths that still work."""

from __future__ import annotations

import argparse
import ast
import builtins
import json
import re
import subprocess
import sys
import typing
import warnings
from pathlib import Path

import pytest

from sketch_env.evaluation.rollout import RolloutStatus
from sketch_env.render.gl_backends import BACKEND_CHOICES, GL_BACKENDS, BackendName
from sketch_env.render.protocol import Renderer
from sketch_env.render.result import RenderStatus

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("playwright", "tree_sitter", "sketch_env.render.renderer", "sketch_env.scoring.heuristic")


def _modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running ``code``."""
    script = f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


def test_importing_the_client_loads_no_renderer_parser_or_scorer() -> None:
    loaded = _modules_after("import sketch_env.server.client")
    assert not [m for m in HEAVY if m in loaded]
    # openenv 0.10's own client package imports numpy (through gradio); we add nothing heavy
    # beyond what openenv itself brings.
    baseline = _modules_after("import openenv.core.env_client")
    ours = {m for m in loaded - baseline if not m.startswith("sketch_env")}
    assert not [m for m in ours if m.split(".")[0] in ("numpy", "PIL", "playwright", "torch")]


def test_the_server_command_checks_its_settings_without_loading_the_app() -> None:
    # `sketch-env serve` answers a bad setting before it imports the app (gradio, via OpenEnv's
    # server package: 8 s on two cores), so these modules must stay light.
    loaded = _modules_after(
        "import sketch_env.server.cli, sketch_env.server.settings, sketch_env.distributed"
    )
    assert not [m for m in (*HEAVY, "gradio", "fastapi", "uvicorn", "ray") if m in loaded]


def test_importing_the_package_registers_gymnasium_without_the_renderer() -> None:
    code = "import sketch_env, gymnasium\nassert 'sketch_env/Sketch-v0' in gymnasium.registry"
    loaded = _modules_after(code)
    assert not [m for m in HEAVY if m in loaded]


def test_importing_the_trl_package_loads_neither_trl_nor_the_renderer() -> None:
    loaded = _modules_after("import sketch_env.trl")
    assert not [m for m in (*HEAVY, "trl", "torch") if m in loaded]


@pytest.mark.parametrize(
    ("old", "names", "new"),
    [
        ("sketch_env.env.tasks", ["load_tasks", "POLICY_INSTRUCTIONS"], "sketch_env.catalog"),
        (
            "sketch_env.env.reference_pool",
            ["load_reference_pool", "refresh_reference_pool"],
            "sketch_env.catalog.references",
        ),
        ("sketch_env.render.coverage", ["paint_fraction", "to_rgb_array"], "sketch_env.picture"),
        (
            "sketch_env.scoring.reward",
            ["RewardConfig", "RewardBreakdown", "RewardStatus", "combine"],
            "sketch_env.reward",
        ),
        ("sketch_env.scoring.guards", ["GUARDS", "guard_factors"], "sketch_env.picture.guards"),
        ("sketch_env.scoring.measures", ["measure_picture"], "sketch_env.picture.measures"),
        ("sketch_env.scoring.reading", ["TextReader"], "sketch_env.picture.reading"),
        ("sketch_env.scoring.calibration", ["Calibration"], "sketch_env.reward.calibration"),
        ("sketch_env.scoring.options", ["add_reward_options"], "sketch_env.reward.options"),
    ],
)
def test_old_import_paths_still_work_and_name_the_new_one(
    old: str, names: list[str], new: str
) -> None:
    sys.modules.pop(old, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = __import__(old, fromlist=names)
    assert all(hasattr(module, n) for n in names)
    assert any("moved to" in str(w.message) and new in str(w.message) for w in caught)


def test_every_render_status_is_a_rollout_status() -> None:
    for status in RenderStatus:
        assert RolloutStatus.of_render(status).value == status.value


def test_rollout_status_is_read_back_from_records_by_the_same_rule() -> None:
    gate_failed = {"gate": {"passed": False}, "render": None}
    scorer_down = {
        "gate": {"passed": True},
        "render": {"status": "ok"},
        "components": {"infra_error": "scorer down"},
    }
    crashed = {**scorer_down, "render": {"status": "crashed"}}
    assert RolloutStatus.from_record(gate_failed) is RolloutStatus.GATE_FAILED
    assert RolloutStatus.from_record(scorer_down) is RolloutStatus.INFRA_ERROR
    assert RolloutStatus.from_record(crashed) is RolloutStatus.CRASHED
    assert RolloutStatus.from_record({"status": "timeout"}) is RolloutStatus.TIMEOUT


def _backend_options(parser: argparse.ArgumentParser, name: str) -> dict[str, tuple[str, ...]]:
    """``--backend`` choices of a parser and its nested subcommands, by command name."""
    found: dict[str, tuple[str, ...]] = {}
    for action in parser._actions:
        if "--backend" in action.option_strings:
            found[name] = tuple(action.choices or ())
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                found.update(_backend_options(sub, f"{name} {sub_name}"))
    return found


def test_backend_names_come_from_one_registry() -> None:
    from sketch_env.cli import SUBCOMMANDS, build_parser

    assert ("auto", *GL_BACKENDS) == BACKEND_CHOICES
    assert typing.get_args(BackendName) == BACKEND_CHOICES
    found: dict[str, tuple[str, ...]] = {}
    for name in SUBCOMMANDS:
        if name not in ("bench", "hpsv3"):
            found.update(_backend_options(build_parser(name), name))
    assert {"render", "rollout", "serve", "doctor", "pool refresh"} <= set(found)
    assert {name: BACKEND_CHOICES for name in found} == found


def test_both_renderers_have_every_member_of_the_protocol() -> None:
    pytest.importorskip("ray")
    from sketch_env.distributed.renderer import RayRenderer
    from sketch_env.render.renderer import SketchRenderer

    members = [n for n in vars(Renderer) if not n.startswith("_")]
    assert {"render", "render_many", "start", "close", "pool_size", "backend"} <= set(members)
    for cls in (SketchRenderer, RayRenderer):
        assert [m for m in members if not hasattr(cls, m)] == [], cls.__name__


def _imports_of(path: Path) -> set[str]:
    """Modules a file imports, at any depth (function-level imports too), except under
    ``if TYPE_CHECKING:``. ``from P import name`` counts as importing ``P`` and ``P.name``."""
    found: set[str] = set()

    class Visitor(ast.NodeVisitor):
        def visit_If(self, node: ast.If) -> None:
            if isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
                for child in node.orelse:
                    self.visit(child)
                return
            self.generic_visit(node)

        def visit_Import(self, node: ast.Import) -> None:
            found.update(alias.name for alias in node.names)

        def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
            if node.module and node.level == 0:
                found.add(node.module)
                found.update(f"{node.module}.{alias.name}" for alias in node.names)

    Visitor().visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def _module_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (docs/design.md §9 draws the same picture)."""
    modules: dict[str, Path] = {}
    for path in (ROOT / "sketch_env").rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return {m: (_imports_of(p) & set(modules)) - {m} for m, p in modules.items()}


#: The layers, bottom to top: what each part of the package may import (besides itself). The
#: ground floor (config, errors, install, specs, the catalogue) holds data every layer reads; a
#: front end may use the layers below it, never another front end except where named.
_GROUND = {"config", "errors", "install", "specs"}
ALLOWED: dict[str, set[str]] = {
    "config": set(),
    "errors": set(),
    "install": set(),
    "specs": set(),
    "catalog": {"config", "errors", "install"},
    # The one measurement pass (paper, paint, guards): below the renderer, which reads paint.
    "picture": _GROUND | {"catalog"},
    "render": _GROUND | {"catalog", "picture"},
    "gate": _GROUND | {"catalog", "render"},
    "scoring": _GROUND | {"catalog", "picture", "render", "gate"},
    # The reward pipeline reads the scorers' scores and scales, never the other way.
    "reward": _GROUND | {"catalog", "picture", "render", "gate", "scoring"},
    "distributed": _GROUND | {"catalog", "render"},
    "evaluation": _GROUND
    | {"catalog", "picture", "render", "gate", "scoring", "reward", "distributed"},
}
_BELOW_FRONT_ENDS = set(ALLOWED)
ALLOWED.update(
    {
        "env": _BELOW_FRONT_ENDS | {"__init__"},
        "server": _BELOW_FRONT_ENDS | {"env"},
        "client": {"errors", "env", "server"},
        "trl": _BELOW_FRONT_ENDS | {"env"},
        "rollout": _BELOW_FRONT_ENDS,
        # The pool's gallery renders the pool through the rollout runner and draws its page
        # with the galleries' page module, rollout/page.py (docs/design.md §9).
        # The pool's negative corpus is made by the reward check's generators and searches
        # (sketch_env/pool/negatives.py); the reward check never reads the pool's tooling.
        "pool": _BELOW_FRONT_ENDS | {"rollout", "rewardcheck"},
        "rewardcheck": _BELOW_FRONT_ENDS,
        "doctor": _BELOW_FRONT_ENDS | {"trl"},
        "cli": _BELOW_FRONT_ENDS,
        "bench_cli": _BELOW_FRONT_ENDS,
        "examples_cli": _BELOW_FRONT_ENDS,
        # The package root is lazy (PEP 562): at import it reads only the version, from the
        # ground floor, so that front ends need not import the root for it.
        "__init__": {"install"},
    }
)
#: Deprecated aliases of moved modules: they import the new home by design.
ALIASES = {
    "sketch_env.env.tasks",
    "sketch_env.env.reference_pool",
    "sketch_env.render.coverage",
    "sketch_env.scoring.calibration",
    "sketch_env.scoring.guards",
    "sketch_env.scoring.measures",
    "sketch_env.scoring.options",
    "sketch_env.scoring.reading",
    "sketch_env.scoring.reward",
}


def _part(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import that crosses the layers against `ALLOWED`, as ``"a -> b"``."""
    bad = []
    for module, targets in graph.items():
        if module in ALIASES:
            continue
        allowed = ALLOWED.get(_part(module))
        for target in targets:
            part = _part(target)
            if part != _part(module) and (allowed is None or part not in allowed):
                bad.append(f"{module} -> {target}")
    return sorted(bad)


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of two or more modules (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def test_every_part_of_the_package_is_in_the_layer_table() -> None:
    parts = {_part(m) for m in _module_graph()}
    assert parts - set(ALLOWED) == set(), "add the new part to ALLOWED (and docs/design.md §9)"


def test_no_import_runs_up_the_layers() -> None:
    assert layer_violations(_module_graph()) == []


def test_no_modules_form_an_import_cycle() -> None:
    # Function-level imports count: a cycle held apart only by imports inside functions is
    # still a cycle to a reader following the code.
    assert import_cycles(_module_graph()) == []


@pytest.mark.parametrize(
    ("module", "target"),
    [
        # The upward edges this table replaced, each put back: scoring -> env (the reference
        # pool), reward -> evaluation (calibrate), evaluation -> env (the task set), render ->
        # gate (the brush calls), trl -> rollout (the record format).
        ("sketch_env.scoring.judge.references", "sketch_env.env.environment"),
        ("sketch_env.reward.calibration", "sketch_env.evaluation.evaluator"),
        # And the two this layout keeps out: the scorers reading the reward (the
        # heuristic's guards are the picture's), the measurements reading the renderer.
        ("sketch_env.scoring.heuristic", "sketch_env.reward.config"),
        ("sketch_env.picture.paint", "sketch_env.render.result"),
        ("sketch_env.evaluation.cache", "sketch_env.env.environment"),
        ("sketch_env.render.api_calls", "sketch_env.gate.check"),
        ("sketch_env.trl.artifacts", "sketch_env.rollout.runner"),
    ],
)
def test_the_layer_check_fails_when_an_old_upward_edge_is_put_back(
    module: str, target: str
) -> None:
    graph = _module_graph()
    graph[module] = graph[module] | {target}
    assert layer_violations(graph) == [f"{module} -> {target}"]


def test_the_cycle_check_finds_a_cycle_held_apart_by_function_level_imports() -> None:
    # The five-module cycle of issue 19, rebuilt: catalog -> scoring -> ... -> catalog.
    graph = _module_graph()
    graph["sketch_env.catalog.references"] |= {"sketch_env.scoring.spec"}
    cycles = import_cycles(graph)
    assert any(
        {"sketch_env.catalog.references", "sketch_env.scoring.spec"} <= set(c) for c in cycles
    )


#: Imports every module of the package and prints, as JSON, the exception classes each defines
#: (at module level or nested in a class) that are not under `SketchEnvError`, the names of
#: those that are, and the modules that could not be imported for a missing third-party package.
_EXCEPTIONS_SCRIPT = """
import importlib, inspect, json, pkgutil, warnings
import sketch_env
from sketch_env.errors import SketchEnvError

outside, under, unimportable = [], set(), []

def classes(owner):
    for value in vars(owner).values():
        if inspect.isclass(value):
            yield value
            yield from classes(value)

for info in pkgutil.walk_packages(sketch_env.__path__, "sketch_env."):
    if info.name.endswith("__main__"):
        continue
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module = importlib.import_module(info.name)
    except ModuleNotFoundError as exc:
        if (exc.name or "").startswith("sketch_env"):
            raise
        unimportable.append(info.name)
        continue
    for cls in classes(module):
        if cls.__module__ != info.name or not issubclass(cls, BaseException):
            continue
        if issubclass(cls, SketchEnvError):
            under.add(cls.__name__)
        else:
            outside.append(f"{info.name}.{cls.__qualname__}")
print(json.dumps({"outside": outside, "under": sorted(under), "unimportable": unimportable}))
"""


def _looks_like_an_exception(base: ast.expr) -> bool:
    """Whether a base class, read in the source, names a built-in exception or is named like
    one."""
    name = ast.unparse(base).rsplit(".", 1)[-1]
    value = getattr(builtins, name, None)
    return (isinstance(value, type) and issubclass(value, BaseException)) or name.endswith(
        ("Error", "Exception", "Failure")
    )


def test_every_exception_is_under_the_root() -> None:
    # At run time: every exception class a module defines, once imported (a subprocess, so the
    # heavy modules stay out of this one).
    out = subprocess.run(
        [sys.executable, "-c", _EXCEPTIONS_SCRIPT], capture_output=True, text=True, cwd=ROOT
    )
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found["outside"] == [], "derive these from sketch_env.errors.SketchEnvError"
    assert {"SketchEnvError", "InfrastructureError", "ServerError", "QueueFullError"} <= set(
        found["under"]
    )
    # In the source: classes run time cannot reach (defined in a function, or in a module whose
    # optional dependency is not installed here) whose base reads as an exception must name a
    # base that is under the root.
    under = set(found["under"])
    stray = []
    for path in sorted((ROOT / "sketch_env").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef) or (
                path.name == "errors.py" and node.name == "SketchEnvError"
            ):
                continue
            names = {ast.unparse(b).rsplit(".", 1)[-1] for b in node.bases}
            if any(_looks_like_an_exception(b) for b in node.bases) and not names & under:
                stray.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}")
    assert stray == [], "derive these from sketch_env.errors.SketchEnvError"


#: The longest a module may grow: past it, a module holds more than one idea (docs/design.md §9).
MAX_MODULE_LINES = 900


def test_no_module_is_over_the_line_limit() -> None:
    long = {
        str(path.relative_to(ROOT)): count
        for path in sorted((ROOT / "sketch_env").rglob("*.py"))
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}, f"split these along their sections (at most {MAX_MODULE_LINES} lines)"


#: The one module that says what a picture's paper is and where it has paint.
PAINT_HOME = ROOT / "sketch_env" / "picture" / "paint.py"
#: Names that only a definition of paper or paint would take.
_PAINT_NAMES = re.compile(
    r"background_colou?r|paper_(colou?r|mask)|paint_(fraction|mask)|find_paint"
)
#: Constants that only a definition of paint would hold (its threshold, its levels).
_PAINT_CONSTANTS = re.compile(r"(PAINT|PAPER|COVERAGE)_(DELTA|THRESHOLD|LEVELS)|^_?THRESHOLD$")


def paint_definitions(source: str) -> list[str]:
    """What in a module's source defines paper or paint: a function of such a name, a constant
    of one (a paint threshold), or a function that finds a picture's commonest colour (a
    histogram's ``bincount`` and its ``argmax`` together: how the paper is found)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            called = {
                n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
                for n in ast.walk(node)
                if isinstance(n, ast.Call)
            }
            if _PAINT_NAMES.search(node.name) or {"bincount", "argmax"} <= called:
                found.append(f"{node.name}:{node.lineno}")
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                name = target.id if isinstance(target, ast.Name) else ""
                if _PAINT_CONSTANTS.search(name):
                    found.append(f"{name}:{node.lineno}")
    return found


def test_paper_and_paint_are_defined_once() -> None:
    elsewhere = {
        str(path.relative_to(ROOT)): found
        for path in sorted((ROOT / "sketch_env").rglob("*.py"))
        if path != PAINT_HOME and (found := paint_definitions(path.read_text(encoding="utf-8")))
    }
    assert elsewhere == {}, "read sketch_env.picture.paint instead of defining paint again"
    assert paint_definitions(PAINT_HOME.read_text(encoding="utf-8"))


def test_the_paint_check_finds_the_definitions_it_replaced() -> None:
    # The three this replaced, as they were: the renderer's, the measurements' and the anchored
    # scorer's inline one.
    renderer = "def background_color(rgb):\n    return rgb\n_THRESHOLD = 32.0\n"
    measures = "_COVERAGE_THRESHOLD = 12.0\n"
    inline = (
        "def picture_features(image):\n"
        "    keys = image.sum(-1)\n"
        "    mode = int(np.bincount(keys.ravel()).argmax())\n"
        "    return mode\n"
    )
    assert paint_definitions(renderer) == ["background_color:1", "_THRESHOLD:3"]
    assert paint_definitions(measures) == ["_COVERAGE_THRESHOLD:1"]
    assert paint_definitions(inline) == ["picture_features:1"]


def test_every_reader_of_paint_gets_the_same_number() -> None:
    # The renderer's paint fraction (the blank rule, the coverage term, `unfinished`), the
    # measurement the guards and the heuristic read, and the anchored scorer's paint share.
    from PIL import Image

    from sketch_env.picture.measures import measure_picture
    from sketch_env.picture.paint import paint_fraction
    from sketch_env.scoring.anchored import picture_features

    for name in ("flower", "landscape", "darkblob"):
        png = (ROOT / "tests" / "data" / "rendered" / f"{name}.png").read_bytes()
        with Image.open(ROOT / "tests" / "data" / "rendered" / f"{name}.png") as image:
            picture = image.convert("RGB")
        fraction = paint_fraction(png)
        assert 0.0 < fraction < 1.0
        assert measure_picture(picture, read_text=False).coverage == fraction
        assert picture_features(picture).paint_share == fraction
