"""``spidercli replay LOG``: a log through the engine, its boards, its report, and with --html or
--svg its pictures."""

from __future__ import annotations

import sys
from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from spidercli import api
from spidercli.cli.app import (
    ColorOption,
    DescribeOption,
    LangOption,
    LogArgument,
    MaxLogBytesOption,
    RulesOverride,
    SvgOption,
    UnicodeOption,
    dump,
    fail,
    no_words_in_json,
    read_log_or_fail,
    stdout_color,
    stdout_unicode,
    unusable,
    write_output,
)
from spidercli.cli.options import Show, check_show, parse_show
from spidercli.errors import InputError
from spidercli.game.rules import Ruleset
from spidercli.logs.files import MAX_LOG_BYTES
from spidercli.play.logtypes import MoveLog
from spidercli.play.replay import choose_rules
from spidercli.report.text import Snapshots, Style, report_head, report_tail
from spidercli.text.messages import N_, message_of, quoted, shown_path

if TYPE_CHECKING:
    from spidercli.play.replay import Report
    from spidercli.report.page import Recorder


class OnIllegal(str, Enum):
    stop = "stop"
    skip = "skip"


def replay(
    log: LogArgument,
    rules: RulesOverride = None,
    on_illegal: Annotated[
        OnIllegal,
        typer.Option(
            "--on-illegal",
            help="stop at the first refused action, or skip it.",
            metavar="stop|skip",
        ),
    ] = OnIllegal.stop,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON report only.")] = False,
    show: Annotated[
        str,
        typer.Option(
            "--show",
            help="Boards to print: final, every, none, or entry numbers (0 = start), "
            "e.g. 0,40,final.",
            metavar="WHICH",
        ),
    ] = "final",
    describe: DescribeOption = False,
    unicode: UnicodeOption = False,
    color: ColorOption = None,
    html_file: Annotated[
        str | None,
        typer.Option(
            "--html", help="Also write a self-contained HTML page to step through.", metavar="FILE"
        ),
    ] = None,
    svg_file: SvgOption = None,
    lang: LangOption = None,
    max_log_bytes: MaxLogBytesOption = MAX_LOG_BYTES,
) -> None:
    """Replay and verify a move log, and score it.

    Every action is checked by the rules engine; boards are shown as asked (--show).
    With --svg, --show names the one board to draw (an entry number, start or final).

    \b
    Examples:
      spidercli replay game.yaml
      spidercli replay game.yaml --show 0,40,final --unicode
      spidercli replay game.yaml --json

    \b
    Exit status: 0 valid; 1 a refused action or an unmet expect;
    2 unusable input (file, YAML, game code, action, option).
    """
    no_words_in_json(as_json, describe)
    try:
        which = parse_show(show)
    except ValueError as err:
        fail(message_of(err), None, as_json)
    if svg_file is not None and (not isinstance(which, set) or len(which) != 1):
        fail(
            N_(
                "--svg draws one board: --show {show} must name one entry, start or final",
                show=quoted(show),
            ),
            None,
            as_json,
        )
    parsed, ruleset = load(log, rules, as_json, max_log_bytes)
    try:
        check_show(which, len(parsed.entries), shown_path(log))
    except ValueError as err:
        fail(message_of(err), None, as_json)
    pictures = html_file is not None or svg_file is not None

    if as_json:
        recorder = _recorder(None) if pictures else None
        report = api.replay(parsed, rules, on_illegal.value, visitor=recorder)
        _pictures(report, recorder, html_file, svg_file, which, as_json)
        dump(report.to_json())
        raise typer.Exit(report.exit_code)

    style = Style(unicode=stdout_unicode(unicode), color=stdout_color(color))
    sys.stdout.write(report_head(parsed, ruleset))  # the boards follow as they come
    snaps = Snapshots(which, style, words=describe, write=sys.stdout.write)
    recorder = _recorder(snaps) if pictures else None
    report = api.replay(parsed, rules, on_illegal.value, visitor=recorder or snaps)
    _pictures(report, recorder, html_file, svg_file, which, False)
    sys.stdout.write(report_tail(report, style))
    raise typer.Exit(report.exit_code)


def load(
    log: str, rules: str | None, as_json: bool, max_bytes: int = MAX_LOG_BYTES
) -> tuple[MoveLog, Ruleset]:
    """Read a log and choose its ruleset (the report's head names it before the replay runs),
    or fail (exit 2) naming the file and line."""
    parsed = read_log_or_fail(log, as_json, max_bytes)
    try:
        return parsed, choose_rules(parsed, rules)  # RulesError is an InputError
    except InputError as err:
        unusable(err, as_json)


def _recorder(also: Snapshots | None) -> Recorder:
    from spidercli.report.page import Recorder  # the HTML page's module: only with --html or --svg

    return Recorder(also=also)


def _pictures(
    report: Report,
    recorder: Recorder | None,
    html_file: str | None,
    svg_file: str | None,
    which: Show,
    as_json: bool,
) -> None:
    """Write the replay's HTML page and SVG board, when asked for (an error as JSON too with
    ``as_json``)."""
    if recorder is None:
        return
    from spidercli.report.page import (  # only with --html or --svg
        frame_svg,
        pick_frame,
        replay_page,
    )

    if svg_file is not None:
        try:
            frame = pick_frame(recorder.frames, next(iter(which)), report.halted)
        except ValueError as err:
            fail(message_of(err), None, as_json)
        write_output(svg_file, frame_svg(frame, report.log.deal.name), as_json)
    if html_file is not None:
        write_output(html_file, replay_page(report, recorder.frames), as_json)
