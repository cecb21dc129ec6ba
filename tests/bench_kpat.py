"""The solver against KDE KPatience's: ``make bench-kpat``, or ``python -m tests.bench_kpat``.

Solves KPat's own Spider deals (by default 401-420, deals the solver was never tuned on; set
``KPAT_DEALS``, e.g. ``KPAT_DEALS=1-20,401-410``, or ``--deals``) with 1, 2 and 4 suits, one
process at a time, each side timed as a whole process: its user plus system CPU time as the
kernel counts it for the child (``os.wait4``), start-up and imports included.

- spidercli: ``spidercli solve KP<suits>-<n>`` (the console script next to this interpreter), with
  a 60-second budget; the line it writes is replayed here (not timed) and must be a win.
- KPat: with ``KPAT_BIN`` naming a KPat 23.04.3 binary built to print its winning lines (KPat's
  source with the line-printing patch the recorded data came from), ``kpat --solve`` on the same
  deal, right after spidercli's run. KPat counts the eight runs sent off as moves; spidercli does
  not, so those are left out of its counts here. Without ``KPAT_BIN``, KPat's recorded results
  (``tests/data/kpat/kpat-23.04.3.tsv``, deals 1-20 only; its own timer, not a whole process)
  stand in.

spidercli runs as an installed spidercli does, with its modules' bytecode written first
(``tests.bench.warm_bytecode``: where PYTHONDONTWRITEBYTECODE is set, as on some machines,
every process would otherwise compile spidercli's modules anew, about 0.05 s of CPU that no
install pays).

Per suit count it prints deals won, median moves of the wins and median CPU time of each side,
the time ratio (spidercli's median CPU over KPat's), the length ratio (spidercli's moves over
KPat's, median and max, on the deals both win) and whether the targets are met: as many wins as
KPat (and every one of its wins; 4 suits: 19 of 20 at least), median moves at most KPat's, no line
longer than 1.25 times KPat's, and a time ratio of at most 1.

CPU time is counted per process, so other work on the machine changes it less than wall time;
it still shares caches and cores: run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "kpat"
TIMEOUT = 60.0
DEFAULT_DEALS = "401-420"
# The targets: wins per 20 deals at least, median moves at most KPat's, no line longer than
# LENGTH_RATIO times KPat's on a deal both win, and CPU time at most TIME_RATIO times KPat's.
WINS = {1: 20, 2: 20, 4: 19}
LENGTH_RATIO = 1.25
TIME_RATIO = 1.0


@dataclass
class Run:
    """One side's run on one deal: won, moves of the win (runs sent off not counted), the
    process's CPU time (user + system, in seconds) and its peak memory (MB)."""

    won: bool
    moves: int | None
    cpu: float
    peak_mb: float = 0.0


def parse_deals(text: str) -> list[int]:
    """KPat deal numbers from ``401-420`` or ``1-20,401,405-407`` (in the order given, each
    once); ``ValueError`` for anything else."""
    deals: list[int] = []
    for part in text.split(","):
        part = part.strip()
        found = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if found is None:
            raise ValueError(f"not a deal or a range of deals: {part!r}")
        first = int(found[1])
        last = int(found[2]) if found[2] else first
        if not 1 <= first <= last <= 2**31 - 1:
            raise ValueError(f"not a range of KPat deals (1 to 2147483647): {part!r}")
        deals.extend(d for d in range(first, last + 1) if d not in deals)
    return deals


@dataclass
class Child:
    """A finished child process: its exit status, output, CPU time and peak memory."""

    returncode: int
    stdout: str
    stderr: str
    cpu: float  # user + system seconds of the child alone
    peak_mb: float


def run_child(argv: Sequence[str], env: dict[str, str] | None = None) -> Child:
    """Run ``argv`` to its end and measure it: ``os.wait4`` gives the kernel's count of the
    child's user and system CPU time and its peak resident memory."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Child(
            proc.returncode,
            out.read().decode(errors="replace"),
            err.read().decode(errors="replace"),
            usage.ru_utime + usage.ru_stime,
            usage.ru_maxrss / 1024,
        )


def spidercli_command() -> str:
    """The ``spidercli`` console script of this interpreter's environment."""
    here = Path(sys.executable).parent / "spidercli"
    if here.exists():
        return str(here)
    raise SystemExit(f"no spidercli console script next to {sys.executable}: install spidercli")


def ours(suits: int, deal: int, timeout: float) -> Run:
    """``spidercli solve KP<suits>-<deal>`` as a process; its line replayed here as a log."""
    from spidercli.logs.reader import load_log
    from spidercli.play.replay import replay

    code = f"KP{suits}-{deal}"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "solved.yaml"
        child = run_child(
            [spidercli_command(), "solve", code, "--timeout", f"{timeout:g}", "-o", str(path)]
        )
        if child.returncode == 1:  # no win found
            return Run(False, None, child.cpu, child.peak_mb)
        if child.returncode != 0:
            raise SystemExit(f"spidercli solve {code} failed: {child.stderr.strip()}")
        report = replay(load_log(path))
    if not (report.ok and report.result == "won"):
        raise SystemExit(f"{code}: the line spidercli found does not replay as a win")
    return Run(True, report.moves, child.cpu, child.peak_mb)


def kpat_env(tmp: str, suits: int) -> dict[str, str]:
    """An environment for a KPat process: no display, a fresh configuration with the suits."""
    env = dict(os.environ)
    env.update(
        QT_QPA_PLATFORM="offscreen",
        XDG_CONFIG_HOME=f"{tmp}/config",
        XDG_DATA_HOME=f"{tmp}/data",
        XDG_RUNTIME_DIR=f"{tmp}/run",
    )
    for sub in ("config", "data", "run"):
        os.makedirs(f"{tmp}/{sub}", mode=0o700, exist_ok=True)
    Path(f"{tmp}/config/kpatrc").write_text(f"[General Settings]\nSpiderSuits={suits}\n")
    return env


def kpat_result(out: str, deal: int) -> tuple[bool, int | None, float]:
    """KPat's printout for a deal: won, its moves without the runs sent off, its own timer."""
    found = re.search(rf"^{deal} (\w+) \((\d+) ms\)", out, re.M)
    if found is None:
        raise SystemExit(f"KPat printed nothing for deal {deal}: {out!r}")
    seconds = int(found[2]) / 1000
    line = re.search(rf"^line {deal}:(.*)$", out, re.M)
    if found[1] != "won" or line is None:
        return False, None, seconds
    return True, sum(1 for t in line[1].split() if not t.endswith("O")), seconds


def kpat(binary: str, suits: int, deal: int) -> Run:
    """KPat's solver on one deal, as a process."""
    with tempfile.TemporaryDirectory() as tmp:
        child = run_child(
            [binary, "--solve", "17", "--start", str(deal), "--end", str(deal)],
            env=kpat_env(tmp, suits),
        )
    won, moves, _ = kpat_result(child.stdout, deal)
    return Run(won, moves, child.cpu, child.peak_mb)


def recorded() -> dict[tuple[int, int], Run]:
    """KPat's recorded results, by (suits, deal) (its own timer stands in for the CPU time)."""
    out = {}
    with (DATA / "kpat-23.04.3.tsv").open() as f:
        for row in csv.DictReader(f, delimiter="\t"):
            won = row["result"] == "won"
            moves = int(row["moves"]) if won else None
            out[int(row["suits"]), int(row["deal"])] = Run(won, moves, int(row["solver_ms"]) / 1000)
    return out


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


@dataclass
class Summary:
    """One suit count's figures: each side's wins, median moves and median CPU time."""

    suits: int
    deals: int
    won: int
    moves: float
    cpu: float
    kpat_won: int
    kpat_moves: float
    kpat_cpu: float
    length_median: float  # spidercli's moves over KPat's, on the deals both win
    length_max: float
    both_kpat_wins: bool  # spidercli won every deal KPat won

    @property
    def time_ratio(self) -> float:
        return self.cpu / self.kpat_cpu

    @property
    def met(self) -> bool:
        return (
            self.won >= max(self.kpat_won, WINS[self.suits] * self.deals / 20)
            and self.both_kpat_wins
            and self.moves <= self.kpat_moves
            and self.length_max <= LENGTH_RATIO
            and self.time_ratio <= TIME_RATIO
        )


def summarize(suits: int, mine: Sequence[Run], theirs: Sequence[Run]) -> Summary:
    ratios = [r.moves / k.moves for r, k in zip(mine, theirs, strict=True) if r.moves and k.moves]
    return Summary(
        suits,
        len(mine),
        sum(r.won for r in mine),
        median([r.moves for r in mine if r.moves]),
        median([r.cpu for r in mine]),
        sum(k.won for k in theirs),
        median([k.moves for k in theirs if k.moves]),
        median([k.cpu for k in theirs]),
        median(ratios),
        max(ratios, default=float("nan")),
        all(r.won for r, k in zip(mine, theirs, strict=True) if k.won),
    )


def table(rows: Sequence[Summary], kpat_label: str) -> str:
    lines = [
        "| suits | spidercli: won, median moves, median CPU | "
        f"{kpat_label}: won, median moves, median CPU | time ratio | "
        "length ratio median / max | targets |",
        "|---|---|---|---|---|---|",
    ]
    for s in rows:
        lines.append(
            f"| {s.suits} | {s.won}/{s.deals}, {s.moves:g}, {s.cpu:.2f} s | "
            f"{s.kpat_won}/{s.deals}, {s.kpat_moves:g}, {s.kpat_cpu:.2f} s | "
            f"{s.time_ratio:.2f}x | {s.length_median:.2f} / {s.length_max:.2f} | "
            f"{'met' if s.met else 'NOT met'} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--suits", type=int, nargs="*", choices=(1, 2, 4), default=[1, 2, 4])
    parser.add_argument(
        "--deals",
        default=os.environ.get("KPAT_DEALS") or DEFAULT_DEALS,
        help="KPat deal numbers, e.g. 401-420 or 1-20,401 (default: $KPAT_DEALS, else "
        f"{DEFAULT_DEALS})",
    )
    parser.add_argument("--timeout", type=float, default=TIMEOUT)
    args = parser.parse_args(argv)
    try:
        deals = parse_deals(args.deals)
    except ValueError as err:
        parser.error(str(err))
    binary = os.environ.get("KPAT_BIN")
    theirs_recorded = {} if binary else recorded()
    if not binary:
        missing = [d for d in deals for s in args.suits if (s, d) not in theirs_recorded]
        if missing:
            parser.error(
                f"no recorded KPat result for deal {missing[0]}: set KPAT_BIN to a KPat "
                "23.04.3 binary to run KPat alongside"
            )
    from spidercli.solver.beam import compiled_by_default
    from tests.bench import warm_bytecode

    warm_bytecode()
    rows = []
    peak = 0.0
    for suits in args.suits:
        mine: list[Run] = []
        theirs: list[Run] = []
        for deal in deals:
            r = ours(suits, deal, args.timeout)
            k = kpat(binary, suits, deal) if binary else theirs_recorded[suits, deal]
            peak = max(peak, r.peak_mb)
            length = f"{r.moves / k.moves:.2f}" if r.moves and k.moves else "-"
            print(
                f"  {suits} suit{'s' * (suits > 1)} deal {deal}: spidercli "
                f"{r.moves if r.won else 'no win'} moves, {r.cpu:.2f} s CPU; KPat "
                f"{k.moves if k.won else 'unknown'} moves, {k.cpu:.2f} s"
                f"{' CPU' if binary else ' (recorded, its own timer)'}; "
                f"length ratio {length}, time ratio {r.cpu / k.cpu:.2f}x",
                flush=True,
            )
            mine.append(r)
            theirs.append(k)
        rows.append(summarize(suits, mine, theirs))
    label = "KPat 23.04.3 here" if binary else "KPat recorded (its own timer)"
    print()
    print(table(rows, label))
    print(
        f"\nCPU: user + system time of each whole process (median over deals {args.deals}); "
        f"peak memory of a spidercli process: {peak:.0f} MB (target <= 500 MB)"
    )
    print(f"beam pass: {'compiled' if compiled_by_default() else 'pure Python'}")
    met = all(s.met for s in rows) and peak <= 500
    print("all targets met" if met else "some targets NOT met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
