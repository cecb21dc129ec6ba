"""Compare the compiled proof search with the pure Python one on random positions, for a while.

    python -m tests.tools.proof_fuzz [--seconds S] [--seed N]

Each case is drawn at random from the kinds ``tests/test_proof_compiled.py`` draws a few dozen
of: a small position as the unwinnable corpus draws them, a small position from two decks, or a
real deal (Spider or Spiderette, 1 to 4 suits) after random legal play, its goal either one run
away or the whole game's. Both searches get the same budget of positions (200,000 and 20,000:
the Python search alone stops at 1,000,000); every field the tests compare must be equal (the
line, the proof, the states and positions, the best runs and deals, the phase). Prints each
difference with its kind and seed (``DIFF``), then the counts; exits 1 when any differed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from spidercli.game.codes import seed_letters
from spidercli.solver.search import Problem, problem_from_game
from tests.test_proof_compiled import _doubled, _played, _search
from tests.tools.unwinnable_corpus import draw

KINDS = ("corpus-like", "two decks", "deal in progress")
PREFIXES = ("SP1-S1C", "SP2-S1C", "SP4-S1C", "SD1-S1", "SD2-S1")


def case(kind: str, rng: random.Random) -> tuple[Problem, int]:
    """A problem of this kind, and the budget of positions both searches get."""
    if kind == "corpus-like":
        return problem_from_game(draw(rng)), 200_000
    if kind == "two decks":
        return problem_from_game(_doubled(rng)), 20_000
    code = f"{rng.choice(PREFIXES)}-{seed_letters(rng.randrange(1, 5000))}"
    choices = [rng.randrange(1000) for _ in range(rng.randrange(0, 120))]
    problem = problem_from_game(_played(code, choices))
    if rng.random() < 0.5:
        problem.runs_to_win = problem.start.runs + 1
    return problem, 20_000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pick = random.Random(args.seed)
    end = time.monotonic() + args.seconds
    counts = dict.fromkeys(KINDS, 0)
    proofs = wins = differ = 0
    while time.monotonic() < end:
        seed = pick.randrange(2**32)
        rng = random.Random(seed)
        kind = rng.choice(KINDS)
        problem, budget = case(kind, rng)
        python = _search(problem, False, budget)
        compiled = _search(problem, True, budget)
        if compiled != python:
            differ += 1
            print(f"DIFF {kind} seed {seed}: python {python[1:]}, compiled {compiled[1:]}")
        counts[kind] += 1
        proofs += python[1]
        wins += python[0] is not None
    cases = ", ".join(f"{n} {kind}" for kind, n in counts.items())
    print(f"{sum(counts.values())} cases ({cases}): {proofs} proofs, {wins} wins, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
