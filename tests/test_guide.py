"""The guide checks itself: docs/architecture.md names only what exists, names every module, and
its floor table says what pyproject.toml's import-linter contracts say.

- Every code path of the docs and the README (``spidercli/...``) is a file or folder of the
  checkout, and every dotted name (``spidercli.solver._beam``, ``spidercli.replay``) a module, a
  name a module defines, or a public name; a placeholder (``NAME``, ``<code>``, ``*``) must match
  at least one.
- Every module of the package (its ``.py`` and ``.c`` files) is named in the module table, by
  its path or its folder's, and every path the table names exists.
- The floor table's packages, top to bottom, are the "floors" contract's layers, and each
  package's rooms are its "rooms-..." contract's layers, in order.

The module list is the package's own, so a module added with its row passes and a module added
without one fails.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import spidercli
from tests.helpers import ROOT

PACKAGE = ROOT / "spidercli"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
DOCS = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]

# ``spidercli/...`` not inside a longer path or an address (github.com/spidercli/spidercli).
_PATH = re.compile(r"(?<![\w/.-])spidercli/[\w./<>*-]*")
_DOTTED = re.compile(r"(?<![\w/.-])spidercli(?:\.[A-Za-z_]\w*)+")
_REPOSITORY = "spidercli/spidercli"  # the project's GitHub repository, not a path


def _placeholder(part: str) -> bool:
    """``NAME``, ``SET``, ``<code>``, ``*``: a part that stands for any name."""
    return "<" in part or "*" in part or bool(re.fullmatch(r"[A-Z]{2,}(\.[\w.]+)?", part))


def path_found(text: str, root: Path = ROOT) -> bool:
    """Whether the path ``text`` (``spidercli/text/i18n.py``) is a file or folder under
    ``root``; a placeholder part matches any name, and the path then matches one at least."""
    path = text.rstrip(".,;:")
    if path == _REPOSITORY:
        return True
    parts = path.strip("/").split("/")
    if not any(_placeholder(part) for part in parts):
        return (root / path).exists()
    pattern = "/".join(
        re.sub(r"<[^>]*>|[A-Z]{2,}", "*", part) if _placeholder(part) else part for part in parts
    )
    return any(root.glob(pattern))


def _defined(module: Path) -> set[str]:
    """The names a module's top level defines or imports."""
    names: set[str] = set()
    for node in ast.parse(module.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return names


def dotted_found(name: str, root: Path = ROOT) -> bool:
    """Whether ``spidercli.a.b...`` names a module (a ``.py`` file, a package, or a compiled
    pass's ``.pyi``), a name its module defines, or a public name (``spidercli.replay``)."""
    parts = name.split(".")[1:]
    if any(_placeholder(part) for part in parts):
        return True
    if parts[0] in spidercli.__all__ or parts[0] in ("__all__", "__version__"):
        return True
    here = root / "spidercli"
    for i, part in enumerate(parts):
        if (here / part).is_dir():
            here = here / part
            continue
        for suffix in (".py", ".pyi"):
            if (here / f"{part}{suffix}").is_file():
                module = here / f"{part}{suffix}"
                rest = parts[i + 1 :]
                return not rest or rest[0] in _defined(module)
        return (here / "__init__.py").is_file() and part in _defined(here / "__init__.py")
    return True


def _walks_blanked(text: str) -> str:
    """The text with the change walks' program blocks blanked (lines kept): what they create
    does not exist yet, and each is run by ``tests/test_walks.py``, which fails on a path that
    does not."""
    head, walks = (
        text.split("\n## Change walks\n", 1) if "\n## Change walks\n" in text else (text, "")
    )
    if not walks:
        return text
    walks, tail = walks.split("\n## ", 1)
    blanked = re.sub(r"(?ms)^```.*?^```$", lambda m: "\n" * m.group(0).count("\n"), walks)
    return f"{head}\n## Change walks\n{blanked}\n## {tail}"


def _named(pattern: re.Pattern[str]) -> list[tuple[str, int, str]]:
    return [
        (doc.name, text.count("\n", 0, m.start()) + 1, m.group(0))
        for doc in DOCS
        for text in (_walks_blanked(doc.read_text(encoding="utf-8")),)
        for m in pattern.finditer(text)
    ]


def test_every_code_path_in_the_docs_exists() -> None:
    missing = [found for found in _named(_PATH) if not path_found(found[2])]
    assert missing == []


def test_every_dotted_module_name_in_the_docs_exists() -> None:
    missing = [found for found in _named(_DOTTED) if not dotted_found(found[2])]
    assert missing == []


def test_a_wrong_name_is_found() -> None:
    """The checks can fail: a module moved, a name misspelt, a placeholder that matches none."""
    assert path_found("spidercli/text/i18n.py") and path_found("spidercli/cli/commands/NAME.py")
    assert path_found("spidercli/locale/<code>/LC_MESSAGES/spidercli.po")
    assert not path_found("spidercli/i18n.py")
    assert not path_found("spidercli/text/languages/<code>.txt")
    assert dotted_found("spidercli.solver._beam") and dotted_found("spidercli.replay")
    assert dotted_found("spidercli.text.i18n.LANGUAGES")
    assert dotted_found("spidercli.text.languages.language_named")
    assert not dotted_found("spidercli.solver.beams")
    assert not dotted_found("spidercli.text.i18n.NUMBER_SEPARATORS")
    assert not dotted_found("spidercli.replays")


# ----------------------------------------------------------------------------- the module table


def table_rows(heading: str) -> list[list[str]]:
    """The rows of the first table under ``heading`` in docs/architecture.md, as cells."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split(f"\n{heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            cells = re.split(r"(?<!\\)\|", line.strip()[1:-1])
            rows.append([cell.strip() for cell in cells])
    return rows[1:]  # less the heading


def module_table_paths() -> list[str]:
    """The paths the module table's first column names, relative to ``spidercli/`` (the
    packages' bold heading rows left out)."""
    paths = []
    for cells in table_rows("## Modules"):
        if cells[0].startswith("**"):
            continue
        for path in re.findall(r"`([^`]+)`", cells[0]):
            paths.append(path.removeprefix("spidercli/"))
    return paths


def package_modules() -> list[str]:
    """The package's modules, relative to ``spidercli/``: each ``.py`` and ``.c`` file, but the
    subpackages' own ``__init__.py`` (their folder is their row)."""
    modules = []
    for path in sorted(PACKAGE.rglob("*")):
        relative = path.relative_to(PACKAGE).as_posix()
        if path.suffix not in (".py", ".c") or "__pycache__" in relative:
            continue
        if path.name == "__init__.py" and path.parent != PACKAGE:
            continue
        modules.append(relative)
    return modules


def unnamed(modules: list[str], named: list[str]) -> list[str]:
    """The modules no path of the table names, by itself or by a folder it is in."""
    folders = tuple(path for path in named if path.endswith("/"))
    return [m for m in modules if m not in named and not m.startswith(folders)]


def test_every_module_is_in_the_module_table() -> None:
    assert package_modules()
    assert unnamed(package_modules(), module_table_paths()) == []


def test_every_path_of_the_module_table_exists() -> None:
    missing = [path for path in module_table_paths() if not (PACKAGE / path).exists()]
    assert missing == []


def test_a_module_left_out_of_the_table_is_found() -> None:
    named = module_table_paths()
    assert unnamed(["text/i18n.py", "text/languages/sk.py", "solver/no_such_room.py"], named) == [
        "solver/no_such_room.py"
    ]


# ------------------------------------------------------------------------------ the floor table


def contracts() -> dict[str, list[str]]:
    """Each layers contract of pyproject.toml, by id: its layers, top to bottom, as written
    (``"solver | judging | kpat"``). Read with a pattern: Python 3.10 has no TOML reader."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    found = {}
    for block in text.split("[[tool.importlinter.contracts]]")[1:]:
        block = re.sub(r"(?m)#.*$", "", block)
        ident = re.search(r'(?m)^id = "([^"]+)"', block)
        layers = re.search(r"(?ms)^layers = \[(.*?)\]", block)
        if ident and layers:
            found[ident.group(1)] = re.findall(r'"([^"]*)"', layers.group(1))
    return found


def _layer(names: list[str]) -> str:
    """``solver/``, ``judging/`` -> ``solver | judging``: one layer as a contract writes it."""
    return " | ".join(name.removesuffix("/") for name in names)


def floor_table() -> tuple[list[str], dict[str, list[str]]]:
    """The floor table: the packages of each floor, top to bottom, and each package's rooms."""
    floors: list[str] = []
    rooms: dict[str, list[str]] = {}
    for _, package_cell, rooms_cell in table_rows("## The floors"):
        packages = [p.removesuffix("/") for p in re.findall(r"`([^`]+)`", package_cell)]
        floors.append(_layer(packages))
        if not rooms_cell:
            continue
        # One package: its rooms. Several: "solver: `a`; `b`. judging: ..." (each its own).
        parts = {packages[0]: rooms_cell}
        if len(packages) > 1:
            marks = "|".join(packages)
            pieces = re.split(rf"(?:^|\s)({marks}): ", rooms_cell)
            parts = dict(zip(pieces[1::2], pieces[2::2], strict=True))
        for package, cell in parts.items():
            cell = re.sub(r"\([^)]*\)", "", cell).rstrip(". ")
            rooms[package] = [_layer(re.findall(r"`([^`]+)`", layer)) for layer in cell.split(";")]
    return floors, rooms


def test_the_floor_table_is_the_floors_contract() -> None:
    floors, _ = floor_table()
    assert floors == contracts()["floors"]


def test_each_package_s_rooms_are_its_contract() -> None:
    _, rooms = floor_table()
    written = {
        ident.removeprefix("rooms-"): layers
        for ident, layers in contracts().items()
        if ident.startswith("rooms-")
    }
    assert rooms == written


@pytest.mark.parametrize("package", ["text", "solver", "kpat"])
def test_the_rooms_are_read_from_the_table(package: str) -> None:
    """The reading of the table is the table's: a room moved or missing shows."""
    _, rooms = floor_table()
    assert rooms[package] and all(rooms[package])
    assert rooms[package][-1] != rooms[package][0]
