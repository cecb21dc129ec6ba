"""Measure ``spidercli sweep`` at its limits (docs/sweep.md, "Limits"): the time and the peak
memory of a real ``spidercli sweep`` process (its ``VmHWM``: its peak resident memory since its
exec, read from /proc; Linux only).

- ``plan``: the largest sweep allowed (``--random 10000000 --suits 4``, each deal given a budget
  of one position), from its start to its first record written (then it is ended).
- ``resume``: a sweep of ``KP4-1..N`` whose output file already has a record of every deal
  (``--records N``, default a million; gave-up records as a sweep writes them, some 240 bytes
  each, or ``--won``: won records with a 160-move log, some 2 KB each), run to its end: it reads
  the file back and solves nothing.
- ``certificate``: ``--manifest`` resuming a file of one won record whose log is one of the 1 MiB
  logs of the worst kinds (``tests.tools.limits.limit_logs``: the largest a record's log may be),
  each replayed before the record may enter the manifest (each is refused: none wins).

- ``check``: what checking one honest won record costs (``records.certificate_problem``: its deal
  dealt, its log read and replayed), in this process, on the records of two real wins (a 1-suit
  Spiderette deal, and the 4-suit Spider deal of the README's examples), 200 times each.

    .venv/bin/python -m tests.tools.sweep_limits plan
    .venv/bin/python -m tests.tools.sweep_limits resume --records 1000000
    .venv/bin/python -m tests.tools.sweep_limits resume --records 1000000 --won
    .venv/bin/python -m tests.tools.sweep_limits certificate
    .venv/bin/python -m tests.tools.sweep_limits check

Each prints a line a case: what was run, the seconds on the clock (and of CPU, where the sweep
runs to its end), and the peak memory in MB (10^6 bytes) and MiB.
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
# spidercli in a child that writes, as it ends, its own peak resident memory (``VmHWM``: this
# process's since its exec) to the file ``SWEEP_LIMITS_PEAK`` names. ``ru_maxrss`` would not do:
# Linux keeps it across the exec, so it counts the parent's memory at the fork too.
RUN = """
import atexit, os, sys

def peak():
    with open(os.environ["SWEEP_LIMITS_PEAK"], "w") as out:
        out.write(str(high_water(os.getpid())))

def high_water(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0

atexit.register(peak)
from spidercli.cli.app import main
sys.argv = ["spidercli", *sys.argv[1:]]
main()
"""


def high_water(pid: int) -> int:
    """The peak resident memory of the process ``pid`` so far, in bytes (``VmHWM``)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


def until_first_record(args: list[str], out: Path) -> tuple[float, int]:
    """Seconds from the start of ``spidercli ARGS`` to its first record in ``out``, and its peak
    memory in bytes by then (it is killed there)."""
    start = time.monotonic()
    proc = subprocess.Popen([*SPIDERCLI, *args], stderr=subprocess.DEVNULL)
    try:
        while not (out.exists() and b"\n" in out.read_bytes()[: 1 << 16]):
            if proc.poll() is not None:
                raise SystemExit(
                    f"the sweep ended before its first record (exit {proc.returncode})"
                )
            time.sleep(0.01)
        took = time.monotonic() - start
        peak = high_water(proc.pid)
    finally:
        proc.kill()
        proc.wait()
    return took, peak


def to_the_end(args: list[str]) -> tuple[float, float, int, int, str]:
    """``spidercli ARGS`` run to its end: its seconds, its CPU seconds, its peak memory in bytes,
    its exit status and its stderr."""
    with tempfile.TemporaryDirectory() as tmp:
        peak_file = Path(tmp) / "peak"
        env = {**os.environ, "SWEEP_LIMITS_PEAK": str(peak_file)}
        err = Path(tmp) / "stderr"
        with err.open("wb") as sink:
            start = time.monotonic()
            proc = subprocess.Popen(
                [sys.executable, "-c", RUN, *args], stdout=subprocess.DEVNULL, stderr=sink, env=env
            )
            _, status, usage = os.wait4(proc.pid, 0)
            took = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        peak = int(peak_file.read_text()) if peak_file.exists() else 0
        text = err.read_text(encoding="utf-8", errors="replace")
    return took, usage.ru_utime + usage.ru_stime, peak, proc.returncode, text


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


def certificates(tmp: Path) -> None:
    """``--manifest`` on a file of one won record whose log is each 1 MiB log of the worst
    kinds: one line each (each is refused, exit status 2, naming the line)."""
    from spidercli.game.codes import Setup, parse_code
    from tests.tools.limits import limit_logs

    for name, log in limit_logs().items():
        code = log.split("\n", 1)[0].removeprefix("game: ")
        record = {**won_record(code), "deal_id": Setup.from_code(parse_code(code)).deal_id}
        record["log"] = log
        out = tmp / f"{name}.jsonl"
        out.write_text(json.dumps(record) + "\n", encoding="utf-8")
        sweep = ["sweep", code, "--jobs", "1", "-o", str(out), "--manifest", str(tmp / "m.yml")]
        took, cpu, peak, status, said = to_the_end(sweep)
        what = f"a won record, its log {name} ({len(log.encode()):,} bytes)"
        print(f"{shown(what, took, peak)}, CPU {cpu:.1f} s, exit {status}")
        print(f"    {said.strip()[-160:]}")


def checks() -> None:
    """The CPU time ``certificate_problem`` takes on honest won records."""
    from spidercli.sweeps import records as sweep_records

    for code, budget in (("SD1-S1-AAAAAAB", 30_000), ("SP4-S1C-AAAAAAA", None)):
        record = sweep_records.solve_deal((code, 600.0, budget, None))
        assert record["result"] == "won" and sweep_records.certificate_problem(record) is None
        start = time.process_time()
        for _ in range(200):
            sweep_records.certificate_problem(record)
        each = (time.process_time() - start) / 200
        print(f"checking the won record of {code} ({record['moves']} moves): {each * 1e3:.1f} ms")


def shown(what: str, seconds: float, peak: int) -> str:
    return f"{what}: {seconds:.1f} s, peak memory {peak / 1e6:,.0f} MB ({peak / 2**20:,.0f} MiB)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("case", choices=["plan", "resume", "certificate", "check"])
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
        if args.case == "certificate":
            certificates(Path(tmp))
            return 0
        if args.case == "check":
            checks()
            return 0
        make = won_record if args.won else gave_up_record
        with out.open("w", encoding="utf-8") as handle:
            for i in range(1, args.records + 1):
                handle.write(json.dumps(make(f"KP4-{i}")) + "\n")
        size = out.stat().st_size
        sweep = ["sweep", f"KP4-1..{args.records}", "--jobs", "1", "-o", str(out)]
        took, cpu, peak, status, err = to_the_end(sweep)
        if status != 0 or f"({args.records} records from an earlier run)" not in err:
            raise SystemExit(f"exit {status}; not every record was read back: {err}")
        kind = "won" if args.won else "gave-up"
        what = f"resuming {args.records:,} {kind} records ({size / 1e6:,.0f} MB)"
        print(f"{shown(what, took, peak)}, CPU {cpu:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
