"""``spidercli deals SET|CODE``: the table of settled deals: a set's summary, one deal's entry
(its certificate or proof), or winnable deals picked for a tournament."""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from spidercli import api
from spidercli.cli.app import LangOption, dump, fail, unusable, write_output
from spidercli.errors import InputError, OutputError, unwritable
from spidercli.sweeps.records import certificate_path
from spidercli.sweeps.run import check_manifest
from spidercli.sweeps.table import entry_text, set_text
from spidercli.text.i18n import _, ngettext
from spidercli.text.messages import N_, is_utf8, quoted
from spidercli.text.words import GRADES, RANKINGS


def _grading(code: str) -> None:
    """On a terminal, a line before each deal the fair player grades (some seconds each)."""
    print(
        _("grading {deal}: the fair player's 8 playouts ...").format(deal=code),
        file=sys.stderr,
        flush=True,
    )


def deals(
    spec: Annotated[
        str,
        typer.Argument(
            help="A set of the table (PS4, PS2) or one of its deals (PS4-17).",
            metavar="SET|CODE",
        ),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    log: Annotated[
        bool,
        typer.Option("--log", help="Print a won deal's certificate, a log replay verifies."),
    ] = False,
    pick: Annotated[
        int | None,
        typer.Option("--pick", help="Pick N winnable deals of the set.", metavar="N", min=1),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            help="The pick's seed: the same deals on every machine (default 0).",
            metavar="S",
            min=0,
            max=(1 << 64) - 1,
        ),
    ] = None,
    grade: Annotated[
        str | None,
        typer.Option(
            "--grade", help=f"Pick deals of this grade only ({', '.join(GRADES)}).", metavar="G"
        ),
    ] = None,
    title: Annotated[
        str | None,
        typer.Option("--title", help="The tournament's name, in the manifest.", metavar="TEXT"),
    ] = None,
    ranking: Annotated[
        str | None,
        typer.Option(
            "--ranking",
            help="How the tournament ranks players: score (summed, the default) or wins (then "
            "fewest moves).",
            metavar="R",
        ),
    ] = None,
    manifest: Annotated[
        str | None,
        typer.Option(
            "--manifest",
            help="Write the picked deals' tournament manifest to FILE, and their certificates "
            "to certificates/ beside it (else the manifest goes to stdout).",
            metavar="FILE",
        ),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Show the table of settled deals, or pick winnable ones.

    Every deal of PySol's sets 1-32000 that spidercli's sweeps settled: won, with a certificate
    (a winning log anyone can replay), or proven unwinnable, with its proof.

    \b
    Examples:
      spidercli deals PS4
      spidercli deals PS4-17 --log > PS4-17.yaml
      spidercli deals PS4 --pick 10 --seed 7 --manifest cup/cup.yaml

    \b
    Exit status: 0 shown or written; 1 --log of a deal with no certificate;
    2 a set or deal the table does not hold, or options that do not go together.
    """
    picking = pick is not None
    is_deal = "-" in spec
    for given, option in (
        (seed is not None, "--seed"),
        (grade is not None, "--grade"),
        (title is not None, "--title"),
        (ranking is not None, "--ranking"),
        (manifest is not None, "--manifest"),
    ):
        if given and not picking:
            fail(N_("{option} goes with --pick", option=option), None, as_json)
    if picking and is_deal:
        fail(N_("--pick takes a set (PS4), not a deal"), None, as_json)
    if log and not is_deal:
        fail(N_("--log takes a deal (PS4-17), not a set"), None, as_json)
    if log and as_json:
        fail(N_("--log prints a log, not JSON: the JSON has it as 'log'"), None, as_json)
    if title is not None and not title.strip():  # a tournament would show the file's name
        fail(N_("--title must not be empty: leave it out for no title"), None, as_json)
    if title is not None and not is_utf8(title):
        fail(N_("--title must be UTF-8 text: {title} is not", title=quoted(title)), None, as_json)
    if grade is not None and grade.lower() not in GRADES:
        choices = ", ".join(GRADES)
        wrong = N_(
            "--grade must be one of {choices}, not {grade}", choices=choices, grade=quoted(grade)
        )
        fail(wrong, None, as_json)
    if ranking is not None and ranking.lower() not in RANKINGS:
        fail(
            N_("--ranking must be score or wins, not {value}", value=quoted(ranking)),
            None,
            as_json,
        )
    grade = None if grade is None else grade.lower()  # as a manifest's grade and ranking are
    ranking = None if ranking is None else ranking.lower()
    if manifest is not None:
        try:  # before any deal is drawn or graded, and before a certificate is written
            check_manifest(manifest, make=False)
        except OutputError as err:
            fail(err.message, None, as_json)
    try:
        if picking:
            assert pick is not None
            picked = api.pick_deals(
                spec,
                pick,
                seed=seed or 0,
                grade=grade,
                title=title,
                ranking=ranking,
                on_grade=_grading if sys.stderr.isatty() else None,
            )
        elif is_deal:
            entry = api.settled(spec)
        else:
            table = api.deals(spec)
    except InputError as err:
        unusable(err, as_json)
    if picking:
        if manifest is not None:
            # Checked, not made, before the pick: made now (the manifest's too, via a link).
            for folder in (
                os.path.dirname(certificate_path(manifest, "-")),
                os.path.dirname(os.path.realpath(manifest)),
            ):
                try:
                    os.makedirs(folder, exist_ok=True)
                except OSError as err:
                    fail(unwritable(folder, err).message, None, as_json)
            for chosen in picked.deals:
                text = chosen.log()
                assert text is not None
                write_output(certificate_path(manifest, chosen.game), text, as_json)
            write_output(manifest, picked.manifest_text(), as_json)
        if as_json:
            dump(picked.to_json())
        elif manifest is None:
            sys.stdout.write(picked.manifest_text())
        else:
            print(
                ngettext(
                    "wrote {manifest} and {n} certificate beside it",
                    "wrote {manifest} and {n} certificates beside it",
                    len(picked.deals),
                ).format(manifest=manifest, n=len(picked.deals)),
                file=sys.stderr,
            )
        return
    if is_deal:
        if log:
            text = entry.log()
            if text is None:
                print(entry_text(entry), end="", file=sys.stderr)
                raise typer.Exit(1)
            sys.stdout.write(text)
        elif as_json:
            dump(entry.to_json())
        else:
            sys.stdout.write(entry_text(entry))
        return
    if as_json:
        dump(table.to_json())
    else:
        sys.stdout.write(set_text(table))
