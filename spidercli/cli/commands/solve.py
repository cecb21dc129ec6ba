"""``spidercli solve CODE|LOG``: a search for a win, printed as a move log."""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from spidercli import api
from spidercli.cli.app import LangOption, dump, fail, read_log_or_fail, unusable, write_output
from spidercli.cli.terminal import SolveProgress, stderr_console
from spidercli.errors import InputError, unwritable
from spidercli.game.codes import CodeError, Setup
from spidercli.game.rules import RULESETS
from spidercli.logs.files import check_replaceable
from spidercli.play.logtypes import MoveLog
from spidercli.solver.result import (
    Solution,
    bound_message,
    no_win_message,
    pure_python_note,
    solved_message,
)
from spidercli.solver.search import Progress
from spidercli.text.messages import N_, message_of


def solve(
    code: Annotated[
        str,
        typer.Argument(
            help="A game code (SP2-S1C-AAAAABD), or a log whose deal (code or deal:) to solve.",
            metavar="CODE|LOG",
        ),
    ],
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            help=f"Ruleset the log is written for ({', '.join(RULESETS)}; default: the log's, "
            "else classic).",
            metavar="NAME",
        ),
    ] = None,
    timeout: Annotated[
        float,
        typer.Option(
            "--timeout", help="Give up after this many seconds.", min=0.01, metavar="SECONDS"
        ),
    ] = 60.0,
    max_states: Annotated[
        int | None,
        typer.Option(
            "--max-states",
            help="Give up after this many positions (a fixed budget).",
            min=1,
            metavar="N",
        ),
    ] = None,
    output: Annotated[
        str | None,
        typer.Option(
            "-o", "--output", help="Write the log here instead of stdout.", metavar="FILE"
        ),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help="Print the search's record as JSON (the log is in it when won)."
        ),
    ] = False,
    lang: LangOption = None,
) -> None:
    """Search for a win and print it as a move log.

    The log carries its expect block; `spidercli replay` verifies it.

    \b
    Examples:
      spidercli solve SP1-S1C-AAAAABD -o win.yaml
      spidercli solve SP4-S1C-AAAAAAA --timeout 300
      spidercli solve KP4-17 --json

    \b
    Exit status: 0 solved; 1 no win found (proven unwinnable, or the budget
    ran out); 2 unusable input.
    """
    printer: SolveProgress | None = None
    dealt: list[Setup] = []

    def searching(setup: Setup) -> None:  # the deal and the ruleset checked, the search next
        nonlocal printer
        dealt.append(setup)
        if output is not None:  # said now, not after a search of the whole budget
            writable(output, as_json)
        note = pure_python_note()  # the search is slow and may find longer lines: say so
        if note is not None:
            print(f"spidercli: {note}", file=sys.stderr)
        printer = progress_printer()

    def progress(p: Progress) -> None:
        if printer is not None:
            printer(p)

    def search(game: str | MoveLog) -> Solution:
        return api.solve(
            game,
            rules=rules,
            timeout=timeout,
            max_states=max_states,
            progress=progress,
            on_search=searching,
        )

    try:
        try:
            found = search(code)
        except InputError as err:
            if not isinstance(err.__cause__, CodeError):
                raise
            if not os.path.isfile(code):  # neither a game code nor a log
                why = N_("{error}; nor is it a log file", error=message_of(err.__cause__))
                fail(why, None, as_json)
            found = search(read_log_or_fail(code, as_json))
    except InputError as err:
        unusable(err, as_json)
    finally:
        if printer is not None:
            printer.close()
    setup = dealt[0]
    if found.log_text is not None and output is not None:
        write_output(output, found.log_text, as_json)
    if as_json:
        dump(found.to_json())
    if found.log_text is None:
        print(f"spidercli: {no_win_message(setup, found)}", file=sys.stderr)
        raise typer.Exit(1)
    if output is None and not as_json:
        sys.stdout.write(found.log_text)
    sys.stdout.flush()  # written before it is said to be
    print(f"spidercli: {solved_message(setup, found)}", file=sys.stderr)
    print(f"spidercli: {bound_message(found)}", file=sys.stderr)


def writable(path: str, as_json: bool) -> None:
    """Fail (exit 2) at once when ``-o``'s file could not be written (a FIFO, a device, a
    directory, a folder that takes no file)."""
    try:
        check_replaceable(path)
    except OSError as err:
        fail(unwritable(path, err).message, None, as_json)


def progress_printer() -> SolveProgress | None:
    """solve's live line on stderr when it is a terminal, else None."""
    if not sys.stderr.isatty():
        return None
    return SolveProgress(stderr_console())
