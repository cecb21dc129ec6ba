"""``spidercli duel A B``: two logs of one deal judged under duel rules."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from spidercli import api
from spidercli.cli.app import LangOption, MaxLogBytesOption, dump, unusable
from spidercli.errors import InputError
from spidercli.judging.duel import duel_text
from spidercli.logs.files import MAX_LOG_BYTES


def duel(
    log_a: Annotated[
        str, typer.Argument(help="Player A's YAML move log.", show_default=False, metavar="LOG_A")
    ],
    log_b: Annotated[
        str, typer.Argument(help="Player B's YAML move log.", show_default=False, metavar="LOG_B")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON verdict.")] = False,
    max_log_bytes: MaxLogBytesOption = MAX_LOG_BYTES,
    lang: LangOption = None,
) -> None:
    """Judge a StarGames duel between two logs of one deal.

    Both logs are replayed under duel rules; the verdict names the winner.

    \b
    Example:
      spidercli duel alice.yaml bob.yaml

    \b
    Exit status: 0 both logs valid; 1 either has a refused action or an
    unmet expect (it loses); 2 unusable input.
    """
    try:
        a = api.read_log(log_a, max_bytes=max_log_bytes)
        b = api.read_log(log_b, max_bytes=max_log_bytes)
        verdict = api.duel(a, b)
    except InputError as err:  # DuelError is one
        unusable(err, as_json)
    if as_json:
        dump(verdict.to_json())
    else:
        sys.stdout.write(duel_text(verdict))
    raise typer.Exit(verdict.exit_code)
