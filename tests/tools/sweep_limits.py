"""Measure ``spidercli sweep`` at its limits (docs/sweep.md, "Limits"): the time and the peak
memory of a real ``spidercli sweep`` process (``ru_maxrss``, from ``wait4``) in two cases.

- ``plan``: the largest sweep allowed (``--random 10000000 --suits 4``, each deal given a budget
  of one position), from its start to its first record written (then it is ended).
- ``resume``: a sweep of ``KP4-1..N`` whose output file already has a record of every deal
  (``--records N``, default a million; gave-up records as a sweep writes them, some 240 bytes
  each, or ``--won``: won records with a 160-move log, some 2 KB each), run to its end: it reads
  the file back and solves nothing.

    .venv/bin/python -m tests.tools.sweep_limits plan
    .venv/bin/python -m tests.tools.sweep_limits resume --records 1000000
    .venv/bin/python -m tests.tools.sweep_limits resume --records 1000000 --won

Each prints one line: what was run, the seconds, the peak memory in MB (10^6 bytes) and MiB.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SPIDERCLI = [sys.executable, "-m", "spidercli"]
MAX_DEALS = 10_000_000


def until_first_record(args: list[str], out: Path) -> tuple[float, int]:
    """Seconds from the start of ``spidercli ARGS`` to its first record in ``out``, and its peak
    memory in bytes by then (it is killed there)."""
    start = time.monotonic()
    proc = subprocess.Popen([*SPIDERCLI, *args], stderr=subprocess.DEVNULL)
    while not (out.exists() and b"\n" in out.read_bytes()[: 1 << 16]):
        if proc.poll() is not None:
            raise SystemExit(f"the sweep ended before its first record (exit {proc.returncode})")
        time.sleep(0.01)
    took = time.monotonic() - start
    proc.kill()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return took, usage.ru_maxrss * 1024


def to_the_end(args: list[str]) -> tuple[float, int, str]:
    """Seconds ``spidercli ARGS`` takes to its end, its peak memory in bytes and its stderr."""
    with tempfile.TemporaryFile() as err:
        start = time.monotonic()
        proc = subprocess.Popen([*SPIDERCLI, *args], stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        took = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    if proc.returncode != 0:
        raise SystemExit(f"exit {proc.returncode}: {text}")
    return took, usage.ru_maxrss * 1024, text


def won_record(code: str) -> dict[str, object]:
    """A won record as a sweep writes it, with a log of 160 moves (not this deal's: resuming
    without --manifest reads a record, it does not replay it)."""
    log = "# A win found by spidercli solve: 160 moves, score 1140.\ngame: " + code
    log += "\nrules: classic\nexpect:\n  result: won\n  moves: 160\n  score: 1140\n  runs: 8\n"
    log += "moves:\n" + "".join(f"  - {1 + i % 10}>{1 + (i * 7) % 10}\n" for i in range(160))
    return {
        "game": code,
        "deal_id": "0123456789abcdef",
        "rules": "classic",
        "result": "won",
        "moves": 160,
        "lower_bound": 60,
        "states": 1_234_567,
        "seconds": 1.234,
        "log": log,
        "states_to_win": 98_765,
    }


def gave_up_record(code: str) -> dict[str, object]:
    return {
        "game": code,
        "deal_id": "0123456789abcdef",
        "rules": "classic",
        "result": "gave-up",
        "moves": None,
        "lower_bound": 52,
        "states": 12_345_678,
        "seconds": 60.002,
        "log": None,
        "states_to_win": None,
    }


def shown(what: str, seconds: float, peak: int) -> str:
    return f"{what}: {seconds:.1f} s, peak memory {peak / 1e6:,.0f} MB ({peak / 2**20:,.0f} MiB)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("case", choices=["plan", "resume"])
    parser.add_argument("--deals", type=int, default=MAX_DEALS, help="plan: the deals")
    parser.add_argument("--records", type=int, default=1_000_000, help="resume: the records")
    parser.add_argument("--won", action="store_true", help="resume: won records, with logs")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.jsonl"
        if args.case == "plan":
            sweep = ["sweep", "--random", str(args.deals), "--suits", "4", "--max-states", "1"]
            took, peak = until_first_record([*sweep, "--jobs", "1", "-o", str(out)], out)
            print(shown(f"{' '.join(sweep)}: to the first record", took, peak))
            return 0
        make = won_record if args.won else gave_up_record
        with out.open("w", encoding="utf-8") as handle:
            for i in range(1, args.records + 1):
                handle.write(json.dumps(make(f"KP4-{i}")) + "\n")
        size = out.stat().st_size
        sweep = ["sweep", f"KP4-1..{args.records}", "--jobs", "1", "-o", str(out)]
        took, peak, err = to_the_end(sweep)
        if f"({args.records} records from an earlier run)" not in err:
            raise SystemExit(f"not every record was read back: {err}")
        kind = "won" if args.won else "gave-up"
        what = f"resuming {args.records:,} {kind} records ({size / 1e6:,.0f} MB)"
        print(shown(what, took, peak))
    return 0


if __name__ == "__main__":
    sys.exit(main())
