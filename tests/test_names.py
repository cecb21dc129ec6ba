"""Each name is defined once: no top-level class, function, constant or type alias of the package
is defined in two of its modules (a reader who finds one ``Position`` has found the one). The
exceptions are the commands' modules (each defines its command's function), the languages'
modules (each defines its ``LANGUAGE``: ``spidercli/text/languages/``) and the front door's
public functions (``spidercli.api``: each is the public form of the work it calls, under the
name ``spidercli.__all__`` gives it). Private names (``_x``) are their module's own."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import spidercli
from tests.helpers import ROOT

PACKAGE = ROOT / "spidercli"
COMMANDS = PACKAGE / "cli" / "commands"


def defined(tree: ast.Module) -> list[str]:
    """The top-level names a module defines (not those it imports)."""
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
    return [name for name in names if not name.startswith("_")]


def twice(modules: dict[str, ast.Module]) -> dict[str, list[str]]:
    where: defaultdict[str, list[str]] = defaultdict(list)
    for module, tree in modules.items():
        for name in set(defined(tree)):
            if module == "api" and name in spidercli.__all__:
                continue
            if module.startswith("text.languages.") and name == "LANGUAGE":
                continue  # each language's module defines its own, found by its code
            where[name].append(module)
    return {name: sorted(found) for name, found in where.items() if len(found) > 1}


def package_modules() -> dict[str, ast.Module]:
    return {
        path.relative_to(PACKAGE).with_suffix("").as_posix().replace("/", "."): ast.parse(
            path.read_text(encoding="utf-8")
        )
        for path in sorted(PACKAGE.rglob("*.py"))
        if COMMANDS not in path.parents
    }


def test_no_name_is_defined_in_two_modules() -> None:
    assert twice(package_modules()) == {}


def test_a_name_defined_twice_is_found() -> None:
    """The check finds a class, a function, a constant and an alias given twice, and passes
    over what is imported, private, a command's or the front door's."""
    one = ast.parse("class Position: ...\ndef kind_of(): ...\nKING = 13\nTask = tuple[int]\n")
    other = ast.parse(
        "from x import Position\nclass Position: ...\ndef kind_of(): ...\nKING = 13\n"
        "Task = tuple[str]\ndef _frame(): ...\n"
    )
    front = ast.parse("def replay(): ...\ndef sweep_all(): ...\n")
    work = ast.parse("def replay(): ...\ndef _frame(): ...\ndef sweep_all(): ...\n")
    found = twice({"a": one, "b": other, "api": front, "c": work})
    assert found == {
        "KING": ["a", "b"],
        "Position": ["a", "b"],
        "Task": ["a", "b"],
        "kind_of": ["a", "b"],
        "sweep_all": ["api", "c"],
    }


def test_the_check_reads_every_module_but_the_commands() -> None:
    modules = package_modules()
    assert {"api", "game.engine", "solver.search", "sweeps.records", "cli.app"} <= set(modules)
    assert not any(name.startswith("cli.commands.") for name in modules)
    assert len(modules) == len(list(Path(PACKAGE).rglob("*.py"))) - len(list(COMMANDS.glob("*.py")))
