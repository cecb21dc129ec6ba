"""``spidercli record LOG...``: each log's expect block written or refreshed in place."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from spidercli import api
from spidercli.cli.app import LangOption, MaxLogBytesOption
from spidercli.errors import InputError
from spidercli.logs.files import MAX_LOG_BYTES
from spidercli.play.replay import IllegalLogError
from spidercli.text.i18n import _
from spidercli.text.messages import N_, located, message_of, said, shown_path


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
