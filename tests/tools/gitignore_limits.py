"""What reading .gitignore files costs ``verify DIR`` (docs/input-safety.md, "Searching folders"):
the walk of a folder of logs without a .gitignore, with a usual one, and the hostile ones at the
budget of steps a name (``gitignore.STEPS_PER_NAME``).

    .venv/bin/python -m tests.tools.gitignore_limits [--logs 20000]

Each figure is the best of three walks (``find_logs``, in this process), CPU seconds."""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from spidercli.errors import InputError
from spidercli.judging.findlogs import find_logs
from spidercli.judging.gitignore import MAX_GITIGNORE_BYTES, STEPS_PER_NAME

_USUAL_LINES = [".venv/", "__pycache__/", "*.egg-info/", "build/", "dist/", "*.so", "bench-sweep/"]
USUAL = "".join(line + "\n" for line in [*_USUAL_LINES, "/d099/", "log19?.yaml"])
# Hostile: the costliest pattern for a wildcard search, and a file of 1 MiB of patterns.
STARS = "*" + "a*" * 14 + "b\n"


def best(run: Callable[[], object]) -> tuple[float, object]:
    times = []
    got: object = None
    for _ in range(3):
        start = time.process_time()
        try:
            got = run()
        except InputError as err:
            got = f"refused: {err.message}"[:90]
        times.append(time.process_time() - start)
    return min(times), got


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--logs", type=int, default=20_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        (root / ".git").mkdir(parents=True)
        folders = max(1, args.logs // 200)
        for d in range(folders):
            sub = root / f"d{d:03}"
            sub.mkdir()
            for f in range(200):
                (sub / f"log{f:03}.yaml").touch()

        def walk(gitignore: bool) -> Callable[[], object]:
            return lambda: sum(1 for _ in find_logs([str(root)], gitignore=gitignore))

        names = folders * 201  # the logs and their folders, each matched

        def line(what: str, gitignore: bool = True) -> None:
            seconds, got = best(walk(gitignore))
            each = seconds / names * 1000
            print(f"{what:<44} {seconds:6.2f} s  {each:6.3f} ms a name  {got}", flush=True)

        print(f"{folders * 200} logs in {folders} folders; {STEPS_PER_NAME:,} steps a name")
        line("no .gitignore, --no-ignore", gitignore=False)
        line("no .gitignore")
        (root / ".gitignore").write_text(USUAL)
        line("a usual .gitignore (9 lines)")
        (root / ".gitignore").write_text("".join(f"name{i}.txt\n" for i in range(5_000)))
        line("5,000 names (git's fast path)")
        under = STEPS_PER_NAME - 1_000
        (root / ".gitignore").write_text("".join(f"n{i:07}\n" for i in range(under)))
        line(f"{under:,} names (just within the budget)")
        literal = "".join(f"n{i:07}\n" for i in range(MAX_GITIGNORE_BYTES // 9))
        (root / ".gitignore").write_text(literal)
        line(f"{literal.count(chr(10)):,} names (1 MiB)")
        (root / ".gitignore").write_text(STARS * 100)
        line("100 x " + STARS.strip() + " (log names of 10 bytes)")
        long = root / "long"
        long.mkdir()
        (long / ("a" * 150 + ".yaml")).touch()
        for patterns in (1, 2, 4):
            (long / ".gitignore").write_text(STARS * patterns)
            seconds, got = best(lambda: sum(1 for _ in find_logs([str(long)], gitignore=True)))
            what = f"{patterns} x {STARS.strip()}, a 155-byte name"
            print(f"{what:<44} {seconds:6.2f} s  {got}", flush=True)
        os.remove(long / ".gitignore")


if __name__ == "__main__":
    main()
