"""``spidercli verify PATH...``: many logs verified in worker processes, written in a format."""

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
    fail,
    unusable,
)
from spidercli.cli.terminal import bar_ticker, stderr_console, verify_bar
from spidercli.errors import InputError, OutputError
from spidercli.game.rules import RULESETS
from spidercli.judging.findlogs import find_logs
from spidercli.judging.formats import DEFAULT_FORMAT, FORMATS, formats_help, write_verdicts
from spidercli.logs.files import MAX_LOG_BYTES
from spidercli.text.i18n import _

# --format's choices: the names of ``formats.FORMATS``, as Typer takes a choice (an Enum).
FormatName = Enum("FormatName", [(name, name) for name in FORMATS], type=str)  # type: ignore[misc]
DEFAULT = FormatName(DEFAULT_FORMAT)


def verify(
    paths: PathsArgument,
    fmt: Annotated[
        FormatName, typer.Option("--format", "-f", help=formats_help(), metavar="FORMAT")
    ] = DEFAULT,
    jobs: JobsOption = None,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules", help=f"Ruleset for every log ({', '.join(RULESETS)}).", metavar="NAME"
        ),
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
    no_ignore: Annotated[
        bool,
        typer.Option(
            "--no-ignore",
            help="Read every log in the folders given, even those a .gitignore ignores.",
        ),
    ] = False,
    lang: LangOption = None,
) -> None:
    """Verify many logs at once; one bad file never stops the rest.

    \b
    Examples:
      spidercli verify logs/
      spidercli verify -q 'logs/**/*.yaml'
      spidercli verify logs/ --format github    (in a GitHub Actions step)

    A folder's search skips what the .gitignore files on the way (and
    .git/info/exclude) ignore, as git does; --no-ignore reads every log.

    \b
    Exit status: 0 all valid; 1 any illegal or failing its expect;
    2 any unusable, or no logs found.
    """
    workers = jobs or os.cpu_count() or 1
    try:
        verdicts = api.verify(
            paths,
            rules=rules,
            jobs=workers,
            max_bytes=max_log_bytes,
            html_dir=html_dir,
            with_json=FORMATS[fmt.value].json,
            gitignore=not no_ignore,
        )
    except InputError as err:  # an unknown ruleset, no logs, an --html-dir that is a file
        unusable(err, False)
    tick = None
    bar = None
    if sys.stderr.isatty():
        # A second, cheap walk: memory stays flat.
        try:
            total = sum(1 for _ in find_logs(paths, gitignore=not no_ignore))
        except InputError as err:  # a .gitignore too costly to match
            unusable(err, False)
        bar = verify_bar(total, stderr_console(), stdout_is_terminal=sys.stdout.isatty())
        bar.start()  # no thread: the workers are forked from a process of one thread
        tick = bar_ticker(bar)

    try:
        tally = write_verdicts(
            verdicts, sys.stdout, fmt=fmt.value, tick=tick, html_dir=html_dir, quiet=quiet
        )
    except OutputError as err:  # the index of --html-dir, JUnit's temporary file
        fail(err.message, None, False, err.exit_status)
    except InputError as err:  # a .gitignore too costly to match, met as the folders are searched
        unusable(err, False)
    finally:
        if bar is not None:
            bar.stop()
    sys.stdout.flush()  # a listing that cannot be written is said before the summary
    if not FORMATS[fmt.value].summed:
        print(f"spidercli: {tally.summary()}", file=sys.stderr)
    if html_dir is not None:
        pages = _("pages in {index}").format(index=os.path.join(html_dir, "index.html"))
        print(f"spidercli: {pages}", file=sys.stderr)
    raise typer.Exit(tally.exit_code)
