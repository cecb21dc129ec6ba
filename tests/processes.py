"""Helpers for tests that run ``spidercli verify`` as a real process and watch its workers."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest


def children(pid: int) -> list[int]:
    """The process ids of ``pid``'s children (from /proc)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def group_gone(pgid: int) -> bool:
    """Whether the process group ``pgid`` is gone within 30 s (a guard, not a speed test)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def interruptible() -> None:
    """A child's ``preexec_fn``: Ctrl-C (SIGINT) at its default, as in a terminal's job. A child
    started where SIGINT is ignored (a non-interactive shell's background job, some CI runners,
    a test runner's worker) would otherwise inherit that and never see the signal."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def slow_folder(root: Path, pairs: int, copies: int) -> Path:
    """``copies`` logs in ``root/slow`` that take a while each (``pairs`` legal deal/undo pairs),
    hard links of one file: distinct files to the walk, and no disk."""
    folder = root / "slow"
    folder.mkdir()
    first = folder / "000.yaml"
    first.write_text("game: SP1-S1C-AAAAAAD\nmoves: [" + "deal, undo, " * pairs + "deal]\n")
    for i in range(1, copies):
        os.link(first, folder / f"{i:03}.yaml")
    return folder


def run_guarded(
    args: list[str],
    guard: float,
    *,
    cwd: Path | None = None,
    stdin: bytes | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``args`` (in a process group of its own) to its end, its output decoded; a run that
    has not ended after ``guard`` seconds is killed with everything it started, and the test
    fails saying so (a guard against a hang, not a speed test)."""
    proc = subprocess.Popen(
        args,
        stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=env,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(stdin, timeout=guard)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        shown = " ".join(a if len(a) < 80 else a[:60] + "..." for a in args[:6])
        pytest.fail(f"hung: still running after {guard} s: {shown} (stdout ends {out[-300:]!r})")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return subprocess.CompletedProcess(
        args,
        proc.returncode,
        out.decode("utf-8", "surrogateescape"),
        err.decode("utf-8", "surrogateescape"),
    )
