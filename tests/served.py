"""Helpers for the tests of ``spidercli serve``: the real server, started as a process on a
loopback port, and a plain HTTP client (the standard library's ``http.client`` and sockets)."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, NamedTuple

from tests.helpers import ROOT


def open_files(wanted: int = 8192) -> int:
    """Raise this process's limit of open files (and so a server's it starts) towards ``wanted``
    (as far as the hard limit lets): 1,000 connections at once take a descriptor each, in the
    client and in the server. Returns the limit now."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft


class Response(NamedTuple):
    status: int
    headers: dict[str, str]  # names in lower case
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class Server:
    """``spidercli serve --port 0 ARGS...`` running in a process group of its own (``session``:
    and a session of its own); its stderr is kept in ``lines`` as it comes."""

    def __init__(self, *args: str, session: bool = True) -> None:
        self.session = session
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "spidercli", "serve", "--port", "0", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env={**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"},
            start_new_session=session,
        )
        self.lines: list[str] = []
        self.calls = 0  # responses this client has had from it
        self._url = threading.Event()
        self.url = ""
        threading.Thread(target=self._read, daemon=True).start()
        if not self._url.wait(60):
            self.kill()
            raise AssertionError(f"the server did not start: {self.lines}")
        match = re.match(r"http://([^:/]+):(\d+)", self.url)
        assert match is not None, self.url
        self.host, self.port = match[1], int(match[2])
        deadline = time.monotonic() + 60
        while self.call("GET", "/healthz").status != 200:  # its judges are up
            assert time.monotonic() < deadline, self.lines
            time.sleep(0.05)

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            line = raw.decode("utf-8", "replace")
            self.lines.append(line)
            found = re.search(r"http://\S+:\d+", line)
            if found and not self._url.is_set():
                self.url = found[0].rstrip(";")
                self._url.set()
        self._url.set()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def call(
        self,
        method: str,
        path: str,
        body: bytes | str | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 60,
    ) -> Response:
        """One request on a connection of its own."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            data = body.encode() if isinstance(body, str) else body
            connection.request(method, path, data, headers or {})
            reply = connection.getresponse()
            got = Response(
                reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read()
            )
            self.calls += 1
            return got
        finally:
            connection.close()

    def post_json(self, path: str, value: object) -> Response:
        return self.call("POST", path, json.dumps(value), {"Content-Type": "application/json"})

    def judges(self) -> list[int]:
        """The judging processes: the server's children (from /proc)."""
        found = []
        for task in Path(f"/proc/{self.pid}/task").iterdir():
            found += [int(c) for c in (task / "children").read_text().split()]
        return found

    def stop(self, guard: float = 60) -> int:
        """SIGTERM, then the exit status (the server killed if it has not ended in ``guard`` s)."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGTERM)
        try:
            return self.proc.wait(guard)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError("the server did not stop on SIGTERM") from None

    def kill(self) -> None:
        """The server killed, and its judges with it (they end when their pipes close)."""
        with contextlib.suppress(ProcessLookupError):
            if self.session:
                os.killpg(self.pid, signal.SIGKILL)
            else:
                self.proc.kill()
        self.proc.wait()


def cpu_ticks(pid: int) -> int:
    """The CPU time a process has had, in clock ticks (user and system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def undo_log(size: int) -> bytes:
    """A log of about ``size`` bytes of legal deal/undo pairs: cheap to send, costly to judge."""
    head = b"game: SP1-S1C-AAAAAAD\nmoves: ["
    pairs = (size - len(head)) // len(b"deal, undo, ")
    return head + b"deal, undo, " * pairs + b"deal]\n"


_ACTIONS = ("deal", "undo", "tap {s}", "{s}>{t}", "{s}>{t}:{k}", "finish", "flip {s}")


def generated_logs(count: int, seed: int) -> list[str]:
    """``count`` random logs: random deals, rules and actions, most entries legal-looking, a
    few that cannot be read (an unknown action, a column past the board, a bad code)."""
    rng = random.Random(seed)
    logs = []
    for n in range(count):
        game = rng.choice(["SP", "SD"]) + rng.choice("124") + "-S1" + rng.choice(["C", "P"])
        code = game + "-" + "".join(rng.choice("ABCDEFGH") for _ in range(7))
        if game.startswith("SD") and game[2] != "1":
            code = code.replace(game, "SD1-S1C", 1)
        rules = rng.choice([None, "classic", "duel", "pavouk", "kpat"])
        moves = []
        for _ in range(rng.randint(0, 60)):
            action = rng.choice(_ACTIONS).format(
                s=rng.randint(1, 10), t=rng.randint(1, 10), k=rng.randint(1, 4)
            )
            moves.append(action)
        if n % 17 == 5:
            moves.append("leap 3")  # not an action
        if n % 23 == 7:
            code = "SP9-S1C-AAAAAAA"  # not a game code
        text = f"game: {code}\n" + (f"rules: {rules}\n" if rules else "") + "moves:\n"
        text += "".join(f"  - {m}\n" for m in moves) if moves else "  []\n"
        logs.append(text.replace("moves:\n  []", "moves: []"))
    return logs
