"""Verifying many logs: finding them, replaying them in worker processes, writing the results as
they come (in the order the files were given) in one of five formats.

Each worker reads, parses and replays one log and sends back a small ``Verdict`` with the JSON
text already made when the format needs it, so the parent only writes. Nothing is kept per log
after it is written: memory does not grow with the number of logs (beyond the list of paths).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import glob
import heapq
import itertools
import json
import os
import pickle
import re
import selectors
import signal
import struct
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import IO, Any, Generic, TypeVar

from spidercli.errors import InputError
from spidercli.files import MAX_LOG_BYTES, STDIN, Unreadable, read_stdin
from spidercli.i18n import _, ngettext
from spidercli.messages import (
    N_,
    Joined,
    error_json,
    located,
    prefixed,
    quoted,
    said,
    shown,
    shown_path,
)
from spidercli.refusals import sentence
from spidercli.replay import (
    EXPECT_FAILED,
    ILLEGAL,
    INVALID_INPUT,
    STATUSES,
    VALID,
    choose_rules,
    replay,
)

CSV_FIELDS = (
    "file",
    "status",
    "game",
    "deal_id",
    "rules",
    "player",
    "result",
    "moves",
    "score",
    "runs",
    "deals_left",
    "actions",
    "rule",
    "line",
    "message",
)


@dataclass(frozen=True, slots=True)
class Replayed:
    """What the replay of a usable log established, as the formats print it: the ``game`` code
    (None for a written-out deal), ``deal_id``, ``rules``, ``player``, ``result``, ``moves``,
    ``score``, ``runs``, ``deals_left`` and ``actions`` (entries applied)."""

    game: str | None  # the game code; None for a log that writes its deal out
    deal_id: str
    rules: str
    player: str | None
    result: str
    moves: int
    score: int
    runs: int
    deals_left: int
    actions: int  # entries applied


@dataclass(frozen=True, slots=True)
class Verdict:
    """One log's verification, as a worker sends it back: the ``file`` as found, its
    ``status`` (``valid``, ``illegal``, ``expect-failed`` or ``invalid-input``), what its replay
    established (``replayed``, None for unusable input), the first refused action's ``rule``,
    the ``line`` the ``message`` points at, the ``message`` saying why the log is not valid,
    the HTML ``page`` written for it (with ``html_dir``) and the ``seconds`` it took.
    ``to_json()`` is its line of ``verify --format jsonl``."""

    file: str
    status: str
    replayed: Replayed | None  # None for a log that could not be used (invalid input)
    rule: str | None = None  # the first refused action's rule
    line: int | None = None  # the line the message points at
    message: str | None = None  # why the log is not valid
    json: str | None = None  # the JSON record (report + file + status), when the format needs it
    page: str | None = None  # the HTML page's file name, with --html-dir for a non-valid log
    seconds: float = 0.0  # the time the worker took for this log (JUnit's ``time``)

    def to_json(self) -> dict[str, Any]:
        """The verdict's record: ``json.loads`` of its line of ``verify --format jsonl`` (the
        report with ``file`` and ``status`` first, or ``file``, ``status`` and ``error`` for
        unusable input). ``ValueError`` when it was made without (``with_json=False``)."""
        if self.json is None:
            raise ValueError("this verdict was made without its JSON record (with_json=False)")
        record: dict[str, Any] = json.loads(utf8_safe(self.json))
        return record

    def csv_values(self) -> tuple[object, ...]:
        """The ``CSV_FIELDS`` values, in order (None where one does not apply)."""
        r = self.replayed
        figures: tuple[object, ...] = (
            (None,) * 10
            if r is None
            else (
                r.game,
                r.deal_id,
                r.rules,
                r.player,
                r.result,
                r.moves,
                r.score,
                r.runs,
                r.deals_left,
                r.actions,
            )
        )
        return (self.file, self.status, *figures, self.rule, self.line, self.message)


def find_logs(paths: Iterable[str]) -> Iterator[str]:
    """Files as given; directories searched recursively for ``*.yaml``/``*.yml`` (each
    directory's entries in name order, subdirectories in their place); glob patterns expanded
    (sorted). A path that matches nothing is passed on as it is, so that its verdict says why;
    ``-`` (standard input) too.

    Each file comes once, however many paths lead to it (links, a folder given twice): the
    resolved paths are remembered. Symbolic links to folders are followed, but never into a
    folder already being searched or searched before (a link loop ends there). Names starting
    with a dot (``.git``, ``.venv``, ``.draft.yaml``) are skipped while searching a folder, as
    globs skip them; given by name, they are searched. Lazy: a directory of 100,000 logs is never
    held in memory as a whole (only the set of resolved paths seen)."""
    seen: set[str] = set()
    folders: set[tuple[int, int]] = set()
    for arg in paths:
        if arg == STDIN:
            yield arg
        elif os.path.isdir(arg):
            yield from _walk(arg, seen, folders)
        elif os.path.lexists(arg) or not glob.has_magic(arg):
            yield from _once(arg, seen)
        else:
            matches = sorted(glob.iglob(arg, recursive=True))
            if not matches:
                yield arg
            for match in matches:
                if os.path.isdir(match):
                    yield from _walk(match, seen, folders)
                else:
                    yield from _once(match, seen)


def _once(path: str, seen: set[str]) -> Iterator[str]:
    """``path``, unless a path to the same file was given before."""
    try:
        key = os.path.realpath(path)
    except (OSError, ValueError):  # pragma: no cover - realpath is lenient
        key = path
    if key not in seen:
        seen.add(key)
        yield path


def _walk(directory: str, seen: set[str], folders: set[tuple[int, int]]) -> Iterator[str]:
    try:
        info = os.stat(directory)
        names = []
        # The entries that are not plain files, told apart while listing (no stat for a plain
        # file): a folder (or a link to one) True, a link to anything else False.
        kinds: dict[str, bool] = {}
        with os.scandir(directory) as listing:
            for entry in listing:
                name = entry.name
                names.append(name)
                if _is_dir(entry):
                    kinds[name] = True
                elif _is_link(entry):
                    kinds[name] = False
        names.sort()
    except OSError:
        yield from _once(directory, seen)  # its verdict will say why it cannot be read
        return
    folder = (info.st_dev, info.st_ino)
    if folder in folders:  # a link back to a folder searched before (or a loop): once is enough
        return
    folders.add(folder)
    resolved = None  # the folder's real path, worked out for its first log
    for name in names:
        if name.startswith("."):
            continue
        full = os.path.join(directory, name)
        kind = kinds.get(name)
        if kind:
            yield from _walk(full, seen, folders)
        elif name.endswith((".yaml", ".yml")):
            if kind is not None:  # a link: its own real path
                yield from _once(full, seen)
                continue
            # A plain file: its real path is the folder's and its name (no realpath per file).
            if resolved is None:
                resolved = os.path.realpath(directory)
            key = os.path.join(resolved, name)
            if key not in seen:
                seen.add(key)
                yield full


def _is_dir(entry: os.DirEntry[str]) -> bool:
    """``os.path.isdir`` of the entry's path (links followed; False for any error)."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def _is_link(entry: os.DirEntry[str]) -> bool:
    """Whether the entry is a symbolic link (True when that cannot be told)."""
    try:
        return entry.is_symlink()
    except OSError:
        return True


def verify_one(
    path: str,
    rules: str | None = None,
    want_json: bool = True,
    max_bytes: int | None = None,
    content: bytes | str | None = None,
    html_dir: str | None = None,
) -> Verdict:
    """Read, parse and replay one log (``content``: its bytes, already read, or why they could
    not be); never raises for bad input. With ``html_dir``, a log that is not valid gets an
    HTML page there."""
    from spidercli.movelog import load_log, parse_log
    from spidercli.yamlreader import InputError, decode, display_name

    limit = MAX_LOG_BYTES if max_bytes is None else max_bytes
    try:
        if content is None:
            log = load_log(path, limit)
        elif isinstance(content, str):
            raise InputError(content, path=display_name(path))
        elif len(content) > limit:  # read by the parent (standard input): limit + 1 bytes at most
            raise InputError(
                N_(
                    "is larger than the limit of {limit:,} bytes for one log; --max-log-bytes "
                    "raises it",
                    limit=limit,
                ),
                path=display_name(path),
            )
        else:
            name = display_name(path)
            log = parse_log(decode(content, name), name)
        ruleset = choose_rules(log, rules)  # RulesError is a InputError
    except InputError as err:
        verdict = _invalid(path, str(err), err.line, want_json)
        if html_dir is None:
            return verdict
        from spidercli.html import error_page, write_page

        page = write_page(html_dir, path, error_page(path, str(err), err.line))
        return replace(verdict, page=page)
    recorder = None
    if html_dir is not None:
        from spidercli.html import Recorder

        recorder = Recorder()
    report = replay(log, rules=ruleset, visitor=recorder)
    status = report.status
    rule = line = message = None
    if report.illegal:
        first = report.illegal[0]
        rule = first.refusal.rule
        line = first.entry.line
        message = prefixed(first.named, sentence(first.refusal))  # English as str; said too
    elif report.mismatches:
        line = log.expect.line if log.expect is not None else None
        message = Joined(
            "; ",
            [
                N_(
                    "{key}: expected {expected}, got {actual}",
                    key=m.key,
                    expected=m.expected,
                    actual=m.actual,
                )
                for m in report.mismatches
            ],
        )
    text = None
    if want_json:
        text = report.json_text(file=path, status=status)
    page = None
    if recorder is not None and status != VALID:
        from spidercli.html import replay_page, write_page

        page = write_page(html_dir or ".", path, replay_page(report, recorder.frames))
    g = report.game
    replayed = Replayed(
        None if log.code is None else log.code.canonical,
        log.deal.deal_id,
        report.rules.name,
        log.player,
        report.result,
        g.moves,
        g.score,
        g.runs,
        g.deals_left,
        report.actions,
    )
    return Verdict(path, status, replayed, rule, line, message, text, page)


def _invalid(path: str, message: str, line: int | None, want_json: bool) -> Verdict:
    text = None
    if want_json:
        record = {
            "file": path,
            "status": INVALID_INPUT,
            **error_json(message, line),
        }
        text = json.dumps(record, ensure_ascii=False)
    return Verdict(path, INVALID_INPUT, None, line=line, message=message, json=text)


Task = tuple[str, "str | None", bool, "int | None", "bytes | str | None", "str | None"]


def _verify_star(task: Task) -> Verdict:
    """One task in a worker: whatever happens, a verdict for this file alone (a bug met on one
    file never costs another file's verdict)."""
    start = time.perf_counter()
    try:
        verdict = verify_one(*task)
    except Exception as err:  # a bug, not the input's fault: say so, and go on
        message = located(
            task[0],
            None,
            f"internal error: {type(err).__name__}: {shown(str(err))}. Please report it with "
            "this log.",
        )
        verdict = _invalid(task[0], message, None, task[2])
    return replace(verdict, seconds=time.perf_counter() - start)


def _tasks(
    paths: Iterable[str],
    rules: str | None,
    want_json: bool,
    max_bytes: int | None,
    html_dir: str | None,
) -> Iterator[Task]:
    """The workers' tasks; standard input (``-``) is read here, by the parent."""
    for path in paths:
        data: bytes | str | None = None
        if path == STDIN:
            limit = MAX_LOG_BYTES if max_bytes is None else max_bytes
            try:
                data = read_stdin(limit)
            except Unreadable as err:
                data = err.message  # its verdict says why
        yield (path, rules, want_json, max_bytes, data, html_dir)


_STOPS = {signal.SIGINT, signal.SIGTERM}
_MASKS = hasattr(signal, "pthread_sigmask")


def _worker_init() -> None:
    """Ctrl-C reaches every process of the terminal's group: the parent alone handles it (and
    ends the workers), so a worker prints no traceback. SIGTERM ends a worker quietly. Both
    signals are blocked while a worker starts (see ``_Supervisor._start``): one that comes before
    this has run waits, and then has these effects, instead of being lost."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if _MASKS:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
    _relax_gc()


# A log's objects are freed by their reference counts, not by the cycle collector: collecting
# less often saves about a twentieth of a batch's time and no memory to speak of (measured).
_GC_THRESHOLDS = (50_000, 20, 20)


def _relax_gc() -> None:
    gc.freeze()  # what the worker inherited is never collected again
    gc.set_threshold(*_GC_THRESHOLDS)


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def verify_all(
    paths: Iterable[str],
    *,
    rules: str | None,
    jobs: int,
    want_json: bool,
    max_bytes: int | None = None,
    html_dir: str | None = None,
) -> Generator[Verdict, None, None]:
    """Verdicts in the order of ``paths``, from ``jobs`` worker processes (1, or a system
    without ``fork``: in this one).

    ``paths`` is consumed lazily, and never more than ``_WINDOW`` logs ahead of the verdict
    written last, so neither the paths nor the results pile up. A worker that dies (killed by a
    signal, the system's out-of-memory killer, a crash) costs one verdict: the log it was
    verifying gets an internal error naming the signal, a new worker takes its place, and the
    logs it had not begun go to the workers again. Ctrl-C or SIGTERM in the parent ends the
    workers (none is left behind) and is raised on: ``KeyboardInterrupt``, or ``SystemExit``
    with status 143."""
    tasks = _tasks(paths, rules, want_json, max_bytes, html_dir)
    if jobs <= 1 or not hasattr(os, "fork"):
        thresholds = gc.get_threshold()
        gc.set_threshold(*_GC_THRESHOLDS)
        try:
            for task in tasks:
                yield _verify_star(task)
        finally:
            gc.set_threshold(*thresholds)
        return
    yield from supervised(tasks, jobs, _verify_star, _died)


T = TypeVar("T")  # a worker's task
R = TypeVar("R")  # its result


def supervised(
    tasks: Iterator[T],
    jobs: int,
    run: Callable[[T], R],
    died: Callable[[T, int | None], R],
    *,
    ordered: bool = True,
) -> Generator[R, None, None]:
    """``run(task)`` for each of ``tasks`` in up to ``jobs`` forked worker processes (``run``
    is inherited by the fork, never pickled; its result is). The results come in the tasks'
    order, or with ``ordered=False`` each as soon as it is made. A worker that dies costs one
    result, ``died(task, status)`` for the task it was on (``status``: ``waitpid``'s, None when
    unknown); its other tasks go to the workers again. Ctrl-C or SIGTERM ends the workers (none
    is left behind) and is raised on: ``KeyboardInterrupt``, or ``SystemExit`` with status 143."""
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminated) if main else None
    # An ignored SIGCHLD (inherited: ``nohup``-style launchers, some CI runners) would have the
    # system reap dead workers itself, and their statuses would be lost.
    children = signal.signal(signal.SIGCHLD, signal.SIG_DFL) if main else None
    try:
        yield from _Supervisor(tasks, jobs, run, died, ordered).results()
    finally:
        if main:
            signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL if children is None else children)


def no_logs(paths: Iterable[str]) -> InputError:
    """The error of paths that lead to no log."""
    return InputError(
        N_("no logs found in {paths} (files *.yaml or *.yml)", paths=", ".join(paths))
    )


def verdicts(
    paths: Iterable[str],
    *,
    rules: str | None = None,
    jobs: int = 1,
    want_json: bool = True,
    max_bytes: int | None = None,
    html_dir: str | None = None,
) -> Generator[Verdict, None, None]:
    """``verify``: the logs ``paths`` lead to (``find_logs``), verified by ``verify_all``. An
    unknown ruleset, or paths that lead to no log, raise ``InputError`` here, before any log is
    verified; ``paths`` is read as far as the first log, the rest as the verdicts are taken."""
    from spidercli.rules import lookup_ruleset, unknown_ruleset

    if rules is not None and lookup_ruleset(rules) is None:
        raise InputError(unknown_ruleset("--rules", quoted(rules)))
    given: list[str] | None = []  # the paths, kept only until a log is found (for the error)

    def noted() -> Iterator[str]:
        for path in paths:
            if given is not None:
                given.append(path)
            yield path

    found = find_logs(noted())
    first = next(found, None)
    if first is None:
        raise no_logs(given or [])
    given = None
    return verify_all(
        itertools.chain([first], found),
        rules=rules,
        jobs=jobs,
        want_json=want_json,
        max_bytes=max_bytes,
        html_dir=html_dir,
    )


# ------------------------------------------------------------------------------ the workers
#
# Each worker has two pipes of its own: tasks in, verdicts out, each message an 8-byte length and a
# pickle, of any size (a log read from standard input travels in its task, up to the size limit;
# a verdict carries the player's name). The parent sends a worker a message of tasks (1, 2, 4, ...
# up to _CHUNK) while it has fewer than ``_ahead`` unanswered; the worker sends each verdict as soon
# as it is made. So the parent always knows which log a worker is on: the first it sent and got no
# verdict for. A worker is given fewer logs ahead when they take longer (``_ahead``), so that at
# the end of a batch of slow logs no worker idles while another has many still to do.
#
# The parent never blocks on one worker: its ends of the pipes are non-blocking, watched by a
# selector. A pipe holds 64 KiB (on Linux): what a full one does not take of a message waits in
# the worker's buffer, and the selector wakes the parent when the pipe has room again, only while
# something waits (``_write``); a verdict may come in parts, put together in another buffer
# (``_read``). The worker's ends block: it reads and writes whole messages.
#
# Why not multiprocessing.Pool: a worker killed from outside leaves it waiting forever. Nor
# concurrent.futures.ProcessPoolExecutor: a dead worker breaks the whole executor (every pending
# log fails with BrokenProcessPool, none is known to be the one being verified), and its ``map``
# takes every path up front. Sending verdicts in batches from the worker saved about 7% of the CPU
# on small logs (measured), but a slow log would then hold back the verdicts made before it.

_CHUNK = 16  # tasks in one message to a worker, at most
_AHEAD = 0.02  # seconds of work (at the logs' mean time so far) a worker is given ahead
_WINDOW = 1024  # logs sent out at most beyond the next verdict to write (bounds memory)
_HEAD = struct.Struct("<Q")  # a message's length


def _frame(value: object) -> bytes:
    data = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    return _HEAD.pack(len(data)) + data


def _serve(tasks: int, results: int, run: Callable[[Any], object]) -> None:
    """A worker's loop: read a message of tasks, send back each one's result (``run``'s, with
    the seconds it took) as it is made; returns when the parent closes the task pipe (or is gone
    in the middle of a message). Its ends of the pipes block: a message of any size is read and
    written whole."""
    with open(tasks, "rb") as reader, open(results, "wb") as writer:
        while True:
            head = _exactly(reader, _HEAD.size)
            if head is None:
                return
            (size,) = _HEAD.unpack(head)
            body = _exactly(reader, size)
            if body is None:
                return
            for task in pickle.loads(body):
                start = time.perf_counter()
                result = run(task)
                writer.write(_frame((time.perf_counter() - start, result)))
                writer.flush()


def _exactly(reader: IO[bytes], size: int) -> bytes | None:
    """The next ``size`` bytes of the pipe, or None at its end."""
    data = reader.read(size)
    while len(data) < size:  # a buffered read of a pipe may stop short; read on
        more = reader.read(size - len(data))
        if not more:
            return None
        data += more
    return data


def _ahead(pace: float | None) -> int:
    """How many logs a worker may have unanswered when a log takes ``pace`` seconds (None: not
    known yet): about ``_AHEAD`` seconds of work, at least 1, at most ``_CHUNK``."""
    if pace is None or pace * _CHUNK <= _AHEAD:
        return _CHUNK
    return max(1, int(_AHEAD / pace))


def worker_death(status: int | None) -> str:
    """How a worker ended, from ``waitpid``'s ``status`` (None when it could not be had):
    ``was killed (SIGKILL); the system may have run out of memory``."""
    if status is None:
        how = "ended unexpectedly"
    elif os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        how = f"was killed ({name})"
        if number == signal.SIGKILL:
            how += "; the system may have run out of memory"
    else:
        how = f"ended unexpectedly (exit status {os.waitstatus_to_exitcode(status)})"
    return how


def _died(task: Task, status: int | None) -> Verdict:
    """The verdict of the log a worker was verifying when it died (``status``: ``waitpid``'s,
    None when it could not be had)."""
    message = located(
        task[0],
        None,
        f"internal error: the worker process verifying this log {worker_death(status)}. "
        "Please report it with this log.",
    )
    return _invalid(task[0], message, None, task[2])


@dataclass(eq=False)
class _Worker(Generic[T]):
    pid: int
    tasks: int  # the write end of its task pipe (non-blocking)
    results: int  # the read end of its verdict pipe (non-blocking)
    assigned: deque[tuple[int, T]] = field(default_factory=deque)  # sent, not yet answered
    unsent: bytearray = field(default_factory=bytearray)  # tasks the pipe has not taken yet
    waiting: bool = False  # whether the selector wakes the parent when the task pipe has room
    received: bytearray = field(default_factory=bytearray)  # the start of a verdict's message
    size: int = 1  # the next message's number of tasks


class _Supervisor(Generic[T, R]):
    """Up to ``jobs`` worker processes doing ``run`` on ``tasks``; ``results`` yields their
    results in the tasks' order (``ordered``) or as they come, ``died``'s for a task whose
    worker died (see ``supervised``)."""

    def __init__(
        self,
        tasks: Iterator[T],
        jobs: int,
        run: Callable[[T], R],
        died: Callable[[T, int | None], R],
        ordered: bool = True,
    ) -> None:
        self.tasks = tasks
        self.jobs = jobs
        self.run = run
        self.died = died
        self.ordered = ordered
        self.workers: dict[int, _Worker[T]] = {}  # by the read end of the verdict pipe
        self.again: list[tuple[int, T]] = []  # a dead worker's tasks not begun (a heap)
        self.done: dict[int, R] = {}  # verdicts waiting for an earlier one (ordered)
        self.next = 0  # the index of the next verdict to yield
        self.taken = 0  # tasks taken from ``tasks``
        self.exhausted = False
        self.pace: float | None = None  # a log's time, a moving mean of the workers' figures
        self.selector = selectors.DefaultSelector()

    def results(self) -> Iterator[R]:
        finished = False
        try:
            while True:
                while self.next in self.done:
                    yield self.done.pop(self.next)
                    self.next += 1
                while self.done and not self.ordered:  # as they come: ``next`` counts them
                    yield self.done.pop(next(iter(self.done)))
                    self.next += 1
                self._feed()
                if self.exhausted and not (self.again or self.done or self._busy()):
                    finished = True
                    return
                if not self.workers:  # none could be started: verified here, in ``_feed``
                    continue
                for key, events in self.selector.select():
                    worker: _Worker[T] = key.data
                    if self.workers.get(worker.results) is not worker:
                        continue  # ended by an earlier event of this round
                    if events & selectors.EVENT_WRITE:
                        self._write(worker)
                    if events & selectors.EVENT_READ:
                        self._read(worker)
        finally:
            self._stop(finished)

    def _busy(self) -> bool:
        return any(worker.assigned for worker in self.workers.values())

    def _take(self, count: int) -> list[tuple[int, T]]:
        """Up to ``count`` tasks: first those a dead worker left, then new ones."""
        batch: list[tuple[int, T]] = []
        while len(batch) < count:
            if self.again:
                batch.append(heapq.heappop(self.again))
                continue
            if self.exhausted or self.taken - self.next >= _WINDOW:
                break
            task = next(self.tasks, None)
            if task is None:
                self.exhausted = True
                break
            batch.append((self.taken, task))
            self.taken += 1
        return batch

    def _feed(self) -> None:
        """Tasks to every worker with fewer than ``_ahead`` unanswered, one message each round,
        so that the first tasks are spread; a new worker while there are fewer than ``jobs``."""
        while True:
            ahead = _ahead(self.pace)
            hungry: list[_Worker[T] | None] = [
                w for w in self.workers.values() if len(w.assigned) < ahead
            ]
            if len(self.workers) < self.jobs:
                hungry.append(None)  # a worker to start, if there is work for it
            if not hungry:
                return
            for candidate in hungry:
                size = 1 if candidate is None else min(candidate.size, ahead)
                batch = self._take(size)
                if not batch:
                    return
                if candidate is not None:
                    worker = candidate
                else:
                    try:
                        worker = self._start()
                    except OSError:  # no process to be had (memory, a limit): fewer workers
                        self._unstarted(batch)
                        return
                worker.size = min(worker.size * 2, _CHUNK)
                worker.assigned.extend(batch)
                worker.unsent += _frame([task for _, task in batch])
                self._write(worker)

    def _unstarted(self, batch: list[tuple[int, T]]) -> None:
        """No new worker could be started for ``batch``: the workers there are carry on without
        it (and another is tried when one of them dies); with none, this process verifies it."""
        if self.workers:
            self.jobs = len(self.workers)
            for item in batch:
                heapq.heappush(self.again, item)
        else:
            for index, task in batch:
                self.done[index] = self.run(task)

    def _start(self) -> _Worker[T]:
        tasks_in, tasks_out = os.pipe()
        results_in, results_out = os.pipe()
        # The worker begins with SIGINT and SIGTERM blocked, so that neither can reach it
        # before its handlers are set (``_worker_init``); in the parent, a signal that comes
        # meanwhile is handled once the worker is known (and so ended with the others).
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS) if _MASKS else None
        try:
            try:
                pid = os.fork()
            except OSError:
                for fd in (tasks_in, tasks_out, results_in, results_out):
                    os.close(fd)
                raise
            if pid == 0:  # the worker: it never returns from here
                status = 70
                try:
                    for fd in self._parents_fds():
                        os.close(fd)
                    os.close(tasks_out)
                    os.close(results_in)
                    _worker_init()
                    _serve(tasks_in, results_out, self.run)
                    status = 0
                finally:
                    os._exit(status)  # no exit handler of the parent's, no buffer flushed twice
            os.close(tasks_in)
            os.close(results_out)
            os.set_blocking(tasks_out, False)
            os.set_blocking(results_in, False)
            worker: _Worker[T] = _Worker(pid, tasks_out, results_in)
            self.workers[results_in] = worker
            self.selector.register(results_in, selectors.EVENT_READ, worker)
        finally:
            if mask is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        return worker

    def _parents_fds(self) -> Iterator[int]:
        yield self.selector.fileno()
        for worker in self.workers.values():
            yield worker.tasks
            yield worker.results

    def _write(self, worker: _Worker[T]) -> None:
        """What the worker's task pipe takes now (a pipe takes part of a big message, or nothing
        when it is full); for the rest the selector wakes the parent when the pipe has room, and
        stops doing so once all is sent."""
        try:
            del worker.unsent[: os.write(worker.tasks, worker.unsent)]
        except BlockingIOError:  # full (EAGAIN): nothing taken
            pass
        except BrokenPipeError:  # the worker is gone: its verdict pipe says so
            worker.unsent.clear()
        if worker.unsent:
            if not worker.waiting:
                self.selector.register(worker.tasks, selectors.EVENT_WRITE, worker)
                worker.waiting = True
        elif worker.waiting:
            self.selector.unregister(worker.tasks)
            worker.waiting = False

    def _read(self, worker: _Worker[T]) -> None:
        """The verdicts the worker has sent; at the end of its pipe, its death."""
        try:
            data = os.read(worker.results, 1 << 16)
        except BlockingIOError:
            return
        if not data:
            self._lost(worker)
            return
        buffer = worker.received
        buffer += data
        start = 0
        while len(buffer) - start >= _HEAD.size:
            (size,) = _HEAD.unpack_from(buffer, start)
            end = start + _HEAD.size + size
            if end > len(buffer):
                break
            index, _ = worker.assigned.popleft()
            seconds, self.done[index] = pickle.loads(buffer[start + _HEAD.size : end])
            pace = self.pace
            self.pace = seconds if pace is None else pace + (seconds - pace) / 8
            start = end
        del buffer[:start]

    def _lost(self, worker: _Worker[T]) -> None:
        """A worker died: the log it was on gets a verdict saying so, the others go again."""
        self._close(worker)
        status: int | None = None
        with contextlib.suppress(ChildProcessError):  # reaped already: how it ended is unknown
            _, status = os.waitpid(worker.pid, 0)
        if worker.assigned:
            index, task = worker.assigned.popleft()
            self.done[index] = self.died(task, status)
            for item in worker.assigned:
                heapq.heappush(self.again, item)

    def _close(self, worker: _Worker[T]) -> None:
        del self.workers[worker.results]
        for fd in (worker.results, worker.tasks):
            with contextlib.suppress(KeyError):
                self.selector.unregister(fd)
            os.close(fd)

    def _stop(self, finished: bool) -> None:
        """End the workers: done, they read the end of their task pipes; interrupted (Ctrl-C,
        SIGTERM, an error, the reader gone), they are ended at once. Either way each is waited
        for: none is left behind."""
        workers = list(self.workers.values())
        for worker in workers:
            if not finished:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker.pid, signal.SIGTERM)
            self._close(worker)
        for worker in workers:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(worker.pid, 0)
        self.selector.close()


# ------------------------------------------------------------------ text safe for each format
#
# File names, player names and actions come from strangers. Every writer below makes them safe
# for its format: valid UTF-8 everywhere, no formula in a CSV cell, no character XML forbids,
# no line break or workflow-command syntax in a GitHub annotation.

_SURROGATES = re.compile("[\ud800-\udfff]")
# XML 1.0's characters: tab, LF, CR, U+0020-U+D7FF, U+E000-U+FFFD, U+10000-U+10FFFF.
# Compiled on first use (a few milliseconds of every verify's start-up otherwise).
_NOT_XML = functools.cache(
    lambda: re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
)
# OWASP's CSV-injection rule: a text cell starting with one of these is read as a formula.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


_XML_CR = {"\r": "&#13;"}  # kept as it is: a parser reads a raw CR in text as LF


def utf8_safe(text: str) -> str:
    """``text`` with every lone surrogate (what Python makes of the bytes of a file name that
    is not UTF-8) replaced by U+FFFD, so that it always encodes as UTF-8."""
    return _SURROGATES.sub("\ufffd", text)


def xml_safe(text: str) -> str:
    """``text`` with every character XML 1.0 forbids (controls, lone surrogates, U+FFFE/FFFF)
    replaced by U+FFFD; escaping ``<&"`` is the caller's (``escape``/``quoteattr``)."""
    return _NOT_XML().sub("\ufffd", text)


def csv_cell(value: object) -> str:
    """One CSV cell. Numbers (``int``, ``float``) are written as they are, a negative score
    included: a spreadsheet reads ``-12`` as the number it is. Text starting with ``=``, ``+``,
    ``-``, ``@``, a tab or a CR gets a leading ``'`` so that no spreadsheet runs it as a formula;
    text holding a comma, a quote, a CR or an LF is quoted (``"`` doubled); a NUL becomes U+FFFD.
    ``None`` is empty."""
    if value is None:
        return ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    text = utf8_safe(str(value)).replace("\0", "\ufffd")  # many CSV readers stop at a NUL
    if text.startswith(_FORMULA_START):
        text = "'" + text
    if any(c in text for c in ',"\r\n'):
        text = '"' + text.replace('"', '""') + '"'
    return text


def csv_row(values: Iterable[object]) -> str:
    """One CSV record, ``\n``-terminated (a record's line breaks are inside quotes)."""
    line = ",".join(csv_cell(v) for v in values)
    return (line or '""') + "\n"  # one empty cell, written so that it reads back as one


def _one_line(text: str) -> str:
    """A message on one line: CR and LF shown as ``\\r`` and ``\\n``."""
    return utf8_safe(text).replace("\r", "\\r").replace("\n", "\\n")


def _github_data(text: str) -> str:
    """GitHub workflow-command escaping of a message."""
    return utf8_safe(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github_property(text: str) -> str:
    """GitHub workflow-command escaping of a property value (``file=``, ``title=``)."""
    return _github_data(text).replace(":", "%3A").replace(",", "%2C")


def _message(v: Verdict) -> str:
    """The verdict's message without the file and line the error text may start with (an
    unusable log's message is the whole error, ``path, line N: ...`` or ``path:N: ...``)."""
    message = str(v.message or "")
    if v.status == INVALID_INPUT:
        prefix = re.match(re.escape(v.file) + r"(?:, line \d+|:\d+)?: ", message)
        if prefix:
            message = message[prefix.end() :]
    return message


# ------------------------------------------------------------------------------- writers


@dataclass
class Tally:
    counts: dict[str, int]

    @classmethod
    def new(cls) -> Tally:
        return cls(dict.fromkeys(STATUSES, 0))

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def exit_code(self) -> int:
        if self.counts[INVALID_INPUT]:
            return 2
        if self.counts[ILLEGAL] or self.counts[EXPECT_FAILED]:
            return 1
        return 0

    def summary(self) -> str:
        n = self.total
        parts = ", ".join(
            f"{self.counts[s]} {s}" for s in STATUSES
        )  # status words: never translated
        return ngettext("{n} log: {parts}", "{n} logs: {parts}", n).format(n=n, parts=parts)


class Writer:
    """Writes verdicts to ``out`` as they come; ``close`` finishes the document."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out

    def write(self, verdict: Verdict) -> None:
        raise NotImplementedError

    def close(self, tally: Tally) -> None:
        """Finish the document (the table prints the summary here)."""


class TableWriter(Writer):
    def write(self, v: Verdict) -> None:
        r = v.replayed
        if r is None:
            self.out.write(f"{'INVALID-INPUT':<14} {said(v.message or '')}\n")
            return
        else:
            detail = (
                ngettext(
                    "{result}, {moves} move, score {score}, runs {runs}",
                    "{result}, {moves} moves, score {score}, runs {runs}",
                    r.moves,
                ).format(result=r.result, moves=r.moves, score=r.score, runs=r.runs)
                + f"{' (' + shown(r.player) + ')' if r.player else ''}"
            )
            if v.message:
                where = _(" at line {line}").format(line=v.line) if v.line else ""
                detail += f"; {v.rule or 'expect'}{where}: {said(v.message)}"
        label = v.status.upper() if v.status != VALID else "valid"
        self.out.write(f"{label:<14} {shown_path(v.file)}  {detail}\n")

    def close(self, tally: Tally) -> None:
        self.out.write(f"\n{tally.summary()}\n")


class JsonWriter(Writer):
    def __init__(self, out: IO[str]) -> None:
        super().__init__(out)
        self.first = True

    def write(self, v: Verdict) -> None:
        assert v.json is not None
        self.out.write(("[\n  " if self.first else ",\n  ") + utf8_safe(v.json))
        self.first = False

    def close(self, tally: Tally) -> None:
        self.out.write("[]\n" if self.first else "\n]\n")


class JsonlWriter(Writer):
    def write(self, v: Verdict) -> None:
        assert v.json is not None
        self.out.write(utf8_safe(v.json) + "\n")


class CsvWriter(Writer):
    def __init__(self, out: IO[str]) -> None:
        super().__init__(out)
        out.write(csv_row(CSV_FIELDS))

    def write(self, v: Verdict) -> None:
        self.out.write(csv_row(v.csv_values()))


class GithubWriter(Writer):
    """GitHub Actions workflow commands: one ``::error`` annotation per log that is not valid,
    ``::error file=F,line=L,title=RULE::status: message`` (``title`` is the rule, or the status
    when no rule applies)."""

    def write(self, v: Verdict) -> None:
        if v.status == VALID:
            return
        props = [f"file={_github_property(v.file)}"]
        if v.line:
            props.append(f"line={v.line}")
        props.append(f"title={_github_property(v.rule or v.status)}")
        message = _github_data(f"{v.status}: {_message(v)}")
        self.out.write(f"::error {','.join(props)}::{message}\n")


class ConciseWriter(Writer):
    """One line per log that is not valid: ``path:line: status rule: message`` (``path:`` alone
    when no line applies, no rule for an unmet ``expect`` or unusable input)."""

    def write(self, v: Verdict) -> None:
        if v.status == VALID:
            return
        where = f"{v.file}:{v.line}" if v.line else v.file
        label = f"{v.status} {v.rule}" if v.rule else v.status
        self.out.write(_one_line(f"{where}: {label}: {_message(v)}") + "\n")


class JunitWriter(Writer):
    """JUnit XML: one test case per log, with its ``file`` and ``time`` (seconds); the cases go
    to a spool file first (bounded memory) since the suite's counts come before them. Any file
    name or message gives well-formed XML: characters XML forbids become U+FFFD."""

    def __init__(self, out: IO[str]) -> None:
        super().__init__(out)
        self.start = time.perf_counter()
        # Open across calls and closed in ``close``, so no context manager.
        self.spool = tempfile.SpooledTemporaryFile(  # noqa: SIM115
            max_size=1 << 20, mode="w+", encoding="utf-8"
        )

    def write(self, v: Verdict) -> None:
        from xml.sax.saxutils import escape, quoteattr  # imported by JUnit output alone

        name = quoteattr(xml_safe(v.file))
        attrs = f'classname="spidercli.verify" name={name} file={name} time="{v.seconds:.3f}"'
        if v.status == VALID:
            self._spool(f"    <testcase {attrs}/>\n")
            return
        tag = "error" if v.status == INVALID_INPUT else "failure"
        text = xml_safe(str(v.message))
        message = quoteattr(f"{v.status}: {text}")
        where = f"line {v.line}: " if v.line and v.status != INVALID_INPUT else ""
        self._spool(
            f"    <testcase {attrs}>\n"
            f"      <{tag} type={quoteattr(v.status)} message={message}>"
            f"{escape(where + text, _XML_CR)}</{tag}>\n"
            "    </testcase>\n"
        )

    def _spool(self, text: str) -> None:
        try:
            self.spool.write(text)
        except OSError as err:  # past 1 MiB it is a temporary file: a full disk
            from spidercli.errors import OutputError

            raise OutputError(
                N_(
                    "cannot write the JUnit report's temporary file: {reason}",
                    reason=err.strerror or str(err),
                )
            ) from err

    def close(self, tally: Tally) -> None:
        c = tally.counts
        failures = c[ILLEGAL] + c[EXPECT_FAILED]
        counts = f'tests="{tally.total}" failures="{failures}" errors="{c[INVALID_INPUT]}"'
        seconds = f'time="{time.perf_counter() - self.start:.3f}"'
        head = (
            f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f"<testsuites {counts} {seconds}>\n"
            f'  <testsuite name="spidercli verify" {counts} {seconds}>\n'
        )
        self.out.write(head)
        self.spool.seek(0)
        for block in iter(lambda: self.spool.read(1 << 16), ""):
            self.out.write(block)
        self.spool.close()
        self.out.write("  </testsuite>\n</testsuites>\n")


WRITERS: dict[str, Callable[[IO[str]], Writer]] = {
    "table": TableWriter,
    "json": JsonWriter,
    "jsonl": JsonlWriter,
    "csv": CsvWriter,
    "junit": JunitWriter,
    "github": GithubWriter,
    "concise": ConciseWriter,
}


def write_verdicts(
    verdicts: Iterable[Verdict],
    out: IO[str],
    *,
    fmt: str = "table",
    tick: Callable[[Verdict], None] | None = None,
    html_dir: str | None = None,
    quiet: bool = False,
) -> Tally:
    """Write every verdict to ``out`` as it comes, in the format ``fmt``; return the tally.
    With ``html_dir`` (the folder the verdicts' pages are in), an index of the pages goes there
    too (``OutputError`` when the index cannot be written). ``quiet`` leaves valid logs out of
    the listing (JUnit aside: a test report lists every test). A verdict iterator that can be
    closed (``verdicts``) is closed on the way out: an exception here ends the workers at once."""
    writer = WRITERS[fmt](out)
    tally = Tally.new()
    index = None
    if html_dir is not None:
        from spidercli.html import PageIndex

        index = PageIndex(html_dir)
    with contextlib.ExitStack() as stack:
        close = getattr(verdicts, "close", None)
        if close is not None:
            stack.callback(close)
        for verdict in verdicts:
            tally.counts[verdict.status] += 1
            if not (quiet and verdict.status == VALID and fmt != "junit"):
                writer.write(verdict)
            if index is not None and verdict.status != VALID:
                index.add(verdict.file, verdict.status, str(verdict.message), verdict.page)
            if tick is not None:
                tick(verdict)
    writer.close(tally)
    if index is not None:
        try:
            index.close(tally.summary())
        except OSError as err:  # a full disk, a read-only folder: not the logs' fault
            from spidercli.errors import unwritable

            raise unwritable(os.path.join(html_dir or ".", "index.html"), err) from err
    return tally


def wants_json(fmt: str) -> bool:
    """Whether the format ``fmt`` writes each verdict's JSON record."""
    return fmt in ("json", "jsonl")


def run_batch(
    paths: Iterable[str],
    out: IO[str],
    *,
    fmt: str = "table",
    rules: str | None = None,
    jobs: int = 1,
    tick: Callable[[Verdict], None] | None = None,
    html_dir: str | None = None,
    quiet: bool = False,
    max_bytes: int | None = None,
) -> Tally:
    """Verify ``paths`` and write every verdict to ``out``; return the tally. With
    ``html_dir`` (an existing folder), each non-valid log's HTML page and an index go there
    (``OutputError`` when the index cannot be written).
    ``quiet`` leaves valid logs out of the listing (JUnit aside: a test report lists every
    test)."""
    found = verify_all(
        paths,
        rules=rules,
        jobs=jobs,
        want_json=wants_json(fmt),
        max_bytes=max_bytes,
        html_dir=html_dir,
    )
    return write_verdicts(found, out, fmt=fmt, tick=tick, html_dir=html_dir, quiet=quiet)


__all__ = [
    "STATUSES",
    "Tally",
    "Verdict",
    "csv_row",
    "find_logs",
    "no_logs",
    "run_batch",
    "utf8_safe",
    "verdicts",
    "verify_one",
    "wants_json",
    "write_verdicts",
    "xml_safe",
]
