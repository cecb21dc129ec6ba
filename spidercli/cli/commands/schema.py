"""``spidercli schema``: the JSON Schemas of the log format, the report and verify's records."""

from __future__ import annotations

from typing import Annotated

import typer

from spidercli import api
from spidercli.cli.app import LangOption, dump, fail
from spidercli.text.messages import N_


def schema(
    report: Annotated[
        bool, typer.Option("--report", help="The schema of replay --json's report instead.")
    ] = False,
    records: Annotated[
        bool,
        typer.Option("--verify", help="The schema of verify's JSON records (json, jsonl) instead."),
    ] = False,
    lang: LangOption = None,
) -> None:
    """Print a JSON Schema of the move log format (for editors).

    With --report, of replay --json's report; with --verify, of a record of
    verify --format jsonl (or json).

    \b
    Examples:
      spidercli schema > spidercli-log.schema.json
      spidercli schema --report > spidercli-report.schema.json

    \b
    Exit status: 0; 2 both --report and --verify.
    """
    if report and records:
        fail(N_("--report and --verify: give one of them, not both"), None, False)
    dump(api.schema("report" if report else "verify" if records else "log"))
