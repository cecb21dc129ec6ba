"""The command line: parse options, call the library, render, exit. Nothing else lives here.

Exit status: 0 valid, 1 a refused action or an unmet expectation, 2 unusable input. Heavy
modules are imported inside the commands so that ``spidercli --help`` starts fast.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterator
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from spidercli.errors import InputError, OutputError
from spidercli.files import MAX_LOG_BYTES
from spidercli.i18n import LANGUAGES, LanguageError, choose
from spidercli.quickparams import install as _quick_params
from spidercli.rules import RULESETS

_quick_params()  # plain values coerced without importing pydantic (start-up time)

if TYPE_CHECKING:  # imported for the types only: the commands import what they use
    from spidercli.logtypes import MoveLog
    from spidercli.rules import Ruleset


class _Commands(TyperGroup):
    """Typer's group of commands, with the text of its own errors (an unknown option or command,
    a value it cannot use, an extra argument) shown as every message shows a user's text:
    each character that is not printable escaped (terminal escapes, bidirectional controls, line
    breaks), and cut when long. Typer puts the value in its message; the words around it are
    Typer's own and short, so a value keeps at least ``LIMIT`` characters."""

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        with _escaped_errors():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: Any) -> Any:
        with _escaped_errors():
            return super().invoke(ctx)


@contextlib.contextmanager
def _escaped_errors() -> Iterator[None]:
    try:
        yield
    except typer.TyperException as err:  # Typer's usage errors; shown by Typer, after this
        if type(err).__name__ != "NoArgsIsHelpError":  # that one's message is our help text
            from spidercli.messages import LIMIT, shown

            err.message = shown(err.message, 2 * LIMIT)
        raise


app = typer.Typer(
    name="spidercli",
    cls=_Commands,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


UnicodeOption = Annotated[bool, typer.Option("--unicode", help="Suit symbols instead of S H D C.")]
DescribeOption = Annotated[
    bool,
    typer.Option(
        "--describe",
        help="Describe each position in words (for screen readers) instead of drawing it.",
    ),
]
LogArgument = Annotated[
    str, typer.Argument(help="The YAML move log (- for standard input).", show_default=False)
]
RulesOverride = Annotated[
    str | None,
    typer.Option("--rules", help=f"Ruleset ({', '.join(RULESETS)}); overrides the log's."),
]
JobsOption = Annotated[
    int | None,
    typer.Option("--jobs", "-j", help="Worker processes (default: the machine's cores).", min=1),
]
PathsArgument = Annotated[
    list[str],
    typer.Argument(
        help="Log files, directories (searched for *.yaml, *.yml) and globs.", metavar="PATH"
    ),
]
MaxLogBytesOption = Annotated[
    int,
    typer.Option(
        "--max-log-bytes",
        help=f"Refuse a log bigger than this many bytes (default {MAX_LOG_BYTES}, 1 MiB).",
        min=1,
        show_default=False,
    ),
]
ColorOption = Annotated[
    bool | None,
    typer.Option(
        "--color/--no-color",
        help="Colour (default: on a terminal; a non-empty NO_COLOR turns it off, FORCE_COLOR on).",
    ),
]


def _choose_language(value: str | None) -> str | None:
    """--lang, or else LC_ALL, LC_MESSAGES, LANG: the language of the text for people."""
    try:
        choose(value)
    except LanguageError as err:
        raise typer.BadParameter(str(err)) from None
    return value


LangOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        help=f"Language of the text for people: {', '.join(LANGUAGES[:-1])} or {LANGUAGES[-1]} "
        "(default: from LC_ALL, LC_MESSAGES, LANG). JSON and other machine formats never change.",
        callback=_choose_language,
        metavar="LANG",
    ),
]
SvgOption = Annotated[
    str | None,
    typer.Option("--svg", help="Also draw the board as an SVG picture in FILE.", metavar="FILE"),
]


def _quoted(text: str) -> str:
    from spidercli.messages import quoted

    return quoted(text)


def _shown_path(path: str) -> str:
    from spidercli.messages import shown_path

    return shown_path(path)


def _write(path: str, text: str, as_json: bool = False) -> None:
    """Write an output file the user named, or fail (exit 2) saying why."""
    from spidercli.files import write_atomic

    try:
        write_atomic(path, text)
    except OSError as err:
        from spidercli.errors import unwritable

        _fail(unwritable(path, err).message, None, as_json)


class OnIllegal(str, Enum):
    stop = "stop"
    skip = "skip"


def _fail(message: str, line: int | None, as_json: bool, status: int = 2) -> NoReturn:
    """Input that cannot be used: one paragraph on stderr (and the JSON error), exit ``status``
    (2)."""
    if as_json:
        from spidercli.batch import utf8_safe  # a file name that is not UTF-8 stays valid JSON
        from spidercli.messages import error_json

        print(json.dumps(error_json(utf8_safe(message), line)))
    from spidercli.messages import said  # the JSON above stays English; people read --lang's

    print(f"spidercli: error: {said(message)}", file=sys.stderr)
    raise typer.Exit(status)


def _N(msgid: str, /, **fields: Any) -> str:  # messages.N_, imported only when needed
    from spidercli.messages import N_

    return N_(msgid, **fields)


def _message_of(err: Exception) -> str:
    from spidercli.messages import message_of  # a Text stays one: said in --lang on stderr

    return message_of(err)


def _unusable(err: InputError, as_json: bool) -> NoReturn:
    """``_fail`` for an ``InputError``: its message, line and exit status."""
    _fail(str(err), err.line, as_json, err.exit_status)


def _color(flag: bool | None) -> bool:
    from spidercli.terminal import color_wanted

    return color_wanted(flag, sys.stdout)


def _load(
    log: str, rules: str | None, as_json: bool, max_bytes: int = MAX_LOG_BYTES
) -> tuple[MoveLog, Ruleset]:
    """Read a log and choose its ruleset, or fail (exit 2) naming the file and line."""
    from spidercli import api
    from spidercli.replay import choose_rules

    try:
        parsed = api.read_log(log, max_bytes=max_bytes)
        return parsed, choose_rules(parsed, rules)  # RulesError is an InputError
    except InputError as err:
        _unusable(err, as_json)


def _dump(obj: Any) -> None:
    from spidercli.batch import utf8_safe  # a file name that is not UTF-8 stays valid JSON

    # Streamed, so a big report never sits in memory twice.
    for chunk in json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(obj):
        sys.stdout.write(utf8_safe(chunk))
    sys.stdout.write("\n")


@app.command()
def replay(
    log: LogArgument,
    rules: RulesOverride = None,
    on_illegal: Annotated[
        OnIllegal,
        typer.Option("--on-illegal", help="stop at the first refused action, or skip it."),
    ] = OnIllegal.stop,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON report only.")] = False,
    show: Annotated[
        str,
        typer.Option(
            "--show",
            help="Boards to print: final, every, none, or entry numbers (0 = start), "
            "e.g. 0,40,final.",
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
    from spidercli import api
    from spidercli.options import check_show, parse_show

    try:
        which = parse_show(show)
    except ValueError as err:
        _fail(_message_of(err), None, as_json)
    if svg_file is not None and (not isinstance(which, set) or len(which) != 1):
        _fail(
            _N(
                "--svg draws one board: --show {show} must name one entry, start or final",
                show=_quoted(show),
            ),
            None,
            as_json,
        )
    parsed, ruleset = _load(log, rules, as_json, max_log_bytes)
    try:
        check_show(which, len(parsed.entries), _shown_path(log))
    except ValueError as err:
        _fail(_message_of(err), None, as_json)
    pictures = html_file is not None or svg_file is not None

    if as_json:
        recorder = _recorder(None) if pictures else None
        report = api.replay(parsed, rules, on_illegal.value, visitor=recorder)
        _pictures(report, recorder, html_file, svg_file, which, as_json)
        _dump(report.to_json())
        raise typer.Exit(report.exit_code)

    from spidercli.render import Snapshots, Style, report_head, report_tail

    style = Style(unicode=unicode, color=_color(color))
    sys.stdout.write(report_head(parsed, ruleset))  # the boards follow as they come
    snaps = Snapshots(which, style, words=describe, write=sys.stdout.write)
    recorder = _recorder(snaps) if pictures else None
    report = api.replay(parsed, rules, on_illegal.value, visitor=recorder or snaps)
    _pictures(report, recorder, html_file, svg_file, which, False)
    sys.stdout.write(report_tail(report, style))
    raise typer.Exit(report.exit_code)


def _recorder(also: Any) -> Any:
    from spidercli.html import Recorder

    return Recorder(also=also)


def _pictures(
    report: Any,
    recorder: Any,
    html_file: str | None,
    svg_file: str | None,
    which: Any,
    as_json: bool,
) -> None:
    """Write the replay's HTML page and SVG board, when asked for (an error as JSON too with
    ``as_json``)."""
    if recorder is None:
        return
    from spidercli.html import frame_svg, pick_frame, replay_page

    if svg_file is not None:
        try:
            frame = pick_frame(recorder.frames, next(iter(which)), report.halted)
        except ValueError as err:
            _fail(_message_of(err), None, as_json)
        _write(svg_file, frame_svg(frame, report.log.deal.name), as_json)
    if html_file is not None:
        _write(html_file, replay_page(report, recorder.frames), as_json)


@app.command()
def duel(
    log_a: Annotated[str, typer.Argument(help="Player A's YAML move log.", show_default=False)],
    log_b: Annotated[str, typer.Argument(help="Player B's YAML move log.", show_default=False)],
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
    from spidercli import api
    from spidercli.judge import duel_text

    try:
        a = api.read_log(log_a, max_bytes=max_log_bytes)
        b = api.read_log(log_b, max_bytes=max_log_bytes)
        verdict = api.duel(a, b)
    except InputError as err:  # DuelError is one
        _unusable(err, as_json)
    if as_json:
        _dump(verdict.to_json())
    else:
        sys.stdout.write(duel_text(verdict))
    raise typer.Exit(verdict.exit_code)


@app.command()
def deal(
    code: Annotated[str, typer.Argument(help="A game code, e.g. SP2-S1C-AAAAABD.")],
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
    Exit status: 0 shown; 2 not a game code.
    """
    from spidercli import api

    try:
        board = api.deal(code)
    except InputError as err:
        _unusable(err, as_json)
    parsed, game = board.setup, board.position
    if svg_file is not None:
        from spidercli.i18n import _
        from spidercli.messages import said
        from spidercli.render import describe as words
        from spidercli.svg import BoardView, board_svg

        picture = board_svg(
            BoardView.of(game),
            title=f"{said(parsed.name)}, {_('start')}",
            description=words(game),
        )
        _write(svg_file, picture, as_json)
    if as_json:
        _dump(board.to_json())  # the contract's state object, the code and deal_id in front
        return
    from spidercli.render import Style, deal_text

    style = Style(unicode=unicode, color=_color(color))
    sys.stdout.write(deal_text(parsed, game, style, words=describe))


def _progress_printer() -> Any:
    """solve's live line on stderr when it is a terminal, else None."""
    if not sys.stderr.isatty():
        return None
    from spidercli.terminal import SolveProgress, stderr_console

    return SolveProgress(stderr_console())


def _pure_python_note() -> None:
    """solve's and hint's note on stderr when the solver runs its pure Python pass."""
    from spidercli.solving import pure_python_note

    note = pure_python_note()
    if note is not None:
        print(f"spidercli: {note}", file=sys.stderr)


@app.command()
def solve(
    code: Annotated[
        str,
        typer.Argument(
            help="A game code (SP2-S1C-AAAAABD), or a log whose deal (code or deal:) to solve.",
            metavar="CODE|LOG",
        ),
    ],
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            help=f"Ruleset the log is written for ({', '.join(RULESETS)}; default: the log's, "
            "else classic).",
        ),
    ] = None,
    timeout: Annotated[
        float, typer.Option("--timeout", help="Give up after this many seconds.", min=0.01)
    ] = 60.0,
    max_states: Annotated[
        int | None,
        typer.Option(
            "--max-states", help="Give up after this many positions (a fixed budget).", min=1
        ),
    ] = None,
    output: Annotated[
        str | None, typer.Option("-o", "--output", help="Write the log here instead of stdout.")
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help="Print the search's record as JSON (the log is in it when won)."
        ),
    ] = False,
    lang: LangOption = None,
) -> None:
    """Search for a win and print it as a move log.

    The log carries its expect block; `spidercli replay` verifies it.

    \b
    Examples:
      spidercli solve SP1-S1C-AAAAABD -o win.yaml
      spidercli solve SP4-S1C-AAAAAAA --timeout 300
      spidercli solve KP4-17 --json

    \b
    Exit status: 0 solved; 1 no win found (proven unwinnable, or the budget
    ran out); 2 unusable input.
    """
    from spidercli import api
    from spidercli.codes import CodeError, Setup, parse_code
    from spidercli.rules import ruleset_named
    from spidercli.solving import bound_message, check_solvable, no_win_message, solved_message

    game: str | MoveLog = code
    try:
        setup = Setup.from_code(parse_code(code))
        ruleset = ruleset_named(rules or "classic")
    except CodeError as err:
        if not os.path.isfile(code):
            from spidercli.messages import N_

            _fail(N_("{error}; nor is it a log file", error=_message_of(err)), None, as_json)
        game, ruleset = _load(code, rules, as_json)
        setup = game.deal
    except ValueError as err:
        _fail(_message_of(err), None, as_json)
    try:
        check_solvable(setup, ruleset)
    except ValueError as err:
        _fail(_message_of(err), None, as_json)
    _pure_python_note()
    printer = _progress_printer()
    try:
        found = api.solve(
            game, rules=rules, timeout=timeout, max_states=max_states, progress=printer
        )
    finally:
        if printer is not None:
            printer.close()
    if found.log_text is not None and output is not None:
        _write(output, found.log_text, as_json)
    if as_json:
        _dump(found.to_json())
    if found.log_text is None:
        print(f"spidercli: {no_win_message(setup, found)}", file=sys.stderr)
        raise typer.Exit(1)
    if output is None and not as_json:
        sys.stdout.write(found.log_text)
    sys.stdout.flush()  # written before it is said to be
    print(f"spidercli: {solved_message(setup, found)}", file=sys.stderr)
    print(f"spidercli: {bound_message(found)}", file=sys.stderr)


@app.command()
def hint(
    log: LogArgument,
    rules: RulesOverride = None,
    timeout: Annotated[
        float, typer.Option("--timeout", help="Seconds to search for a win.", min=0.01)
    ] = 5.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the hint as JSON.")] = False,
    max_log_bytes: MaxLogBytesOption = MAX_LOG_BYTES,
    lang: LangOption = None,
) -> None:
    """Name the best next move of a log, with the reason.

    Never a deal, as Pasiáns Pavouk's hint button.

    \b
    Example:
      spidercli hint game.yaml --timeout 10

    \b
    Exit status: 0 a hint (or "no move"); 1 the log has a refused action;
    2 unusable input.
    """
    from spidercli import api
    from spidercli.replay import IllegalLogError

    parsed = _load(log, rules, as_json, max_log_bytes)[0]  # the ruleset is checked here too
    _pure_python_note()
    try:
        found = api.hint(parsed, rules=rules, timeout=timeout)
    except IllegalLogError as err:
        from spidercli.messages import error_json, said

        message = str(err)
        if as_json:
            _dump(error_json(message, err.line))
        print(f"spidercli: {said(message)}", file=sys.stderr)
        raise typer.Exit(err.exit_status) from None
    if as_json:
        _dump(found.to_json())
        return
    from spidercli.i18n import _
    from spidercli.messages import said

    why = "; ".join(said(reason) for reason in found.reasons)
    if found.action is None:
        print(_("No move to suggest: {reasons}.").format(reasons=why))
    else:
        print(_("Hint: {action}  ({reasons})").format(action=found.action, reasons=why))


class Format(str, Enum):
    table = "table"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"
    junit = "junit"
    github = "github"
    concise = "concise"


@app.command()
def verify(
    paths: PathsArgument,
    fmt: Annotated[
        Format,
        typer.Option(
            "--format",
            "-f",
            help="table, json (one array), jsonl, csv, junit, github (workflow annotations), "
            "concise (path:line: status rule: message).",
        ),
    ] = Format.table,
    jobs: JobsOption = None,
    rules: Annotated[
        str | None,
        typer.Option("--rules", help=f"Ruleset for every log ({', '.join(RULESETS)})."),
    ] = None,
    html_dir: Annotated[
        str | None,
        typer.Option(
            "--html-dir",
            help="Write an HTML page per log that is not valid, and an index, into DIR.",
            metavar="DIR",
        ),
    ] = None,
    quiet: Annotated[
        bool,
        typer.Option("--quiet", "-q", help="List only the logs that are not valid."),
    ] = False,
    max_log_bytes: MaxLogBytesOption = MAX_LOG_BYTES,
    lang: LangOption = None,
) -> None:
    """Verify many logs at once; one bad file never stops the rest.

    \b
    Examples:
      spidercli verify logs/
      spidercli verify -q 'logs/**/*.yaml'
      spidercli verify logs/ --format github    (in a GitHub Actions step)

    \b
    Exit status: 0 all valid; 1 any illegal or failing its expect;
    2 any unusable, or no logs found.
    """
    from spidercli import api
    from spidercli.batch import find_logs, wants_json, write_verdicts

    workers = jobs or os.cpu_count() or 1
    try:
        verdicts = api.verify(
            paths,
            rules=rules,
            jobs=workers,
            max_bytes=max_log_bytes,
            html_dir=html_dir,
            with_json=wants_json(fmt.value),
        )
    except InputError as err:  # an unknown ruleset, no logs
        _unusable(err, False)
    if html_dir is not None:
        try:
            os.makedirs(html_dir, exist_ok=True)
        except OSError as err:
            why = _N("cannot be created: {reason}", reason=err.strerror or str(err))
            _fail(_N("--html-dir {dir}: {why}", dir=html_dir, why=why), None, False)
    tick = None
    bar = None
    if sys.stderr.isatty():
        from spidercli.terminal import stderr_console, verify_bar

        total = sum(1 for _ in find_logs(paths))  # a second, cheap walk: memory stays flat
        bar = verify_bar(total, stderr_console(), stdout_is_terminal=sys.stdout.isatty())
        bar.start()

        def tick(_: object) -> None:
            bar.advance(bar.task_ids[0])

    try:
        tally = write_verdicts(
            verdicts, sys.stdout, fmt=fmt.value, tick=tick, html_dir=html_dir, quiet=quiet
        )
    except OutputError as err:  # the index of --html-dir, JUnit's temporary file
        _fail(err.message, None, False, err.exit_status)
    finally:
        if bar is not None:
            bar.stop()
    sys.stdout.flush()  # a listing that cannot be written is said before the summary
    if fmt is not Format.table:
        print(f"spidercli: {tally.summary()}", file=sys.stderr)
    if html_dir is not None:
        from spidercli.i18n import _

        pages = _("pages in {index}").format(index=os.path.join(html_dir, "index.html"))
        print(f"spidercli: {pages}", file=sys.stderr)
    raise typer.Exit(tally.exit_code)


class StandingsFormat(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"


@app.command()
def tournament(
    paths: PathsArgument,
    manifest: Annotated[
        str | None,
        typer.Option(
            "--manifest", "-m", help="YAML naming the deals (codes or deal IDs) and rules."
        ),
    ] = None,
    fmt: Annotated[
        StandingsFormat, typer.Option("--format", "-f", help="table, json or csv (standings).")
    ] = StandingsFormat.table,
    jobs: JobsOption = None,
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
    from spidercli import api
    from spidercli.tournament import standings_csv, standings_text

    as_json = fmt is StandingsFormat.json
    try:
        outcome = api.standings(paths, manifest, jobs=jobs or os.cpu_count() or 1)
    except InputError as err:  # a path not there, an unusable manifest, no logs
        _unusable(err, as_json)
    if fmt is StandingsFormat.json:
        _dump(outcome.to_json())
    elif fmt is StandingsFormat.csv:
        sys.stdout.write(standings_csv(outcome))
    else:
        sys.stdout.write(standings_text(outcome))


@app.command()
def record(
    logs: Annotated[
        list[str],
        typer.Argument(help="Log files to (re)write the expect block of.", metavar="LOG"),
    ],
    max_log_bytes: MaxLogBytesOption = MAX_LOG_BYTES,
    lang: LangOption = None,
) -> None:
    """Write or refresh each log's expect block in place.

    The block holds result, moves, score and runs. Comments and layout stay;
    each file is replaced atomically.

    \b
    Example:
      spidercli record logs/*.yaml

    \b
    Exit status: 0 all recorded; 1 a log has a refused action (not
    recorded); 2 a log is unusable.
    """
    from spidercli import api
    from spidercli.i18n import _
    from spidercli.messages import N_, located, message_of, said, shown_path
    from spidercli.replay import IllegalLogError

    status = 0
    for path in logs:
        try:
            done = api.record_file(path, max_bytes=max_log_bytes)
        except IllegalLogError as err:  # not recorded
            print(f"spidercli: {said(message_of(err))}", file=sys.stderr)
            status = max(status, 1)
            continue
        except InputError as err:  # unreadable, unusable, or not rewritable in place
            print(f"spidercli: error: {err.said()}", file=sys.stderr)
            status = 2
            continue
        except OSError as err:
            why = N_("cannot be written: {reason}", reason=err.strerror or str(err))
            print(f"spidercli: error: {said(located(path, None, why))}", file=sys.stderr)
            status = 2
            continue
        what = ", ".join(f"{k} {v}" for k, v in done.expect.items())  # keys as the log writes them
        line = (
            _("recorded  {path}  ({expect})")
            if done.changed
            else _("unchanged  {path}  ({expect})")
        )
        print(line.format(path=shown_path(path), expect=what))
    raise typer.Exit(status)


import_app = typer.Typer(
    help="Turn another program's saved game into a move log.\n\n\b\nExample:\n"
    "  spidercli import kpat savedstate.xml -o game.yaml\n\n\b\nExit status: 0 imported; "
    "2 unusable save.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(import_app, name="import")


@import_app.command("kpat")
def import_kpat(
    save: Annotated[
        str, typer.Argument(help="KPat's saved Spider game (XML).", show_default=False)
    ],
    output: Annotated[
        str | None, typer.Option("-o", "--output", help="Write the log here instead of stdout.")
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
    from spidercli import api
    from spidercli.i18n import ngettext
    from spidercli.messages import said

    try:
        imported = api.import_kpat(save)
    except InputError as err:  # SaveError is one
        _unusable(err, False)
    if imported.warning:
        print(f"spidercli: warning: {_shown_path(save)}: {said(imported.warning)}", file=sys.stderr)
    text = imported.log_text
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()  # written before it is said to be
    else:
        _write(output, text)
    n = len(imported.actions)
    done = ngettext("imported {deal}: {n} action", "imported {deal}: {n} actions", n)
    print(f"spidercli: {done.format(deal=said(imported.setup.name), n=n)}", file=sys.stderr)


@app.command()
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
        _fail(_N("--report and --verify: give one of them, not both"), None, False)
    from spidercli.schema import log_schema, report_schema, verify_schema

    _dump(report_schema() if report else verify_schema() if records else log_schema())


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option("--version", "-V", help="Print the version and exit.", is_eager=True),
    ] = False,
) -> None:
    """Replay, verify and score games of Spider Solitaire and Spiderette.

    \b
    Examples:
      spidercli replay game.yaml
      spidercli verify logs/ --format junit > report.xml
      spidercli COMMAND --help

    \b
    Exit status: 0 valid; 1 an illegal action or an unmet expect;
    2 unusable input.
    """
    if version:
        from spidercli import __version__
        from spidercli.solver import solver_pass

        print(f"spidercli {__version__}")
        print(solver_pass())
        raise typer.Exit(0)
    if ctx.invoked_subcommand is None:
        print(ctx.get_help())
        raise typer.Exit(0)


class _StdoutClosed(Exception):
    """The reader of stdout went away (``spidercli verify ... | head -1``). Deliberately not an
    ``OSError``: Typer turns a broken pipe into exit status 1, which here means "illegal"."""


class _StdoutFailed(Exception):
    """stdout cannot be written (a full disk, ``> /dev/full``, an I/O error): an error of the
    environment, said in one line (exit status 2). Not an ``OSError``, as ``_StdoutClosed``."""

    def __init__(self, err: OSError) -> None:
        super().__init__(err)
        self.reason = err.strerror or str(err)


class _PipeGuard:
    """stdout, with a broken pipe raised as ``_StdoutClosed`` and any other error writing it as
    ``_StdoutFailed``."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return int(self._stream.write(text))
        except BrokenPipeError as err:
            raise _StdoutClosed from err
        except OSError as err:
            raise _StdoutFailed(err) from err

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError as err:
            raise _StdoutClosed from err
        except OSError as err:
            raise _StdoutFailed(err) from err

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _stdout_to_devnull() -> None:
    """Point stdout at /dev/null: what is left in its buffer has nowhere to fail at the
    interpreter's last flush."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.__stdout__.fileno() if sys.__stdout__ is not None else 1)


def _quiet_exit_after_broken_pipe() -> NoReturn:
    """Exit as a program killed by SIGPIPE would (status 128 + 13), without a word."""
    _stdout_to_devnull()
    raise SystemExit(141)


def _environment_error(message: str) -> NoReturn:
    """Output that cannot be written: one line on stderr (when stderr itself can be written),
    exit status 2."""
    from spidercli.messages import said

    try:
        print(f"spidercli: error: {said(message)}", file=sys.stderr)
        sys.stderr.flush()
    except OSError:
        pass  # nowhere to say it: the exit status alone tells
    raise SystemExit(2)


def main() -> None:
    """Console entry point: never a traceback, whatever the input."""
    for stream in (sys.stdout, sys.stderr):  # a strict encoding (LC_ALL=C, ascii) never crashes
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    sys.stdout = _PipeGuard(sys.stdout)
    try:
        try:
            app()
        finally:
            sys.stdout.flush()  # inside the guard: a reader gone at the last write counts too
    except SystemExit:
        raise
    except KeyboardInterrupt:
        print("spidercli: interrupted", file=sys.stderr)
        raise SystemExit(130) from None
    except (_StdoutClosed, BrokenPipeError):
        _quiet_exit_after_broken_pipe()
    except _StdoutFailed as err:
        _stdout_to_devnull()
        _environment_error(_N("cannot write to standard output: {reason}", reason=err.reason))
    except OutputError as err:
        _environment_error(err.message)
    except OSError as err:  # any other the commands did not name: the system's words, and the file
        from spidercli.messages import shown_path

        name = err.filename
        where = f"{shown_path(os.fsdecode(name) if isinstance(name, bytes) else str(name))}: "
        if name is None:
            where = ""
        _environment_error(f"{where}{err.strerror or err}")
    except Exception as err:  # a bug, not the input's fault: say so, without a traceback
        print(
            f"spidercli: internal error: {type(err).__name__}: {err}. "
            "Please report it with the log that caused it.",
            file=sys.stderr,
        )
        raise SystemExit(2) from None
