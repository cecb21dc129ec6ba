"""Run the proof search alone (``proof.ProofSearch``), compiled or in pure Python, and measure it.

    python -m tests.tools.proof_run fixture [--python]
    python -m tests.tools.proof_run deal PS4-14934 [--memory GIB] [--timeout S] [--max-states N]

``fixture``: the position at the end of fixtures/spider-2suit-open.yaml, searched whole (438,090
positions): the CPU time, the rate, the growth of the process's peak memory and, compiled, the
bytes the search held. ``deal``: a deal from its start (classic rules), with a line a minute on
stdout (positions, the path's depth, the deals done where the search stands, the bytes held and
the process's resident memory, the rate over the last minute) and the end; a win's line is
printed as steps (0-based ``(source, target, count)``, ``None`` for a deal).
"""

from __future__ import annotations

import argparse
import resource
import time

from spidercli.codes import parse_code
from spidercli.engine import Game
from spidercli.proof import ProofSearch
from spidercli.rules import CLASSIC
from spidercli.solver import Progress, problem_from_game
from tests.helpers import fixture_problem


def rss() -> int:
    """The process's resident memory now, in bytes (Linux)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def fixture(compiled: bool) -> None:
    problem = fixture_problem("spider-2suit-open.yaml")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    search = ProofSearch(problem, compiled=compiled)
    cpu = time.process_time()
    outcome = search.solve()
    cpu = time.process_time() - cpu
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024
    n = search.positions
    print(
        f"{'compiled' if compiled else 'pure Python'}: exhaustive={outcome.exhaustive} "
        f"positions={n:,} cpu={cpu:.2f}s rate={n / cpu:,.0f}/s "
        f"peak_memory_growth={grown / 2**20:.0f}MiB ({grown / n:.0f} B/position)"
        + (f" held={search.memory:,}B ({search.memory / n:.1f} B/position)" if compiled else "")
    )


def deal(code: str, memory: float, timeout: float, max_states: int | None) -> None:
    problem = problem_from_game(Game.from_code(parse_code(code), CLASSIC))
    search = ProofSearch(problem, compiled=True, memory=int(memory * 2**30))
    assert search.compiled, "the compiled proof search was not built"
    start = time.monotonic()
    last = [start, 0.0]

    def report(pr: Progress) -> None:
        now = time.monotonic()
        rate = (search.positions - last[1]) / max(now - last[0], 1e-9)
        last[:] = [now, search.positions]
        print(
            f"{now - start:8.0f}s positions={search.positions:,} depth={search.depth:,} "
            f"dealt={search.dealt} best_deals={pr.best_deals} best_runs={pr.best_runs} "
            f"held={search.memory / 2**30:.2f}GiB "
            f"({search.memory / max(search.positions, 1):.1f} B/position) "
            f"rss={rss() / 2**30:.2f}GiB rate={rate:,.0f}/s",
            flush=True,
        )

    print(
        f"{code}: the compiled proof search, memory {memory} GiB, timeout {timeout} s, "
        f"max states {max_states}",
        flush=True,
    )
    outcome = search.solve(
        max_states=max_states, deadline=start + timeout, report=report, report_every=60.0
    )
    report(outcome.progress)  # after the end: the memory is given back
    pr = outcome.progress
    print(
        f"end: {pr.phase}, exhaustive={outcome.exhaustive}, won={outcome.steps is not None}, "
        f"positions={search.positions:,}, depth={search.depth:,}, dealt={search.dealt}, "
        f"held={search.memory:,}B, seconds={pr.seconds:.0f}, "
        f"rate={search.positions / max(pr.seconds, 1e-9):,.0f}/s",
        flush=True,
    )
    if outcome.steps is not None:
        print("steps:", outcome.steps, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.tools.proof_run")
    sub = parser.add_subparsers(dest="what", required=True)
    fix = sub.add_parser("fixture", help="the whole space of fixtures/spider-2suit-open.yaml")
    fix.add_argument("--python", action="store_true", help="the pure Python search")
    one = sub.add_parser("deal", help="a deal from its start, compiled")
    one.add_argument("code")
    one.add_argument("--memory", type=float, default=8.0, help="GiB (default 8)")
    one.add_argument("--timeout", type=float, default=600.0, help="seconds (default 600)")
    one.add_argument("--max-states", type=int, default=None)
    args = parser.parse_args()
    if args.what == "fixture":
        fixture(not args.python)
    else:
        deal(args.code, args.memory, args.timeout, args.max_states)


if __name__ == "__main__":
    main()
