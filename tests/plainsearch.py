"""A plain search for the tests: breadth-first over every legal action the rules engine allows,
no pruning, no equivalence but equal positions, none of the solver's code.

It checks the solver's proofs (``spidercli/solver/proof.py``) and its lower bound
(``spidercli/solver/bounds.py``) independently: the moves are the engine's (``Game.legal_moves``,
every count, every target; the deal when ``check_deal`` allows it), applied by the engine, and a
position is its cards, face-down counts, deals done and runs removed. Breadth-first, so the first
win met is a shortest one.

Small games are made with their own ``GameKind`` (a few columns, one or two runs), which the
engine plays like any other: ``small_game``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from spidercli.game.engine import Game
from spidercli.game.rules import CLASSIC, GameKind

Key = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int, tuple[int, ...]]


@dataclass(frozen=True)
class Plain:
    """The plain search's answer: ``shortest`` is the fewest moves (deals counted) of a win,
    None when the whole space holds none; ``positions`` the positions met."""

    shortest: int | None
    positions: int


def dealt_out(
    rng: random.Random, cards: list[int], ncols: int
) -> tuple[list[list[int]], list[int], list[int]]:
    """``cards`` laid out at random: a stock of one card a column (two times in five), the rest
    cut into ``ncols`` columns of at least one card, each with some of its cards face down."""
    stock: list[int] = []
    if rng.random() < 0.4:
        stock, cards = cards[:ncols], cards[ncols:]
    cuts = sorted(rng.sample(range(1, len(cards)), ncols - 1))
    columns = [cards[a:b] for a, b in zip([0, *cuts], [*cuts, len(cards)], strict=True)]
    down = [rng.randint(0, len(c) - 1) for c in columns]
    return columns, down, stock


def small_game(
    columns: Sequence[Sequence[int]],
    down: Sequence[int],
    stock: Sequence[int] = (),
    *,
    suits: int = 1,
    permissive: bool = False,
    runs: int | None = None,
) -> Game:
    """A game of ``len(columns)`` columns whose stock deals one card a column, with the runs to
    win its cards make (13 a run): the columns bottom to top, ``down`` their face-down counts.
    ``runs``: the runs to win, when fewer than the cards make (cards left over stay)."""
    ncols = len(columns)
    if len(stock) % ncols:
        raise ValueError("the stock deals one card a column")
    total = sum(len(c) for c in columns) + len(stock)
    kind = GameKind(
        name="small",
        title="Small",
        prefix="SM",
        cards=13 * runs if runs is not None else total,
        column_sizes=tuple(len(c) for c in columns),
        deal_sizes=(ncols,) * (len(stock) // ncols),
    )
    return Game(kind, CLASSIC, columns, stock, suits=suits, permissive=permissive, down=down)


def _key(game: Game) -> Key:
    return (
        tuple(tuple(c) for c in game.cols),
        tuple(game.down),
        game.deals_done,
        tuple(game.removed),
    )


def _children(game: Game) -> list[Game]:
    """Each position one legal action away (automatic flips and run removals included)."""
    out = []
    actions: list[tuple[int, int, int] | None] = list(game.legal_moves())
    if game.check_deal() is None:
        actions.append(None)
    for action in actions:
        child = _copy(game)
        if action is None:
            child.deal()
        else:
            child.move(*action)
        out.append(child)
    return out


def _copy(game: Game) -> Game:
    """A game in ``game``'s position (its history left behind)."""
    copy = Game(
        game.kind,
        game.rules,
        game.cols,
        game.stock,
        suits=game.suits,
        permissive=game.permissive,
        down=game.down,
    )
    copy.deals_done = game.deals_done
    copy.removed = list(game.removed)
    copy.over = game.over
    return copy


def plain_search(game: Game, limit: int = 200_000) -> Plain | None:
    """A shortest win from ``game``'s position by breadth-first search over every legal action;
    None when the space holds more than ``limit`` positions (nothing is known then)."""
    start = _copy(game)
    if start.over == "won":
        return Plain(0, 1)
    seen = {_key(start)}
    level = [start]
    depth = 0
    while level:
        depth += 1
        nxt = []
        for node in level:
            for child in _children(node):
                if child.over == "won":
                    return Plain(depth, len(seen))
                key = _key(child)
                if key in seen:
                    continue
                seen.add(key)
                if len(seen) > limit:
                    return None
                nxt.append(child)
        level = nxt
    return Plain(None, len(seen))
