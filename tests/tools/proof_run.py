"""Run the proof search alone (``proof.ProofSearch``), compiled or in pure Python, and measure it.

    python -m tests.tools.proof_run fixture [--python]
    python -m tests.tools.proof_run deal PS4-14934 [--memory GIB] [--timeout S] [--max-states N]
    python -m tests.tools.proof_run anatomy PS4-14934 [--positions N] [--before-last-deal]
                                                      [--stop-at-deal K] [--locks N]
    python -m tests.tools.proof_run check SD4-S1-FFJUZSM [--limit N]
    python -m tests.tools.proof_run beam PS4-14934 [--widths W,W,...] [--seen N]
    python -m tests.tools.proof_run locks PS4-1..32000 [--random N --suits S --seed X --game G]
                                          [--prove N]

``fixture``: the position at the end of fixtures/spider-2suit-open.yaml, searched whole (438,090
positions): the CPU time, the rate, the growth of the process's peak memory and, compiled, the
bytes the search held. ``deal``: a deal from its start (classic rules; searched even when a lock
would end the search at once), with a line a minute on stdout (positions, the path's depth, the
deals done where the search stands, the bytes held and the process's resident memory, the rate over
the last minute) and the end; a win's line is printed as steps (0-based ``(source, target,
count)``, ``None`` for a deal). ``anatomy``: where the search's positions lie, from the Python twin
(the same order, the same equivalence): its first ``N`` positions counted by deals done, and each
end game (a position just after the last deal and the positions first met below it, depth first)
with its size, in the order met; with ``--before-last-deal`` the positions after the last deal are
not searched below, so the counts are those of the play before it, and with ``--stop-at-deal K``
those after the ``K``-th deal (counted, not searched below); it also prints the most face-down
cards turned up, the most runs removed and whether an empty column was met, in any position met.
With ``--locks N`` it asks every ``N``-th position met (with no empty column) whether it is locked
(``lock.lock``, the position as the start of a problem of its own) and counts the locked ones.
``check``: a deal from its start by the compiled proof search (without locks) and by the plain
search of the tests (``tests/plainsearch.py``: breadth first over the engine's own legal actions,
no equivalence, none of the solver's code), each with its answer, its positions and its CPU time;
the plain search gives up past ``--limit`` positions. ``beam``: the solver's beam
(``solver.BeamSolver``, compiled when built) of each width given, uncapped, on a deal from its
start, remembering up to ``--seen`` positions: whether it won, its positions, the most deals done
and runs removed in a position it met, and its CPU time; it proves nothing. ``locks``: which deals
of those given (codes and ranges as ``sweep`` takes them, and ``--random`` ones as it draws them)
are locked (``lock.lock``), each with the ranks never face up and the face-down cards never turned
up; with ``--prove N`` the proof search without locks goes over each locked deal too, up to ``N``
positions, and a win there stops the tool.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

import spidercli.solver.beam
from spidercli.game.cards import RANKS
from spidercli.game.codes import parse_code
from spidercli.game.engine import Game
from spidercli.game.rules import CLASSIC
from spidercli.solver.beam import BeamSolver
from spidercli.solver.lock import lock
from spidercli.solver.proof import ProofSearch, position_key
from spidercli.solver.search import Problem, Progress, _Budget, problem_from_game
from spidercli.sweeps.plan import Item, parse_spec, random_draw, shard_codes
from tests.helpers import fixture_problem
from tests.plainsearch import plain_search


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
    search = ProofSearch(problem, compiled=True, memory=int(memory * 2**30), locks=False)
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


def anatomy(code: str, limit: int, stop_at_deal: int | None, locks_every: int = 0) -> None:
    problem = problem_from_game(Game.from_code(parse_code(code), CLASSIC))
    search = ProofSearch(problem, compiled=False)
    deals = len(problem.chunks)
    # searched below while fewer than ``last`` deals are done; past the last deal, as end games
    last = deals if stop_at_deal is None else min(stop_at_deal, deals)
    root = problem.start
    down_at_start = sum(root.down)
    least_down, most_runs, empty_met = down_at_start, root.runs, not all(root.cols)
    tested = locked = 0  # positions asked for a lock (every ``locks_every``-th), and locked
    seen = {position_key(root, deals)}
    by_deals = [0] * (deals + 1)
    by_deals[root.dealt] += 1
    stack = [search._children(root)]
    end_games: list[int] = []  # each end game's positions, in the order met
    entry: tuple[int, int] | None = None  # the open end game: (its stack depth, seen before it)
    while stack and len(seen) < limit:
        found = next(stack[-1], None)
        if found is None:
            stack.pop()
            if entry is not None and len(stack) < entry[0]:
                end_games.append(len(seen) - entry[1])
                entry = None
            continue
        _step, child = found
        key = position_key(child, deals)
        if key in seen:
            continue
        seen.add(key)
        by_deals[child.dealt] += 1
        least_down = min(least_down, sum(child.down))
        most_runs = max(most_runs, child.runs)
        empty_met = empty_met or not all(child.cols)
        if locks_every and len(seen) % locks_every == 0 and all(child.cols):
            tested += 1
            rest = list(problem.chunks[child.dealt :])
            here = Problem(
                list(child.cols),
                list(child.down),
                rest,
                permissive=problem.permissive,
                runs=child.runs,
                runs_to_win=problem.runs_to_win,
            )
            locked += lock(here) is not None
        if child.dealt < last:
            stack.append(search._children(child))
        elif stop_at_deal is None:
            if entry is None:
                entry = (len(stack) + 1, len(seen) - 1)
            stack.append(search._children(child))
    print(f"{code}: {'the whole space' if not stack else f'the first {len(seen):,} positions'}")
    print("positions by deals done:", ", ".join(f"{d}: {n:,}" for d, n in enumerate(by_deals)))
    print(
        f"in any position met: at most {down_at_start - least_down} of {down_at_start} face-down "
        f"cards turned up, at most {most_runs} runs removed, "
        f"{'an' if empty_met else 'no'} empty column"
    )
    if locks_every:
        print(f"locked: {locked:,} of {tested:,} positions asked (every {locks_every:,}th)")
    if stop_at_deal is None:
        sizes = sorted(set(end_games))
        print(
            f"end games searched whole: {len(end_games):,}; their sizes: "
            + ", ".join(f"{n:,} ({end_games.count(n)})" for n in sizes)
        )
        if entry is not None:
            print(f"the end game open at the stop: {len(seen) - entry[1]:,} positions so far")


def check(code: str, limit: int) -> None:
    game = Game.from_code(parse_code(code), CLASSIC)
    # raises when not built; the search, even where a lock would end it at once
    search = ProofSearch(problem_from_game(game), compiled=True, locks=False)
    if not search.compiled:
        sys.exit(f"{code}: the compiled proof search does not take this deal")
    cpu = time.process_time()
    outcome = search.solve()
    cpu = time.process_time() - cpu
    won, exhaustive = outcome.steps is not None, outcome.exhaustive
    proof = "won" if won else "unwinnable" if exhaustive else "gave up"
    print(f"{code}: proof search: {proof}, {search.positions:,} positions, {cpu:.1f} s of CPU")
    cpu = time.process_time()
    plain = plain_search(game, limit=limit)
    cpu = time.process_time() - cpu
    if plain is None:
        print(f"{code}: plain search: gave up past {limit:,} positions, {cpu:.1f} s of CPU")
    else:
        answer = "unwinnable" if plain.shortest is None else f"won in {plain.shortest} actions"
        print(f"{code}: plain search: {answer}, {plain.positions:,} positions, {cpu:.1f} s of CPU")


def beam(code: str, widths: list[int], seen: int) -> None:
    problem = problem_from_game(Game.from_code(parse_code(code), CLASSIC))
    # the one process's: a wide beam remembers more than solve's
    spidercli.solver.beam.SEEN_LIMIT = seen
    for width in widths:
        budget = _Budget(None, None, None, 60.0)
        cpu = time.process_time()
        line = BeamSolver(problem)._beam(width, None, budget)
        cpu = time.process_time() - cpu
        pr = budget.progress
        print(
            f"{code}: width {width:,}: {'won in ' + str(len(line)) if line else 'no win'}, "
            f"{pr.states:,} positions, at most {pr.best_deals} deals done and {pr.best_runs} "
            f"runs removed, {cpu:.0f} s of CPU",
            flush=True,
        )
        if line:
            print("steps:", line, flush=True)
            break


def locks(specs: list[str], draw: tuple[int, int, int, str] | None, prove: int) -> None:
    """Ask each deal of ``specs`` (codes and ranges, as ``sweep`` takes them) and of the random
    ``draw`` (count, suits, seed, game) whether it is locked; with ``prove``, search each locked
    one without locks too, up to that many positions."""
    items: list[Item] = [parse_spec(spec) for spec in specs]
    if draw is not None:
        items.append(random_draw(*draw))
    start = time.monotonic()
    deals = found = proven = beyond = 0
    for code in shard_codes(items):
        deals += 1
        problem = problem_from_game(Game.from_code(parse_code(code), CLASSIC))
        locked = lock(problem)
        if locked is None:
            continue
        found += 1
        ranks = "".join(RANKS[r - 1] for r in locked.ranks) or "-"
        line = f"{code}: locked, ranks never face up: {ranks}, face-down cards never turned up: "
        line += f"{len(locked.hidden)} of {sum(problem.start.down)}"
        if prove:
            search = ProofSearch(problem, locks=False, memory=1 << 30)
            outcome = search.solve(max_states=prove)
            assert outcome.steps is None, f"{code}: locked, yet the search won it"
            proven += outcome.exhaustive
            beyond += not outcome.exhaustive
            line += "; the search without locks: " + (
                f"no win in the whole space, {search.positions:,} positions"
                if outcome.exhaustive
                else f"gave up after {search.positions:,} positions"
            )
        print(line, flush=True)
    tail = f"; searched whole without a win: {proven}, past the budget: {beyond}" if prove else ""
    print(f"{deals:,} deals, {found:,} locked{tail}; {time.monotonic() - start:.0f} s")


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
    parts = sub.add_parser("anatomy", help="where the search's positions lie (pure Python)")
    parts.add_argument("code")
    parts.add_argument("--positions", type=int, default=300_000, help="stop after N (300,000)")
    parts.add_argument(
        "--before-last-deal", action="store_true", help="do not search after the last deal"
    )
    parts.add_argument(
        "--stop-at-deal", type=int, default=None, help="do not search after the K-th deal"
    )
    parts.add_argument(
        "--locks", type=int, default=0, help="ask every N-th position for a lock (lock.lock)"
    )
    both = sub.add_parser("check", help="a deal by the proof search and by the plain search")
    both.add_argument("code")
    both.add_argument("--limit", type=int, default=5_000_000, help="the plain search's positions")
    wide = sub.add_parser("beam", help="the solver's beam of the widths given, uncapped")
    wide.add_argument("code")
    wide.add_argument("--widths", default="20000,100000,500000,1000000", help="comma-separated")
    wide.add_argument("--seen", type=int, default=200_000_000, help="positions remembered")
    ask = sub.add_parser("locks", help="which deals are locked (lock.lock)")
    ask.add_argument("specs", nargs="*", help="codes and ranges (KP4-1..1000), as sweep takes")
    ask.add_argument("--random", type=int, default=0, help="and N random deals, as sweep draws")
    ask.add_argument("--suits", type=int, default=4)
    ask.add_argument("--seed", type=int, default=0)
    ask.add_argument("--game", default="spider")
    ask.add_argument(
        "--prove", type=int, default=0, help="search each locked deal too, N positions"
    )
    args = parser.parse_args()
    if args.what == "fixture":
        fixture(not args.python)
    elif args.what == "check":
        check(args.code, args.limit)
    elif args.what == "anatomy":
        if args.before_last_deal and args.stop_at_deal is not None:
            parser.error("--before-last-deal and --stop-at-deal: give one")
        if args.stop_at_deal is not None and args.stop_at_deal < 1:
            parser.error("--stop-at-deal: a count of deals, 1 or more")
        stop = args.stop_at_deal
        if args.before_last_deal:
            stop = len(problem_from_game(Game.from_code(parse_code(args.code), CLASSIC)).chunks)
        if args.locks < 0:
            parser.error("--locks: every N-th position, N 1 or more (0: none)")
        anatomy(args.code, args.positions, stop, args.locks)
    elif args.what == "locks":
        draw = (args.random, args.suits, args.seed, args.game) if args.random else None
        locks(args.specs, draw, args.prove)
    elif args.what == "beam":
        beam(args.code, [int(w) for w in args.widths.split(",")], args.seen)
    else:
        deal(args.code, args.memory, args.timeout, args.max_states)


if __name__ == "__main__":
    main()
