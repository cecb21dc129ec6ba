"""The front door is the only door, and its laziness sits in one place: every command calls
``spidercli.api``; ``api`` imports its work from one table (``_WORK``), the same one the type
checker reads, and no function of it imports anything; elsewhere a function-level import is the
exception, each with the reason it is not at the top of its module."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from spidercli import api
from tests.helpers import ROOT

PACKAGE = ROOT / "spidercli"
# The function-level imports left in the package, each with its reason (see below): a new one
# needs one too, and this count.
MOST_FUNCTION_IMPORTS = 34


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def function_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    found: dict[int, ast.Import | ast.ImportFrom] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for n in ast.walk(node):
                if isinstance(n, ast.Import | ast.ImportFrom):
                    found[n.lineno] = n  # once, though a function in a function is walked twice
    return [found[line] for line in sorted(found)]


def test_the_work_table_is_the_type_checkers() -> None:
    """``_WORK`` (name here: module) and the ``if TYPE_CHECKING:`` imports that give the type
    checker the same names are one table."""
    checked: dict[str, str] = {}
    for node in _tree(PACKAGE / "api.py").body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for imp in node.body:
                if isinstance(imp, ast.ImportFrom) and imp.module is not None:
                    for alias in imp.names:
                        if alias.asname is not None and alias.asname in api._WORK:
                            checked[alias.asname] = f"{imp.module}.{alias.name}"
    assert checked == api._WORK


def test_the_front_door_imports_nothing_in_its_functions() -> None:
    assert function_imports(_tree(PACKAGE / "api.py")) == []


def test_importing_the_front_door_imports_none_of_its_work() -> None:
    code = (
        "import sys, spidercli.api as api\n"
        "print(sorted(m for m in api._WORK.values() if m in sys.modules))\n"
        "api.deal('SP1-S1C-AAAAAAB')\n"
        "print(sorted(m for m in api._WORK.values() if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.splitlines()
    dealt = ["spidercli.game.codes", "spidercli.play.logtypes", "spidercli.play.replay"]
    assert out == ["[]", str(dealt)]  # what deal() uses, and what its modules import


def test_every_command_calls_the_front_door() -> None:
    """Each command's module imports ``api`` (but ``serve``'s, which starts the server: its
    requests call ``api``)."""
    for path in sorted((PACKAGE / "cli" / "commands").glob("*.py")):
        if path.stem in ("__init__", "serve"):
            continue
        imports = [n for n in _tree(path).body if isinstance(n, ast.ImportFrom)]
        assert any(
            n.module == "spidercli" and "api" in [a.name for a in n.names] for n in imports
        ), path.name
    server = _tree(PACKAGE / "serve" / "app.py")
    assert any(
        isinstance(n, ast.ImportFrom) and n.module == "spidercli" and n.names[-1].name == "api"
        for n in server.body
    )


def test_each_function_level_import_says_why() -> None:
    """A function-level import has a comment on its line, or on the line before it or before the
    imports it stands with (a ``try:`` or a comment of its own): what start-up it spares, or why
    it may be missing."""
    count = 0
    for path in sorted(PACKAGE.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in function_imports(_tree(path)):
            count += 1
            first = node.lineno - 1
            while lines[first - 1].strip().startswith(("from ", "import ")):
                first -= 1  # the first of the imports it stands with
            said = "#" in lines[node.lineno - 1] or "#" in lines[first] or "#" in lines[first - 1]
            assert said, f"{path.relative_to(ROOT)}:{node.lineno}: {lines[node.lineno - 1]}"
    assert count <= MOST_FUNCTION_IMPORTS
