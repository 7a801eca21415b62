"""The package's layers: the library (boards, moves, games, draw rules, notation, PDN, SVG, the
engine API), the protocols (``shashki.protocols``: Hub, DXP), learning
(``shashki.learn``: batch, environments, networks, training) and the applications
(``shashki.apps``: the command line, the web board, the match runner, review, play). Each
module imports alone, the library never imports a protocol, and no two modules import each
other in a circle (imports of the package root, which re-exports, do not count). The circle
check reads the imports that run (those under ``TYPE_CHECKING`` are for type checkers and
do not run); the layer check reads those too: a type a module names belongs to its layer or
one below, so a protocol never names an application's type, even for a type checker."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1] / "python" / "shashki"
LIBRARY = {
    "shashki.cards",
    "shashki.draw",
    "shashki.game",
    "shashki.pdn",
    "shashki.svg",
    "shashki.engine",
    "shashki.search_types",
    "shashki._value",
    "shashki.egtb",
    "shashki.openings",
}
MOVED = {  # old paths, kept one release: the new module
    "shashki.hub": "shashki.protocols.hub",
    "shashki.hub_client": "shashki.protocols.hub_client",
    "shashki.dxp": "shashki.protocols.dxp",
    "shashki.batch": "shashki.learn.batch",
    "shashki.rl": "shashki.learn.rl",
    "shashki.train": "shashki.learn.train",
    "shashki.network": "shashki.learn.network",
    "shashki.cli": "shashki.apps.cli",
    "shashki.play": "shashki.apps.play",
    "shashki.review": "shashki.apps.review",
    "shashki.web": "shashki.apps.web",
    "shashki.match": "shashki.apps.match",
}


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


def _is_type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def _imports(name: str, *, typing: bool = False) -> set[str]:
    """The package's modules that ``name`` imports when it runs (any depth of function);
    with ``typing``, those it imports for type checkers (under ``TYPE_CHECKING``) too."""
    return _imports_in(MODULES[name].read_text(encoding="utf-8"), name, typing=typing)


def _imports_in(source: str, name: str, *, typing: bool = False) -> set[str]:
    """:func:`_imports` of ``source``, read as module ``name``."""
    tree = ast.parse(source)
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node) and not typing:
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            # ``from package import submodule`` imports the submodule (its package runs
            # first whatever imports it: a package is not counted as imported by its own
            # modules).
            targets = [
                f"{node.module}.{alias.name}"
                if f"{node.module}.{alias.name}" in MODULES
                else node.module
                for alias in node.names
            ]
        else:
            targets = []
        for target in targets:
            while target not in MODULES and "." in target:
                target = target.rsplit(".", 1)[0]
            own_package = name.startswith(target + ".")
            if target in MODULES and target not in (name, "shashki") and not own_package:
                found.add(target)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


GRAPH = {name: _imports(name) for name in MODULES}
TYPED_GRAPH = {name: _imports(name, typing=True) for name in MODULES}


def _layer(name: str) -> str:
    """The layer of a module: the library, protocols, learn or apps (a moved module's old
    path is its new module's)."""
    name = MOVED.get(name, name)
    for layer in ("protocols", "learn", "apps"):
        if name.startswith(f"shashki.{layer}"):
            return layer
    return "library"


#: What each layer may import, its own names aside (docs/development.md, "Layout").
MAY_IMPORT = {
    "library": {"library"},
    "protocols": {"library"},
    "learn": {"library"},
    "apps": {"library", "protocols", "learn"},
}


def test_no_two_modules_import_each_other_in_a_circle() -> None:
    seen: dict[str, int] = {}  # 1 on the path, 2 done

    def walk(name: str, path: list[str]) -> None:
        seen[name] = 1
        for other in sorted(GRAPH[name]):
            if seen.get(other) == 1:
                cycle = path[path.index(other) :] + [other]
                raise AssertionError("import circle: " + " -> ".join(cycle))
            if other not in seen:
                walk(other, [*path, other])
        seen[name] = 2

    for name in sorted(GRAPH):
        if name not in seen:
            walk(name, [name])


def _upward(graph: dict[str, set[str]]) -> list[str]:
    """Each import in ``graph`` of a layer its importer may not import."""
    found = []
    for name, imported in graph.items():
        if name == "shashki.__main__" or name in MOVED:
            continue  # `python -m shashki` runs the command line; old paths re-export
        for other in sorted(imported):
            if _layer(other) != _layer(name) and _layer(other) not in MAY_IMPORT[_layer(name)]:
                found.append(f"{name} ({_layer(name)}) imports {other} ({_layer(other)})")
    return found


def test_no_layer_imports_one_above_it_at_run_time_or_for_type_checkers() -> None:
    assert not _upward(TYPED_GRAPH), _upward(TYPED_GRAPH)


def test_the_layer_check_sees_a_type_only_upward_import() -> None:
    """The check above fails on an import under ``TYPE_CHECKING`` alone (as
    ``shashki.protocols.dxp`` once named the match runner's ``TimeControl``)."""
    source = (
        "from shashki import Board\n"
        "TYPE_CHECKING = False\n"
        "if TYPE_CHECKING:\n"
        "    from shashki.apps.match.players import TimeControl\n"
    )
    name = "shashki.protocols.dxp"
    assert _imports_in(source, name) == set()  # nothing upward runs
    typed = {name: _imports_in(source, name, typing=True)}
    assert typed[name] == {"shashki.apps.match.players"}
    assert _upward(typed) == [
        "shashki.protocols.dxp (protocols) imports shashki.apps.match.players (apps)"
    ]


def test_the_new_code_uses_the_new_paths() -> None:
    for name in MODULES:
        if name not in MOVED:
            assert not TYPED_GRAPH[name] & set(MOVED), name


@pytest.mark.parametrize(
    "name", sorted(n for n in MODULES if n not in MOVED and not n.endswith("__main__"))
)
def test_each_module_imports_alone(name: str) -> None:
    code = f"import warnings; warnings.simplefilter('error'); import {name}"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if proc.returncode and "needs its extra" in proc.stderr:  # pragma: no cover
        pytest.skip(proc.stderr.strip().splitlines()[-1])
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_a_moved_packages_modules_are_the_new_ones() -> None:
    code = (
        "import warnings\n"
        "warnings.simplefilter('ignore')\n"
        "import shashki.web.validation as old, shashki.apps.web.validation as new\n"
        "from shashki.match.players import TimeControl\n"
        "import shashki.apps.match.players as players\n"
        "assert old is new and TimeControl is players.TimeControl\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_the_match_runners_command_is_kept_without_a_warning() -> None:
    proc = subprocess.run(
        [sys.executable, "-W", "error", "-m", "shashki.match", "--help"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0 and "--pairs" in proc.stdout, proc.stderr[-2000:]


def test_the_old_training_command_still_runs() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "shashki.train", "--help"], capture_output=True, text=True
    )
    assert proc.returncode == 0 and "selfplay" in proc.stdout
    assert "DeprecationWarning" in proc.stderr and "shashki.learn.train" in proc.stderr


@pytest.mark.parametrize("old", sorted(MOVED))
def test_old_paths_work_with_a_deprecation_warning(old: str) -> None:
    code = (
        "import warnings, importlib\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        f"    module = importlib.import_module({old!r})\n"
        "assert any(issubclass(w.category, DeprecationWarning) for w in caught), caught\n"
        f"new = importlib.import_module({MOVED[old]!r})\n"
        "assert module is new\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_no_module_reads_a_games_private_board() -> None:
    """What other modules need of a Game has a public name (``current_board``, ``board()``):
    nothing outside game.py reads ``._board`` or ``._new_board`` of another object."""
    offenders = []
    for name, path in MODULES.items():
        if name == "shashki.game":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in ("_board", "_new_board")
                and not (isinstance(node.value, ast.Name) and node.value.id == "self")
            ):
                offenders.append(f"{name}:{node.lineno}")
    assert not offenders, offenders


def test_no_protocol_or_app_reaches_into_the_engines_private_names() -> None:
    """The Hub, DXP and the apps drive the engine through its public methods (``search``,
    ``ponder``, ``ponderhit``, ``play``, ``analyse``), not ``_search`` or ``_core()``."""
    offenders = []
    for name, path in MODULES.items():
        if not name.startswith(("shashki.protocols", "shashki.apps", "shashki.learn")):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in ("_search", "_core", "_engine")
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
            ):
                offenders.append(f"{name}:{node.lineno} .{node.attr}")
    assert not offenders, offenders
