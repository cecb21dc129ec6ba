"""The table of commands (``spidercli.cli.app.COMMANDS``): each row names a module of
``spidercli/cli/commands/`` and its function, under the command's own name; the root's help lists
the rows' summaries, which are the commands' own first lines; and only the module of the command
that runs is imported."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from spidercli.cli.app import COMMANDS, command_of
from tests.helpers import ROOT, run

PACKAGE = ROOT / "spidercli" / "cli" / "commands"


def _help_of(made: object) -> str:
    if isinstance(made, typer.Typer):
        return inspect.cleandoc(str(made.info.help))
    return inspect.getdoc(made) or ""


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_row_names_its_command_by_the_commands_name(name: str) -> None:
    row = COMMANDS[name]
    made = command_of(name)
    assert row.module.startswith("spidercli.cli.commands.")
    if isinstance(made, typer.Typer):  # a group: its one module is named by what it holds
        names = [info.callback.__name__ for info in made.registered_commands if info.callback]
        assert row.module.rsplit(".", 1)[1] in names
    else:
        assert row.module == f"spidercli.cli.commands.{name}"
        assert row.function == name == made.__name__


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_summary_is_the_first_line_of_the_commands_help(name: str) -> None:
    first = _help_of(command_of(name)).split("\n\n")[0]
    assert COMMANDS[name].summary == first
    assert "\n" not in first


def test_every_module_of_the_commands_is_in_the_table() -> None:
    modules = {path.stem for path in PACKAGE.glob("*.py")} - {"__init__"}
    assert modules == {row.module.rsplit(".", 1)[1] for row in COMMANDS.values()}


def test_the_root_help_lists_every_command_with_its_summary() -> None:
    listed = run("--help").stdout.split("Commands:\n", 1)[1].splitlines()
    rows = [line.split(None, 1) for line in listed if line.strip()]
    assert rows == [[name, row.summary] for name, row in COMMANDS.items()]


_LOADED = (
    "import sys\n"
    "from spidercli.cli.app import main\n"
    "sys.argv = ['spidercli', *sys.argv[1:]]\n"
    "try:\n"
    "    main()\n"
    "except SystemExit:\n"
    "    pass\n"
    "sys.stderr.write(' '.join(sorted(m for m in sys.modules if m.startswith('spidercli.'))))\n"
)


def _modules_after(*args: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", _LOADED, *args], cwd=ROOT, capture_output=True, text=True
    )
    return set(out.stderr.split())


def test_the_root_help_imports_no_command_nor_the_work() -> None:
    loaded = _modules_after("--help")
    assert not {m for m in loaded if m.startswith("spidercli.cli.commands")}
    assert not loaded & {
        "spidercli.api",
        "spidercli.play.replay",
        "spidercli.report.text",
        "spidercli.judging.workers",
    }


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "fixtures/example-spider-1suit-117.yaml"],
        ["deal", "SP2-S1C-AAAAABD"],
        ["schema"],
        ["import", "kpat", "--help"],
    ],
    ids=lambda args: args[0],
)
def test_a_command_imports_its_own_module_only(args: list[str]) -> None:
    loaded = {m for m in _modules_after(*args) if m.startswith("spidercli.cli.commands.")}
    assert loaded == {COMMANDS[args[0]].module}


def test_no_command_imports_a_name_under_another_name() -> None:
    """A reader follows a name from the command to the work: ``api.replay``, never ``replay as
    play``."""
    for path in [*sorted(PACKAGE.glob("*.py")), ROOT / "spidercli" / "cli" / "app.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                renamed = [a.name for a in node.names if a.asname not in (None, a.name)]
                assert renamed == [], (Path(path).name, renamed)
