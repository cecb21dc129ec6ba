"""The solver against KDE KPatience's: ``make bench-kpat``, or ``python -m tests.bench_kpat``.

Solves KPat's own Spider deals 1-20 with 1, 2 and 4 suits (``tests/data/kpat/deals``), one deal
at a time in this one process with a 60-second budget each, checks that every line found replays
as a won game, and prints a side-by-side table with what KPat 23.04.3's solver recorded for the
same deals (``tests/data/kpat/kpat-23.04.3.tsv``): deals won, median moves of the wins, median
time, the length ratio (ours / KPat's) on the deals both win, and the time ratio.

With ``KPAT_BIN`` naming a KPat 23.04.3 binary that prints its winning lines (a build with the
line-printing patch the data came from), KPat also solves each deal in the same run, right after
ours, and the time ratios use those side-by-side figures instead of the recorded ones. KPat counts
the eight runs sent off as moves; spidercli does not, so those are left out of its counts here.

Timings are wall clock on whatever else the machine is doing: run it on an idle machine.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import resource
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from spidercli.logwriter import format_log
from spidercli.movelog import load_log, parse_log
from spidercli.replay import replay
from spidercli.rules import CLASSIC
from spidercli.solution import solve_setup
from spidercli.solver import compiled_by_default

DATA = Path(__file__).resolve().parent / "data" / "kpat"
TIMEOUT = 60.0
# The targets: wins per 20 deals, median moves at most KPat's, median time at most this
# many times KPat's, and no line longer than 1.25 times KPat's on a deal both win.
WINS = {1: 20, 2: 20, 4: 19}
TIME_RATIO = {1: 3.0, 2: 3.0, 4: 6.0}
LENGTH_RATIO = 1.25


@dataclass
class Result:
    won: bool
    moves: int | None  # moves and deals of the win (runs sent off not counted)
    seconds: float


def recorded() -> dict[tuple[int, int], Result]:
    """KPat's recorded results, by (suits, deal)."""
    out = {}
    with (DATA / "kpat-23.04.3.tsv").open() as f:
        for row in csv.DictReader(f, delimiter="\t"):
            won = row["result"] == "won"
            out[int(row["suits"]), int(row["deal"])] = Result(
                won, int(row["moves"]) if won else None, int(row["solver_ms"]) / 1000
            )
    return out


def ours(suits: int, deal: int, timeout: float) -> Result:
    log = load_log(DATA / "deals" / f"kpat-sp{suits}-{deal}.yaml")
    start = time.perf_counter()
    solved = solve_setup(log.deal, CLASSIC, timeout=timeout)
    seconds = time.perf_counter() - start
    if solved.actions is None:
        return Result(False, None, seconds)
    # Replay the line as a user would: as a log, through the checked path.
    g = solved.game
    text = format_log(
        log.deal,
        [str(a) for a in solved.actions],
        rules="classic",
        expect={"result": "won", "moves": g.moves, "score": g.score, "runs": g.runs},
    )
    report = replay(parse_log(text, f"kpat-sp{suits}-{deal} (solved)"))
    if not (report.ok and report.result == "won"):
        raise SystemExit(f"kpat-sp{suits}-{deal}: the line found does not replay as a win")
    return Result(True, g.moves, seconds)


def kpat(binary: str, suits: int, deal: int) -> Result:
    """Run KPat's solver on one deal (its own timer; moves without the runs sent off)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        env.update(
            QT_QPA_PLATFORM="offscreen",
            XDG_CONFIG_HOME=f"{tmp}/config",
            XDG_DATA_HOME=f"{tmp}/data",
            XDG_RUNTIME_DIR=f"{tmp}/run",
        )
        for sub in ("config", "data", "run"):
            os.makedirs(f"{tmp}/{sub}", mode=0o700)
        Path(f"{tmp}/config/kpatrc").write_text(f"[General Settings]\nSpiderSuits={suits}\n")
        out = subprocess.run(
            [binary, "--solve", "17", "--start", str(deal), "--end", str(deal)],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        ).stdout
    found = re.search(rf"^{deal} (\w+) \((\d+) ms\)", out, re.M)
    if found is None:
        raise SystemExit(f"KPat printed nothing for deal {deal}: {out!r}")
    seconds = int(found[2]) / 1000
    line = re.search(rf"^line {deal}:(.*)$", out, re.M)
    if found[1] != "won" or line is None:
        return Result(False, None, seconds)
    tokens = line[1].split()
    return Result(True, sum(1 for t in tokens if not t.endswith("O")), seconds)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--suits", type=int, nargs="*", default=[1, 2, 4])
    parser.add_argument("--deals", type=int, nargs=2, default=[1, 20], metavar=("FIRST", "LAST"))
    parser.add_argument("--timeout", type=float, default=TIMEOUT)
    args = parser.parse_args()
    binary = os.environ.get("KPAT_BIN")
    theirs = recorded()
    for suits in args.suits:
        for deal in range(args.deals[0], args.deals[1] + 1):
            if (suits, deal) not in theirs:
                parser.error(f"no recorded KPat result for {suits} suits, deal {deal}")
    rows = []
    all_met = True
    for suits in args.suits:
        mine: list[Result] = []
        kp: list[Result] = []
        live: list[Result] = []
        for deal in range(args.deals[0], args.deals[1] + 1):
            r = ours(suits, deal, args.timeout)
            k = theirs[suits, deal]
            extra = ""
            if binary:
                lv = kpat(binary, suits, deal)
                live.append(lv)
                extra = f"  KPat here: {lv.moves if lv.won else 'unknown'} in {lv.seconds:.2f} s"
            ratio = f"{r.moves / k.moves:.2f}" if r.moves and k.moves else "-"
            print(
                f"  {suits} suit{'s' * (suits > 1)} deal {deal:2}: "
                f"{r.moves if r.won else 'no win'} moves in {r.seconds:.2f} s; KPat recorded "
                f"{k.moves if k.won else 'unknown'} in {k.seconds:.2f} s; length ratio {ratio}"
                + extra,
                flush=True,
            )
            mine.append(r)
            kp.append(k)
        won = sum(r.won for r in mine)
        ratios = [r.moves / k.moves for r, k in zip(mine, kp, strict=True) if r.moves and k.moves]
        my_moves = median([r.moves for r in mine if r.moves])
        my_time = median([r.seconds for r in mine])
        ref = live or kp
        ref_time = median([k.seconds for k in ref])
        ref_moves = median([k.moves for k in kp if k.moves])
        time_ratio = my_time / ref_time
        met = (
            won >= WINS[suits] * len(mine) / 20
            and my_moves <= ref_moves
            and max(ratios, default=0) <= LENGTH_RATIO
            and time_ratio <= TIME_RATIO[suits]
        )
        all_met &= met
        live_text = ""
        if live:
            live_won = sum(k.won for k in live)
            live_moves = median([k.moves for k in live if k.moves])
            live_text = f" {live_won}/{len(live)}, {live_moves:g}, {ref_time:.2f} s |"
        rows.append(
            f"| {suits} | {won}/{len(mine)} | {my_moves:g} | {my_time:.2f} s | "
            f"{sum(k.won for k in kp)}/{len(kp)}, {ref_moves:g}, "
            f"{median([k.seconds for k in kp]):.2f} s |{live_text} "
            f"{median(ratios):.2f} / {max(ratios, default=float('nan')):.2f} | "
            f"{time_ratio:.1f}x (<= {TIME_RATIO[suits]:g}x) | {'met' if met else 'NOT met'} |"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print()
    live_head = " KPat here: won, median moves, median time |" if binary else ""
    print(
        "| suits | won | median moves | median time | KPat recorded: won, median moves, "
        f"median time |{live_head} length ratio median / max | time ratio | targets |"
    )
    print("|---|---|---|---|---|" + ("---|" if binary else "") + "---|---|---|")
    print("\n".join(rows))
    print(f"\npeak memory of this process: {peak:.0f} MB (target <= 500 MB)")
    print(f"beam pass: {'compiled' if compiled_by_default() else 'pure Python'}")
    print("all targets met" if all_met and peak <= 500 else "some targets NOT met")


if __name__ == "__main__":
    main()
