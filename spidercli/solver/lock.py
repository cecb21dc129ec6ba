"""Locks: a short argument, checked without searching, that no run can ever be removed.

Every win removes runs, and every run removed, like every column emptied, is an **event**. A
card leaves its column only while it is face up, and until the first event two more things hold
in every position of any line of play:

- a King never leaves its column (it could move only to an empty column, or go with a run);
- a card of rank ``r`` leaves its column only while some card of rank ``r + 1`` is face up: the
  one it moves onto, or, when it is carried by a group it is not the bottom of, the card under it
  in the group (a group is a sequence one rank down each card, under either move rule).

And a face-down card is turned up only after every card above it in its column has left that
column at least once: the cards above it at the start, and those each deal put there while it was
face down.

``lock`` works out, deal by deal (before the first deal, after the first, and so on), which
cards could be face up and which could have left their column, by a least fixpoint of those
necessary conditions: a card counts as face up (or as having left) in a stage only when what it
needs is already counted in that stage or an earlier one. Each position of every line of play
before the first event is covered by it (by induction over the line: each action's card needs
what was true before it). If in no stage could some column have every card it ever held leave,
and no suit have a face-up card of each of its 13 ranks, the first event can never come: no run is
ever removed, and the position cannot be won, whatever is played. Nothing is searched, so a
locked position is proven unwinnable in a handful of milliseconds; most positions are not locked,
and then ``lock`` says nothing (None) and the proof search decides.

It speaks of the classic rules' moves, as the proof search does (``lines.proves_under``
says under which rules that proves anything), and a group is a sequence one rank down each card
under either move rule (``game.groups.movable_length``). docs/solver.md, "Locks", has the
argument and an example: PySol's 4-suit deal 14934, where all eight 3s start face down, each
under a King, under a 2 (which needs a 3 face up to move) or under a 6 that no 7 frees before a
deal puts a King on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from spidercli.solver.search import Problem

_NEVER = 1 << 30  # a stage no line of play reaches
_EVERY_RANK = 0b11111111111110  # bits 1 (Ace) to 13 (King)


@dataclass(frozen=True)
class Lock:
    """Why a position is locked: ``hidden``, the face-down cards that can never be turned up
    (``(column, index)``, 0-based, the index counted from the bottom of the column), and
    ``ranks``, the ranks of which no card can ever be face up."""

    hidden: tuple[tuple[int, int], ...]
    ranks: tuple[int, ...]


def lock(problem: Problem) -> Lock | None:
    """The proof that no run can ever be removed from ``problem``'s position (so that it cannot
    be won), or None when the argument above does not show it (which proves nothing). A position
    with an empty column, or already won, is never locked: the argument starts before an
    event."""
    start = problem.start
    if start.runs >= problem.runs_to_win or not all(start.cols):
        return None
    ncols = len(start.cols)
    deals = len(problem.chunks)
    # Every card as an index into ``rank``, ``up`` (the first stage it could be face up in) and
    # ``gone`` (the first stage it could have left its column in): the columns' cards, bottom to
    # top, then each deal's, column by column.
    rank: list[int] = []
    suit: list[int] = []
    up: list[int] = []
    column_cards: list[list[int]] = []
    for col, down in zip(start.cols, start.down, strict=True):
        column_cards.append(list(range(len(rank), len(rank) + len(col))))
        for i, card in enumerate(col):
            rank.append(card & 15)
            suit.append(card >> 4)
            up.append(0 if i >= down else _NEVER)
    dealt_to: list[list[tuple[int, int]]] = [[] for _ in range(ncols)]  # (its stage, card)
    for j, chunk in enumerate(problem.chunks):
        for c, card in enumerate(chunk):
            dealt_to[c].append((j + 1, len(rank)))
            rank.append(card & 15)
            suit.append(card >> 4)
            up.append(j + 1)
    gone = [_NEVER] * len(rank)
    everyone = range(len(rank))
    for stage in range(deals + 1):
        changed = True
        while changed:
            changed = False
            ranks_up = 0
            for x in everyone:
                if up[x] <= stage:
                    ranks_up |= 1 << rank[x]
            for x in everyone:
                if gone[x] > stage and up[x] <= stage and ranks_up >> (rank[x] + 1) & 1:
                    gone[x] = stage  # a King's rank + 1 is no rank: it never leaves
                    changed = True
            for c in range(ncols):
                if any(gone[x] > stage for s, x in dealt_to[c] if s <= stage):
                    continue  # a card dealt on it is still there: nothing below turns up
                for x in reversed(column_cards[c]):  # top down, while the cards above left
                    if up[x] > stage:
                        up[x] = stage
                        changed = True
                    if gone[x] > stage:
                        break
        for c in range(ncols):
            cards = column_cards[c] + [x for s, x in dealt_to[c] if s <= stage]
            if all(gone[x] <= stage for x in cards):
                return None  # column c could be emptied in this stage
        ranks_of_suit: dict[int, int] = {}
        for x in everyone:
            if up[x] <= stage:
                ranks_of_suit[suit[x]] = ranks_of_suit.get(suit[x], 0) | 1 << rank[x]
        if _EVERY_RANK in ranks_of_suit.values():
            return None  # a run of some suit could be put together in this stage
    hidden = tuple(
        (c, i)
        for c, cards in enumerate(column_cards)
        for i, x in enumerate(cards)
        if up[x] == _NEVER
    )
    seen = 0
    for x in everyone:
        if up[x] != _NEVER:
            seen |= 1 << rank[x]
    return Lock(hidden, tuple(r for r in range(1, 14) if not seen >> r & 1))
