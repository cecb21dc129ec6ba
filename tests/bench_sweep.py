"""The sweep benchmark: ``make bench-sweep``, or ``python -m tests.bench_sweep [options]``.

Sweeps KPat's and PySol's numbered deals with ``spidercli sweep``: deals 1-1000 of each with 4
suits, 1-200 with 1 and 2 suits (``--first N`` takes the first N of each set instead), two at a
time (``--jobs``), each with a budget of ``--timeout`` seconds. The records go to
``bench-sweep/<set>.jsonl``: a run that is stopped resumes where it was. Prints a row a set: the
deals, won, proven unwinnable, gave up, the median moves of a win, the median gap to the lower
bound (``-`` while the records carry none), the median seconds a deal (each record's, the clock's)
and the CPU seconds a deal (the sweep processes' user and system time over the deals this run
solved: a shared machine's clock says little), then the deals not won.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

SETS = [  # (name, code prefix, deals)
    ("kpat-4", "KP4", 1000),
    ("pysol-4", "PS4", 1000),
    ("kpat-2", "KP2", 200),
    ("pysol-2", "PS2", 200),
    ("kpat-1", "KP1", 200),
    ("pysol-1", "PS1", 200),
]


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--first", type=int, default=None, help="the first N deals of each set")
    parser.add_argument("--sets", nargs="*", default=[name for name, _, _ in SETS])
    parser.add_argument("--dir", default="bench-sweep")
    args = parser.parse_args()
    folder = Path(args.dir)
    folder.mkdir(exist_ok=True)
    rows = []
    for name, prefix, count in SETS:
        if name not in args.sets:
            continue
        last = count if args.first is None else min(count, args.first)
        out = folder / f"{name}.jsonl"
        before_lines = out.read_text().count("\n") if out.exists() else 0
        before = children_cpu()
        command = [sys.executable, "-m", "spidercli", "sweep", f"{prefix}-1..{last}"]
        command += ["--timeout", f"{args.timeout:g}", "--jobs", str(args.jobs), "-o", str(out)]
        print(" ".join(command[2:]), file=sys.stderr, flush=True)
        status = subprocess.run(command, check=False).returncode
        if status != 0:
            sys.exit(status)
        cpu = children_cpu() - before
        wanted = {f"{prefix}-{n}" for n in range(1, last + 1)}
        records = [json.loads(line) for line in out.read_text().splitlines()]
        records = [r for r in records if r["game"] in wanted]
        solved_now = max(len(records) - before_lines, 0)
        won = [r for r in records if r["result"] == "won"]
        moves = [r["moves"] for r in won]
        gaps = [r["moves"] - r["lower_bound"] for r in won if r["lower_bound"] is not None]
        rows.append(
            (
                f"{name} 1-{last}",
                len(records),
                len(won),
                sum(r["result"] == "unwinnable" for r in records),
                sum(r["result"] == "gave-up" for r in records),
                f"{statistics.median(moves):g}" if moves else "-",
                f"{statistics.median(gaps):g}" if gaps else "-",
                f"{statistics.median(r['seconds'] for r in records):.2f}",
                f"{cpu / solved_now:.2f}" if solved_now else "-",
                [r["game"] for r in records if r["result"] != "won"],
            )
        )
    print(f"budget {args.timeout:g} s a deal, {args.jobs} at a time, {os.cpu_count()} cores")
    head = "deals   won  proven  gave up  median moves  median gap  s/deal  CPU/deal"
    print(f"{'set':<16} {head}")
    for row in rows:
        print(
            f"{row[0]:<16} {row[1]:>5} {row[2]:>5} {row[3]:>7} {row[4]:>8} {row[5]:>13} "
            f"{row[6]:>11} {row[7]:>7} {row[8]:>9}"
        )
    for row in rows:
        if row[9]:
            print(f"{row[0]} not won: {', '.join(row[9])}")


if __name__ == "__main__":
    main()
