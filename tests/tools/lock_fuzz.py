"""Locks against the searches on many random small games: every one ``lock`` calls locked must
be won by neither the proof search without locks nor the plain search of the tests.

    python -m tests.tools.lock_fuzz [--first N] [--last N]

The games are ``tests/test_lock.py``'s ``lock_draw`` from each seed of the range (what its
property test draws from random seeds). It prints the games drawn, the locked ones, those the
plain search went over whole (and found no win in), and those too large for it; a win in a locked
game stops it with the seed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from spidercli.solver.lock import lock
from spidercli.solver.proof import ProofSearch
from spidercli.solver.search import problem_from_game
from tests.plainsearch import plain_search
from tests.test_lock import lock_draw


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.tools.lock_fuzz")
    parser.add_argument("--first", type=int, default=1000, help="the first seed (1000)")
    parser.add_argument("--last", type=int, default=99_999, help="the last seed (99,999)")
    args = parser.parse_args()
    start = time.monotonic()
    drawn = locked = whole = large = 0
    for seed in range(args.first, args.last + 1):
        game = lock_draw(random.Random(seed))
        problem = problem_from_game(game)
        drawn += 1
        if lock(problem) is None:
            continue
        locked += 1
        if ProofSearch(problem, locks=False).solve(max_states=100_000).steps is not None:
            print(f"seed {seed}: locked, yet the proof search won it", file=sys.stderr)
            return 1
        plain = plain_search(game, limit=20_000)
        if plain is None:
            large += 1
        elif plain.shortest is not None:
            print(f"seed {seed}: locked, yet the plain search won it", file=sys.stderr)
            return 1
        else:
            whole += 1
    print(
        f"{drawn:,} games drawn, {locked:,} locked: the plain search went over {whole:,} of them "
        f"whole without a win, {large:,} were too large for it; {time.monotonic() - start:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
