"""``Game.play`` checks and applies ``S>T[:K]`` in one place (``_plainly_legal``): for every move
from random positions under every ruleset, the result and the position after it are those of the
general path (``check_move`` then ``move``)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spidercli.game.actions import Move
from spidercli.game.engine import Game, Refusal
from spidercli.game.rules import RULESETS
from tests.helpers import CODES, new_game


def general(game: Game, move: Move) -> Refusal | None:
    """What ``play`` did before the fused path: ``check_move``, then ``move``."""
    checked = game.check_move(move.source - 1, move.target - 1, move.count)
    if isinstance(checked, Refusal):
        return checked
    game.move(move.source - 1, move.target - 1, checked)
    if game.undoable < game.rules.undo_depth:
        game.undoable += 1
    return None


def attempt(game: Game, move: Move, way: str) -> tuple[object, ...]:
    """Play ``move`` one way, note the outcome and position, and take it back."""
    before, undoable = game.key(), game.undoable
    result = game.play(move) if way == "fused" else general(game, move)
    after = (result, game.key(), game.undoable, game.history[-1] if game.history else None)
    if result is None:
        game.undo()
        game.undoable = undoable
    assert game.key() == before
    return after


@pytest.mark.slow  # a long property run: make test-slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    CODES,
    st.sampled_from(sorted(RULESETS)),
    st.lists(st.integers(0, 10**6), min_size=1, max_size=20),
    st.tuples(st.integers(-1, 12), st.integers(-1, 12), st.integers(-1, 15)),
)
def test_play_of_a_move_is_check_move_then_move(
    code_text: str, rules_name: str, choices: list[int], odd: tuple[int, int, int]
) -> None:
    game = new_game(code_text, rules_name)
    n = game.kind.columns
    for choice in choices:
        # every move of the position, every count, and one drawn anywhere (off the board too)
        moves = [
            Move(a, b, c)
            for a in range(1, n + 1)
            for b in range(1, n + 1)
            for c in (None, *range(14))
        ]
        moves.append(Move(*odd))
        for move in moves:
            assert attempt(game, move, "fused") == attempt(game, move, "general"), move
        actions = game.legal_actions()
        if not actions or game.over:
            break
        game.play(actions[choice % len(actions)])


def test_the_fused_path_is_taken_and_refuses_nothing_by_itself() -> None:
    """``_plainly_legal`` gives K for a legal S>T:K and S>T (else the test above compares the
    general path with itself) and 0 for each kind of refused one."""
    game = new_game("SP1-S1C-AAAAABD", "classic")
    legal = game.legal_moves()
    assert legal
    s, t, k = legal[0]
    assert game._plainly_legal(Move(s + 1, t + 1, k)) == k
    inferred = game.check_move(s, t, None)
    assert isinstance(inferred, int)
    assert game._plainly_legal(Move(s + 1, t + 1, None)) == inferred
    for bad in (
        Move(s + 1, s + 1, k),
        Move(0, t + 1, k),
        Move(s + 1, t + 1, 0),
        Move(s + 1, 99, k),
    ):
        assert game._plainly_legal(bad) == 0
