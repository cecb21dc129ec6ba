"""``spidercli solve CODE|LOG``: a search for a win, printed as a move log."""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from spidercli.cli import LangOption, fail, load, write_output
from spidercli.codes import CodeError, Setup, parse_code
from spidercli.messages import N_, message_of
from spidercli.rules import RULESETS, ruleset_named
from spidercli.solution import solve_setup
from spidercli.solving import check_solvable, no_win_message, solved_message, win_log
from spidercli.terminal import SolveProgress, stderr_console


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
        ),
    ] = None,
    timeout: Annotated[
        float, typer.Option("--timeout", help="Give up after this many seconds.", min=0.01)
    ] = 60.0,
    max_states: Annotated[
        int | None,
        typer.Option(
            "--max-states", help="Give up after this many positions (a fixed budget).", min=1
        ),
    ] = None,
    output: Annotated[
        str | None, typer.Option("-o", "--output", help="Write the log here instead of stdout.")
    ] = None,
    lang: LangOption = None,
) -> None:
    """Search for a win and print it as a move log.

    The log carries its expect block; `spidercli replay` verifies it.

    \b
    Examples:
      spidercli solve SP1-S1C-AAAAABD -o win.yaml
      spidercli solve SP4-S1C-AAAAAAA --timeout 300

    \b
    Exit status: 0 solved; 1 no win found (proven unwinnable, or the budget
    ran out); 2 unusable input.
    """
    try:
        setup = Setup.from_code(parse_code(code))
        ruleset = ruleset_named(rules or "classic")
    except CodeError as err:
        if not os.path.isfile(code):
            fail(N_("{error}; nor is it a log file", error=message_of(err)), None, False)
        parsed, ruleset = load(code, rules, False)
        setup = parsed.deal
    except ValueError as err:
        fail(message_of(err), None, False)
    try:
        check_solvable(setup, ruleset)
    except ValueError as err:
        fail(message_of(err), None, False)
    printer = progress_printer()
    try:
        solved = solve_setup(setup, ruleset, timeout=timeout, max_states=max_states, report=printer)
    finally:
        if printer is not None:
            printer.close()
    if solved.actions is None:
        print(f"spidercli: {no_win_message(setup, solved)}", file=sys.stderr)
        raise typer.Exit(1)
    text = win_log(setup, ruleset, solved)
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()  # written before it is said to be
    else:
        write_output(output, text)
    print(f"spidercli: {solved_message(setup, solved)}", file=sys.stderr)


def progress_printer() -> SolveProgress | None:
    """solve's live line on stderr when it is a terminal, else None."""
    if not sys.stderr.isatty():
        return None
    return SolveProgress(stderr_console())
