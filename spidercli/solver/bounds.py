"""A lower bound on the moves of any win from a position (admissible: no win is shorter).

The argument (docs/solver.md, *A lower bound*): a win removes the runs still wanted, and a run
leaves as 13 cards of one suit, King to Ace, each card but the King lying on the card one rank
higher of its suit: 12 such **joins** a run. Each join of a removed run either lay in the
position from the start (and was never broken), or was made by an action, and the last time it
was made counts:

- a move puts one group onto one card, so it makes at most one join (the group's bottom card on
  the target's top card; the joins inside the group were there before);
- a deal puts one card on each column, so it makes at most as many joins as it deals cards other
  than Kings (a King lies on nothing one rank higher);
- a flip, or a run leaving, makes none.

So the moves and deals of a win make at least ``12 * runs wanted - joins now`` joins. A win also
needs every card it removes to have been dealt: at least the deals that bring the cards in play
to ``13 * runs wanted``; and every deal costs one move (the engine counts a deal as a move).

A second count, when a win must remove every card (the cards left are exactly the runs wanted):
every face-down card must be turned, and a card is turned only when what lay on it has left, by
a move from its column (one card turned a move) or with a run (one card turned a run); so at
least ``face-down cards - runs wanted`` moves, plus the deals.

Each count is a bound; the larger of the two is the bound.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from spidercli.game.cards import KING
from spidercli.solver.search import Position, Problem


def joins(col: bytes) -> int:
    """The joins in a column: cards (face-down or up) lying on the card one rank higher of
    their suit."""
    return sum(1 for a, b in pairwise(col) if b == a - 1)


def lower_bound(problem: Problem, node: Position | None = None) -> int:
    """The fewest moves (deals counted) any win from ``node`` (the problem's start by default)
    can take; 0 for a won position. Admissible by the argument in this module's docstring."""
    node = problem.start if node is None else node
    wanted = problem.runs_to_win - node.runs
    if wanted <= 0:
        return 0
    chunks: Sequence[bytes] = problem.chunks[node.dealt :]
    in_play = sum(len(c) for c in node.cols)
    need_cards = 13 * wanted
    # The fewest deals after which enough cards are in play (all of them when none suffices:
    # there is then no win, and any bound holds).
    first = len(chunks)
    total = in_play
    for d in range(len(chunks) + 1):
        if total >= need_cards:
            first = d
            break
        if d < len(chunks):
            total += len(chunks[d])
    need_joins = max(0, 12 * wanted - sum(joins(c) for c in node.cols))
    # Moves and deals: d deals (d >= first) make at most their non-King cards in joins, the
    # moves the rest, one a move.
    best: int | None = None
    dealt_joins = 0
    for d in range(len(chunks) + 1):
        if d >= first:
            moves = d + max(0, need_joins - dealt_joins)
            best = moves if best is None else min(best, moves)
        if d < len(chunks):
            dealt_joins += sum(1 for card in chunks[d] if card & 15 != KING)
    assert best is not None
    if in_play + sum(len(c) for c in chunks) == need_cards:  # every card must leave
        turned = max(0, sum(node.down) - wanted)
        best = max(best, turned + len(chunks))
    return best


__all__ = ["joins", "lower_bound"]
