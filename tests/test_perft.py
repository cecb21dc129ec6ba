"""Perft: counts of legal action sequences from fixed deals, pinned as a regression check, and
recounted the slow way (every conceivable action offered to ``Game.play``) to the same numbers."""

from __future__ import annotations

import pytest

from spidercli.game.actions import DEAL, UNDO, Action, Flip, Move
from spidercli.game.codes import parse_code
from spidercli.game.engine import Game, perft
from spidercli.game.rules import CLASSIC, DUEL, RULESETS

PINNED = {
    ("SP1-S1C-AAAAAAD", "classic"): [5, 30, 193, 1273],
    ("SP4-S1P-AAAAAAA", "classic"): [8, 57, 398, 2812],
    ("SD2-S1-AAAAABD", "classic"): [2, 8, 43, 205],
    ("SP2-S1C-AAAAABD", "duel"): [8, 122, 2118, 42518],
}


def slow_perft(game: Game, depth: int) -> int:
    """Offer every move S>T:K, the deal and every flip to the public API; count what it takes."""
    if depth == 0:
        return 1
    n = game.kind.columns
    candidates: list[Action] = [
        Move(s, t, k) for s in range(1, n + 1) for t in range(1, n + 1) for k in range(1, 14)
    ]
    candidates.append(DEAL)
    candidates.extend(Flip(c) for c in range(1, n + 1))
    total = 0
    for action in candidates:
        if game.play(action) is None:
            total += slow_perft(game, depth - 1)
            game.undo()
    return total


@pytest.mark.parametrize(("code", "rules"), sorted(PINNED))
def test_perft_pinned(code: str, rules: str) -> None:
    game = Game.from_code(parse_code(code), RULESETS[rules])
    start = game.key()
    assert [perft(game, d) for d in range(1, 5)] == PINNED[(code, rules)]
    assert game.key() == start


@pytest.mark.parametrize(("code", "rules"), sorted(PINNED))
def test_perft_agrees_with_the_validator(code: str, rules: str) -> None:
    game = Game.from_code(parse_code(code), RULESETS[rules])
    assert slow_perft(game, 3) == PINNED[(code, rules)][2]


def test_perft_counts_flips_in_duel() -> None:
    game = Game.from_code(parse_code("SP1-S1C-AAAAAAD"), DUEL)
    game.apply(Move(5, 1, 1))  # exposes a face-down card, which duel does not flip
    assert Flip(5) in game.legal_actions()
    assert perft(game, 1) == len(game.legal_actions())
    classic = Game.from_code(parse_code("SP1-S1C-AAAAAAD"), CLASSIC)
    classic.apply(Move(5, 1, 1))
    assert not any(isinstance(a, Flip) for a in classic.legal_actions())
    assert UNDO not in classic.legal_actions()
