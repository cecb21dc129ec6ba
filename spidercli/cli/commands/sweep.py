"""``spidercli sweep CODE...``: many deals solved, one JSON record a deal
(``spidercli.sweeps.run``)."""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from spidercli.cli.app import JobsOption, LangOption, unusable
from spidercli.errors import InputError
from spidercli.solver.result import pure_python_note
from spidercli.sweeps.run import run_sweep


def sweep(
    codes: Annotated[
        list[str] | None,
        typer.Argument(
            help="Game codes and ranges of KPat's or PySol's numbered deals (KP4-1..1000, "
            "PS4-1..32000).",
            metavar="CODE",
            show_default=False,
        ),
    ] = None,
    timeout: Annotated[
        float,
        typer.Option(
            "--timeout",
            help="Give up on a deal after this many seconds.",
            min=0.01,
            metavar="SECONDS",
        ),
    ] = 60.0,
    max_states: Annotated[
        int | None,
        typer.Option(
            "--max-states", help="Give up on a deal after this many positions.", min=1, metavar="N"
        ),
    ] = None,
    jobs: JobsOption = None,
    output: Annotated[
        str | None,
        typer.Option(
            "-o",
            "--output",
            help="Append the records to FILE (JSON lines); deals it has are skipped (resume).",
            metavar="FILE",
        ),
    ] = None,
    shard: Annotated[
        str | None,
        typer.Option(
            "--shard", help="Take every N-th deal from the K-th (K from 1 to N).", metavar="K/N"
        ),
    ] = None,
    manifest: Annotated[
        str | None,
        typer.Option(
            "--manifest",
            help="Write a tournament manifest of the deals won, graded, to FILE, and their "
            "logs to certificates/ beside it.",
            metavar="FILE",
        ),
    ] = None,
    random: Annotated[
        int | None,
        typer.Option("--random", help="Also sweep N random spidercli deals.", metavar="N", min=1),
    ] = None,
    suits: Annotated[
        int | None,
        typer.Option("--suits", help="The random deals' suit count: 1, 2 or 4.", metavar="S"),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="The random deals' seed (default 0).", metavar="X", min=0),
    ] = None,
    game: Annotated[
        str | None,
        typer.Option(
            "--game",
            help="The random deals' game: spider (default) or spiderette.",
            metavar="GAME",
        ),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Solve many deals: one JSON record a deal, as each finishes.

    Records: game, deal_id, rules, result (won, unwinnable, gave-up), moves,
    lower_bound, states, seconds, log. A summary ends on stderr; Ctrl-C keeps
    every finished record.

    \b
    Examples:
      spidercli sweep KP4-1..1000 --timeout 60 -o kpat4.jsonl
      spidercli sweep PS4-1..32000 --shard 3/8 -o part3.jsonl
      spidercli sweep --random 100 --suits 2 --seed 7 --manifest cup/cup.yaml
      spidercli sweep --random 60 --suits 4 --game spiderette --timeout 600

    \b
    Exit status: 0 swept; 1 --manifest and no deal won; 2 unusable input;
    130 interrupted.
    """
    note = pure_python_note()  # a sweep is long, and the pure pass many times slower: say so
    if note is not None:
        print(f"spidercli: {note}", file=sys.stderr)
    try:
        status = run_sweep(
            codes or [],
            timeout=timeout,
            max_states=max_states,
            jobs=jobs or os.cpu_count() or 1,
            output=output,
            shard=shard,
            manifest=manifest,
            random=random,
            suits=suits,
            seed=seed,
            game=game,
            stdout=sys.stdout,
            stderr=sys.stderr,
        )
    except InputError as err:
        unusable(err, False)
    raise typer.Exit(status)
