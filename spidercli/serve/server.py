"""``spidercli serve``: the HTTP API (``serve_app.App``) on uvicorn, with the limits a server
facing strangers needs, and ``--workers`` processes sharing one port.

uvicorn reads the HTTP (httptools' parser), bounds the connections and tasks
(``--max-connections``: past it, 503, which ``GuardedProtocol`` words in JSON like every other
answer), closes idle keep-alive connections, and on SIGTERM stops taking connections, finishes
the requests in flight and then ends the judges (the app's lifespan). What uvicorn lacks, a
deadline and a size for a request's head (a client that sends its headers a byte a second, or
without end, would hold its connection for ever), is added by ``GuardedProtocol``, its protocol
with two timers.

The socket is bound here, before any process is started: ``--port 0`` picks a free port, and
``--workers N`` forks N server processes that accept on it (each with its own judges), supervised
here: one that dies is replaced, and SIGTERM or Ctrl-C is passed on to each, which stops as
above. Nothing is shared between the processes but the socket and the counts of ``/metrics``
(``serve_metrics``): any number of them, on any number of machines, can stand behind a load
balancer.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from uvicorn import Config, Server
from uvicorn.protocols.http.flow_control import service_unavailable
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from spidercli.serve.app import App, Settings
from spidercli.serve.metrics import Metrics
from spidercli.text.messages import error_json


@dataclass(frozen=True)
class Options:
    """How to serve: where, how many processes, the HTTP limits, and the app's ``settings``."""

    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    header_seconds: float = 10.0  # a request's line and headers must have come within this
    header_bytes: int = 64 << 10  # and be no larger
    keep_alive: float = 5.0  # an idle connection is closed after this
    max_connections: int = 1024  # connections and requests at once in a process; past it, 503
    access_log: bool = False
    settings: Settings = field(default_factory=Settings)


def _error_body(message: str) -> bytes:
    """The JSON error body every answer the server writes itself carries (as the app's do)."""
    return json.dumps(error_json(message, None)).encode() + b"\n"


def _raw(status: int, reason: str, message: str) -> bytes:
    body = _error_body(message)
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


_BUSY = _error_body(
    "the server is busy: it holds as many connections and requests as it takes (--max-connections)"
)


async def _busy(scope: Any, receive: Any, send: Any) -> None:
    """The answer past ``--max-connections``: uvicorn's 503, said in JSON like every other."""
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(_BUSY)).encode()),
        (b"retry-after", b"1"),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": _BUSY})


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline and a size for each request's head (its
    line and headers): a connection opened, or a request begun, must have sent its whole head
    within ``header_seconds`` and ``header_bytes``, or it is answered 408 (431) and closed. The
    body's own deadline is the app's."""

    header_seconds = 10.0
    header_bytes = 64 << 10
    stopping = False  # set when the server is told to stop (``_Server.handle_exit``)

    _head_timer: Any = None
    _head_size = 0

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        if GuardedProtocol.stopping:
            # Accepted as the server stopped, after uvicorn told each connection to close: it
            # would never be told, and a client keeping it busy would hold the server open.
            # Closed before a byte is read, so no request on it was taken.
            transport.close()
            return
        self._head_begun()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_begun()

    def on_headers_complete(self) -> None:
        self._head_done()
        super().on_headers_complete()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._head_timer is not None:  # still in a head once this data is parsed
            self._head_size += len(data)
            if self._head_size > self.header_bytes:
                limit = self.header_bytes
                self._refuse(
                    431,
                    "Request Header Fields Too Large",
                    f"the request's line and headers are larger than {limit:,} bytes",
                )

    def connection_lost(self, exc: Exception | None) -> None:
        self._head_done()
        super().connection_lost(exc)

    def _start_asgi_task(self, cycle: Any, app: Any) -> None:
        # Past --max-connections uvicorn answers with its plain-text 503 app; ours says it in
        # JSON, with retry-after (uvicorn's count and its choice of the moment are kept).
        super()._start_asgi_task(cycle, _busy if app is service_unavailable else app)

    def _head_begun(self) -> None:
        self._head_done()
        self._head_size = 0
        self._head_timer = self.loop.call_later(self.header_seconds, self._head_late)

    def _head_done(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        seconds = self.header_seconds
        self._refuse(
            408, "Request Timeout", f"the request's headers did not come within {seconds:g} s"
        )

    def _refuse(self, status: int, reason: str, message: str) -> None:
        self._head_done()
        if self.transport.is_closing():
            return
        if self.cycle is None or self.cycle.response_complete:  # no answer half written
            self.transport.write(_raw(status, reason, message))
        self.transport.close()


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host`` and ``port`` (0: a free one); ``OSError`` when it cannot
    be had (the port taken, the address not this machine's)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
        sock.listen(2048)
        sock.set_inheritable(True)
    except OSError:
        sock.close()
        raise
    return sock


def address(sock: socket.socket) -> str:
    """The URL a bound socket is reached at: ``http://127.0.0.1:8000``."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _config(options: Options, app: App) -> Config:
    protocol = type(
        "Guarded",
        (GuardedProtocol,),
        {"header_seconds": options.header_seconds, "header_bytes": options.header_bytes},
    )
    s = options.settings
    longest = max(s.cpu_seconds, s.hint_seconds, s.solve_seconds) * 2 + 10
    return Config(
        app,
        http=protocol,
        ws="none",
        lifespan="on",
        log_level="info" if options.access_log else "warning",
        access_log=options.access_log,
        limit_concurrency=options.max_connections,
        timeout_keep_alive=int(max(1, options.keep_alive)),
        timeout_graceful_shutdown=int(longest + s.body_seconds),
        server_header=False,
        loop="auto",  # uvloop where it is installed (the serve extra installs it)
    )


class _Server(Server):
    """uvicorn's server, which tells the protocol when it is told to stop."""

    def handle_exit(self, sig: int, frame: Any) -> None:
        GuardedProtocol.stopping = True
        super().handle_exit(sig, frame)


class Stopped(Exception):
    """The server could not start (its lifespan failed: no judging process could be made)."""


def _run_one(config: Config, sock: socket.socket) -> None:
    server = _Server(config)
    server.run(sockets=[sock])
    if not server.started:
        raise Stopped


def serve(
    options: Options,
    sock: socket.socket,
    ready: Callable[[], None] | None = None,
    lost: Callable[[int, int], None] | None = None,
) -> int:
    """Serve on ``sock`` until SIGTERM or Ctrl-C, then finish the requests in flight and return
    how many requests were answered (``Stopped`` when the server could not start). ``lost``
    is told of a server process that died (its pid and ``waitpid``'s status): another takes its
    place."""
    metrics = Metrics(options.workers)
    app = App(options.settings, metrics)
    config = _config(options, app)
    if ready is not None:
        ready()
    sys.stdout.flush()
    sys.stderr.flush()
    caught: list[int] = []

    def note(signum: int, frame: object) -> None:
        caught.append(signum)

    if options.workers <= 1:
        # uvicorn raises the signal it stopped for again once stopped: here it is only noted.
        previous = {s: signal.signal(s, note) for s in (signal.SIGTERM, signal.SIGINT)}
        try:
            _run_one(config, sock)
        finally:
            for s, handler in previous.items():
                signal.signal(s, handler)
    else:
        _supervise(options.workers, config, sock, metrics, lost)
    return metrics.answered()


def _supervise(
    workers: int,
    config: Config,
    sock: socket.socket,
    metrics: Metrics,
    lost: Callable[[int, int], None] | None,
) -> None:
    """``workers`` forked server processes on ``sock``; one that dies is replaced; SIGTERM or
    SIGINT is passed on to each, and this returns once all have stopped."""
    children: dict[int, int] = {}  # pid: slot
    stopping = False
    failed = 0

    stops = {signal.SIGTERM, signal.SIGINT}

    def start(slot: int) -> None:
        # Blocked across the fork: a signal meant for this process never runs ``stop`` in a
        # worker (whose copy of ``children`` names its brothers).
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, stops)
        pid = os.fork()
        if pid == 0:
            status = 1
            try:
                for s in (signal.SIGTERM, signal.SIGINT, signal.SIGCHLD):
                    signal.signal(s, signal.SIG_DFL)
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
                metrics.use_slot(slot)
                _run_one(config, sock)
                status = 0
            except BaseException:
                status = 3
            finally:
                os._exit(status)
        children[pid] = slot  # known before a signal can come, so that ``stop`` reaches it
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True
        with contextlib.suppress(OSError):
            sock.close()  # no new connection comes to the port once the workers close theirs
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    previous = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        for slot in range(workers):
            start(slot)
        while children:
            try:
                pid, status = os.wait()
            except ChildProcessError:
                break
            if pid not in children or stopping:
                children.pop(pid, None)
                continue
            slot = children.pop(pid)
            if lost is not None:
                lost(pid, status)
            if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 3:
                failed += 1  # could not start: stop them all rather than loop
                if failed >= workers:
                    stop(signal.SIGTERM, None)
                    continue
            time.sleep(0.2)  # a worker that dies at once is not restarted in a tight loop
            if not stopping:
                start(slot)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    if failed >= workers:
        raise Stopped
