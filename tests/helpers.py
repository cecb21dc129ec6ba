"""Building positions by hand for the rule tests."""

from __future__ import annotations

from spidercli.cards import parse_card
from spidercli.engine import Game
from spidercli.rules import CLASSIC, SPIDER, SPIDERETTE, GameKind, Ruleset


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def position(
    *columns: str,
    stock: str = "",
    rules: Ruleset = CLASSIC,
    game: GameKind = SPIDER,
    suits: int = 4,
    permissive: bool = False,
) -> Game:
    """Columns as ``"down cards | up cards"`` (bottom to top); missing columns hold one ``KC``.

    ``"| 9H 8H"`` is a column of two face-up cards, ``""`` an empty column, ``"5S 3H |"`` a column
    of two face-down cards. The stock is padded with ``AC`` to the game's full size.
    """
    specs = list(columns) + ["| KC"] * (game.columns - len(columns))
    cols: list[list[int]] = []
    down: list[int] = []
    for spec in specs:
        if "|" in spec:
            d, u = spec.split("|")
        else:
            d, u = "", spec
        cols.append(cards(d) + cards(u))
        down.append(len(cards(d)))
    deck = cards(stock)
    full = game.cards - sum(game.column_sizes)
    deck += cards("AC") * (full - len(deck))
    return Game(game, rules, cols, deck, suits=suits, permissive=permissive, down=down)


__all__ = ["CLASSIC", "SPIDER", "SPIDERETTE", "cards", "position"]
