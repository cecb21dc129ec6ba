"""Messages of any size between `verify`'s supervisor and its workers, in both directions.

Each message is an 8-byte length and a pickle; a pipe holds 64 KiB. A message to a worker larger
than what its pipe takes at once (a log read from standard input, long paths, many tasks in one
message) is written in parts as the worker reads; a verdict larger than a pipe (a long player name
in a JSON record) is read in parts. Sizes here run from nothing to several pipes, exactly at the
pipe's size and one byte either side, both ways at once, and random (a property test).

Every run is a real process under a timeout (a hang fails the test instead of stopping the
suite), as in test_workers.py. The supervisor-level runs replace ``workers.verify_one`` in their
process with an echo whose task and verdict sizes are chosen by the test, so that a message's
size is exact."""

from __future__ import annotations

import fcntl
import functools
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spidercli.judging.pool import framed
from spidercli.judging.verdict import Verdict
from spidercli.logs.files import MAX_LOG_BYTES
from tests.helpers import ROOT
from tests.processes import run_guarded

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")

GUARD = 60  # seconds: far more than any run here takes; a hang fails the test


def _pipe_size() -> int:
    """What a new pipe holds (64 KiB on Linux unless changed)."""
    read, write = os.pipe()
    try:
        return int(fcntl.fcntl(write, getattr(fcntl, "F_GETPIPE_SZ", 1032)))
    except OSError:  # pragma: no cover - not Linux
        return 1 << 16
    finally:
        os.close(read)
        os.close(write)


PIPE = _pipe_size()

# ``python -c SUPERVISE JOBS TASK:REPLY ...``: one supervisor (``JOBS`` workers) per group of
# arguments separated by ``/``; task ``i`` carries TASK bytes of content, its verdict a message of
# REPLY characters. Prints each verdict's file and message length as it comes.
SUPERVISE = """
import sys
from spidercli.judging import pool, verdict, workers

def echo(path, rules, want_json, max_bytes, content, html_dir):
    assert len(content) == int(path.split(":")[1]), "the task arrived cut"
    return verdict.Verdict(path, "valid", None, message="v" * int(rules))

workers.verify_one = echo
jobs = int(sys.argv[1])
for group in " ".join(sys.argv[2:]).split(" / "):
    tasks = []
    for i, pair in enumerate(group.split()):
        task, reply = pair.split(":")
        tasks.append((f"{i:04}:{task}", reply, False, None, b"t" * int(task), None))
    supervisor = pool._Supervisor(iter(tasks), jobs, workers._verify_star, workers._died)
    for made in supervisor.results():
        print(made.file, len(made.message), flush=True)
    print("/", flush=True)
"""


def _supervise(jobs: int, groups: list[list[tuple[int, int]]]) -> None:
    """Run the groups of (task bytes, reply characters) through supervisors of ``jobs``
    workers; every verdict must come back whole, in order."""
    args = " / ".join(" ".join(f"{t}:{r}" for t, r in group) for group in groups).split()
    proc = run_guarded([sys.executable, "-c", SUPERVISE, str(jobs), *args], GUARD, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    expected = []
    for group in groups:
        expected += [f"{i:04}:{t} {r}" for i, (t, r) in enumerate(group)] + ["/"]
    assert proc.stdout.splitlines() == expected


def _exact(size: int, frame: Callable[[int], int]) -> int:
    """The least ``n`` whose message ``frame(n)`` is ``size`` bytes or more (a message grows
    with ``n``; pickle's opcodes for short and long strings make a few sizes unreachable)."""
    low, high = 0, size
    while low < high:
        middle = (low + high) // 2
        if frame(middle) < size:
            low = middle + 1
        else:
            high = middle
    return low


def _task_message(n: int) -> int:
    """The size of a message of one task with ``n`` bytes of content, as the supervisor's
    harness makes it."""
    return len(framed([(f"0000:{n}", "0", False, None, b"t" * n, None)]))


def _verdict_message(n: int) -> int:
    return len(framed(Verdict("0000:0", "valid", None, message="v" * n, seconds=0.5)))


# Message sizes: nothing, a few bytes, PIPE_BUF (the most a pipe writes at once), a pipe less
# one byte, a pipe, a pipe and one byte, then several pipes.
SIZES = [
    0,
    1,
    4095,
    4096,
    4097,
    PIPE - 1,
    PIPE,
    PIPE + 1,
    2 * PIPE - 1,
    2 * PIPE + 1,
    3 * PIPE + 17,
    16 * PIPE,
]


@functools.cache
def _as_task(size: int) -> int:
    return _exact(size, _task_message) if size > 300 else size


@functools.cache
def _as_reply(size: int) -> int:
    return _exact(size, _verdict_message) if size > 300 else size


def test_the_exact_sizes_are_reached() -> None:
    """The sizes the next tests send are what they say: a message of a pipe's size exactly, and
    one byte either side."""
    for size in (PIPE - 1, PIPE, PIPE + 1, 3 * PIPE + 17):
        assert _task_message(_as_task(size)) == size
        assert _verdict_message(_as_reply(size)) == size


@pytest.mark.parametrize("jobs", [2, 3])
def test_tasks_of_every_size_reach_the_workers(jobs: int) -> None:
    """Each size alone (the first message to a worker holds one task: its size is exact), then
    all of them in one run, where messages of several tasks grow larger still."""
    groups = [[(_as_task(size), 0)] * jobs for size in SIZES]
    groups.append([(_as_task(size), 0) for size in SIZES * 3])
    _supervise(jobs, groups)


def test_verdicts_of_every_size_reach_the_parent() -> None:
    groups = [[(0, _as_reply(size))] * 2 for size in SIZES]
    groups.append([(0, _as_reply(size)) for size in SIZES * 3])
    _supervise(2, groups)


def test_big_messages_both_ways_at_once() -> None:
    """Large tasks and large verdicts crossing: a worker busy writing a verdict the parent has
    not read yet while the parent still has part of a message for it."""
    big = [_as_task(s) for s in SIZES]
    replies = [_as_reply(s) for s in reversed(SIZES)]
    _supervise(2, [list(zip(big, replies, strict=True)) * 2, [(b, b) for b in big]])


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    jobs=st.integers(2, 4),
    pairs=st.lists(
        st.tuples(st.integers(0, 5 * PIPE), st.integers(0, 5 * PIPE)), min_size=1, max_size=40
    ),
)
def test_any_sizes_any_workers(jobs: int, pairs: list[tuple[int, int]]) -> None:
    _supervise(jobs, [pairs])


# ------------------------------------------------------------------- through the command line


def _spidercli(args: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    return run_guarded([sys.executable, "-m", "spidercli", *args], GUARD, cwd=ROOT, stdin=stdin)


def _records(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


def _padded(size: int) -> bytes:
    """A valid log of exactly ``size`` bytes: one move and a comment making up the rest."""
    head = b"game: SD1-S1-AAAABIW\nmoves: [7>1]\n# "
    return head + b"x" * (size - len(head) - 1) + b"\n"


def test_a_long_log_on_standard_input(tmp_path: Path) -> None:
    """The issue's case: `cat long.yaml | spidercli verify - --jobs 2`, a 180 KB log of legal
    deals and undos."""
    log = b"game: SP1-S1C-AAAAAAD\nmoves: [" + b"deal, undo, " * 15_000 + b"deal]\n"
    assert len(log) > 2 * PIPE
    proc = _spidercli(["verify", "-", "--jobs", "2", "-f", "jsonl"], log)
    [record] = _records(proc.stdout)
    assert (record["file"], record["status"], record["actions"]) == ("-", "valid", 30_001)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize(
    ("size", "status"),
    [
        (MAX_LOG_BYTES - 1, "valid"),
        (MAX_LOG_BYTES, "valid"),
        (MAX_LOG_BYTES + 1, "invalid-input"),  # read by the parent, refused by the worker
    ],
)
def test_standard_input_at_the_size_limit(size: int, status: str) -> None:
    log = _padded(size)
    assert len(log) == size
    proc = _spidercli(["verify", "-", "-j", "2", "-f", "jsonl"], log)
    [record] = _records(proc.stdout)
    assert record["status"] == status, record
    if status != "valid":
        assert "is larger than the limit of 1,048,576 bytes" in record["error"]["message"]
    assert "Traceback" not in proc.stderr


def _deep_folder(root: Path, length: int) -> Path:
    """A folder whose path is about ``length`` characters long (names of 200 characters)."""
    folder = root
    while len(str(folder)) < length - 210:
        folder /= "d" * 200
    folder.mkdir(parents=True)
    return folder


def test_64_logs_with_paths_of_3800_characters(tmp_path: Path) -> None:
    """The issue's other case: 16 such paths make a message of tasks larger than a pipe."""
    folder = _deep_folder(tmp_path, 3_800)
    names = [f"{i:02}-" + "n" * 140 + ".yaml" for i in range(64)]
    for i, name in enumerate(names):
        player = f"p{i % 5}"
        (folder / name).write_text(f"game: SD1-S1-AAAABIW\nplayer: {player}\nmoves: [7>1]\n")
    assert len(str(folder / names[0])) > 3_700
    proc = _spidercli(["verify", str(tmp_path), "-j", "2", "-f", "jsonl"])
    records = _records(proc.stdout)
    assert [r["file"] for r in records] == [str(folder / name) for name in names]
    assert {r["status"] for r in records} == {"valid"}
    assert proc.returncode == 0, proc.stderr
    standings = _spidercli(["tournament", str(tmp_path), "-j", "2", "-f", "json"])
    assert standings.returncode == 0, standings.stderr
    players = [s["player"] for s in json.loads(standings.stdout)["standings"]]
    assert sorted(players) == [f"p{i}" for i in range(5)]


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_verdicts_larger_than_a_pipe(tmp_path: Path, fmt: str) -> None:
    """A player's name of up to several pipes travels back in the verdict (in its figures, which
    CSV and tournaments write) and is written whole."""
    sizes = [0, 1, PIPE - 100, PIPE, PIPE + 1, 3 * PIPE]
    for i, size in enumerate(sizes):
        log = f"game: SD1-S1-AAAABIW\nplayer: p{'x' * size}\nmoves: [7>1]\n"
        (tmp_path / f"{i}.yaml").write_text(log)
    proc = _spidercli(["verify", str(tmp_path), "-j", "2", "-f", fmt])
    assert proc.returncode == 0, proc.stderr
    if fmt == "jsonl":
        assert [r["status"] for r in _records(proc.stdout)] == ["valid"] * len(sizes)
    else:
        players = [row.split(",")[5] for row in proc.stdout.splitlines()[1:]]
        assert players == ["p" + "x" * size for size in sizes]
    standings = _spidercli(["tournament", str(tmp_path), "-j", "2", "-f", "json"])
    assert standings.returncode == 0, standings.stderr
    assert len(json.loads(standings.stdout)["standings"]) == len(sizes)
