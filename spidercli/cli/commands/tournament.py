"""``spidercli tournament PATH...``: standings from many players' logs."""

from __future__ import annotations

import os
import sys
from enum import Enum
from typing import Annotated

import typer

from spidercli import api
from spidercli.cli.app import (
    JobsOption,
    LangOption,
    MaxLogBytesOption,
    PathsArgument,
    dump,
    unusable,
)
from spidercli.errors import InputError
from spidercli.judging.tournament import standings_csv, standings_text
from spidercli.logs.files import MAX_LOG_BYTES


class StandingsFormat(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"


def tournament(
    paths: PathsArgument,
    manifest: Annotated[
        str | None,
        typer.Option(
            "--manifest",
            "-m",
            help="YAML naming the deals (codes or deal IDs) and rules.",
            metavar="FILE",
        ),
    ] = None,
    fmt: Annotated[
        StandingsFormat,
        typer.Option("--format", "-f", help="table, json or csv (standings).", metavar="FORMAT"),
    ] = StandingsFormat.table,
    jobs: JobsOption = None,
    max_log_bytes: MaxLogBytesOption = MAX_LOG_BYTES,
    lang: LangOption = None,
) -> None:
    """Standings from many players' logs.

    Each player's best verified log per deal counts; rejected logs are listed
    with the reason.

    \b
    Examples:
      spidercli tournament submissions/ --manifest cup.yaml
      spidercli tournament submissions/ -m cup.yaml --format csv

    \b
    Exit status: 0 standings; 2 an unusable manifest, a path that does not
    exist, or no logs found.
    """
    as_json = fmt is StandingsFormat.json
    try:
        outcome = api.standings(
            paths, manifest, jobs=jobs or os.cpu_count() or 1, max_bytes=max_log_bytes
        )
    except InputError as err:  # a path not there, an unusable manifest, no logs
        unusable(err, as_json)
    if fmt is StandingsFormat.json:
        dump(outcome.to_json())
    elif fmt is StandingsFormat.csv:
        sys.stdout.write(standings_csv(outcome))
    else:
        sys.stdout.write(standings_text(outcome))
