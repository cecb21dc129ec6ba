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
    fail,
    read_log_or_fail,
    unusable,
)
from spidercli.errors import InputError
from spidercli.logs.files import MAX_LOG_BYTES
from spidercli.play.replay import IllegalLogError
from spidercli.solver.result import pure_python_note
from spidercli.text.i18n import _
from spidercli.text.messages import N_, error_json, said


def hint(
    log: LogArgument,
    rules: RulesOverride = None,
    timeout: Annotated[
        float | None,
        typer.Option(
            "--timeout",
            help="Seconds to search for a win (default 5; not with --fair).",
            min=0.01,
            metavar="SECONDS",
        ),
    ] = None,
    fair: Annotated[
        bool,
        typer.Option(
            "--fair",
            help="Choose only from what a player sees: face-up cards, face-down counts, "
            "cards seen before. A move or a deal; never an undo.",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the hint as JSON.")] = False,
    max_log_bytes: MaxLogBytesOption = MAX_LOG_BYTES,
    lang: LangOption = None,
) -> None:
    """Name the best next move of a log, with the reason.

    Never a deal, as Pasiáns Pavouk's hint button. The hint reads the face-down
    cards and the stock; with --fair it does not (docs/fair.md): it may name a deal.

    \b
    Example:
      spidercli hint game.yaml --timeout 10
      spidercli hint game.yaml --fair

    \b
    Exit status: 0 a hint (or "no move"); 1 the log has a refused action;
    2 unusable input.
    """
    if fair and timeout is not None:
        fail(
            N_(
                "--timeout and --fair: the fair hint's budget is a count of positions, the same "
                "on every machine, not seconds; give one of them"
            ),
            None,
            as_json,
        )
    parsed = read_log_or_fail(log, as_json, max_log_bytes)

    def searching() -> None:  # a search in the pure Python pass is slow: say so, before it
        note = pure_python_note()
        if note is not None:
            print(f"spidercli: {note}", file=sys.stderr)

    try:
        found = api.hint(
            parsed,
            rules=rules,
            timeout=5.0 if timeout is None else timeout,
            fair=fair,
            on_search=searching,
        )
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
    if fair:
        if found.action is None:
            print(_("No action to suggest: {reasons}.").format(reasons=why))
        else:
            print(_("Fair hint: {action}  ({reasons})").format(action=found.action, reasons=why))
        print(
            _(
                "Chosen from what a player sees: the face-up cards, how many cards lie face "
                "down and in the stock, and the cards seen before; not from the unseen cards."
            )
        )
        return
    if found.action is None:
        print(_("No move to suggest: {reasons}.").format(reasons=why))
    else:
        print(_("Hint: {action}  ({reasons})").format(action=found.action, reasons=why))
