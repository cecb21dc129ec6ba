"""Worker processes, supervised: ``supervised`` runs any per-task function in ``jobs`` worker
processes and yields the results in order, or as they come. A worker that dies costs only the
task it was on (its result made by the caller's ``died``), and is replaced; Ctrl-C or SIGTERM
ends them all. The workers are forked from this process when it has one thread, else by a fork
server (see "the fork server" below). ``verify`` (``workers.verify_all``) and ``sweep`` run their
work here; ``serve``'s judging processes frame their messages and start as these workers do
(``framed``, ``FRAME_HEAD``, ``read_exactly``, ``worker_init``).
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import heapq
import os
import pickle
import selectors
import signal
import socket
import struct
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from typing import IO, Any, Generic, TypeVar

from spidercli.text.i18n import language
from spidercli.text.i18n import use as use_language

STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
CAN_MASK = hasattr(signal, "pthread_sigmask")


def worker_init() -> None:
    """Ctrl-C reaches every process of the terminal's group: the parent alone handles it (and
    ends the workers), so a worker prints no traceback. SIGTERM ends a worker quietly. Both
    signals are blocked while a worker starts (see ``_Supervisor._start``): one that comes before
    this has run waits, and then has these effects, instead of being lost."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if CAN_MASK:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    _relax_gc()


# A log's objects are freed by their reference counts, not by the cycle collector: collecting
# less often saves about a twentieth of a batch's time and no memory to speak of (measured).
GC_THRESHOLDS = (50_000, 20, 20)


def _relax_gc() -> None:
    gc.freeze()  # what the worker inherited is never collected again
    gc.set_threshold(*GC_THRESHOLDS)


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


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
    is inherited by the fork, never pickled; its result is). A process with other threads has
    its workers forked by a fork server (below), which finds ``run`` by name: a function of an
    importable module; any other is then run in this process, one task at a time. The results
    come in the tasks' order, or with ``ordered=False`` each as soon as it is made. A worker
    that dies costs one result, ``died(task, status)`` for the task it was on (``status``:
    ``waitpid``'s, None when unknown); its other tasks go to the workers again. Ctrl-C or
    SIGTERM ends the workers (none is left behind) and is raised on: ``KeyboardInterrupt``, or
    ``SystemExit`` with status 143."""
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
FRAME_HEAD = struct.Struct("<Q")  # a message's length


def framed(value: object) -> bytes:
    data = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    return FRAME_HEAD.pack(len(data)) + data


def _serve(tasks: int, results: int, run: Callable[[Any], object]) -> None:
    """A worker's loop: read a message of tasks, send back each one's result (``run``'s, with
    the seconds it took) as it is made; returns when the parent closes the task pipe (or is gone
    in the middle of a message). Its ends of the pipes block: a message of any size is read and
    written whole."""
    with open(tasks, "rb") as reader, open(results, "wb") as writer:
        while True:
            head = read_exactly(reader, FRAME_HEAD.size)
            if head is None:
                return
            (size,) = FRAME_HEAD.unpack(head)
            body = read_exactly(reader, size)
            if body is None:
                return
            for task in pickle.loads(body):
                start = time.perf_counter()
                result = run(task)
                writer.write(framed((time.perf_counter() - start, result)))
                writer.flush()


def read_exactly(reader: IO[bytes], size: int) -> bytes | None:
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
    server: _ForkServer | None = None  # the fork server it was forked by; None: by this process


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
        self.named: bytes | None = None  # ``run`` pickled by name, once a fork server needs it

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
                worker.unsent += framed([task for _, task in batch])
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
        # before its handlers are set (``worker_init``); in the parent, a signal that comes
        # meanwhile is handled once the worker is known (and so ended with the others).
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS) if CAN_MASK else None
        try:
            server = None
            try:
                if threads() > 1:  # fork() is unsafe here: a fork server forks the worker
                    server = _fork_server()
                    pid = server.start(self._by_name(), tasks_in, results_out)
                else:
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
                    _forget_server()
                    os.close(tasks_out)
                    os.close(results_in)
                    worker_init()
                    _serve(tasks_in, results_out, self.run)
                    status = 0
                finally:
                    os._exit(status)  # no exit handler of the parent's, no buffer flushed twice
            os.close(tasks_in)
            os.close(results_out)
            os.set_blocking(tasks_out, False)
            os.set_blocking(results_in, False)
            worker: _Worker[T] = _Worker(pid, tasks_out, results_in, server=server)
            self.workers[results_in] = worker
            self.selector.register(results_in, selectors.EVENT_READ, worker)
        finally:
            if mask is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        return worker

    def _by_name(self) -> bytes:
        """``run`` pickled by name, for a fork server; ``OSError`` (no worker can be had) when it
        has no name another interpreter can import (a lambda, a function of ``__main__``)."""
        if self.named is None:
            self.named = by_name(self.run) or b""
        if not self.named:
            raise OSError(f"{self.run!r} cannot be imported by name by a fork server")
        return self.named

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
        while len(buffer) - start >= FRAME_HEAD.size:
            (size,) = FRAME_HEAD.unpack_from(buffer, start)
            end = start + FRAME_HEAD.size + size
            if end > len(buffer):
                break
            index, _ = worker.assigned.popleft()
            seconds, self.done[index] = pickle.loads(buffer[start + FRAME_HEAD.size : end])
            pace = self.pace
            self.pace = seconds if pace is None else pace + (seconds - pace) / 8
            start = end
        del buffer[:start]

    def _lost(self, worker: _Worker[T]) -> None:
        """A worker died: the log it was on gets a verdict saying so, the others go again."""
        self._close(worker)
        status = _wait(worker)
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
                if worker.server is not None:
                    worker.server.kill(worker.pid, signal.SIGTERM)
                else:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(worker.pid, signal.SIGTERM)
            self._close(worker)
        for worker in workers:
            _wait(worker)
        self.selector.close()


def _wait(worker: _Worker[Any]) -> int | None:
    """How ``worker`` ended (``waitpid``'s status), once it has; None when that is unknown (reaped
    already, or its fork server is gone)."""
    if worker.server is not None:
        return worker.server.wait(worker.pid)
    try:
        return os.waitpid(worker.pid, 0)[1]
    except ChildProcessError:  # reaped already: how it ended is unknown
        return None


# ---------------------------------------------------------------------------- the fork server
#
# fork() copies the calling thread alone: in a process with other threads (a program's own, a test
# runner's), a lock that one of them held (the import lock, a logging handler's, a library's) stays
# held in the child forever, and CPython 3.12+ warns "This process ... is multi-threaded, use of
# fork() may lead to deadlocks in the child". So a worker is forked from this process only while
# it has no other thread (the command line: its progress is drawn by its one thread, see
# terminal.py), and otherwise by a fork server: a fresh interpreter started once a process
# (``posix_spawn``, which is safe with threads) with this process's environment and import path,
# single-threaded, which imports the workers' function once and forks each worker from itself.
# Starting the server costs one interpreter's start-up and imports, once a process; each worker
# then starts in a few milliseconds, as a forked one does. (A fresh interpreter for each worker,
# multiprocessing's "spawn", would cost that start-up for every worker.)
#
# A worker the server forks is supervised as a forked one is: its pipes are made here and handed
# to the server (SCM_RIGHTS) for the child; the server says how each worker ended (``waitpid``'s
# status) and kills one when asked, only while it has not reaped it (so a process id the system
# has given to another process is never signalled). The worker takes this process's environment,
# working folder, import path and language, as a forked worker would, but no other state (a
# function replaced at run time is not seen): ``run`` is found by name. When a ``SPIDERCLI_``
# variable changes (modules read some when they are imported), a new server is started. A server
# ends when this process closes its socket, or ends, once its workers have ended.


def threads() -> int:
    """The threads of this process: the system's count (Linux's ``/proc/self/stat``, which
    CPython's own warning reads), else Python's (``threading.active_count``)."""
    try:
        with open("/proc/self/stat", "rb") as stat:
            return int(stat.read().rsplit(b")", 1)[1].split()[17])
    except (OSError, ValueError, IndexError):
        return threading.active_count()


def by_name(run: Callable[..., object]) -> bytes | None:
    """``run`` pickled by name (a function of a module another interpreter imports), or None."""
    if getattr(run, "__module__", None) in (None, "__main__"):
        return None
    if "<locals>" in getattr(run, "__qualname__", "<locals>"):
        return None
    try:
        named = pickle.dumps(run, pickle.HIGHEST_PROTOCOL)
        found = pickle.loads(named) is run
    except Exception:  # whatever pickling a strange callable raises: not found by name
        return None
    return named if found else None


def _own_variables() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if name.startswith("SPIDERCLI_")}


_NO_SIGNAL = getattr(socket, "MSG_NOSIGNAL", 0)  # a server gone is an error, never a SIGPIPE


def _send(sock: socket.socket, value: object, fds: tuple[int, ...] = ()) -> None:
    data = framed(value)
    sent = socket.send_fds(sock, [data], list(fds), _NO_SIGNAL) if fds else 0
    sock.sendall(data[sent:], _NO_SIGNAL)


def _receive(sock: socket.socket) -> tuple[Any, list[int]] | None:
    """The next message on ``sock`` and the file descriptors sent with it; None at its end."""
    head, fds, _, _ = socket.recv_fds(sock, FRAME_HEAD.size, 2)
    body = bytearray(head)
    size = None
    while True:
        if size is None and len(body) >= FRAME_HEAD.size:
            (size,) = FRAME_HEAD.unpack_from(body)
            del body[: FRAME_HEAD.size]
        if size is not None and len(body) >= size:
            return pickle.loads(body), fds
        more = sock.recv(1 << 16 if size is None else min(size - len(body), 1 << 16))
        if not more:
            for fd in fds:
                os.close(fd)
            return None
        body += more


class _ForkServer:
    """This process's end of a fork server (see above): ``start`` a worker, ``kill`` one,
    ``wait`` for one to end."""

    def __init__(self) -> None:
        if not hasattr(os, "posix_spawn") or not sys.executable:
            raise OSError("no fork server: posix_spawn or the interpreter is missing")
        ours, theirs = socket.socketpair()
        fd = max(theirs.fileno(), 2) + 1  # the server's end, as the server has it
        code = (
            f"import sys; sys.path[:] = {sys.path!r}; "
            f"from spidercli.judging.pool import serve_forks; serve_forks({fd})"
        )
        try:
            self.pid = os.posix_spawn(
                sys.executable,
                [sys.executable, "-c", code],
                os.environ,
                file_actions=[
                    (os.POSIX_SPAWN_DUP2, theirs.fileno(), fd),
                    (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                ],
                # blocked in the server, and in each worker until it starts
                setsigmask=STOP_SIGNALS,
                setsigdef=(signal.SIGINT, signal.SIGTERM, signal.SIGCHLD),
            )
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        self.sock = ours
        self.owner = os.getpid()
        self.variables = _own_variables()
        self.lock = threading.Lock()
        self.ended: dict[int, int] = {}  # a worker's status, told before it was asked for
        self.live: set[int] = set()  # the workers started and not yet waited for
        self.gone = False  # the server has ended (or cannot be reached)
        self.retired = False  # replaced: it ends once its workers have

    def start(self, named: bytes, tasks: int, results: int) -> int:
        """A worker forked by the server, serving the pipes ``tasks`` and ``results`` with the
        function ``named`` (pickled by name); its process id. ``OSError`` when none can be had."""
        setting = (dict(os.environ), os.getcwd(), list(sys.path), language())
        with self.lock:
            self._send(("fork", named, setting), (tasks, results))
            while True:
                message = self._next()
                if message[0] == "forked":
                    pid: int = message[1]
                    self.live.add(pid)
                    return pid
                if message[0] == "failed":
                    raise OSError(message[1])

    def kill(self, pid: int, signum: int) -> None:
        """Send ``signum`` to the worker ``pid``, if it has not ended."""
        with self.lock, contextlib.suppress(OSError):
            self._send(("kill", pid, signum))

    def wait(self, pid: int) -> int | None:
        """How the worker ``pid`` ended (``waitpid``'s status), once it has; None when the
        server is gone."""
        with self.lock:
            status: int | None = None
            try:
                while pid not in self.ended:
                    self._next()
                status = self.ended.pop(pid)
            except OSError:
                pass
            self.live.discard(pid)
            if self.retired and not self.live:
                self._close()
        return status

    def retire(self) -> None:
        """A new server takes this one's place: it ends once its workers have."""
        with self.lock:
            self.retired = True
            if not self.live:
                self._close()

    def _send(self, value: object, fds: tuple[int, ...] = ()) -> None:
        try:
            _send(self.sock, value, fds)
        except OSError:
            self.gone = True
            raise

    def _next(self) -> Any:
        try:
            got = None if self.gone else _receive(self.sock)
        except OSError:
            got = None
        if got is None:
            self.gone = True
            raise OSError("the fork server has ended")
        message = got[0]
        if message[0] == "ended":
            self.ended[message[1]] = message[2]
        return message

    def _close(self) -> None:
        self.gone = True
        self.sock.close()  # the server's end of its socket: it ends
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


_SERVER: _ForkServer | None = None  # this process's fork server, once one was needed
_SERVER_LOCK = threading.Lock()


def _fork_server() -> _ForkServer:
    """This process's fork server, started when first needed, and again when it has ended or a
    ``SPIDERCLI_`` variable has changed since it started."""
    global _SERVER
    with _SERVER_LOCK:
        server = _SERVER
        if server is not None and server.owner != os.getpid():  # a fork's copy: the parent's
            server.sock.close()
            server = None
        elif server is not None and (server.gone or server.variables != _own_variables()):
            server.retire()
            server = None
        if server is None:
            server = _SERVER = _ForkServer()
            atexit.register(server.sock.close)  # the server ends with this process, unwaited
        return server


def _forget_server() -> None:
    """In a worker forked from this process: the parent's fork server is not its own."""
    global _SERVER
    if _SERVER is not None:
        _SERVER.sock.close()
        _SERVER = None


def _ignore(signum: int, frame: object) -> None:
    """SIGCHLD's handler in the fork server: the signal only wakes its loop."""


def serve_forks(fd: int) -> None:
    """The fork server's loop, in the interpreter ``_ForkServer`` starts, on the socket ``fd``:
    fork a worker for each request and say its process id, say how each worker ended, kill one
    when asked while it has not been reaped. Returns when the socket ends and every worker has
    ended."""
    sock = socket.socket(fileno=fd)
    wake_in, wake_out = os.pipe()
    os.set_blocking(wake_in, False)
    os.set_blocking(wake_out, False)
    signal.signal(signal.SIGCHLD, _ignore)
    signal.set_wakeup_fd(wake_out)
    selector = selectors.DefaultSelector()
    selector.register(sock, selectors.EVENT_READ)
    selector.register(wake_in, selectors.EVENT_READ)
    live: set[int] = set()
    listening = True

    def tell(message: object) -> None:
        nonlocal listening
        try:
            _send(sock, message)
        except OSError:  # this process's parent is gone
            listening = False

    def fork(named: bytes, setting: tuple[Any, ...], fds: list[int]) -> None:
        try:
            if len(fds) != 2:
                raise OSError(f"{len(fds)} pipes were sent, not 2")
            sys.path[:] = setting[2]
            run = pickle.loads(named)  # its module is imported here, once for every worker
            pid = os.fork()
        except Exception as err:
            for given in fds:
                os.close(given)
            tell(("failed", f"{type(err).__name__}: {err}"))
            return
        if pid == 0:  # the worker: it never returns from here
            status = 70
            try:
                signal.set_wakeup_fd(-1)
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                selector.close()
                sock.close()
                os.close(wake_in)
                os.close(wake_out)
                env, cwd, _, lang = setting
                os.environ.clear()
                os.environ.update(env)
                os.chdir(cwd)
                use_language(lang)
                worker_init()
                _serve(fds[0], fds[1], run)
                status = 0
            finally:
                os._exit(status)
        for given in fds:
            os.close(given)
        live.add(pid)
        tell(("forked", pid))

    while listening:
        for key, _ in selector.select():
            if key.fd == wake_in:
                with contextlib.suppress(BlockingIOError):
                    while os.read(wake_in, 512):
                        pass
                continue
            try:
                got = _receive(sock)
            except OSError:  # this process's parent is gone
                got = None
            if got is None:
                listening = False
                break
            message, fds = got
            if message[0] == "fork":
                fork(message[1], message[2], fds)
            elif message[0] == "kill" and message[1] in live:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(message[1], message[2])
        while live:  # how each worker that ended did
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            live.discard(pid)
            tell(("ended", pid, status))
    selector.close()
    sock.close()
    for pid in live:  # this process's parent is gone: its workers end at the end of their tasks
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
