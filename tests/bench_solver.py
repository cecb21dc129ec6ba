"""The solver benchmark: ``make bench-solver``, or ``python -m tests.bench_solver [--jobs N]``.

A fixed list of game codes per suit count (classic Spider, seeds 100 to 100 + count - 1), each
solved once by ``spidercli.solver.lines.solve_setup`` with a 60-second budget, N deals at a time in
worker processes. Prints, per suit count, the share solved, the median and 90th-percentile time
(unsolved deals count at their full budget) and the median solution length, against the issue's
targets. Every solution found is checked to replay as a win (``solve_setup`` plays it through the
engine).
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from spidercli.game.codes import Setup, parse_code, seed_letters
from spidercli.game.rules import CLASSIC
from spidercli.solver.beam import compiled_by_default
from spidercli.solver.lines import solve_setup

TIMEOUT = 60.0
TARGETS = {1: (0.99, 2.0), 2: (0.95, 10.0), 4: (0.50, 60.0)}  # share solved, median seconds


def codes(suits: int, count: int) -> list[str]:
    return [f"SP{suits}-S1C-{seed_letters(100 + i)}" for i in range(count)]


def run_one(code: str) -> tuple[str, bool, float, int]:
    start = time.perf_counter()
    solved = solve_setup(Setup.from_code(parse_code(code)), CLASSIC, timeout=TIMEOUT)
    spent = time.perf_counter() - start
    moves = solved.game.moves if solved.actions is not None else 0
    return code, solved.actions is not None, spent, moves


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--suits", type=int, nargs="*", default=[1, 2, 4])
    args = parser.parse_args()
    rows = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for suits in args.suits:
            results = list(pool.map(run_one, codes(suits, args.count)))
            solved = [r for r in results if r[1]]
            times = [min(r[2], TIMEOUT) if r[1] else TIMEOUT for r in results]
            share = len(solved) / len(results)
            median = statistics.median(times)
            lengths = [r[3] for r in solved]
            want_share, want_median = TARGETS[suits]
            met = share >= want_share and median < want_median
            rows.append(
                f"| {suits} | {len(solved)}/{len(results)} ({share:.0%}) | {median:.2f} s | "
                f"{percentile(times, 0.9):.2f} s | "
                f"{statistics.median(lengths) if lengths else 0:.0f} | "
                f"{want_share:.0%}, median < {want_median:g} s | {'met' if met else 'NOT met'} |"
            )
            for code, ok, *_ in results:
                if not ok:
                    print(f"  unsolved in {TIMEOUT:g} s: {code}", flush=True)
            print(rows[-1], flush=True)
    print()
    print("| suits | solved | median time | 90th pct time | median moves | target | |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print(f"beam pass: {'compiled' if compiled_by_default() else 'pure Python'}")


if __name__ == "__main__":
    main()
