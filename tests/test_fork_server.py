"""No worker is forked from a process with other threads: fork() there may leave the child waiting
forever on a lock another thread held, and CPython 3.12+ warns "This process ... is
multi-threaded, use of fork() may lead to deadlocks in the child" (an error in this suite:
pyproject.toml's ``filterwarnings``). The command line draws its progress bar from its one thread;
a program with threads (pytest-xdist's worker included) has its workers forked by a fork server
(pool.py, "the fork server"), supervised as forked ones are."""

from __future__ import annotations

import os
import pty
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import spidercli
from spidercli.judging import pool
from spidercli.judging.verdict import Verdict
from spidercli.text import i18n
from tests.helpers import ROOT
from tests.processes import children

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork") or not hasattr(os, "posix_spawn") or not Path("/proc/self").is_dir(),
    reason="needs fork, posix_spawn and /proc",
)

GUARD = 120  # seconds: a hang fails the test instead of stopping the suite


@pytest.fixture
def a_thread() -> Iterator[threading.Thread]:
    """A second thread alive while the test runs, as a program's own (or pytest-xdist's)."""
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, daemon=True)
    thread.start()
    yield thread
    stop.set()
    thread.join()


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each ``os.fork`` of this process (it still forks), with the threads it had."""
    made: list[int] = []
    real = os.fork

    def counted() -> int:
        made.append(threading.active_count())
        return real()

    monkeypatch.setattr(os, "fork", counted)
    return made


# The functions the workers run: module-level, so that a fork server finds them by name.


def fated(task: str) -> str:
    if task == "die":
        os.kill(os.getpid(), signal.SIGKILL)
    if task == "slow":
        time.sleep(0.3)
    if task == "hang":
        time.sleep(GUARD)
    return task.upper()


def died(task: str, status: int | None) -> str:
    return f"{task} died: {pool.worker_death(status)}"


def setting(task: str) -> tuple[str, str, str | None, str]:
    """What a worker took from the process it works for."""
    from spidercli.logs import yamlreader

    return (
        i18n.language(),
        os.getcwd(),
        os.environ.get("TEST_SETTING"),
        yamlreader.LOADER.__name__,
    )


def _said(verdicts: Iterator[Verdict]) -> list[tuple[str, str, str | None]]:
    return [(v.file, v.status, v.json) for v in verdicts]


# ------------------------------------------------------------------------------ the command line

HARNESS = """
import os, sys, threading
from spidercli.cli.app import main

fork = os.fork

def counted():
    print(f"fork with {threading.active_count()} threads", flush=True)
    return fork()

os.fork = counted
sys.argv = ["spidercli", *sys.argv[1:]]
main()
"""


def test_verify_on_a_terminal_forks_its_workers_from_one_thread() -> None:
    """The progress bar (stderr a terminal) is drawn by the command's own thread: rich's
    refreshing thread would be running when the workers are forked."""
    ours, theirs = pty.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-c", HARNESS, "verify", "fixtures", "-j", "2", "-f", "jsonl"],
            stdout=subprocess.PIPE,
            stderr=theirs,
            text=True,
            cwd=ROOT,
            env={**os.environ, "COLUMNS": "80", "TERM": "xterm"},
        )
    finally:
        os.close(theirs)
    drawn = b""
    while True:
        try:
            chunk = os.read(ours, 1 << 16)
        except OSError:  # the terminal's other end is closed: the command has ended
            break
        if not chunk:
            break
        drawn += chunk
    os.close(ours)
    out, _ = proc.communicate(timeout=GUARD)
    said = [line for line in out.splitlines() if line.startswith("fork with")]
    assert said == ["fork with 1 threads"] * 2, said
    assert b"57/57" in drawn  # the bar was drawn, to its end
    assert b"spidercli: 57 logs:" in drawn


def test_the_bar_is_drawn_at_most_ten_times_a_second() -> None:
    """The bar has no thread: each step moves it, and draws it when a tenth of a second has
    passed since it was last drawn."""
    import io

    from spidercli.cli.terminal import bar_ticker, stderr_console, verify_bar

    bar = verify_bar(100, stderr_console(io.StringIO(), width=80))
    drawn: list[int] = []
    bar.refresh = lambda: drawn.append(int(bar.tasks[0].completed))  # type: ignore[method-assign]
    now = [0.0]
    tick = bar_ticker(bar, clock=lambda: now[0])
    for step in range(10):
        now[0] = step * 0.04
        tick(None)
    assert bar.tasks[0].completed == 10
    assert drawn == [4, 7, 10]  # the steps at 0.12 s, 0.24 s and 0.36 s
    assert bar.live.auto_refresh is False


# ------------------------------------------------------------------------ a program with threads


def test_a_program_with_threads_gets_the_same_verdicts_without_forking(
    a_thread: threading.Thread, forks: list[int]
) -> None:
    assert threading.active_count() > 1
    alone = _said(spidercli.verify(["fixtures"], jobs=1))
    many = _said(spidercli.verify(["fixtures"], jobs=2))
    assert many == alone and len(many) > 50
    assert forks == []  # the fork server forked the workers


def test_a_worker_of_the_fork_server_that_dies_costs_its_task_alone(
    a_thread: threading.Thread, forks: list[int]
) -> None:
    got = list(pool.supervised(iter(["slow", "a", "die", "b"]), 2, fated, died))
    death = "die died: was killed (SIGKILL); the system may have run out of memory"
    assert got == ["SLOW", "A", death, "B"]
    loose = list(pool.supervised(iter(["slow", "a", "b"]), 2, fated, died, ordered=False))
    assert sorted(loose) == ["A", "B", "SLOW"]
    assert forks == []


def test_a_worker_of_the_fork_server_takes_this_process_s_setting(
    a_thread: threading.Thread, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its language, working folder and environment, as a forked worker would; a SPIDERCLI_
    variable read when a module is imported (SPIDERCLI_PURE_YAML) too: a new server is started
    when one changes, and only then."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TEST_SETTING", "one")
    i18n.use("cs")
    monkeypatch.delenv("SPIDERCLI_PURE_YAML", raising=False)
    from spidercli.logs import yamlreader

    ours = yamlreader.choose_loader().__name__
    got = list(pool.supervised(iter("ab"), 2, setting, died))
    assert got == [("cs", str(tmp_path), "one", ours)] * 2
    first = pool._SERVER
    monkeypatch.setenv("TEST_SETTING", "two")
    got = list(pool.supervised(iter("ab"), 2, setting, died))
    assert got == [("cs", str(tmp_path), "two", ours)] * 2
    assert pool._SERVER is first
    monkeypatch.setenv("SPIDERCLI_PURE_YAML", "1")
    i18n.use("fi")
    got = list(pool.supervised(iter("ab"), 2, setting, died))
    assert got == [("fi", str(tmp_path), "two", "PureLoader")] * 2
    assert pool._SERVER is not first


def test_a_function_not_found_by_name_is_run_in_this_process(
    a_thread: threading.Thread, forks: list[int]
) -> None:
    """A fork server finds a worker's function by name: a lambda has none, so with other threads
    running it is run here, one task at a time, rather than forked."""
    got = list(pool.supervised(iter("abc"), 2, lambda t: f"{t}{os.getpid()}", died))
    assert got == [f"{t}{os.getpid()}" for t in "abc"]
    assert forks == []


def test_a_fork_server_that_died_is_started_again(
    a_thread: threading.Thread, forks: list[int]
) -> None:
    assert list(pool.supervised(iter(["a"]), 2, fated, died)) == ["A"]
    server = pool._SERVER
    assert server is not None
    os.kill(server.pid, signal.SIGKILL)
    os.waitpid(server.pid, 0)
    got = list(pool.supervised(iter(["a", "b", "c", "d"]), 2, fated, died))
    assert got == ["A", "B", "C", "D"]
    assert pool._SERVER is not server and pool._SERVER is not None
    assert forks == []


def test_a_batch_closed_early_ends_the_fork_server_s_workers(a_thread: threading.Thread) -> None:
    results = pool.supervised(iter(["a", "hang", "hang", "hang"]), 2, fated, died)
    assert next(results) == "A"
    started = time.monotonic()
    results.close()
    assert time.monotonic() - started < GUARD / 2  # the hanging workers were killed
    server = pool._SERVER
    assert server is not None and server.live == set()
    assert children(server.pid) == []


# ------------------------------------------------------------------------------ the suite's rule


def test_the_suite_makes_forking_under_threads_an_error(pytestconfig: pytest.Config) -> None:
    """pyproject.toml's filter matches CPython's own warning (3.12 and later print it)."""
    (rule,) = [f for f in pytestconfig.getini("filterwarnings") if "multi-threaded" in f]
    action, message, category = rule.split(":")
    assert action == "error" and category == "DeprecationWarning"
    sample = (
        "This process (pid=12345) is multi-threaded, use of fork() may lead to deadlocks in "
        "the child."
    )
    assert re.match(message, sample, re.IGNORECASE)
    if sys.version_info < (3, 12):
        return
    forked = subprocess.run(
        [
            sys.executable,
            "-W",
            "always::DeprecationWarning",
            "-c",
            "import os, threading; e = threading.Event(); "
            "threading.Thread(target=e.wait, daemon=True).start(); "
            "pid = os.fork()\nif pid == 0: os._exit(0)\nos.waitpid(pid, 0)",
        ],
        capture_output=True,
        text=True,
        timeout=GUARD,
    )
    (said,) = [line for line in forked.stderr.splitlines() if "DeprecationWarning" in line]
    real = said.split("DeprecationWarning: ", 1)[1]
    assert re.match(message, real, re.IGNORECASE), real
