"""The command line's frame: the Typer app, the table of commands, the options several commands
share, saying a failure, and the exits. Nothing else lives here.

Each command is a function in its own module, ``spidercli/cli/commands/NAME.py``, which imports what
it uses at its top. ``COMMANDS`` names them (pip's ``commands_dict``: the name, the module, the
function, the line the root's help shows), and only the module of the command that runs is
imported: ``spidercli --help`` lists every command from the table without importing any.

Exit status: 0 valid, 1 a refused action or an unmet expectation, 2 unusable input. This module is
what every command's start-up pays for, so it imports at its top only what ``spidercli --help``
loads anyway; the front door and the terminal's module are imported by the helpers that use them.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import sys
from collections.abc import Iterator, MutableMapping
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple, NoReturn

import typer
from typer.core import TyperCommand, TyperGroup
from typer.main import get_command_from_info, get_group_from_info
from typer.models import CommandInfo, TyperInfo

from spidercli import __version__
from spidercli.cli import quickparams
from spidercli.cli.plainhelp import PlainCommand, fix_usage_error
from spidercli.errors import InputError, OutputError, unwritable
from spidercli.game.rules import RULESETS
from spidercli.logs.files import MAX_LOG_BYTES, write_atomic
from spidercli.text.i18n import LANGUAGES, LanguageError, choose
from spidercli.text.messages import LIMIT, N_, error_json, said, shown, shown_path, utf8_safe

quickparams.install()  # plain values coerced without importing pydantic (start-up time)

if TYPE_CHECKING:  # imported for the types only: the commands import what they use
    from spidercli.play.logtypes import MoveLog


class Command(NamedTuple):
    """A row of ``COMMANDS``: the module that holds a command, the name there of its function (or,
    for a group of commands, its ``typer.Typer``), and its summary, the first line of its help,
    which the root's help lists (tests/test_commands.py keeps the two equal)."""

    module: str
    function: str
    summary: str


COMMANDS: dict[str, Command] = {  # in the order the root's help lists them
    "replay": Command(
        "spidercli.cli.commands.replay", "replay", "Replay and verify a move log, and score it."
    ),
    "duel": Command(
        "spidercli.cli.commands.duel",
        "duel",
        "Judge a StarGames duel between two logs of one deal.",
    ),
    "deal": Command(
        "spidercli.cli.commands.deal", "deal", "Show the starting board a game code deals."
    ),
    "solve": Command(
        "spidercli.cli.commands.solve", "solve", "Search for a win and print it as a move log."
    ),
    "hint": Command(
        "spidercli.cli.commands.hint", "hint", "Name the best next move of a log, with the reason."
    ),
    "verify": Command(
        "spidercli.cli.commands.verify",
        "verify",
        "Verify many logs at once; one bad file never stops the rest.",
    ),
    "tournament": Command(
        "spidercli.cli.commands.tournament", "tournament", "Standings from many players' logs."
    ),
    "sweep": Command(
        "spidercli.cli.commands.sweep",
        "sweep",
        "Solve many deals: one JSON record a deal, as each finishes.",
    ),
    "deals": Command(
        "spidercli.cli.commands.deals",
        "deals",
        "Show the table of settled deals, or pick winnable ones.",
    ),
    "serve": Command(
        "spidercli.cli.commands.serve",
        "serve",
        "Serve the HTTP API as JSON: verify, deals, hint, solve.",
    ),
    "record": Command(
        "spidercli.cli.commands.record",
        "record",
        "Write or refresh each log's expect block in place.",
    ),
    "schema": Command(
        "spidercli.cli.commands.schema",
        "schema",
        "Print a JSON Schema of the move log format (for editors).",
    ),
    "import": Command(
        "spidercli.cli.commands.import_kpat",
        "import_app",
        "Turn another program's saved game into a move log.",
    ),
}


def command_of(name: str) -> Any:
    """The function (or ``typer.Typer`` group) of the command ``name``: its module is imported
    now."""
    row = COMMANDS[name]
    return getattr(importlib.import_module(row.module), row.function)


def _built(name: str) -> Any:
    """The command ``name`` as Typer's group runs it, built as ``app.command()`` (or
    ``app.add_typer(..., name=name)`` for a group) would have built it."""
    made = command_of(name)
    if isinstance(made, typer.Typer):
        return get_group_from_info(
            TyperInfo(made, name=name),
            pretty_exceptions_short=app.pretty_exceptions_short,
            suggest_commands=app.suggest_commands,
            rich_markup_mode=app.rich_markup_mode,
        )
    return get_command_from_info(
        CommandInfo(name=name, cls=PlainCommand, callback=made),
        pretty_exceptions_short=app.pretty_exceptions_short,
        rich_markup_mode=app.rich_markup_mode,
    )


class _Registered(MutableMapping[str, Any]):
    """The root's commands as Typer's group reads them (``commands.get(name)``; the names, for
    "Did you mean"): the names are ``COMMANDS``', and a command is built, its module imported,
    when it is first looked up."""

    def __init__(self) -> None:
        self._built: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self._built:
            if name not in COMMANDS:
                raise KeyError(name)
            self._built[name] = _built(name)
        return self._built[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        del self._built[name]

    def __iter__(self) -> Iterator[str]:
        return iter({**dict.fromkeys(COMMANDS), **dict.fromkeys(self._built)})

    def __len__(self) -> int:
        return len({**dict.fromkeys(COMMANDS), **dict.fromkeys(self._built)})


class _Commands(TyperGroup):
    """Typer's group of commands, taken from ``COMMANDS`` (each imported when it runs; the list in
    the help from the table's summaries), with the text of its own errors (an unknown option or
    command, a value it cannot use, an extra argument) shown as every message shows a user's
    text: each character that is not printable escaped (terminal escapes, bidirectional
    controls, line breaks), and cut when long. Typer puts the value in its message; the words
    around it are Typer's own and short, so a value keeps at least ``LIMIT`` characters."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.commands = _Registered()

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.commands)  # the names alone: Typer's would build every command

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The commands and their summaries, as Typer lists them, from the table."""
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [
            (name, TyperCommand(name=name, help=row.summary).get_short_help_str(limit))
            for name, row in COMMANDS.items()
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    words: tuple[str, ...] = ()  # this run's words (an error says its JSON when they ask)

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        self.words = tuple(kwargs["args"] if "args" in kwargs else args[1] if len(args) > 1 else ())
        with _escaped_errors(self.words):
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: Any) -> Any:
        with _escaped_errors(self.words):
            return super().invoke(ctx)


@contextlib.contextmanager
def _escaped_errors(words: tuple[str, ...]) -> Iterator[None]:
    """Typer's usage errors with their values escaped; and, when the command takes ``--json``
    and was given it, its JSON error object on stdout too (the contract: with exit status 2,
    ``--json`` prints ``{"error": ...}``), for ``--pick 0`` as for a log it cannot use."""
    try:
        yield
    except typer.TyperException as err:  # Typer's usage errors; shown by Typer, after this
        if type(err).__name__ != "NoArgsIsHelpError":  # that one's message is our help text
            fix_usage_error(err)  # "did you mean", as every other name
            err.message = shown(err.message, 2 * LIMIT)
            ctx = getattr(err, "ctx", None)
            if ctx is not None and _asks_json(ctx.command, words):
                print(json.dumps(error_json(utf8_safe(err.format_message()), None)))
        raise


def _asks_json(command: Any, words: tuple[str, ...]) -> bool:
    """Whether ``command`` takes ``--json`` and ``words`` give it as the flag: not as another
    option's value (``--title --json``), nor after ``--``."""
    options = [p for p in command.params if getattr(p, "param_type_name", "") == "option"]
    if not any("--json" in p.opts for p in options):
        return False
    valued = {name for p in options if not p.is_flag and not p.count for name in p.opts}
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word == "--":
            return False
        elif word == "--json":
            return True
        else:
            skip = word in valued
    return False


app = typer.Typer(
    name="spidercli",
    cls=_Commands,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


# ------------------------------------------------------------ options several commands take

UnicodeOption = Annotated[bool, typer.Option("--unicode", help="Suit symbols instead of S H D C.")]
DescribeOption = Annotated[
    bool,
    typer.Option(
        "--describe",
        help="Describe each position in words (for screen readers) instead of drawing it.",
    ),
]
LogArgument = Annotated[
    str,
    typer.Argument(
        help="The YAML move log (- for standard input).", show_default=False, metavar="LOG"
    ),
]
RulesOverride = Annotated[
    str | None,
    typer.Option(
        "--rules", help=f"Ruleset ({', '.join(RULESETS)}); overrides the log's.", metavar="NAME"
    ),
]
JobsOption = Annotated[
    int | None,
    typer.Option(
        "--jobs",
        "-j",
        help="Worker processes (default: the machine's cores).",
        min=1,
        metavar="N",
    ),
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
        metavar="BYTES",
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


# --------------------------------------------------------- what several commands do alike


def fail(message: str, line: int | None, as_json: bool, status: int = 2) -> NoReturn:
    """Input that cannot be used: one paragraph on stderr (and the JSON error), exit ``status``
    (2)."""
    if as_json:
        print(json.dumps(error_json(utf8_safe(message), line)))

    print(f"spidercli: error: {said(message)}", file=sys.stderr)
    raise typer.Exit(status)


def unusable(err: InputError, as_json: bool) -> NoReturn:
    """``fail`` for an ``InputError``: its message, line and exit status."""
    fail(str(err), err.line, as_json, err.exit_status)


def write_output(path: str, text: str, as_json: bool = False) -> None:
    """Write an output file the user named, or fail (exit 2) saying why."""

    try:
        write_atomic(path, text)
    except OSError as err:
        fail(unwritable(path, err).message, None, as_json)


def stdout_color(flag: bool | None) -> bool:
    """--color/--no-color, or else whether stdout is a terminal (and NO_COLOR, FORCE_COLOR)."""

    from spidercli.cli.terminal import color_wanted  # the terminal's module: not for --help

    return color_wanted(flag, sys.stdout)


def stdout_unicode(flag: bool) -> bool:
    """--unicode, where stdout's encoding can write the suit symbols; else the ASCII cards and a
    note on stderr."""

    from spidercli.cli.terminal import unicode_wanted  # the terminal's module: not for --help

    return unicode_wanted(flag, sys.stdout, sys.stderr)


def no_words_in_json(as_json: bool, describe: bool) -> None:
    """--describe with --json is refused (exit 2, the JSON error too): the JSON report's keys are
    the contract's, so the paragraph of words has no place in it, and it is not dropped
    silently."""
    if as_json and describe:
        fail(
            N_(
                "--describe and --json: the JSON report has no place for the paragraph of words; "
                "give one of them"
            ),
            None,
            True,
        )


def read_log_or_fail(log: str, as_json: bool, max_bytes: int = MAX_LOG_BYTES) -> MoveLog:
    """Read a log (``api.read_log``), or fail (exit 2) naming the file and line."""
    from spidercli import api  # the front door, when a command first calls it: --help never does

    try:
        return api.read_log(log, max_bytes=max_bytes)
    except InputError as err:
        unusable(err, as_json)


def dump(obj: Any) -> None:
    """A JSON value on stdout, indented, as every command's --json prints it."""

    # Streamed, so a big report never sits in memory twice.
    for chunk in json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(obj):
        sys.stdout.write(utf8_safe(chunk))
    sys.stdout.write("\n")


# ----------------------------------------------------------------------------- the root


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
        from spidercli.solver.proof import solver_pass  # --version alone: the solver's modules

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
        _environment_error(N_("cannot write to standard output: {reason}", reason=err.reason))
    except OutputError as err:
        _environment_error(err.message)
    except OSError as err:  # any other the commands did not name: the system's words, and the file
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
