"""``spidercli serve``: the HTTP API (verify, deal, deals, hint, solve), for any language."""

from __future__ import annotations

import os
import signal
import sys
from typing import Annotated

import typer

from spidercli.cli.app import LangOption, MaxLogBytesOption, fail
from spidercli.logs.files import MAX_LOG_BYTES
from spidercli.text.i18n import _, ngettext
from spidercli.text.messages import N_, quoted, shown


def serve(
    host: Annotated[
        str,
        typer.Option(
            "--host", help="The address to listen on (0.0.0.0: every one).", metavar="HOST"
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int,
        typer.Option(
            "--port",
            help="The port (0: a free one, named at start).",
            min=0,
            max=65535,
            metavar="PORT",
        ),
    ] = 8000,
    workers: Annotated[
        int,
        typer.Option("--workers", help="Server processes sharing the port.", min=1, metavar="N"),
    ] = 1,
    judges: Annotated[
        int | None,
        typer.Option(
            "--judges",
            help="Judging processes of each server process (default: the machine's cores "
            "shared among the workers).",
            min=1,
            metavar="N",
        ),
    ] = None,
    max_log_bytes: MaxLogBytesOption = MAX_LOG_BYTES,
    cpu_seconds: Annotated[
        float,
        typer.Option(
            "--cpu-seconds", help="CPU to judge one log; past it, 422.", min=0.01, metavar="SECONDS"
        ),
    ] = 2.0,
    hint_seconds: Annotated[
        float,
        typer.Option(
            "--hint-seconds", help="The longest search of a hint.", min=0.01, metavar="SECONDS"
        ),
    ] = 5.0,
    solve_seconds: Annotated[
        float,
        typer.Option(
            "--solve-seconds", help="The longest search of a solve.", min=0.01, metavar="SECONDS"
        ),
    ] = 10.0,
    max_states_cap: Annotated[
        int,
        typer.Option(
            "--max-states",
            help="The most positions a hint's or a solve's search takes.",
            min=1,
            metavar="N",
        ),
    ] = 1_000_000,
    header_timeout: Annotated[
        float,
        typer.Option(
            "--header-timeout",
            help="A request's headers must come within this.",
            min=0.01,
            metavar="SECONDS",
        ),
    ] = 10.0,
    body_timeout: Annotated[
        float,
        typer.Option(
            "--body-timeout",
            help="A request's body must come within this.",
            min=0.01,
            metavar="SECONDS",
        ),
    ] = 30.0,
    max_connections: Annotated[
        int,
        typer.Option(
            "--max-connections",
            help="Connections and requests at once in a process; past it, 503.",
            min=1,
            metavar="N",
        ),
    ] = 1024,
    cors: Annotated[
        str | None,
        typer.Option(
            "--cors",
            help="Let pages of this origin call the API from a browser (default: none).",
            metavar="ORIGIN",
        ),
    ] = None,
    access_log: Annotated[
        bool,
        typer.Option("--access-log", help="Log each request (uvicorn's log, on standard output)."),
    ] = False,
    lang: LangOption = None,
) -> None:
    """Serve the HTTP API as JSON: verify, deals, hint, solve.

    POST a log to /v1/verify and get verify --format jsonl's record; the
    endpoints and limits are described at /v1/openapi.json.

    \b
    Examples:
      spidercli serve --port 8080
      curl --data-binary @game.yaml http://127.0.0.1:8080/v1/verify

    \b
    Exit status: 0 stopped (SIGTERM, Ctrl-C) after answering the requests
    in flight; 2 it could not start.
    """
    if not hasattr(os, "fork"):
        fail(N_("serve needs a system with fork (Linux, macOS, BSD)"), None, False)
    try:  # uvicorn: the serve extra, which may not be installed (said below)
        from spidercli.serve.app import Settings
        from spidercli.serve.server import Options, Stopped, address, bind, serve
    except ImportError as err:
        fail(
            N_(
                "serve needs the web server that the serve extra installs ({missing}): "
                "pip install 'spidercli[serve]'",
                missing=shown(err.name or str(err)),
            ),
            None,
            False,
        )
    if cors is not None and (cors == "" or not all(" " < c <= "~" for c in cors)):
        fail(
            N_("--cors: {origin} is not an origin (https://example.org) or *", origin=quoted(cors)),
            None,
            False,
        )
    cores = os.cpu_count() or 1
    settings = Settings(
        max_bytes=max_log_bytes,
        body_seconds=body_timeout,
        cpu_seconds=cpu_seconds,
        hint_seconds=hint_seconds,
        solve_seconds=solve_seconds,
        max_states_cap=max_states_cap,
        judges=judges or max(1, cores // workers),
        cors=cors,
    )
    options = Options(
        host=host,
        port=port,
        workers=workers,
        header_seconds=header_timeout,
        max_connections=max_connections,
        access_log=access_log,
        settings=settings,
    )
    where = f"{shown(host)}:{port}"
    try:
        sock = bind(host, port)
    except (OSError, OverflowError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        fail(N_("cannot listen on {address}: {reason}", address=where, reason=reason), None, False)

    def ready() -> None:
        print(
            "spidercli: "
            + _(
                "serving on {url}; the API is described at {url}/v1/openapi.json; Ctrl-C stops"
            ).format(url=address(sock)),
            file=sys.stderr,
        )

    def lost(pid: int, status: int) -> None:
        if os.WIFSIGNALED(status):
            cause = signal.Signals(os.WTERMSIG(status)).name
        else:
            cause = f"exit {os.waitstatus_to_exitcode(status)}"
        said = _("the server process {pid} ended ({cause}); another takes its place")
        print(f"spidercli: {said.format(pid=pid, cause=cause)}", file=sys.stderr)

    try:
        answered = serve(options, sock, ready, lost)
    except Stopped:
        fail(N_("the server could not start its judging processes"), None, False)
    finally:
        sock.close()
    said = ngettext(
        "stopped after answering {count:,} request",
        "stopped after answering {count:,} requests",
        answered,
    ).format(count=answered)
    print(f"spidercli: {said}", file=sys.stderr)
