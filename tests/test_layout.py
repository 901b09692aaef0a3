"""The architecture: the model never imports the study tools, the judge only the pure model and
only down its floors, no cycles."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("reference", "judge")
PURE_MODEL = frozenset({"reference.board", "reference.symmetry", "reference.boxes",
                        "reference.solver", "reference.outcome"})
"""The rules of the game, which the judge may use; never the MENACE engine."""
SHARED = frozenset({"reference.notation", "reference.commandline", "reference.files"})
"""How moves are written (SPEC section 2), what every command line shares, and how a file is
replaced in one step: the judge may use them too, and they use nothing but the rules of the game."""


def module_name(path: Path) -> str:
    """The dotted name of a source file of the project."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports() -> dict[str, set[str]]:
    """Each module of the project, and the project's modules it imports (anywhere in it)."""
    found: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            names: set[str] = set()
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names.add(node.module)
                    names.update(f"{node.module}.{alias.name}" for alias in node.names)
                elif isinstance(node, ast.Import):
                    names.update(alias.name for alias in node.names)
            found[module_name(path)] = names
    return {name: {n for n in names if n in found and n != name} for name, names in found.items()}


def test_the_model_never_imports_the_study_tools() -> None:
    graph = imports()
    model = [name for name in graph if name.startswith("reference") and
             not name.startswith("reference.study") and name != "reference.__main__"]
    assert "reference.menace" in model and "reference.study.training" in graph
    for name in model:
        assert not any(n.startswith("reference.study") for n in graph[name]), name


def test_the_judge_uses_only_the_pure_model() -> None:
    graph = imports()
    allowed = PURE_MODEL | SHARED
    for name, names in graph.items():
        if name.startswith("judge"):
            used = {n for n in names if n.startswith("reference")}
            assert used <= allowed, f"{name} imports {sorted(used - allowed)}"
    for name in SHARED:
        assert graph[name] <= PURE_MODEL, f"{name} imports {sorted(graph[name] - PURE_MODEL)}"


FLOORS = ("judge.terms", "judge.running", "judge.reading", "judge.deciding", "judge.telling")
"""The judge's floors from the ground up; the rest of `judge` (the command line, the public
toolkit) stands on top of them all."""


def floor(name: str) -> int:
    """The floor a module of the judge stands on: its folder's place in FLOORS, or the top."""
    return next((number for number, folder in enumerate(FLOORS)
                 if name == folder or name.startswith(folder + ".")), len(FLOORS))


def test_the_judge_imports_only_down_its_floors() -> None:
    graph = imports()
    judge = {name: {n for n in names if n.startswith("judge")}
             for name, names in graph.items() if name.startswith("judge")}
    assert {floor(name) for name in judge} == set(range(len(FLOORS) + 1))
    assert floor("judge.reading.reader") < floor("judge.deciding.referee") < floor("judge.cli")
    for name, names in judge.items():
        up = sorted(n for n in names if floor(n) > floor(name))
        assert not up, f"{name} imports {up}, from a floor above its own"


def test_no_import_cycles() -> None:
    graph = imports()
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        """Walk the imports from `name`, failing on a module already on the path."""
        assert name not in path, " -> ".join((*path, name))
        if name in done:
            return
        for child in sorted(graph[name]):
            visit(child, (*path, name))
        done.add(name)

    for name in sorted(graph):
        visit(name, ())


LAYOUT = ROOT / "docs" / "layout.md"
"""The page that lists every module, in reading order."""


def layout_order() -> list[str]:
    """The modules as docs/layout.md lists them, in reading order."""
    section = LAYOUT.read_text()
    packages = {"The model": "reference", "The study": "reference.study", "The judge": "judge"}
    order, package = [], ""
    for line in section.splitlines():
        package = next((p for start, p in packages.items() if line.startswith(start)), package)
        if line.startswith("- ") and ": " in line:
            for path in re.findall(r"`([\w/]+)\.py`", line.split(": ")[0]):
                dotted = path.replace("/", ".")
                order.append(dotted if dotted.startswith(("reference.", "judge."))
                             else f"{package}.{dotted}")
    return order


def test_the_layout_page_lists_every_module_after_those_it_imports() -> None:
    graph = imports()
    order = layout_order()
    packages = {name for name in graph
                if (ROOT / name.replace(".", "/") / "__init__.py").is_file()}
    assert {"judge.running", "judge.telling.shrinking"} <= packages
    assert sorted(order) == sorted(name for name in graph if name not in packages)
    place = {name: i for i, name in enumerate(order)}
    for name in order:
        later = sorted(n for n in graph[name] if n in place and place[n] > place[name])
        assert not later, f"{name} imports {later}, listed after it"
    floors = [floor(name) for name in order if name.startswith("judge")]
    assert floors == sorted(floors), "the judge's modules are listed floor by floor, ground first"
