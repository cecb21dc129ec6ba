"""``spidercli import kpat SAVE``: another program's saved game turned into a move log. ``import``
is a group of commands (``import_app``), KDE KPatience's the one in it."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from spidercli import api
from spidercli.cli.app import LangOption, unusable, write_output
from spidercli.cli.plainhelp import PlainCommand
from spidercli.errors import InputError
from spidercli.text.i18n import ngettext
from spidercli.text.messages import said, shown_path

import_app = typer.Typer(
    help="Turn another program's saved game into a move log.\n\n\b\nExample:\n"
    "  spidercli import kpat savedstate.xml -o game.yaml\n\n\b\nExit status: 0 imported; "
    "2 unusable save.",
    no_args_is_help=True,
    rich_markup_mode=None,
)


@import_app.command("kpat", cls=PlainCommand)
def import_kpat(
    save: Annotated[
        str,
        typer.Argument(help="KPat's saved Spider game (XML).", show_default=False, metavar="SAVE"),
    ],
    output: Annotated[
        str | None,
        typer.Option(
            "-o", "--output", help="Write the log here instead of stdout.", metavar="FILE"
        ),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Import a KDE KPatience saved Spider game as a move log (kpat rules).

    \b
    Examples:
      spidercli import kpat ~/.local/share/kpat/savedstate.xml
      spidercli import kpat game.kpat -o game.yaml

    \b
    Exit status: 0 imported; 2 a save that is not KPat's Spider, corrupt,
    or refused.
    """
    try:
        imported = api.import_kpat(save)
    except InputError as err:  # SaveError is one
        unusable(err, False)
    if imported.warning:
        print(f"spidercli: warning: {shown_path(save)}: {said(imported.warning)}", file=sys.stderr)
    text = imported.log_text
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()  # written before it is said to be
    else:
        write_output(output, text)
    n = len(imported.actions)
    done = ngettext("imported {deal}: {n} action", "imported {deal}: {n} actions", n)
    print(f"spidercli: {done.format(deal=said(imported.setup.name), n=n)}", file=sys.stderr)
