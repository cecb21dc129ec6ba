"""Property tests: cards are never created or lost, undo is an exact inverse, and the legal-move
generator agrees with the validator (every generated move is accepted, every other refused)."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spidercli.game.actions import DEAL, UNDO, Flip
from spidercli.game.codes import ordered_deck, parse_code
from spidercli.game.engine import Game
from spidercli.game.rules import CLASSIC, DUEL, PAVOUK, RULESETS
from tests.helpers import CODES, new_game

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(CODES, st.sampled_from(sorted(RULESETS)), st.lists(st.integers(0, 10**6), max_size=120))
def test_cards_conserved_and_undo_is_an_exact_inverse(
    code_text: str, rules_name: str, choices: list[int]
) -> None:
    game = new_game(code_text, rules_name)
    deck = Counter(ordered_deck(game.kind, game.suits))
    assert Counter(game.all_cards()) == deck
    for choice in choices:
        actions = game.legal_actions()
        if not actions:
            break
        action = actions[choice % len(actions)]
        before = game.key()
        moves_before = game.moves
        assert game.play(action) is None, action
        assert Counter(game.all_cards()) == deck
        assert game.moves == moves_before + (not isinstance(action, Flip))
        if game.check_undo() is None:
            after = game.key()
            assert game.play(UNDO) is None
            assert game.key() == before
            assert game.play(action) is None  # and the same action again gives the same position
            assert game.key() == after
        if game.over:
            break


@SETTINGS
@given(CODES, st.lists(st.integers(0, 10**6), max_size=60))
def test_generator_agrees_with_the_validator(code_text: str, choices: list[int]) -> None:
    game = new_game(code_text, "classic")
    n = game.kind.columns
    for choice in choices:
        legal = set(game.legal_moves())
        for s in range(n):
            for t in range(n):
                for k in range(1, 14):
                    refusal = game.check_move(s, t, k)
                    assert (not isinstance(refusal, int) or refusal != k) == (
                        (s, t, k) not in legal
                    ), (s, t, k, refusal)
        assert game.has_legal_action() == bool(game.legal_actions())
        actions = game.legal_actions()
        if not actions:
            break
        assert game.play(actions[choice % len(actions)]) is None
        if game.over:
            break


@settings(max_examples=30, deadline=None)
@given(CODES, st.lists(st.integers(0, 10**6), min_size=1, max_size=80))
def test_internal_undo_unwinds_a_whole_game(code_text: str, choices: list[int]) -> None:
    """Past any undo depth, the engine's own history still unwinds to the start exactly."""
    for rules in (CLASSIC, DUEL, PAVOUK):
        code = parse_code(code_text)
        if code.game.name not in rules.games or code.suits not in rules.suits:
            continue
        game = Game.from_code(code, rules)
        start = game.key()
        for choice in choices:
            actions = game.legal_actions()
            if not actions or game.over:
                break
            game.apply(actions[choice % len(actions)])
        while game.history:
            game.undo()
        game.over = None
        assert game.key() == start


def test_deal_then_undo_restores_the_stock() -> None:
    game = new_game("SP2-S1C-AAAAABD", "classic")
    before = (game.key(), list(game.stock_left))
    assert game.play(DEAL) is None
    assert game.play(UNDO) is None
    assert (game.key(), list(game.stock_left)) == before
