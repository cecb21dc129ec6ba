"""Helpers for tests that run ``spidercli verify`` as a real process and watch its workers."""

from __future__ import annotations

import os
import time
from pathlib import Path


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
