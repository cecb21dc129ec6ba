"""`verify`'s worker processes dying: killed from outside (SIGKILL, as the out-of-memory killer
does; SIGSEGV), crashing or exiting by themselves. The log a dead worker was verifying gets a
verdict of its own, a new worker takes its place, every other log is verified and written in
order, and the run ends with the right exit status: no hang, no orphan, no traceback.

Every run here is a real `spidercli verify` in a subprocess, under a timeout that guards against
a hang (not a speed test). Where a worker must die on a given log, a harness replaces
``workers.verify_one`` in that subprocess before the CLI starts (the forked workers inherit it):
the production code has no hook for this."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import ROOT
from tests.processes import children, group_gone, slow_folder

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/task").exists() or not hasattr(os, "fork"), reason="needs /proc, fork"
)

SMALL = "game: SD1-S1-AAAABIW\nmoves: [7>1]\n"  # a valid log: one legal move
GUARD = 120  # seconds: a hang fails the test instead of stopping the suite

# The harness: ``python -c HARNESS FATES ARGS...`` runs ``spidercli ARGS...`` with each log named
# in FATES (JSON, file name -> fate) meeting its fate in the worker that verifies it.
HARNESS = """
import ctypes, json, os, signal, sys, time
from spidercli.judging import workers
from spidercli.cli.app import main

fates = json.loads(sys.argv[1])
real = workers.verify_one

def fated(path, *args):
    fate = fates.get(os.path.basename(path))
    if fate == "hang":  # say which process, then wait to be killed from outside
        note = os.environ["HARNESS_PID_FILE"]
        with open(note + ".part", "w") as handle:
            handle.write(str(os.getpid()))
        os.rename(note + ".part", note)
        time.sleep(600)
    elif fate == "sigkill":
        os.kill(os.getpid(), signal.SIGKILL)
    elif fate == "segfault":
        ctypes.string_at(0)  # reads address 0: a real segmentation fault
    elif fate == "exit":
        os._exit(3)
    return real(path, *args)

workers.verify_one = fated
forks = int(os.environ.get("HARNESS_FORKS", "-1"))  # how many workers can be started
fork = os.fork

def limited():
    global forks
    if forks == 0:
        raise BlockingIOError(11, "Resource temporarily unavailable")
    forks -= 1
    return fork()

os.fork = limited
sys.argv = ["spidercli", *sys.argv[2:]]
main()
"""


def _no_core() -> None:
    """In the child: no core file from a crashing worker (the working folder is the checkout)."""
    import resource

    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _logs(folder: Path, count: int) -> list[str]:
    folder.mkdir()
    paths = []
    for i in range(count):
        path = folder / f"log{i:02}.yaml"
        path.write_text(SMALL)
        paths.append(str(path))
    return paths


def _start(fates: dict[str, str], args: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", HARNESS, json.dumps(fates), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, **env},
        preexec_fn=_no_core,
        start_new_session=True,  # its own process group: what is left of it can be found
    )


def _finish(proc: subprocess.Popen[str]) -> tuple[str, str]:
    try:
        return proc.communicate(timeout=GUARD)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _dead(message: str) -> str:
    return f"internal error: the worker process verifying this log {message}. Please report it"


KILLED = _dead("was killed (SIGKILL); the system may have run out of memory")


def _check(out: str, err: str, code: int, paths: list[str], dead: dict[str, str]) -> None:
    """Every log's record, in order; the logs in ``dead`` (path -> message) invalid-input with
    that message, the others valid; the exit status and the summary to match."""
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["file"] for r in records] == paths
    for record in records:
        if record["file"] in dead:
            assert record["status"] == "invalid-input", record
            message = record["error"]["message"]
            assert message.startswith(f"{record['file']}: {dead[record['file']]}"), message
            assert record["error"]["line"] is None
        else:
            assert record["status"] == "valid", record
    assert code == (2 if dead else 0), err
    logs = "1 log" if len(paths) == 1 else f"{len(paths)} logs"
    summary = f"{logs}: {len(paths) - len(dead)} valid, 0 illegal, 0 expect-failed"
    assert f"{summary}, {len(dead)} invalid-input" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGSEGV], ids=["SIGKILL", "SIGSEGV"])
def test_a_worker_killed_from_outside_costs_only_its_log(tmp_path: Path, signum: int) -> None:
    paths = _logs(tmp_path / "logs", 40)
    note = tmp_path / "pid"
    proc = _start(
        {"log07.yaml": "hang"},
        ["verify", str(tmp_path / "logs"), "-f", "jsonl", "-j", "2"],
        {"HARNESS_PID_FILE": str(note)},
    )
    try:
        deadline = time.monotonic() + GUARD
        while not note.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.02)
        worker = int(note.read_text())  # the worker verifying log07, stuck in it
        assert worker in children(proc.pid)
        os.kill(worker, signum)
        out, err = _finish(proc)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    name = signal.Signals(signum).name
    message = KILLED if signum == signal.SIGKILL else _dead(f"was killed ({name})")
    _check(out, err, proc.returncode, paths, {paths[7]: message})
    assert group_gone(proc.pid), "a worker outlived the run"


@pytest.mark.parametrize(
    ("fate", "message"),
    [
        ("sigkill", KILLED),
        ("segfault", _dead("was killed (SIGSEGV)")),
        ("exit", _dead("ended unexpectedly (exit status 3)")),
    ],
    ids=["sigkill", "segfault", "exit"],
)
def test_a_worker_that_dies_by_itself_costs_only_its_log(
    tmp_path: Path, fate: str, message: str
) -> None:
    paths = _logs(tmp_path / "logs", 40)
    fates = {"log07.yaml": fate, "log30.yaml": fate}
    proc = _start(fates, ["verify", str(tmp_path / "logs"), "-f", "jsonl", "-j", "2"], {})
    out, err = _finish(proc)
    _check(out, err, proc.returncode, paths, {paths[7]: message, paths[30]: message})
    assert group_gone(proc.pid)


def test_when_every_worker_dies_every_log_still_gets_its_verdict(tmp_path: Path) -> None:
    paths = _logs(tmp_path / "logs", 12)
    fates = {Path(p).name: "sigkill" for p in paths}
    proc = _start(fates, ["verify", str(tmp_path / "logs"), "-f", "jsonl", "-j", "3"], {})
    out, err = _finish(proc)
    _check(out, err, proc.returncode, paths, dict.fromkeys(paths, KILLED))
    # A wide terminal: the table wraps to the width, and this test reads one line a log.
    table = _start(fates, ["verify", str(tmp_path / "logs"), "-j", "3"], {"COLUMNS": "1000"})
    out, err = _finish(table)
    assert table.returncode == 2 and "Traceback" not in err
    lines = out.splitlines()
    assert lines[0] == f"INVALID-INPUT  {paths[0]}: {KILLED} with this log."
    assert lines[-1] == "12 logs: 0 valid, 0 illegal, 0 expect-failed, 12 invalid-input"


def test_a_real_worker_killed_mid_run(tmp_path: Path) -> None:
    """No harness: the plain CLI on logs that take a while each, one of its workers (found in
    /proc) killed once the first verdict is out. With about a hundred logs still to verify, the
    worker is on one of them: exactly one verdict says it was killed."""
    folder = slow_folder(tmp_path, pairs=2000, copies=100)
    proc = subprocess.Popen(
        [sys.executable, "-m", "spidercli", "verify", str(folder), "-f", "jsonl", "-j", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()  # the workers are going
        os.kill(children(proc.pid)[0], signal.SIGKILL)
        rest, err = _finish(proc)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    records = [json.loads(line) for line in (first + rest).splitlines()]
    assert [Path(r["file"]).name for r in records] == [f"{i:03}.yaml" for i in range(100)]
    killed = [r for r in records if r["status"] != "valid"]
    assert len(killed) == 1, killed
    assert KILLED in killed[0]["error"]["message"]
    assert proc.returncode == 2 and "Traceback" not in err
    assert group_gone(proc.pid)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    count=st.integers(1, 70),
    jobs=st.integers(2, 4),
    chosen=st.dictionaries(
        st.integers(0, 69), st.sampled_from(["sigkill", "segfault", "exit"]), max_size=8
    ),
)
def test_any_deaths_anywhere(tmp_path_factory: Any, count: int, jobs: int, chosen: Any) -> None:
    """Deaths at any place in the order (the first log, chunk boundaries, several in a row, the
    last), with any number of workers: each costs its log's verdict alone, and the order holds."""
    paths = _logs(tmp_path_factory.mktemp("any") / "logs", count)
    fates = {f"log{i:02}.yaml": fate for i, fate in chosen.items() if i < count}
    proc = _start(fates, ["verify", str(Path(paths[0]).parent), "-f", "jsonl", "-j", str(jobs)], {})
    out, err = _finish(proc)
    words = {
        "sigkill": KILLED,
        "segfault": _dead("was killed (SIGSEGV)"),
        "exit": _dead("ended unexpectedly (exit status 3)"),
    }
    dead = {str(Path(paths[0]).parent / name): words[fate] for name, fate in fates.items()}
    _check(out, err, proc.returncode, paths, dead)


def _ended(pid: int) -> bool:
    """Whether a process has ended (gone, or a zombie its new parent has not reaped yet)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def test_workers_end_when_the_parent_is_killed(tmp_path: Path) -> None:
    """A parent killed outright (SIGKILL: no clean-up of its own) leaves no orphan working on: a
    busy worker ends when it sends its next verdict (the pipe has no reader), an idle one at the
    end of its task pipe (no other process holds it open)."""
    folder = slow_folder(tmp_path, pairs=2000, copies=100)
    proc = subprocess.Popen(
        [sys.executable, "-m", "spidercli", "verify", str(folder), "-f", "jsonl", "-j", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        proc.stdout.readline()  # the workers are going
        workers = children(proc.pid)
        assert len(workers) == 2
        proc.kill()
        proc.wait(timeout=GUARD)
        deadline = time.monotonic() + 30
        while not all(_ended(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert all(_ended(pid) for pid in workers), "a worker outlived its parent"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()


@pytest.mark.parametrize("forks", [0, 1, 2])
def test_when_no_worker_can_be_started_the_run_goes_on(tmp_path: Path, forks: int) -> None:
    """``fork`` failing (out of memory, a process limit) at the start or after a worker died:
    the workers there are carry on; with none, spidercli verifies the logs itself."""
    paths = _logs(tmp_path / "logs", 40)
    fates = {"log07.yaml": "sigkill"} if forks else {}
    args = ["verify", str(tmp_path / "logs"), "-f", "jsonl", "-j", "2"]
    proc = _start(fates, args, {"HARNESS_FORKS": str(forks)})
    out, err = _finish(proc)
    _check(out, err, proc.returncode, paths, {paths[7]: KILLED} if forks else {})
    assert group_gone(proc.pid)


def test_an_ignored_sigchld_does_not_lose_a_dead_workers_status(tmp_path: Path) -> None:
    """A parent started with SIGCHLD ignored (inherited) would have its dead workers reaped by the
    system: verify takes SIGCHLD back while it runs, so the signal is still named."""
    paths = _logs(tmp_path / "logs", 40)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import signal; signal.signal(signal.SIGCHLD, signal.SIG_IGN);" + HARNESS,
            json.dumps({"log07.yaml": "sigkill"}),
            "verify",
            str(tmp_path / "logs"),
            "-f",
            "jsonl",
            "-j",
            "2",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        start_new_session=True,
    )
    out, err = _finish(proc)
    _check(out, err, proc.returncode, paths, {paths[7]: KILLED})


@given(st.floats(0, 10), st.floats(0, 10))
def test_slower_logs_are_given_fewer_ahead(a: float, b: float) -> None:
    """A worker holds about ``_AHEAD`` seconds of logs: at most ``_CHUNK``, at least one, fewer
    the slower the logs."""
    from spidercli.judging.pool import _AHEAD, _CHUNK, _ahead

    assert _ahead(None) == _ahead(0.0) == _CHUNK
    assert 1 <= _ahead(a) <= _CHUNK
    if a <= b:
        assert _ahead(a) >= _ahead(b)
    if a >= 1:
        assert _ahead(a) == 1
    assert _ahead(_AHEAD / 4) == 4


def test_a_tournament_rejects_the_log_whose_worker_died(tmp_path: Path) -> None:
    """``tournament`` verifies through the same workers: the log is rejected, saying why, and the
    other players are ranked."""
    folder = tmp_path / "logs"
    folder.mkdir()
    for player in ("ann", "bob", "cid"):
        (folder / f"{player}.yaml").write_text(SMALL.replace("moves:", f"player: {player}\nmoves:"))
    args = ["tournament", str(folder), "-f", "json", "-j", "2"]
    proc = _start({"bob.yaml": "sigkill"}, args, {})
    out, err = _finish(proc)
    assert "Traceback" not in err
    result = json.loads(out)
    assert [s["player"] for s in result["standings"]] == ["ann", "cid"]
    [rejected] = result["rejected"]
    assert rejected["file"] == str(folder / "bob.yaml")
    assert KILLED in rejected["reason"]
