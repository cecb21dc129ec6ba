"""Make the corpus of proven-unwinnable positions, tests/data/unwinnable/positions.json.

    python -m tests.tools.unwinnable_corpus

Draws small positions (one run of one suit over 3-5 columns, or two runs of two suits over 4-6,
perhaps a deal left, a few cards of another suit), proves each with ``proof.ProofSearch`` and keeps
those it proves unwinnable after searching at least 20 positions, when the plain breadth-first
search of the tests (``tests/plainsearch.py``, the engine's every legal action, no equivalence)
finds no win either. Each entry: the columns (``down | up``, bottom to top), the stock in dealing
order, the suits and runs to win, and the positions the proof met (the test checks that count).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from spidercli.game.cards import cards_str
from spidercli.game.engine import Game
from spidercli.solver.proof import ProofSearch
from spidercli.solver.search import problem_from_game
from tests.plainsearch import dealt_out, plain_search, small_game

OUT = Path(__file__).resolve().parents[1] / "data" / "unwinnable" / "positions.json"


def draw(rng: random.Random) -> Game:
    suits = rng.choice([1, 1, 2])
    runs = suits
    ncols = rng.randint(3, 5) + (suits - 1)
    cards = [s << 4 | r for s in range(suits) for r in range(1, 14)]
    extra = rng.randint(0, 2)
    cards += [0x20 | r for r in rng.sample(range(1, 14), extra)]
    rng.shuffle(cards)
    columns, down, stock = dealt_out(rng, cards, ncols)
    return small_game(columns, down, stock, suits=suits + (extra > 0), runs=runs)


def entry(game: Game, positions: int) -> dict[str, object]:
    columns = []
    for col, d in zip(game.cols, game.down, strict=True):
        columns.append(f"{cards_str(col[:d])} | {cards_str(col[d:])}".strip())
    return {
        "columns": columns,
        "stock": cards_str(game.stock),
        "suits": game.suits,
        "runs": game.kind.runs_to_win,
        "positions": positions,
    }


def main() -> None:
    rng = random.Random(21)
    kept: list[dict[str, object]] = []
    tried = 0
    while len(kept) < 24 and tried < 3000:
        tried += 1
        game = draw(rng)
        outcome = ProofSearch(problem_from_game(game)).solve(max_states=30_000)
        if not outcome.exhaustive or outcome.progress.states < 20:
            continue
        plain = plain_search(game, limit=300_000)
        if plain is None or plain.shortest is not None:
            print("the plain search disagrees or is too large; skipped", file=sys.stderr)
            continue
        kept.append(entry(game, outcome.progress.states))
        print(f"{len(kept)}: {outcome.progress.states} positions", file=sys.stderr)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(kept, indent=1) + "\n")


if __name__ == "__main__":
    main()
