"""``spidercli hint LOG``: the best next move of a log, with the reason."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from spidercli import api
from spidercli.cli.app import (
    LangOption,
    LogArgument,
    MaxLogBytesOption,
    RulesOverride,
    dump,
    read_log_or_fail,
    unusable,
)
from spidercli.errors import InputError
from spidercli.logs.files import MAX_LOG_BYTES
from spidercli.play.replay import IllegalLogError
from spidercli.solver.result import pure_python_note
from spidercli.text.i18n import _
from spidercli.text.messages import error_json, said


def hint(
    log: LogArgument,
    rules: RulesOverride = None,
    timeout: Annotated[
        float,
        typer.Option("--timeout", help="Seconds to search for a win.", min=0.01, metavar="SECONDS"),
    ] = 5.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the hint as JSON.")] = False,
    max_log_bytes: MaxLogBytesOption = MAX_LOG_BYTES,
    lang: LangOption = None,
) -> None:
    """Name the best next move of a log, with the reason.

    Never a deal, as Pasiáns Pavouk's hint button.

    \b
    Example:
      spidercli hint game.yaml --timeout 10

    \b
    Exit status: 0 a hint (or "no move"); 1 the log has a refused action;
    2 unusable input.
    """
    parsed = read_log_or_fail(log, as_json, max_log_bytes)

    def searching() -> None:  # a search in the pure Python pass is slow: say so, before it
        note = pure_python_note()
        if note is not None:
            print(f"spidercli: {note}", file=sys.stderr)

    try:
        found = api.hint(parsed, rules=rules, timeout=timeout, on_search=searching)
    except IllegalLogError as err:
        message = str(err)
        if as_json:
            dump(error_json(message, err.line))
        print(f"spidercli: {said(message)}", file=sys.stderr)
        raise typer.Exit(err.exit_status) from None
    except InputError as err:  # the ruleset
        unusable(err, as_json)
    if as_json:
        dump(found.to_json())
        return
    why = "; ".join(said(reason) for reason in found.reasons)
    if found.action is None:
        print(_("No move to suggest: {reasons}.").format(reasons=why))
    else:
        print(_("Hint: {action}  ({reasons})").format(action=found.action, reasons=why))
