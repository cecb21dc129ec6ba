"""The command line: parse options, call the library, render, exit. Nothing else lives here.

Exit status: 0 valid, 1 a refused action or an unmet expectation, 2 unusable input. Heavy
modules are imported inside the commands so that ``spidercli --help`` starts fast.
"""

from __future__ import annotations

import json
import os
import sys
from enum import Enum
from typing import Annotated, Any, NoReturn

import typer

from spidercli.files import MAX_LOG_BYTES

app = typer.Typer(
    name="spidercli",
    help="Replay, verify and score games of Spider Solitaire and Spiderette.",
    add_completion=False,
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
    typer.Option("--rules", help="Ruleset (classic, duel, pavouk); overrides the log's."),
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
    typer.Option("--color/--no-color", help="Colour (default: when stdout is a terminal)."),
]


class OnIllegal(str, Enum):
    stop = "stop"
    skip = "skip"


def _fail(message: str, line: int | None, as_json: bool) -> NoReturn:
    """Input that cannot be used: one paragraph on stderr (and the JSON error), exit 2."""
    if as_json:
        print(json.dumps({"error": {"message": message, "line": line}}))
    print(f"spidercli: error: {message}", file=sys.stderr)
    raise typer.Exit(2)


def _color(flag: bool | None) -> bool:
    if flag is not None:
        return flag
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def _parse_show(value: str) -> str | set[object]:
    value = value.strip().lower()
    if value in ("every", "none"):
        return value
    which: set[object] = set()
    for token in value.split(","):
        token = token.strip()
        if token in ("final", "start"):
            which.add("final" if token == "final" else 0)
        elif token.isdigit() and token.isascii() and len(token) < 10:
            which.add(int(token))
        else:
            raise ValueError(
                f"--show: {token!r} is not understood; expected final, every, none, or entry "
                "numbers such as 0,12,final (0 is the start)"
            )
    return which


def _load(log: str, rules: str | None, as_json: bool, max_bytes: int = MAX_LOG_BYTES) -> Any:
    """Read a log and choose its ruleset, or fail (exit 2) naming the file and line."""
    from spidercli.movelog import LogError, load_log
    from spidercli.replay import choose_rules

    try:
        parsed = load_log(log, max_bytes)
        return parsed, choose_rules(parsed, rules)  # RulesError is a LogError
    except LogError as err:
        _fail(str(err), err.line, as_json)


def _dump(obj: Any) -> None:
    json.dump(obj, sys.stdout, indent=2, ensure_ascii=False)  # streamed: a big report never
    sys.stdout.write("\n")  # sits in memory twice


@app.command()
def replay(
    log: LogArgument,
    rules: RulesOverride = None,
    on_illegal: Annotated[
        OnIllegal,
        typer.Option("--on-illegal", help="stop at the first refused action, or skip it."),
    ] = OnIllegal.stop,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the JSON report (the contract's) only.")
    ] = False,
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
    max_log_bytes: MaxLogBytesOption = MAX_LOG_BYTES,
) -> None:
    """Replay and verify a move log, and score it.

    Every action is checked by the rules engine; boards are shown as asked (--show).
    """
    from spidercli.replay import replay as run_replay

    try:
        which = _parse_show(show)
    except ValueError as err:
        _fail(str(err), None, as_json)
    parsed, ruleset = _load(log, rules, as_json, max_log_bytes)

    if as_json:
        report = run_replay(parsed, rules=ruleset, on_illegal=on_illegal.value)
        _dump(report.to_json())
        raise typer.Exit(report.exit_code)

    from spidercli.render import Snapshots, Style, report_head, report_tail

    style = Style(unicode=unicode, color=_color(color))
    sys.stdout.write(report_head(parsed, ruleset))  # the boards follow as they come
    snaps = Snapshots(which, style, words=describe, write=sys.stdout.write)
    report = run_replay(parsed, rules=ruleset, on_illegal=on_illegal.value, observe=snaps)
    snaps.finish(report.game)
    sys.stdout.write(report_tail(report, style))
    raise typer.Exit(report.exit_code)


@app.command()
def duel(
    log_a: Annotated[str, typer.Argument(help="Player A's YAML move log.", show_default=False)],
    log_b: Annotated[str, typer.Argument(help="Player B's YAML move log.", show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON verdict.")] = False,
    max_log_bytes: MaxLogBytesOption = MAX_LOG_BYTES,
) -> None:
    """Judge a StarGames duel between two logs of one deal.

    Both logs are replayed under duel rules; the verdict names the winner.
    """
    from spidercli.duel import duel_text, judge
    from spidercli.movelog import LogError, load_log

    try:
        a = load_log(log_a, max_log_bytes)
        b = load_log(log_b, max_log_bytes)
        verdict = judge(a, b)
    except LogError as err:  # DuelError is one
        _fail(str(err), err.line, as_json)
    if as_json:
        _dump(verdict.to_json())
    else:
        sys.stdout.write(duel_text(verdict))
    raise typer.Exit(verdict.exit_code)


@app.command()
def deal(
    code: Annotated[str, typer.Argument(help="A game code, e.g. SP2-S1C-AAAAABD.")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the contract's state object.")
    ] = False,
    describe: DescribeOption = False,
    unicode: UnicodeOption = False,
    color: ColorOption = None,
) -> None:
    """Show the starting board a game code deals."""
    from spidercli.codes import CodeError, Setup, parse_code
    from spidercli.engine import Game
    from spidercli.rules import CLASSIC

    try:
        parsed = Setup.from_code(parse_code(code))
    except CodeError as err:
        _fail(str(err), None, as_json)
    game = Game.from_setup(parsed, CLASSIC)
    if as_json:
        from spidercli.replay import state_json

        _dump(state_json(game))
        return
    from spidercli.render import Style, deal_text

    style = Style(unicode=unicode, color=_color(color))
    sys.stdout.write(deal_text(parsed, game, style, words=describe))


def _progress_printer() -> Any:
    """A live progress line on stderr when it is a terminal, else None."""
    if not sys.stderr.isatty():
        return None

    def show(p: Any) -> None:
        sys.stderr.write(
            f"\r  {p.states:>10,} states  {p.rate:>8,.0f}/s  runs {p.best_runs}  "
            f"face-down {p.best_down}  deals {p.best_deals}  {p.seconds:6.1f} s "
        )
        sys.stderr.flush()

    return show


def _clear_progress(printer: Any) -> None:
    if printer is not None:
        sys.stderr.write("\r" + " " * 90 + "\r")
        sys.stderr.flush()


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
            help="Ruleset the log is written for (classic, duel, pavouk; default: the log's, "
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
) -> None:
    """Search for a win and print it as a move log.

    The log carries its expect block; `spidercli replay` verifies it.

    Exit status 0 solved, 1 no win found (proven unwinnable, or the budget ran out), 2 bad input.
    """
    from spidercli.codes import CodeError, Setup, parse_code
    from spidercli.movelog import format_log
    from spidercli.rules import check_playable, ruleset_named
    from spidercli.solution import solve_setup

    try:
        setup = Setup.from_code(parse_code(code))
        ruleset = ruleset_named(rules or "classic")
    except CodeError as err:
        if not os.path.isfile(code):
            _fail(f"{err}; nor is it a log file", None, False)
        parsed, ruleset = _load(code, rules, False)
        setup = parsed.deal
    except ValueError as err:
        _fail(str(err), None, False)
    try:
        check_playable(ruleset, setup.game, setup.suits)
    except ValueError as err:
        _fail(f"{err} ({setup.name})", None, False)
    printer = _progress_printer()
    try:
        solved = solve_setup(setup, ruleset, timeout=timeout, max_states=max_states, report=printer)
    finally:
        _clear_progress(printer)
    p = solved.progress
    done = f"{p.states:,} states in {p.seconds:.2f} s"
    if solved.actions is None:
        if solved.exhaustive:
            print(
                f"spidercli: {setup.name} cannot be won: every line of play was searched ({done})",
                file=sys.stderr,
            )
        else:
            print(
                f"spidercli: no win found for {setup.name} within the budget ({done}); the "
                "search gave up, which proves nothing",
                file=sys.stderr,
            )
        raise typer.Exit(1)
    g = solved.game
    text = format_log(
        setup,
        [str(a) for a in solved.actions],
        rules=ruleset.name,
        expect={"result": "won", "moves": g.moves, "score": g.score, "runs": g.runs},
        comment=f"A win found by spidercli solve: {g.moves} moves, score {g.score}.",
    )
    if output is None:
        sys.stdout.write(text)
    else:
        from spidercli.files import write_atomic

        try:
            write_atomic(output, text)
        except OSError as err:
            from spidercli.messages import located

            _fail(located(output, None, f"cannot be written: {err.strerror or err}"), None, False)
    print(
        f"spidercli: solved {setup.name} in {g.moves} moves, score {g.score} ({done})",
        file=sys.stderr,
    )


@app.command()
def hint(
    log: LogArgument,
    rules: RulesOverride = None,
    timeout: Annotated[
        float, typer.Option("--timeout", help="Seconds to search for a win.", min=0.01)
    ] = 5.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the hint as JSON.")] = False,
    max_log_bytes: MaxLogBytesOption = MAX_LOG_BYTES,
) -> None:
    """Name the best next move of a log, with the reason.

    Never a deal, as Pasiáns Pavouk's hint button.
    """
    from spidercli.replay import replay as run_replay
    from spidercli.solution import hint as find_hint

    parsed, ruleset = _load(log, rules, as_json, max_log_bytes)
    report = run_replay(parsed, rules=ruleset)
    if report.illegal:
        bad = report.illegal[0]
        from spidercli.messages import located, shown

        message = located(
            parsed.path,
            bad.entry.line,
            f"entry {bad.entry.index} `{shown(bad.entry.text, 60)}` is refused "
            f"({bad.refusal.rule}): {bad.refusal.message}; no hint for an invalid log",
        )
        if as_json:
            _dump({"error": {"message": message, "line": bad.entry.line}})
        print(f"spidercli: {message}", file=sys.stderr)
        raise typer.Exit(1)
    found = find_hint(report.game, timeout=timeout)
    if as_json:
        _dump(found.to_json())
        return
    if found.action is None:
        print(f"No move to suggest: {'; '.join(found.reasons)}.")
    else:
        print(f"Hint: {found.action}  ({'; '.join(found.reasons)})")


class Format(str, Enum):
    table = "table"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"
    junit = "junit"


@app.command()
def verify(
    paths: PathsArgument,
    fmt: Annotated[
        Format, typer.Option("--format", "-f", help="table, json (one array), jsonl, csv, junit.")
    ] = Format.table,
    jobs: JobsOption = None,
    rules: Annotated[
        str | None,
        typer.Option("--rules", help="Ruleset for every log (classic, duel, pavouk)."),
    ] = None,
    max_log_bytes: MaxLogBytesOption = MAX_LOG_BYTES,
) -> None:
    """Verify many logs at once; one bad file never stops the rest.

    Exit status 0 when all are valid, 1 when any is illegal or fails its expect, 2 when any is
    unusable.
    """
    from spidercli.batch import find_logs, run_batch
    from spidercli.messages import quoted
    from spidercli.rules import RULESETS

    if rules is not None and (not rules.isascii() or rules.strip(" \t").lower() not in RULESETS):
        _fail(
            f"--rules: unknown ruleset {quoted(rules)}; expected one of {', '.join(RULESETS)}",
            None,
            False,
        )
    files = find_logs(paths)
    workers = jobs or os.cpu_count() or 1
    tick = None
    bar = None
    if sys.stderr.isatty():
        total = sum(1 for _ in find_logs(paths))  # a second, cheap walk: memory stays flat
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        bar = Progress(
            "verifying", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), transient=True
        )
        task = bar.add_task("verify", total=total)
        bar.start()

        def tick(_: object) -> None:
            bar.advance(task)

    try:
        tally = run_batch(
            files,
            sys.stdout,
            fmt=fmt.value,
            rules=rules,
            jobs=workers,
            tick=tick,
            max_bytes=max_log_bytes,
        )
    finally:
        if bar is not None:
            bar.stop()
    if fmt is not Format.table:
        print(f"spidercli: {tally.summary()}", file=sys.stderr)
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
) -> None:
    """Standings from many players' logs.

    Each player's best verified log per deal counts.

    Exit status 0 with standings (rejected logs are listed with the reason), 2 for an unusable
    manifest.
    """
    from spidercli.batch import find_logs
    from spidercli.movelog import LogError
    from spidercli.tournament import load_manifest, standings, standings_csv, standings_text

    plan = None
    if manifest is not None:
        try:
            plan = load_manifest(manifest)
        except LogError as err:
            _fail(str(err), err.line, fmt is StandingsFormat.json)
    files = list(find_logs(paths))
    if manifest is not None:  # the manifest may sit in the folder of logs
        from pathlib import Path

        skip = Path(manifest).resolve()
        files = [f for f in files if Path(f).resolve() != skip]
    outcome = standings(files, plan, jobs=jobs or os.cpu_count() or 1)
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
) -> None:
    """Write or refresh each log's expect block in place.

    The block holds result, moves, score and runs.

    Comments and layout stay; each file is replaced atomically. Exit status 0 all recorded, 1 a
    log has a refused action (not recorded), 2 a log is unusable.
    """
    from spidercli.messages import located, shown_path
    from spidercli.movelog import LogError
    from spidercli.record import NotRecorded
    from spidercli.record import record as record_one

    status = 0
    for path in logs:
        try:
            done = record_one(path, max_log_bytes)
        except NotRecorded as err:
            print(f"spidercli: {err}", file=sys.stderr)
            status = max(status, 1)
            continue
        except LogError as err:  # unreadable, unusable, or not rewritable in place
            print(f"spidercli: error: {err}", file=sys.stderr)
            status = 2
            continue
        except OSError as err:
            why = f"cannot be written: {err.strerror or err}"
            print(f"spidercli: error: {located(path, None, why)}", file=sys.stderr)
            status = 2
            continue
        what = ", ".join(f"{k} {v}" for k, v in done.expect.items())
        print(f"{'recorded' if done.changed else 'unchanged'}  {shown_path(path)}  ({what})")
    raise typer.Exit(status)


@app.command()
def schema() -> None:
    """Print a JSON Schema of the move log format (for editors)."""
    from spidercli.schema import log_schema

    _dump(log_schema())


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", is_eager=True)
    ] = False,
) -> None:
    """Replay, verify and score games of Spider Solitaire and Spiderette."""
    if version:
        from spidercli import __version__

        print(f"spidercli {__version__}")
        raise typer.Exit(0)
    if ctx.invoked_subcommand is None:
        print(ctx.get_help())
        raise typer.Exit(0)


def main() -> None:
    """Console entry point: never a traceback, whatever the input."""
    for stream in (sys.stdout, sys.stderr):  # a strict encoding (LC_ALL=C, ascii) never crashes
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        app()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        print("spidercli: interrupted", file=sys.stderr)
        raise SystemExit(130) from None
    except BrokenPipeError:
        # The reader went away (`spidercli ... | head`): exit quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise SystemExit(1) from None
    except Exception as err:  # a bug, not the input's fault: say so, without a traceback
        print(
            f"spidercli: internal error: {type(err).__name__}: {err}. "
            "Please report it with the log that caused it.",
            file=sys.stderr,
        )
        raise SystemExit(2) from None
