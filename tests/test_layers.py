"""The floors of docs/architecture.md, written as import-linter contracts in pyproject.toml (the
packages' floors, and each package's rooms): the checkout keeps them, and each contract breaks on
the import it forbids (planted in a copy of the package), so that `make lint` fails on it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT

LINT = Path(sys.executable).parent / "lint-imports"
# Every contract of pyproject.toml (tomllib is not in Python 3.10).
CONTRACTS = (ROOT / "pyproject.toml").read_text().count("[[tool.importlinter.contracts]]")


def _lint(tree: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the package in ``tree`` (found first on the path), with the checkout's
    contracts."""
    return subprocess.run(
        [str(LINT), "--no-cache"],
        cwd=tree,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tree), "COLUMNS": "200"},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_checkout_keeps_every_contract() -> None:
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{CONTRACTS} kept, 0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "planted", "contract"),
    [
        ("game/engine", "from spidercli.logs import files", "The engine imports no YAML, file"),
        ("game/cards", "import yaml", "The engine imports no YAML, file, language"),
        ("game/rules", "from spidercli.text.i18n import _", "The engine imports no YAML, file"),
        ("play/replay", "from spidercli.logs import reader", "A log played, solved and reported"),
        ("report/svg", "from spidercli.cli import commands", "The floors, top to bottom"),
        ("errors", "from spidercli.report import svg", "The floors, top to bottom"),
        ("game/engine", "from spidercli.solver import _beam", "The floors, top to bottom"),
        ("solver/search", "from spidercli.solver import beam", "The rooms of spidercli.solver"),
        ("kpat/xml", "from spidercli.kpat import match", "The rooms of spidercli.kpat"),
        ("solver/lines", "from spidercli.judging import verdict", "The floors, top to bottom"),
        ("game/cards", "from spidercli.game import engine", "No circle of imports"),
    ],
    ids=[
        "engine-files",
        "cards-yaml",
        "rules-i18n",
        "replay-reader",
        "svg-cli",
        "up",
        "engine-compiled-beam",
        "search-beam",
        "xml-match",
        "solver-judging",
        "circle",
    ],
)
def test_each_contract_breaks_on_the_import_it_forbids(
    tmp_path: Path, module: str, planted: str, contract: str
) -> None:
    shutil.copytree(ROOT / "spidercli", tmp_path / "spidercli", ignore=_not_source)
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    path = tmp_path / "spidercli" / f"{module}.py"
    path.write_text(path.read_text(encoding="utf-8") + f"\n{planted}\n", encoding="utf-8")
    result = _lint(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    broken = [line for line in result.stdout.splitlines() if " BROKEN" in line]
    assert any(line.startswith(contract) for line in broken), broken


def test_a_room_imports_below_it_but_never_a_room_beside_it(tmp_path: Path) -> None:
    """A room may import the rooms below it (the terminal's module, the options' values); ``a |
    b`` rooms never import each other (the terminal's module and the plain help): the kind of
    siblings every import-linter installed here must tell apart (1.11 and later; Python 3.10
    has 2.15)."""
    shutil.copytree(ROOT / "spidercli", tmp_path / "spidercli", ignore=_not_source)
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    frame = tmp_path / "spidercli" / "cli" / "terminal.py"
    frame.write_text(frame.read_text(encoding="utf-8") + "\nfrom spidercli.cli import options\n")
    kept = _lint(tmp_path)
    assert kept.returncode == 0, kept.stdout + kept.stderr
    assert f"{CONTRACTS} kept, 0 broken" in kept.stdout, kept.stdout
    frame.write_text(frame.read_text(encoding="utf-8") + "\nfrom spidercli.cli import plainhelp\n")
    result = _lint(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    broken = [line for line in result.stdout.splitlines() if " BROKEN" in line]
    assert any(line.startswith("The rooms of spidercli.cli") for line in broken), broken


def _not_source(folder: str, names: list[str]) -> list[str]:
    return [name for name in names if name in ("__pycache__", "locale") or name.endswith(".so")]
