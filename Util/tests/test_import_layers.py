"""The package's imports form layers: no circle, no import running back up, no private name crossing.

The import graph is read from the source (every ``import`` statement, those
inside functions too, as Python would run them sooner or later), so a circle
closed by a late import is found as well as one at the top.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Dict, List, Set, Tuple

import pytest

PACKAGE = Path(__file__).resolve().parents[1]


def _modules() -> Dict[str, Path]:
    """Every module of the package (tests left out) by dotted name; a package by its own name."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if "tests" in parts:
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(module: str, path: Path) -> List[tuple]:
    """``(target module, name imported or None, line)`` for each import of a module of the package."""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, None, node.lineno) for alias in node.names if alias.name in MODULES]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            source = ".".join(base + ([node.module] if node.module else []))
            if source not in MODULES:
                continue
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                found.append((submodule, None, node.lineno) if submodule in MODULES
                             else (source, alias.name, node.lineno))
    return found


#: Imports known to run back up, each to be turned round by its module's owner (then struck off here;
#: test_known_exceptions_are_still_needed says when): module, the module it imports late, why.
KNOWN_LATE_IMPORTS: Set[Tuple[str, str]] = set()

ALL_EDGES: Dict[str, Set[str]] = {m: {t for t, _, _ in _imports(m, p) if t != m} for m, p in MODULES.items()}
GRAPH: Dict[str, Set[str]] = {m: {t for t in targets if (m, t) not in KNOWN_LATE_IMPORTS}
                              for m, targets in ALL_EDGES.items()}


def _circle() -> List[str]:
    """One import circle (its modules, the first repeated at the end), or [] if there is none."""
    state: Dict[str, int] = {}
    path: List[str] = []

    def visit(module: str) -> List[str]:
        state[module] = 1
        path.append(module)
        for target in sorted(GRAPH.get(module, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if not state.get(target):
                circle = visit(target)
                if circle:
                    return circle
        path.pop()
        state[module] = 2
        return []

    for module in sorted(MODULES):
        if not state.get(module):
            circle = visit(module)
            if circle:
                return circle
    return []


def _reaches(module: str) -> Set[str]:
    """Every module that importing ``module`` may load (its imports, theirs, and so on)."""
    seen, todo = set(), [module]
    while todo:
        for target in GRAPH.get(todo.pop(), ()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def test_the_graph_is_read_from_the_source():
    """The reader finds what is there: the engine's top imports the table type and its policy, the
    kernels' plies import the board, the calculation (a relative import of a package) the engine."""
    assert {"Util.table.dtm_table", "Util.retrograde.policy"} <= GRAPH["Util.retrograde.compute"]
    assert "Util.retrograde_kernels.board" in GRAPH["Util.retrograde_kernels.plies"]
    assert "Util.retrograde" in GRAPH["Util.calculation.store"]
    assert "Util.board.material" in GRAPH["Util.play.setup"]
    assert len(MODULES) > 40


def test_no_import_circle():
    assert _circle() == [], "import circle: " + " -> ".join(_circle())


def test_known_exceptions_are_still_needed():
    """Each known late import is still there and still closes a circle (else strike it off the list)."""
    for module, target in KNOWN_LATE_IMPORTS:
        assert target in ALL_EDGES[module] and module in _reaches(target), (module, target)


#: The rooms of the package (its subpackages and top-level modules), bottom up: a room imports only from
#: rooms of its own level or below (with no circle, by the test above).  docs/design.md draws the same map.
ROOM_LEVELS: List[Set[str]] = [
    {"folders", "runtime", "board"},  # ground: folders, threads and progress; material, the integer, symmetry
    {"table"},  # a table as data
    {"rules"},  # the rules on arrays of indices
    {"retrograde_kernels"},  # the retrograde generator's compiled loops
    {"retrograde", "files"},  # the retrograde generator; the file formats
    {"calculation"},  # tables into files
    {"probing"},  # tables out of files
    {"tablebase"},  # the face of probing
    {"sequence"},  # the thesis's look-up API
    {"play", "validation", "whole_game"},  # games, checks against references, the whole-game engine
    {"stockfish", "server", "bench", "whole_game_lab"},  # the lab: matches, suites, tuning of the whole game
    {"notebook"},  # what the notebooks show (figures of the Stockfish comparison too)
    {"cli", "__main__"},
]
LEVEL_OF = {room: level for level, rooms in enumerate(ROOM_LEVELS) for room in rooms}


def _room(module: str) -> str:
    """``Util.play.session`` -> ``play``; ``Util.cli`` -> ``cli``; the package itself -> ``""``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _documented_levels() -> Dict[str, int]:
    """The rooms and levels of docs/design.md's layer table (``| 9 | `play/` | ... |``), by room name."""
    text = (PACKAGE.parent / "docs" / "design.md").read_text(encoding="utf-8")
    documented = {}
    for level, rooms in re.findall(r"^\| (\d+) \| ([^|]+) \|", text, flags=re.MULTILINE):
        for room in re.findall(r"`([^`]+)`", rooms):
            documented[room.removesuffix("/").removesuffix(".py")] = int(level)
    return documented


def test_the_design_page_draws_the_same_levels():
    """docs/design.md's table of rooms and levels is the one ROOM_LEVELS holds: a room moved in one place and
    not the other fails here."""
    assert _documented_levels() == LEVEL_OF


def test_every_room_has_a_level():
    """A new subpackage or top-level module is placed in ROOM_LEVELS (and in docs/design.md's map)."""
    unplaced = sorted({_room(m) for m in MODULES} - set(LEVEL_OF) - {""})
    assert unplaced == [], f"rooms in no level of ROOM_LEVELS (add each where it belongs): {unplaced}"


@pytest.mark.parametrize("room", sorted(LEVEL_OF))
def test_a_room_never_imports_a_higher_one(room):
    higher = []
    for module in [m for m in MODULES if _room(m) == room]:
        higher += [f"{module} -> {target}" for target in sorted(_reaches(module))
                   if LEVEL_OF.get(_room(target), -1) > LEVEL_OF[room]]
    assert higher == [], "imports running up: " + "; ".join(higher)


@pytest.mark.parametrize("lower, upper", [
    ("Util.table.values", "Util"),  # the byte values: nothing of the package
    ("Util.folders", "Util"),  # the folders: nothing of the package
    ("Util.runtime", "Util.board"),  # how work runs knows nothing of chess
    ("Util.runtime", "Util.table"),
    ("Util.board", "Util.table"),  # the board knows nothing of tables
    ("Util.retrograde_kernels", "Util.retrograde"),  # the compiled loops never import the orchestration
    ("Util.table", "Util.retrograde"),
    ("Util.retrograde", "Util.calculation"),  # the engine knows nothing of files and folders
    ("Util.retrograde", "Util.files"),
    ("Util.retrograde", "Util.folders"),
    ("Util.files", "Util.retrograde"),  # a file format does not need the engine to be read
    ("Util.retrograde", "Util.whole_game"),  # the retrograde engine never uses the whole-game one
    ("Util.calculation", "Util.whole_game"),
    ("Util.retrograde", "Util.whole_game_lab"),
    ("Util.whole_game", "Util.whole_game_lab"),  # the engine never needs its lab
    ("Util.whole_game.kernels", "Util.whole_game.search"),  # the whole game's compiled loops never import
    ("Util.whole_game.kernels", "Util.whole_game.player"),  # what drives them
    ("Util.whole_game.kernels", "Util.tablebase"),
    ("Util.board", "Util.play"),  # the chess layers never import what uses them
    ("Util.rules", "Util.play"),
    ("Util.table", "Util.play"),
    ("Util.board", "Util.server"),
    ("Util.rules", "Util.server"),
    ("Util.table", "Util.server"),
    ("Util.board", "Util.notebook"),
    ("Util.rules", "Util.notebook"),
    ("Util.table", "Util.notebook"),
    ("Util.probing", "Util.notebook"),  # reading a table never loads a widget
])
def test_lower_layers_never_import_upper_ones(lower, upper):
    """``upper`` "Util": nothing of the package at all."""
    for module in [m for m in MODULES if m == lower or m.startswith(lower + ".")]:
        reached = {m for m in _reaches(module) if upper == "Util" or m == upper or m.startswith(upper + ".")}
        assert not reached, f"{module} imports {sorted(reached)}"


def test_no_private_name_crosses_a_module():
    """A name imported from another module of the package is public (no leading underscore)."""
    crossing = [f"{module} line {line}: {name} from {source}" for module, path in MODULES.items()
                for source, name, line in _imports(module, path) if name and name.startswith("_")]
    assert crossing == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_modules_and_classes_stay_small(module):
    """Each module reads in one sitting: at most 600 lines, no class over 200 (split along its ideas)."""
    source = MODULES[module].read_text(encoding="utf-8")
    assert source.count("\n") <= 600
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            assert node.end_lineno - node.lineno + 1 <= 200, f"class {node.name}"


#: The page's JavaScript (web/src): a module holds one idea of the page, as a Python module does; a
#: module reads in one sitting at half the Python limit (JavaScript's lines are as dense).
PAGE_MODULES = sorted((PACKAGE.parent / "web" / "src").rglob("*.js"))
MAX_PAGE_MODULE_LINES = 300


@pytest.mark.parametrize("module", PAGE_MODULES, ids=lambda path: str(path.relative_to(PACKAGE.parent / "web" / "src")))
def test_page_modules_stay_small(module):
    """Each module of web/src reads in one sitting: at most 300 lines (split along its ideas)."""
    assert module.read_text(encoding="utf-8").count("\n") <= MAX_PAGE_MODULE_LINES
