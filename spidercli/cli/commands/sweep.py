"""``spidercli sweep CODE...``: many deals solved (``api.sweep``), one JSON record a deal on the
output file or stdout, the live line and the summary on stderr."""

from __future__ import annotations

import os
import sys
from typing import IO, Annotated

import typer

from spidercli import api
from spidercli.cli.app import JobsOption, LangOption, fail, unusable
from spidercli.cli.terminal import SweepLine
from spidercli.errors import InputError
from spidercli.solver.result import pure_python_note
from spidercli.sweeps.run import Sweep
from spidercli.text.i18n import _
from spidercli.text.messages import N_, said


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
    if random is None and (suits is not None or seed is not None or game is not None):
        fail(N_("--suits, --seed and --game go with --random N (random deals)"), None, False)
    if random is not None and suits is None:
        fail(N_("--random needs --suits: 1, 2 or 4"), None, False)
    if not codes and random is None:
        fail(
            N_(
                "no deals to sweep: name game codes, ranges (KP4-1..1000, PS4-1..32000) or "
                "--random N --suits S"
            ),
            None,
            False,
        )
    try:
        run = api.sweep(
            codes or [],
            random=random,
            suits=4 if suits is None else suits,
            seed=0 if seed is None else seed,
            game="spider" if game is None else game,
            timeout=timeout,
            max_states=max_states,
            jobs=jobs or os.cpu_count() or 1,
            shard=shard,
            output=sys.stdout if output is None else output,
            manifest=manifest,
        )
        with run:
            status = run_to_end(run, manifest is not None, sys.stderr)
    except InputError as err:
        unusable(err, False)
    raise typer.Exit(status)


def run_to_end(run: Sweep, manifest: bool, stderr: IO[str]) -> int:
    """The sweep run to its end (or Ctrl-C), its progress and summary on ``stderr``; the exit
    status (0 done, 1 a manifest with no deal won, 130 interrupted)."""
    if run.note is not None:
        print(f"spidercli: {said(run.note)}", file=stderr)
    live = SweepLine(stderr, run.size)
    interrupted = False
    try:
        for _record in run:
            live.tick(run.tally)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        live.close()
    # the command's name, in any language
    print(f"spidercli: sweep: {run.tally.summary()}", file=stderr)
    if interrupted:
        kept = _("interrupted: every finished record is kept")
        print(f"spidercli: {kept}", file=stderr)
        return 130
    if manifest and not run.write_manifest():
        none = _("no deal was won: no manifest written")
        print(f"spidercli: {none}", file=stderr)
        return 1
    return 0
