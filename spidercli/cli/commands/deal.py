"""``spidercli deal CODE``: the starting board a game code deals, as text, JSON or an SVG."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from spidercli import api
from spidercli.cli.app import (
    ColorOption,
    DescribeOption,
    LangOption,
    SvgOption,
    UnicodeOption,
    dump,
    no_words_in_json,
    stdout_color,
    stdout_unicode,
    unusable,
    write_output,
)
from spidercli.errors import InputError
from spidercli.report import text
from spidercli.text.i18n import _
from spidercli.text.messages import said


def deal(
    code: Annotated[str, typer.Argument(help="A game code, e.g. SP2-S1C-AAAAABD.", metavar="CODE")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the starting position as JSON.")
    ] = False,
    describe: DescribeOption = False,
    unicode: UnicodeOption = False,
    color: ColorOption = None,
    svg_file: SvgOption = None,
    lang: LangOption = None,
) -> None:
    """Show the starting board a game code deals.

    \b
    Examples:
      spidercli deal SP2-S1C-AAAAABD
      spidercli deal SD1-S1-AAAAABD --json

    \b
    Exit status: 0 shown; 2 not a game code, or --describe with --json.
    """
    no_words_in_json(as_json, describe)
    try:
        board = api.deal(code)
    except InputError as err:
        unusable(err, as_json)
    parsed, game = board.setup, board.position
    if svg_file is not None:
        from spidercli.report.svg import BoardView, board_svg  # the SVG module: only with --svg

        picture = board_svg(
            BoardView.of(game),
            title=f"{said(parsed.name)}, {_('start')}",
            description=text.describe(game),
        )
        write_output(svg_file, picture, as_json)
    if as_json:
        dump(board.to_json())  # the contract's state object, the code and deal_id in front
        return
    style = text.Style(unicode=stdout_unicode(unicode), color=stdout_color(color))
    sys.stdout.write(text.deal_text(parsed, game, style, words=describe))
