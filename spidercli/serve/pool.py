"""``spidercli serve``'s judging processes: each request's log is judged (verified, hinted at,
solved) in a worker process of its own, never in the server's, so that a log that costs seconds
never stalls the other requests, and a judge that goes wrong is killed and replaced.

The judges are forked by the server process (``Judges.start``), each with two pipes, tasks in
and answers out, framed as ``verify``'s workers frame theirs (``pool.framed``: a length and a
pickle). A judge does one task at a time; the server's event loop never blocks on one (its ends
of the pipes are non-blocking, watched by the loop).

Three limits hold each task:

- **CPU**: a judge arms a profiling timer (``ITIMER_PROF``: the process's own CPU time, whatever
  the machine's load) before each task; when it fires, the task is abandoned and answered as
  too costly, and the judge, whose state the interruption may have left anywhere, exits after
  answering; a new one takes its place.
- **Wall time**: the server gives each task a guard (``guard`` seconds): a judge that has not
  answered by then (stopped, swapped out, stuck in a C call) is killed (``SIGKILL``) and
  replaced, and the request is answered 503.
- **Death**: a judge that dies (a signal, the out-of-memory killer) costs the one request it was
  judging (503, naming the signal, as ``verify`` names it), and is replaced.

Why not ``verify``'s supervisor (``pool.supervised``): it is a generator over a batch, driven
by its caller, while here each request awaits its own answer in an event loop; what fits is
shared: the framing, a worker's start-up (``worker_init``) and the words for a death
(``worker_death``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pickle
import signal
from collections import deque
from dataclasses import dataclass, field
from typing import NamedTuple

# What a judge runs, imported once here, before the judges fork, rather than in each judge at
# its first task.
from spidercli import api
from spidercli.errors import InputError
from spidercli.judging.pool import (
    CAN_MASK,
    FRAME_HEAD,
    STOP_SIGNALS,
    framed,
    read_exactly,
    worker_death,
    worker_init,
)
from spidercli.judging.verdict import invalid, verify_one
from spidercli.play.logtypes import MoveLog
from spidercli.play.replay import IllegalLogError
from spidercli.serve.metrics import Metrics
from spidercli.text.messages import error_json, located, quoted, shown


class VerifyTask(NamedTuple):
    """Verify one log (its bytes, as a file holds them): ``verify -f jsonl``'s record."""

    data: bytes
    rules: str | None
    name: str
    max_bytes: int


class HintTask(NamedTuple):
    """The best next move of a log: ``hint --json``'s record; with ``fair``, ``hint --fair
    --json``'s (the fair hint's budget is its own: ``timeout`` and ``max_states`` unused)."""

    data: bytes
    rules: str | None
    name: str
    max_bytes: int
    timeout: float
    max_states: int
    fair: bool = False


class SolveTask(NamedTuple):
    """A search for a win of a game code (``game``) or of a log's deal (``data``): ``solve
    --json``'s record."""

    game: str | None
    data: bytes | None
    rules: str | None
    name: str
    max_bytes: int
    timeout: float
    max_states: int


TABLE_SECONDS = 5.0  # CPU a judge may take, beyond a request's, to read the table of deals
NAME = "request"  # the name of a request's log in every record and message


class DealsTask(NamedTuple):
    """The table of settled deals: ``deals NAME --json``'s object (a set's summary, or a deal's
    entry). A judge reads the table on its first such task (some 0.5 s of CPU), then keeps it."""

    name: str


JudgeTask = VerifyTask | HintTask | SolveTask | DealsTask


class Answer(NamedTuple):
    """A judge's answer: the HTTP ``status``, the JSON ``body`` (text), and the ``verdict``'s
    status for a verified log (None otherwise)."""

    status: int
    body: str
    verdict: str | None = None


class Busy(Exception):
    """No judge is free and the queue of requests waiting for one is full."""


# ------------------------------------------------------------------------ in a judge


class _Spent(BaseException):
    """The task's CPU budget ran out (raised by the profiling timer's signal). A BaseException, so
    that no ``except Exception`` on the way swallows it."""


def _spent(signum: int, frame: object) -> None:
    raise _Spent


def _error(message: str, line: int | None = None) -> str:
    return json.dumps(error_json(message, line), ensure_ascii=False)


def _run(task: JudgeTask) -> Answer:
    """The task's answer (in a judge)."""
    if isinstance(task, VerifyTask):
        verdict = verify_one(task.name, task.rules, True, task.max_bytes, content=task.data)
        assert verdict.json is not None
        status = 422 if verdict.replayed is None else 200
        return Answer(status, verdict.json, verdict.status)
    if isinstance(task, DealsTask):
        try:
            table = api.settled(task.name) if "-" in task.name else api.deals(task.name)
        except InputError as err:
            return Answer(422, _error(str(err), err.line))
        return Answer(200, json.dumps(table.to_json(), ensure_ascii=False))
    try:
        if isinstance(task, HintTask):
            log = api.parse_log(task.data, name=task.name, max_bytes=task.max_bytes)
            if task.fair:
                record = api.hint(log, rules=task.rules, fair=True).to_json()
            else:
                hinted = api.hint(
                    log, rules=task.rules, timeout=task.timeout, max_states=task.max_states
                )
                record = hinted.to_json()
        else:
            game: str | MoveLog
            if task.data is not None:
                game = api.parse_log(task.data, name=task.name, max_bytes=task.max_bytes)
            else:
                game = task.game or ""
            found = api.solve(
                game, rules=task.rules, timeout=task.timeout, max_states=task.max_states
            )
            record = found.to_json()
    except (InputError, IllegalLogError) as err:
        return Answer(422, _error(str(err), err.line))
    return Answer(200, json.dumps(record, ensure_ascii=False))


def _too_costly(task: JudgeTask, seconds: float) -> Answer:
    if isinstance(task, DealsTask):
        return Answer(
            422,
            _error(
                f"reading the table of settled deals for {quoted(task.name)} took more than "
                f"{seconds:g} s of CPU (this server's limit for one request, "
                f"{seconds - TABLE_SECONDS:g} s, and {TABLE_SECONDS:g} s to read the table); "
                "retry, or ask the command line (spidercli deals)"
            ),
        )
    message = located(
        task.name,
        None,
        f"judging this request took more than {seconds:g} s of CPU, this server's limit for "
        "one request; verify it with the command line, or on a server with a higher "
        "--cpu-seconds",
    )
    if isinstance(task, VerifyTask):
        verdict = invalid(task.name, message, None, True)
        assert verdict.json is not None
        return Answer(422, verdict.json, verdict.status)
    return Answer(422, _error(message))


def answer(task: JudgeTask, cpu: float) -> tuple[Answer, bool]:
    """``task``'s answer within ``cpu`` seconds of this process's CPU, and whether this judge
    must now retire (the budget ran out, or a bug was met: its state may be anything)."""
    try:
        try:
            signal.setitimer(signal.ITIMER_PROF, cpu)
            return _run(task), False
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
    except _Spent:
        return _too_costly(task, cpu), True
    except Exception as err:  # a bug, not the input's fault: say so, and start afresh
        what = "the name asked for" if isinstance(task, DealsTask) else "this log"
        message = located(
            NAME if isinstance(task, DealsTask) else task.name,
            None,
            f"internal error: {type(err).__name__}: {shown(str(err))}. Please report it with "
            f"{what}.",
        )
        return Answer(500, _error(message)), True


def _judge(tasks: int, answers: int) -> None:
    """A judge's loop: a task (with its CPU budget) in, its answer out, until the server closes
    the task pipe, or the judge must retire."""
    worker_init()
    signal.signal(signal.SIGPROF, _spent)
    with open(tasks, "rb") as reader, open(answers, "wb") as writer:
        while True:
            head = read_exactly(reader, FRAME_HEAD.size)
            if head is None:
                return
            body = read_exactly(reader, FRAME_HEAD.unpack(head)[0])
            if body is None:
                return
            task, cpu = pickle.loads(body)
            reply, retire = answer(task, cpu)
            writer.write(framed((reply, retire)))
            writer.flush()
            if retire:
                return


# ------------------------------------------------------------------- in the server


@dataclass(eq=False)
class _Judge:
    pid: int
    tasks: int  # the write end of its task pipe (non-blocking)
    answers: int  # the read end of its answer pipe (non-blocking)
    unsent: bytearray = field(default_factory=bytearray)
    received: bytearray = field(default_factory=bytearray)
    future: asyncio.Future[Answer] | None = None  # the answer awaited
    why: str = "died"  # why it ends, when it does: died, cpu, stuck
    retiring: bool = False


_PIPE_SIZE = 1 << 20  # a log at the limit in one write, where Linux lets a pipe hold it


class Judges:
    """``count`` judging processes and the requests waiting for one (at most ``queue``)."""

    def __init__(self, count: int, queue: int, metrics: Metrics) -> None:
        self.count = count
        self.queue = queue
        self.metrics = metrics
        self.judges: dict[int, _Judge] = {}  # by pid
        self._idle: list[_Judge] = []
        self._waiters: deque[asyncio.Future[_Judge]] = deque()
        self._closing = False

    def start(self) -> None:
        """Fork the judges (from the running event loop's thread)."""
        for _ in range(self.count):
            self._release(self._spawn())

    def pids(self) -> list[int]:
        return sorted(self.judges)

    def _spawn(self) -> _Judge:
        loop = asyncio.get_running_loop()
        tasks_in, tasks_out = os.pipe()
        answers_in, answers_out = os.pipe()
        for fd in (tasks_in, answers_in):
            with contextlib.suppress(OSError, AttributeError):
                import fcntl  # not on Windows

                fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, _PIPE_SIZE)
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS) if CAN_MASK else None
        try:
            pid = os.fork()
            if pid == 0:  # the judge: it never returns from here
                status = 70
                try:
                    signal.set_wakeup_fd(-1)  # the server's loop's, not the judge's
                    _close_all_but(tasks_in, answers_out)
                    _judge(tasks_in, answers_out)
                    status = 0
                finally:
                    os._exit(status)
        finally:
            if mask is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        os.close(tasks_in)
        os.close(answers_out)
        os.set_blocking(tasks_out, False)
        os.set_blocking(answers_in, False)
        judge = _Judge(pid, tasks_out, answers_in)
        self.judges[pid] = judge
        loop.add_reader(answers_in, self._readable, judge)
        return judge

    def _release(self, judge: _Judge) -> None:
        """A free judge: to the first request waiting, else to the idle ones."""
        if judge.retiring or self.judges.get(judge.pid) is not judge:
            return
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(judge)
                return
        self._idle.append(judge)

    async def _acquire(self) -> _Judge:
        if self._idle:
            return self._idle.pop()
        if sum(not w.done() for w in self._waiters) >= self.queue:
            raise Busy
        waiter: asyncio.Future[_Judge] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._release(waiter.result())  # handed over as this request was cancelled
            raise

    async def ask(self, task: JudgeTask, cpu: float, guard: float) -> Answer:
        """``task``'s answer from a free judge (waiting for one), within ``cpu`` seconds of the
        judge's CPU and ``guard`` seconds of waiting for it once sent. ``Busy`` when no judge is
        free and the queue is full."""
        judge = await self._acquire()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Answer] = loop.create_future()
        judge.future = future
        judge.unsent += framed((task, cpu))
        self._write(judge)
        stuck = loop.call_later(guard, self._stuck, judge, future, guard)
        try:
            return await future
        finally:
            stuck.cancel()

    def _write(self, judge: _Judge) -> None:
        loop = asyncio.get_running_loop()
        try:
            del judge.unsent[: os.write(judge.tasks, judge.unsent)]
        except BlockingIOError:
            pass
        except BrokenPipeError:  # the judge is gone: its answer pipe says so
            judge.unsent.clear()
        if judge.unsent:
            loop.add_writer(judge.tasks, self._write, judge)
        else:
            loop.remove_writer(judge.tasks)

    def _readable(self, judge: _Judge) -> None:
        try:
            data = os.read(judge.answers, 1 << 20)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._lost(judge)
            return
        buffer = judge.received
        buffer += data
        start = 0
        while len(buffer) - start >= FRAME_HEAD.size:
            (size,) = FRAME_HEAD.unpack_from(buffer, start)
            end = start + FRAME_HEAD.size + size
            if end > len(buffer):
                break
            reply, retire = pickle.loads(buffer[start + FRAME_HEAD.size : end])
            start = end
            if retire:
                judge.retiring = True
                judge.why = "cpu"
            future, judge.future = judge.future, None
            if future is not None and not future.done():
                future.set_result(reply)
            self._release(judge)
        del buffer[:start]

    def _stuck(self, judge: _Judge, future: asyncio.Future[Answer], guard: float) -> None:
        """A judge that has not answered within its guard: killed, and the request answered."""
        if judge.future is not future or self.judges.get(judge.pid) is not judge:
            return
        judge.why = "stuck"
        judge.retiring = True
        judge.future = None
        with contextlib.suppress(ProcessLookupError):
            os.kill(judge.pid, signal.SIGKILL)
        if not future.done():
            message = (
                f"the process judging this request did not answer within {guard:g} s (the "
                "server may be overloaded); it was stopped and replaced: try again"
            )
            future.set_result(Answer(503, _error(message)))

    def _lost(self, judge: _Judge) -> None:
        """A judge ended (retired, killed, crashed): its request answered, a new judge made."""
        loop = asyncio.get_running_loop()
        loop.remove_reader(judge.answers)
        loop.remove_writer(judge.tasks)
        for fd in (judge.answers, judge.tasks):
            with contextlib.suppress(OSError):
                os.close(fd)
        del self.judges[judge.pid]
        with contextlib.suppress(ValueError):
            self._idle.remove(judge)
        status: int | None = None
        with contextlib.suppress(ChildProcessError):
            _, status = os.waitpid(judge.pid, 0)
        future, judge.future = judge.future, None
        if future is not None and not future.done():
            message = (
                f"internal error: the process judging this request {worker_death(status)}; "
                "it was replaced: try again, and report it with this log if it happens again"
            )
            future.set_result(Answer(503, _error(message)))
        if self._closing:
            return
        self.metrics.replaced(judge.why)
        with contextlib.suppress(OSError):  # no process to be had now: one judge fewer
            self._release(self._spawn())

    async def close(self) -> None:
        """End the judges once their answers are in (the server has stopped taking requests)."""
        self._closing = True
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 10
        while any(j.future is not None for j in self.judges.values()) and loop.time() < deadline:
            await asyncio.sleep(0.01)
        judges = list(self.judges.values())
        for judge in judges:
            loop.remove_reader(judge.answers)
            loop.remove_writer(judge.tasks)
            for fd in (judge.tasks, judge.answers):
                with contextlib.suppress(OSError):
                    os.close(fd)  # the judge reads the end of its task pipe and exits
        for judge in judges:
            for _ in range(500):
                pid, _status = os.waitpid(judge.pid, os.WNOHANG)
                if pid:
                    break
                await asyncio.sleep(0.01)
            else:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(judge.pid, signal.SIGKILL)
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(judge.pid, 0)
        self.judges.clear()


def _close_all_but(*keep: int) -> None:
    """Close every file descriptor above 2 but ``keep``: a judge holds no socket of the server's
    (the listening one above all: a judge left behind must not keep the port)."""
    low = 3
    for fd in sorted(keep):
        if fd >= low:
            os.closerange(low, fd)
            low = fd + 1
    os.closerange(low, os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 65536)
